// SPIR-V that generators other than clang-15 + llvm-spirv-15 write, through clCreateProgramWithIL
// as a user's program (pyopencl's test_spirv, say) hands it over, run and compared with the CPU:
// the hand-written modules of spirv/generators/. Older llvm-spirv's UniformConstant builtins (what
// pyopencl's add-vectors-64.spv holds) ended in an internal error, "BuiltIn GlobalInvocationId ...
// has components with bit width 64".

#include <array>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

class IcdGenerators : public IcdTest {};

TEST_F(IcdGenerators, UniformConstantBuiltinsOfOlderLlvmSpirvAddVectors) {
  Program program = buildCorpusModule("generators/uniform_constant_builtins.spv");
  ASSERT_TRUE(program.get());
  constexpr size_t n = 1000, local = 40;
  std::vector<float> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<float>(i) * 0.5f - 100.0f;
    b[i] = static_cast<float>(i % 37) * 3.25f;
  }
  Buffer da = bufferOf(a), db = bufferOf(b);
  for (const char* name : {"sum", "sum_scaled"}) {
    Kernel kernel = createKernel(program, name);
    ASSERT_TRUE(kernel.get()) << name;
    Buffer res = bufferOf(std::vector<float>(n, -1.0f));
    setArgs(kernel, da, db, res);
    run1d(kernel, n, local);
    std::vector<float> got = read<float>(res, n);
    bool scaled = std::string(name) == "sum_scaled";
    for (size_t i = 0; i < n; ++i) {
      float expected = a[i] + b[i];
      if (scaled) expected += static_cast<float>((i % local) * n);  // get_local_id(0) * get_global_size(0)
      ASSERT_EQ(got[i], expected) << name << ", work-item " << i;
    }
  }
}

// A 2D range with a global offset and remainder work-groups in both dimensions, every work-item
// writing the eight values the module's header lists.
TEST_F(IcdGenerators, BuiltinsThroughAccessChainsCastsAndHelpers) {
  Program program = buildCorpusModule("generators/builtin_access_chains.spv");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "ids");
  ASSERT_TRUE(kernel.get());
  const std::array<size_t, 2> global = {13, 7}, offset = {3, 5}, local = {4, 2};
  Buffer out = bufferOf(std::vector<cl_ulong>(global[0] * global[1] * 8, ~cl_ulong{0}));
  setArgs(kernel, out);
  ASSERT_CL_SUCCESS(
      clEnqueueNDRangeKernel(queue_, kernel, 2, offset.data(), global.data(), local.data(), 0, nullptr, nullptr));
  std::vector<cl_ulong> got = read<cl_ulong>(out, global[0] * global[1] * 8);
  for (size_t y = 0; y < global[1]; ++y) {
    for (size_t x = 0; x < global[0]; ++x) {
      size_t localX = std::min(local[0], global[0] - x / local[0] * local[0]);
      std::array<cl_ulong, 8> expected = {
          offset[0] + x, offset[1] + y, x % local[0], y / local[1], global[1], offset[1], 2, localX};
      for (size_t k = 0; k < 8; ++k)
        ASSERT_EQ(got[(y * global[0] + x) * 8 + k], expected[k]) << "work-item (" << x << ", " << y << "), value " << k;
    }
  }
}

// SPIR-V 1.5's bitcasts between pointers and integers (the CTS's spirv15_ptr_bitcast failed to
// make a pipeline on lavapipe). A device whose translation targets Vulkan 1.2 or later takes
// SPIR-V up to 1.6.
TEST_F(IcdGenerators, Spirv15PointerBitcastsAgreeAndRoundTrip) {
  if (hasWord(deviceString(device_, CL_DEVICE_IL_VERSION), "SPIR-V_1.5") == false)
    GTEST_SKIP() << "this device's translation targets Vulkan 1.1, whose SPIR-V 1.3 cannot take SPIR-V 1.5 input";
  EXPECT_TRUE(hasWord(deviceString(device_, CL_DEVICE_IL_VERSION), "SPIR-V_1.6"));
  Program program = buildCorpusModule("generators/pointer_bitcasts.spv");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "pointer_bitcasts");
  ASSERT_TRUE(kernel.get());
  constexpr size_t n = 32;
  Buffer out = bufferOf(std::vector<cl_ulong>(3 * n, 0));
  setArgs(kernel, out);
  run1d(kernel, n, 8);
  std::vector<cl_ulong> got = read<cl_ulong>(out, 3 * n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(got[3 * i], got[3 * i + 1]) << "work-item " << i << ": the address as a ulong and as a uint2";
    EXPECT_EQ(got[3 * i + 2], 1000 + i) << "work-item " << i << ": the store through the rebuilt pointer";
  }
}

}  // namespace
}  // namespace cl2vk::test
