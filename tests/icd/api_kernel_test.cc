// Kernels through the OpenCL API: every kind of argument, the kernel, argument, work-group and
// sub-group queries, and a required work-group size.

#include <algorithm>
#include <cstring>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

constexpr const char* kKernels = R"(
typedef struct { int a; float b; long c; } Params;

kernel void every_argument_kind(global long* out, constant int* table, local int* scratch, int i, float f, long l,
                                Params p) {
  size_t gid = get_global_id(0), lid = get_local_id(0), n = get_local_size(0);
  scratch[lid] = table[gid % 4] + i;
  barrier(CLK_LOCAL_MEM_FENCE);
  long neighbour = scratch[(lid + 1) % n];
  out[gid] = neighbour * 1000 + (long)(f * 4.0f) + l + p.a + (long)(p.b * 2.0f) + p.c;
}

__attribute__((reqd_work_group_size(8, 4, 1)))
kernel void fixed_size(global int* out) {
  out[get_global_id(1) * get_global_size(0) + get_global_id(0)] = (int)(get_local_size(0) * 100 + get_local_size(1));
}
)";

// A kernel whose buffer argument may be NULL (a program of its own, so that the other tests do not
// depend on how NULL pointers translate).
constexpr const char* kNullable = R"(
kernel void nullable(global int* out, global int* maybe_null) {
  size_t gid = get_global_id(0);
  out[gid] = maybe_null ? 1 : 2;
  if (maybe_null) maybe_null[gid] = (int)gid + 1;
}
)";

// The host side of `Params`: the same layout as OpenCL C gives it (int, float, then long at 8).
struct Params {
  cl_int a;
  cl_float b;
  cl_long c;
};
static_assert(sizeof(Params) == 16);

class IcdKernel : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    if (HasFatalFailure()) return;
    program_ = buildSource(kKernels, "-cl-std=CL2.0 -cl-kernel-arg-info");
    ASSERT_TRUE(program_.get());
  }

  // What every_argument_kind writes for work-item `gid` in work-groups of `local`.
  static cl_long expectedArgumentKinds(size_t gid, size_t local, const std::vector<cl_int>& table, cl_int i, cl_float f,
                                       cl_long l, const Params& p) {
    size_t neighbour = gid / local * local + (gid % local + 1) % local;
    cl_long fromLocal = table[neighbour % 4] + i;
    return fromLocal * 1000 + static_cast<cl_long>(f * 4.0f) + l + p.a + static_cast<cl_long>(p.b * 2.0f) + p.c;
  }

  Program program_;
};

// CL_DEVICE_MAX_PARAMETER_SIZE bytes of arguments: a buffer and as many longs as fit, more than
// SPIR-V's universal limit of 255 function parameters (the input's validation raises it).
TEST_F(IcdKernel, AsManyArgumentsAsTheParameterSizeHolds) {
  const size_t size = deviceInfo<size_t>(device_, CL_DEVICE_MAX_PARAMETER_SIZE);
  const size_t count = (size - sizeof(cl_mem)) / sizeof(cl_long);
  ASSERT_GT(count, 255u);
  std::string source = "kernel void many(global long* out";
  for (size_t i = 0; i < count; ++i) source += ", long a" + std::to_string(i);
  source += ") {\n  long sum = 0;\n";
  for (size_t i = 0; i < count; ++i) source += "  sum = sum * 3 + a" + std::to_string(i) + ";\n";
  source += "  out[0] = sum;\n}\n";
  Program program = buildSource(source.c_str());
  ASSERT_TRUE(program);
  Kernel kernel = createKernel(program, "many");
  ASSERT_TRUE(kernel);
  Buffer out = bufferOf(std::vector<cl_long>(1, 0));
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address()));
  uint64_t expected = 0;
  for (size_t i = 0; i < count; ++i) {
    cl_long value = static_cast<cl_long>(i * 7919 + 1);
    ASSERT_CL_SUCCESS(clSetKernelArg(kernel, static_cast<cl_uint>(i + 1), sizeof(value), &value));
    expected = expected * 3 + static_cast<uint64_t>(value);
  }
  run1d(kernel, 1);
  EXPECT_EQ(static_cast<uint64_t>(read<cl_long>(out, 1)[0]), expected);
}

TEST_F(IcdKernel, EveryArgumentKindReachesTheKernel) {
  Kernel kernel = createKernel(program_, "every_argument_kind");
  ASSERT_TRUE(kernel.get());
  const size_t n = 64, local = 16;
  const std::vector<cl_int> table = {10, 20, 30, 40};
  const cl_int i = 3;
  const cl_float f = 2.25f;
  const cl_long l = cl_long{1} << 40;
  const Params p{-5, 1.5f, 7};
  Buffer out = createBuffer(n * sizeof(cl_long));
  Buffer constants = bufferOf(table, CL_MEM_READ_ONLY);
  setArgs(kernel, out, constants);
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 2, local * sizeof(cl_int), nullptr));  // __local: a size, no value
  setArg(kernel, 3, i);
  setArg(kernel, 4, f);
  setArg(kernel, 5, l);
  setArg(kernel, 6, p);
  run1d(kernel, n, local);
  std::vector<cl_long> result = read<cl_long>(out, n);
  for (size_t gid = 0; gid < n; ++gid)
    ASSERT_EQ(result[gid], expectedArgumentKinds(gid, local, table, i, f, l, p)) << gid;
}

// A buffer argument may be NULL, given as a null arg_value or as a pointer to a null cl_mem.
TEST_F(IcdKernel, NullBufferArgumentsAreAllowed) {
  Program program = buildSource(kNullable);
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "nullable");
  const size_t n = 100;
  Buffer out = createBuffer(n * sizeof(cl_int)), given = bufferOf(std::vector<cl_int>(n, 0));
  setArgs(kernel, out, given);
  run1d(kernel, n);
  EXPECT_EQ(read<cl_int>(out, n), std::vector<cl_int>(n, 1));
  std::vector<cl_int> flagged = read<cl_int>(given, n);
  for (size_t gid = 0; gid < n; ++gid) ASSERT_EQ(flagged[gid], static_cast<cl_int>(gid) + 1) << gid;
  const cl_mem nullBuffer = nullptr;
  for (const void* nullArgument : {static_cast<const void*>(nullptr), static_cast<const void*>(&nullBuffer)}) {
    ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof(cl_mem), nullArgument));
    Buffer fresh = bufferOf(std::vector<cl_int>(n, -1));
    setArg(kernel, 0, fresh);
    run1d(kernel, n);
    EXPECT_EQ(read<cl_int>(fresh, n), std::vector<cl_int>(n, 2))
        << (nullArgument ? "a pointer to a null cl_mem" : "a null arg_value");
  }
}

TEST_F(IcdKernel, InfoNamesTheFunctionAndCountsArguments) {
  Kernel kernel = createKernel(program_, "every_argument_kind");
  ASSERT_TRUE(kernel.get());
  size_t size = 0;
  ASSERT_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, 0, nullptr, &size));
  std::string name(size, '\0');
  ASSERT_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, size, name.data(), nullptr));
  EXPECT_STREQ(name.c_str(), "every_argument_kind");
  EXPECT_EQ(size, name.find('\0') + 1);
  cl_uint arguments = 0;
  EXPECT_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof(arguments), &arguments, nullptr));
  EXPECT_EQ(arguments, 7u);
  cl_program program = nullptr;
  EXPECT_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_PROGRAM, sizeof(program), &program, nullptr));
  EXPECT_EQ(program, program_.get());
  cl_context context = nullptr;
  EXPECT_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_CONTEXT, sizeof(context), &context, nullptr));
  EXPECT_EQ(context, context_.get());
  cl_uint references = 0;
  EXPECT_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 1u);
  EXPECT_CL_SUCCESS(clRetainKernel(kernel));
  EXPECT_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 2u);
  EXPECT_CL_SUCCESS(clReleaseKernel(kernel));
  char tooSmall[4];
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetKernelInfo(kernel, CL_KERNEL_FUNCTION_NAME, sizeof(tooSmall), tooSmall, nullptr));
}

TEST_F(IcdKernel, ArgumentInfoWithKernelArgInfo) {
  Kernel kernel = createKernel(program_, "every_argument_kind");
  ASSERT_TRUE(kernel.get());
  struct Expected {
    const char* name;
    cl_kernel_arg_address_qualifier address;
    const char* type;  // null: not checked (the struct's type name)
  };
  const Expected kArguments[] = {
      {"out", CL_KERNEL_ARG_ADDRESS_GLOBAL, "long*"},   {"table", CL_KERNEL_ARG_ADDRESS_CONSTANT, "int*"},
      {"scratch", CL_KERNEL_ARG_ADDRESS_LOCAL, "int*"}, {"i", CL_KERNEL_ARG_ADDRESS_PRIVATE, "int"},
      {"f", CL_KERNEL_ARG_ADDRESS_PRIVATE, "float"},    {"l", CL_KERNEL_ARG_ADDRESS_PRIVATE, "long"},
      {"p", CL_KERNEL_ARG_ADDRESS_PRIVATE, nullptr},
  };
  for (cl_uint index = 0; index < std::size(kArguments); ++index) {
    const Expected& expected = kArguments[index];
    char text[256] = {};
    ASSERT_CL_SUCCESS(clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_NAME, sizeof(text), text, nullptr)) << index;
    EXPECT_STREQ(text, expected.name) << "argument " << index;
    cl_kernel_arg_address_qualifier address = 0;
    ASSERT_CL_SUCCESS(
        clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ADDRESS_QUALIFIER, sizeof(address), &address, nullptr));
    EXPECT_EQ(address, expected.address) << expected.name;
    cl_kernel_arg_access_qualifier access = 0;
    ASSERT_CL_SUCCESS(
        clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_ACCESS_QUALIFIER, sizeof(access), &access, nullptr));
    EXPECT_EQ(access, static_cast<cl_kernel_arg_access_qualifier>(CL_KERNEL_ARG_ACCESS_NONE)) << expected.name;
    if (expected.type) {
      std::memset(text, 0, sizeof(text));
      ASSERT_CL_SUCCESS(clGetKernelArgInfo(kernel, index, CL_KERNEL_ARG_TYPE_NAME, sizeof(text), text, nullptr));
      EXPECT_STREQ(text, expected.type) << expected.name;
    }
  }
  char name[64];
  EXPECT_CL_ERROR(CL_INVALID_ARG_INDEX, clGetKernelArgInfo(kernel, 7, CL_KERNEL_ARG_NAME, sizeof(name), name, nullptr));
}

TEST_F(IcdKernel, WorkGroupInfo) {
  Kernel kernel = createKernel(program_, "every_argument_kind");
  Kernel fixed = createKernel(program_, "fixed_size");
  ASSERT_TRUE(kernel.get() && fixed.get());
  size_t workGroupSize = 0, multiple = 0;
  ASSERT_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof(workGroupSize),
                                             &workGroupSize, nullptr));
  EXPECT_GT(workGroupSize, 0u);
  EXPECT_LE(workGroupSize, deviceInfo<size_t>(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  ASSERT_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_PREFERRED_WORK_GROUP_SIZE_MULTIPLE,
                                             sizeof(multiple), &multiple, nullptr));
  EXPECT_GT(multiple, 0u);
  size_t compiled[3] = {9, 9, 9};
  ASSERT_CL_SUCCESS(clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(compiled),
                                             compiled, nullptr));
  EXPECT_EQ(std::vector<size_t>(compiled, compiled + 3), (std::vector<size_t>{0, 0, 0}));
  ASSERT_CL_SUCCESS(
      clGetKernelWorkGroupInfo(fixed, device_, CL_KERNEL_COMPILE_WORK_GROUP_SIZE, sizeof(compiled), compiled, nullptr));
  EXPECT_EQ(std::vector<size_t>(compiled, compiled + 3), (std::vector<size_t>{8, 4, 1}));

  // The local memory the kernel uses includes its __local arguments' sizes.
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 2, 1024, nullptr));
  cl_ulong localMemory = 0;
  ASSERT_CL_SUCCESS(
      clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(localMemory), &localMemory, nullptr));
  EXPECT_GE(localMemory, 1024u);
  // CL_KERNEL_GLOBAL_WORK_SIZE is for custom devices and built-in kernels only.
  size_t global[3];
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_GLOBAL_WORK_SIZE,
                                                             sizeof(global), global, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_WORK_GROUP_SIZE, 1, global, nullptr));
}

// CL_KERNEL_LOCAL_MEM_SIZE counts the kernel's own __local arrays (the CTS's
// kernel_local_memory_size), its __local arguments, and the collectives' scratch.
TEST_F(IcdKernel, LocalMemorySizeCountsTheKernelsLocalArrays) {
  Program program = buildSource(R"(
    kernel void own(global int* out) {
      local int table[40];
      local float more[10];
      table[get_local_id(0)] = (int)get_local_id(0);
      more[get_local_id(0) % 10] = 1.0f;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = table[39 - get_local_id(0)] + (int)more[0];
    }
    kernel void with_argument(global int* out, local int* scratch) {
      local int table[16];
      table[get_local_id(0) % 16] = 1;
      scratch[get_local_id(0)] = 2;
      barrier(CLK_LOCAL_MEM_FENCE);
      out[get_global_id(0)] = table[0] + scratch[0] + work_group_reduce_add(1);
    }
  )",
                                "-cl-std=CL2.0");
  ASSERT_TRUE(program);
  Kernel own = createKernel(program, "own"), withArgument = createKernel(program, "with_argument");
  ASSERT_TRUE(own && withArgument);
  auto localMemory = [&](cl_kernel kernel) {
    cl_ulong bytes = 0;
    EXPECT_CL_SUCCESS(
        clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_LOCAL_MEM_SIZE, sizeof(bytes), &bytes, nullptr));
    return bytes;
  };
  EXPECT_GE(localMemory(own), 50 * sizeof(int));
  ASSERT_CL_SUCCESS(clSetKernelArg(withArgument, 1, 256, nullptr));
  EXPECT_GE(localMemory(withArgument), 256 + 16 * sizeof(int));
  // And the kernel runs: 40 work-items read what the others wrote.
  Buffer out = bufferOf(std::vector<int>(40, 0));
  setArgs(own, out);
  run1d(own, 40, 40);
  std::vector<int> values = read<int>(out, 40);
  for (int i = 0; i < 40; ++i) EXPECT_EQ(values[i], 39 - i + 1) << i;
}

// A __local pointer argument points at memory aligned for its element type, also where the kernel
// reads its address as an integer (the arguments then share one word-addressed array): char16 at
// a multiple of 16, long4 of 32 (the OpenCL-CTS's kernel_memory_alignment_local found them at
// multiples of 4). The arrays do not overlap, and each keeps what was stored in it.
TEST_F(IcdKernel, LocalArgumentsAreAlignedForTheirElementType) {
  Program program = buildSource(R"(
    kernel void addresses(global ulong* out, local char* a, local char16* b, local long4* c, local short3* d) {
      out[0] = (ulong)a;
      out[1] = (ulong)b;
      out[2] = (ulong)c;
      out[3] = (ulong)d;
      a[2] = 7;
      b[2] = (char16)(9);
      c[1] = (long4)(-5);
      d[4] = (short3)(3);
      barrier(CLK_LOCAL_MEM_FENCE);
      out[4] = (ulong)(a[2] + b[2].s5 + c[1].w + d[4].z);
    }
  )");
  ASSERT_TRUE(program);
  Kernel kernel = createKernel(program, "addresses");
  ASSERT_TRUE(kernel);
  Buffer out = bufferOf(std::vector<cl_ulong>(5, 1));
  setArg(kernel, 0, out);
  const size_t sizes[] = {3, 3 * 16, 2 * 32, 5 * 8}, alignments[] = {1, 16, 32, 8};
  for (cl_uint i = 0; i < 4; ++i) ASSERT_CL_SUCCESS(clSetKernelArg(kernel, i + 1, sizes[i], nullptr));
  run1d(kernel, 1, 1);
  std::vector<cl_ulong> values = read<cl_ulong>(out, 5);
  for (size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(values[i] % alignments[i], 0u) << "argument " << i + 1 << " at " << values[i];
    for (size_t j = 0; j < i; ++j) {
      EXPECT_TRUE(values[i] + sizes[i] <= values[j] || values[j] + sizes[j] <= values[i])
          << "arguments " << j + 1 << " and " << i + 1 << " overlap";
    }
  }
  EXPECT_EQ(values[4], cl_ulong{7 + 9 - 5 + 3});
}

TEST_F(IcdKernel, RequiredWorkGroupSizeIsUsedAndEnforced) {
  Kernel fixed = createKernel(program_, "fixed_size");
  ASSERT_TRUE(fixed.get());
  const size_t global[2] = {16, 8}, matching[2] = {8, 4}, transposed[2] = {4, 8};
  Buffer out = createBuffer(16 * 8 * sizeof(cl_int));
  setArgs(fixed, out);
  const cl_int unwritten = -1;
  for (const size_t* local : {matching, static_cast<const size_t*>(nullptr)}) {
    ASSERT_CL_SUCCESS(clEnqueueFillBuffer(queue_, out, &unwritten, sizeof(unwritten), 0, 16 * 8 * sizeof(cl_int), 0,
                                          nullptr, nullptr));
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, fixed, 2, nullptr, global, local, 0, nullptr, nullptr))
        << (local ? "local 8x4" : "local NULL");
    EXPECT_EQ(read<cl_int>(out, 16 * 8), std::vector<cl_int>(16 * 8, 804)) << (local ? "local 8x4" : "local NULL");
  }
  EXPECT_CL_ERROR(CL_INVALID_WORK_GROUP_SIZE,
                  clEnqueueNDRangeKernel(queue_, fixed, 2, nullptr, global, transposed, 0, nullptr, nullptr));
}

// CL_KERNEL_ATTRIBUTES gives a kernel's attribute list as the source wrote each, signedness of
// vec_type_hint's type included (the SPIR-V execution mode has none), for kernels built from
// source; a kernel of a program loaded from a binary reports none, as OpenCL specifies.
TEST_F(IcdKernel, AttributesAreTheSourcesAttributeList) {
  constexpr const char* kAttributed = R"(
__attribute__((vec_type_hint(int4))) __attribute__((work_group_size_hint(2, 3, 4)))
kernel void hinted(global int* out) { out[0] = 1; }

__attribute__((reqd_work_group_size(8,1,1))) __attribute__((vec_type_hint(uchar16)))
kernel void required(global int* out) { out[0] = 2; }

__attribute__((vec_type_hint(float))) kernel void scalar_hint(global int* out) { out[0] = 3; }

kernel void plain(global int* out) { out[0] = 4; }
)";
  Program program = buildSource(kAttributed);
  ASSERT_TRUE(program.get());
  auto attributes = [](cl_program from, const char* name) {
    cl_int status = CL_SUCCESS;
    Kernel kernel(clCreateKernel(from, name, &status));
    EXPECT_CL_SUCCESS(status) << name;
    if (status != CL_SUCCESS) return std::string("<no kernel>");
    return infoString([&](size_t size, void* value, size_t* written) {
      return clGetKernelInfo(kernel, CL_KERNEL_ATTRIBUTES, size, value, written);
    });
  };
  EXPECT_EQ(attributes(program, "hinted"), "vec_type_hint(int4) work_group_size_hint(2,3,4)");
  // clang's order (hints first), which need not be the source's.
  EXPECT_EQ(attributes(program, "required"), "vec_type_hint(uchar16) reqd_work_group_size(8,1,1)");
  EXPECT_EQ(attributes(program, "scalar_hint"), "vec_type_hint(float)");
  EXPECT_EQ(attributes(program, "plain"), "");

  size_t binarySize = 0;
  ASSERT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARY_SIZES, sizeof(binarySize), &binarySize, nullptr));
  std::vector<unsigned char> binary(binarySize);
  unsigned char* binaries[] = {binary.data()};
  ASSERT_CL_SUCCESS(clGetProgramInfo(program, CL_PROGRAM_BINARIES, sizeof(binaries), binaries, nullptr));
  const unsigned char* loaded[] = {binary.data()};
  cl_int status = CL_SUCCESS;
  Program fromBinary(clCreateProgramWithBinary(context_, 1, &device_, &binarySize, loaded, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  ASSERT_CL_SUCCESS(clBuildProgram(fromBinary, 1, &device_, "", nullptr, nullptr));
  EXPECT_EQ(attributes(fromBinary, "required"), "");
}

TEST_F(IcdKernel, SubGroupInfoForAnNDRange) {
  Kernel kernel = createKernel(program_, "every_argument_kind");
  ASSERT_TRUE(kernel.get());
  if (deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_NUM_SUB_GROUPS) == 0) {
    size_t local = 64, size = 0;
    EXPECT_CL_ERROR(CL_INVALID_OPERATION,
                    clGetKernelSubGroupInfo(kernel, device_, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local),
                                            &local, sizeof(size), &size, nullptr));
    GTEST_SKIP() << "the device has no sub-groups (CL_DEVICE_MAX_NUM_SUB_GROUPS is 0): only the refusal is checked";
  }
  for (size_t local : {size_t{1}, size_t{13}, size_t{64}, size_t{256}}) {
    size_t maxSize = 0, count = 0;
    ASSERT_CL_SUCCESS(clGetKernelSubGroupInfo(kernel, device_, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local),
                                              &local, sizeof(maxSize), &maxSize, nullptr));
    EXPECT_GE(maxSize, 1u);
    EXPECT_LE(maxSize, local);
    ASSERT_CL_SUCCESS(clGetKernelSubGroupInfo(kernel, device_, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(local),
                                              &local, sizeof(count), &count, nullptr));
    EXPECT_EQ(count, (local + maxSize - 1) / maxSize) << "local " << local << ", sub-groups of at most " << maxSize;
  }
  size_t twoDimensions[2] = {16, 4}, maxSize = 0;
  EXPECT_CL_SUCCESS(clGetKernelSubGroupInfo(kernel, device_, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE,
                                            sizeof(twoDimensions), twoDimensions, sizeof(maxSize), &maxSize, nullptr));
  EXPECT_GE(maxSize, 1u);
  cl_uint maxSubGroups = 0;
  size_t maxNumSubGroups = 0;
  EXPECT_CL_SUCCESS(clGetKernelSubGroupInfo(kernel, device_, CL_KERNEL_MAX_NUM_SUB_GROUPS, 0, nullptr,
                                            sizeof(maxNumSubGroups), &maxNumSubGroups, nullptr));
  EXPECT_GE(maxNumSubGroups, 1u);
  maxSubGroups = deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_NUM_SUB_GROUPS);
  EXPECT_LE(maxNumSubGroups, maxSubGroups);
}

// What the sub-group query says is what a kernel sees, for a device with OpenCL C sub-groups.
TEST_F(IcdKernel, SubGroupSizeQueryMatchesTheKernel) {
  auto features = deviceInfoArray<cl_name_version>(device_, CL_DEVICE_OPENCL_C_FEATURES);
  bool subgroups = std::any_of(features.begin(), features.end(), [](const cl_name_version& v) {
    return std::strcmp(v.name, "__opencl_c_subgroups") == 0;
  });
  if (!subgroups) GTEST_SKIP() << "the device does not report __opencl_c_subgroups";
  Program program = buildSource(R"(
    kernel void sizes(global uint* out) {
      out[get_global_id(0)] = get_max_sub_group_size() * 10000 + get_num_sub_groups();
    }
  )",
                                "-cl-std=CL3.0");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "sizes");
  // 3 and 13 are below the subgroup size of NVIDIA (32) and, for 3, of lavapipe (8).
  for (size_t local : {size_t{3}, size_t{13}, size_t{64}, size_t{256}}) {
    size_t maxSize = 0, count = 0;
    ASSERT_CL_SUCCESS(clGetKernelSubGroupInfo(kernel, device_, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, sizeof(local),
                                              &local, sizeof(maxSize), &maxSize, nullptr));
    ASSERT_CL_SUCCESS(clGetKernelSubGroupInfo(kernel, device_, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(local),
                                              &local, sizeof(count), &count, nullptr));
    Buffer out = createBuffer(2 * local * sizeof(cl_uint));
    setArgs(kernel, out);
    run1d(kernel, 2 * local, local);
    std::vector<cl_uint> seen = read<cl_uint>(out, 2 * local);
    EXPECT_EQ(seen, std::vector<cl_uint>(2 * local, static_cast<cl_uint>(maxSize * 10000 + count)))
        << "local " << local;
  }
}

}  // namespace
}  // namespace cl2vk::test
