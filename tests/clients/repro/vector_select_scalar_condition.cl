// New cause, behind the block-order one (pyopencl.clrandom.RanluxGenerator; seen with the front
// end's layout repair applied): a vector OpSelect with a scalar condition.
//
// clang-15 -O2 keeps "c ? v * 2 : v + 1" with a scalar c and float4 values as
//   select i1 %c, <4 x float> %x, <4 x float> %y
// and llvm-spirv-15 writes it as OpSelect %v4float %bool_scalar ..., which SPIR-V allows only from
// version 1.4; cl2vk asks llvm-spirv for SPIR-V 1.2 (--spirv-max-version=1.2), so the input check
// refuses it:
//   the input is not valid SPIR-V: SPIRV-Tools validation (spv1.0) failed: Expected vector sizes
//   of Result Type and the condition to be equal: Select
//     %33 = OpSelect %v4float %26 %32 %29
// A fix, before input validation with the other repairs of llvm-spirv's output: splat the scalar
// condition into a bool vector (OpCompositeConstruct %v4bool %c %c %c %c) and select with that;
// Vulkan's SPIR-V needs the vector condition too below version 1.4.
// Reproduce: clang-15 -cl-std=CL1.2 -target spir64 -O2 -c -emit-llvm vector_select_scalar_condition.cl
//   -o v.bc && llvm-spirv-15 --spirv-max-version=1.2 v.bc -o v.spv && spirv-val v.spv
__kernel void pick(__global float4 *out, __global const float4 *a, __global const int *which) {
  size_t i = get_global_id(0);
  float4 v = a[i];
  out[i] = which[i] ? v * 2.0f : v + 1.0f;
}
