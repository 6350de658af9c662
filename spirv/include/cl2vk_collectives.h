// Declarations of the OpenCL C collectives that clang-15's opencl-c.h lacks.
//
// cl_khr_work_group_uniform_arithmetic adds work_group_{reduce,scan_inclusive,scan_exclusive}_ with
// mul, and, or, xor, logical_and, logical_or and logical_xor. cl2vk also provides the sub_group_
// forms of the same operators (the uniform counterparts of cl_khr_subgroup_non_uniform_arithmetic).
// Declared overloadable, each call compiles to an imported function with a mangled name
// (_Z21work_group_reduce_andi) that cl2vk resolves into the SPIR-V instruction it stands for;
// llvm-spirv already maps the mul forms to OpGroupIMulKHR / OpGroupFMulKHR itself.
#ifndef CL2VK_COLLECTIVES_H
#define CL2VK_COLLECTIVES_H

#ifndef cl_khr_work_group_uniform_arithmetic
#define cl_khr_work_group_uniform_arithmetic 1
#endif

#define CL2VK_OVERLOAD __attribute__((overloadable, const))

#define CL2VK_DECLARE_REDUCE_AND_SCANS(scope, op, T)     \
  T CL2VK_OVERLOAD scope##_reduce_##op(T value);         \
  T CL2VK_OVERLOAD scope##_scan_inclusive_##op(T value); \
  T CL2VK_OVERLOAD scope##_scan_exclusive_##op(T value);

#define CL2VK_DECLARE_INTEGER_OPS(scope, op)      \
  CL2VK_DECLARE_REDUCE_AND_SCANS(scope, op, int)  \
  CL2VK_DECLARE_REDUCE_AND_SCANS(scope, op, uint) \
  CL2VK_DECLARE_REDUCE_AND_SCANS(scope, op, long) \
  CL2VK_DECLARE_REDUCE_AND_SCANS(scope, op, ulong)

#define CL2VK_DECLARE_SCOPE(scope)                        \
  CL2VK_DECLARE_INTEGER_OPS(scope, mul)                   \
  CL2VK_DECLARE_REDUCE_AND_SCANS(scope, mul, float)       \
  CL2VK_DECLARE_INTEGER_OPS(scope, and)                   \
  CL2VK_DECLARE_INTEGER_OPS(scope, or)                    \
  CL2VK_DECLARE_INTEGER_OPS(scope, xor)                   \
  CL2VK_DECLARE_REDUCE_AND_SCANS(scope, logical_and, int) \
  CL2VK_DECLARE_REDUCE_AND_SCANS(scope, logical_or, int)  \
  CL2VK_DECLARE_REDUCE_AND_SCANS(scope, logical_xor, int)

CL2VK_DECLARE_SCOPE(work_group)
CL2VK_DECLARE_SCOPE(sub_group)

#ifdef cl_khr_fp16
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
CL2VK_DECLARE_REDUCE_AND_SCANS(work_group, mul, half)
CL2VK_DECLARE_REDUCE_AND_SCANS(sub_group, mul, half)
#endif

#if defined(cl_khr_fp64) || defined(__opencl_c_fp64)
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
CL2VK_DECLARE_REDUCE_AND_SCANS(work_group, mul, double)
CL2VK_DECLARE_REDUCE_AND_SCANS(sub_group, mul, double)
#endif

#undef CL2VK_DECLARE_SCOPE
#undef CL2VK_DECLARE_INTEGER_OPS
#undef CL2VK_DECLARE_REDUCE_AND_SCANS
#undef CL2VK_OVERLOAD

#endif  // CL2VK_COLLECTIVES_H
