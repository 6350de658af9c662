// Program-scope variables through the OpenCL API: built from OpenCL C 2.0 and 3.0 source, shared by
// the program's kernels, kept across launches for the program's lifetime, and reported by
// CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE.

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

constexpr const char* kVariables = R"(
typedef struct { int hits; float scale[2]; } Stats;
global int total = 0;
global Stats stats = {3, {0.5f, 4.0f}};
global float series[3] = {1.0f, 2.0f, 3.0f};
global float* global last = &series[2];

kernel void accumulate(global const int* in) {
  atomic_fetch_add_explicit((volatile global atomic_int*)&total, in[get_global_id(0)], memory_order_relaxed,
                            memory_scope_device);
  if (get_global_id(0) == 0) stats.hits += 1;
}

// Reads through the variables and through `last`, whose target only its initializer names.
kernel void report(global float* out) {
  out[0] = (float)total;
  out[1] = (float)stats.hits * stats.scale[1];
  out[2] = *last;
  *last += 10.0f;
}
)";

class IcdGlobalVariables : public IcdTest {
 protected:
  void runBoth(cl_program program, std::vector<float>& results) {
    Kernel accumulate = createKernel(program, "accumulate");
    Kernel report = createKernel(program, "report");
    ASSERT_TRUE(accumulate && report);
    std::vector<int> in(64);
    for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<int>(i);
    Buffer input = bufferOf(in);
    Buffer out = bufferOf(std::vector<float>(3, -1.0f));
    setArgs(accumulate, input);
    setArgs(report, out);
    run1d(accumulate, in.size(), 16);
    run1d(report, 1);
    results = read<float>(out, 3);
  }
};

TEST_F(IcdGlobalVariables, KernelsShareThemAndLaunchesKeepThem) {
  for (const char* std : {"-cl-std=CL2.0", "-cl-std=CL3.0"}) {
    SCOPED_TRACE(std);
    Program program = buildSource(kVariables, std);
    ASSERT_TRUE(program);
    size_t size = 0;
    ASSERT_CL_SUCCESS(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_GLOBAL_VARIABLE_TOTAL_SIZE, sizeof size,
                                            &size, nullptr));
    EXPECT_EQ(size, 40u);  // total at 0, stats (12 bytes) at 4, series (12) at 16, last (8) at 32

    std::vector<float> results;
    runBoth(program, results);
    EXPECT_EQ(results, (std::vector<float>{2016.0f, 16.0f, 3.0f}));  // 0 + 1 + ... + 63 = 2016
    // Second round: the variables kept what the first left (new kernel objects, same program).
    runBoth(program, results);
    EXPECT_EQ(results, (std::vector<float>{4032.0f, 20.0f, 13.0f}));
  }
}

// A program of its own starts from the initial values again.
TEST_F(IcdGlobalVariables, EachProgramHasItsOwn) {
  Program first = buildSource(kVariables, "-cl-std=CL2.0");
  Program second = buildSource(kVariables, "-cl-std=CL2.0");
  ASSERT_TRUE(first && second);
  std::vector<float> results;
  runBoth(first, results);
  runBoth(second, results);
  EXPECT_EQ(results, (std::vector<float>{2016.0f, 16.0f, 3.0f}));
}

// A kernel with both hidden arguments, the printf buffer and the variables' buffer.
TEST_F(IcdGlobalVariables, AKernelCanAlsoPrint) {
  Program program = buildSource(R"(
global int launches = 40;
kernel void count(global int* out) {
  launches += 1;
  out[0] = printf("launch %d\n", launches);
}
)",
                                "-cl-std=CL2.0");
  ASSERT_TRUE(program);
  Kernel kernel = createKernel(program, "count");
  ASSERT_TRUE(kernel);
  Buffer out = bufferOf(std::vector<int>(1, 7));
  setArgs(kernel, out);
  testing::internal::CaptureStdout();
  run1d(kernel, 1);
  run1d(kernel, 1);
  EXPECT_EQ(testing::internal::GetCapturedStdout(), "launch 41\nlaunch 42\n");
  EXPECT_EQ(read<int>(out, 1), std::vector<int>(1, 0));
}

// A variable as large as the device allows (2 GiB on lavapipe, whose transfers of 2 GiB and more
// overran memory in one region), without an initializer: it starts zeroed at both ends and keeps
// what a kernel writes there. Its zeros are filled on the device, not built on the host.
TEST_F(IcdGlobalVariables, TheLargestVariableStartsZeroedAndKeepsWrites) {
  const size_t size = deviceInfo<size_t>(device_, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE);
  const std::string source = "uchar var[" + std::to_string(size) + "UL];\n" + R"(
kernel void swap(global uchar* values, ulong at) {
  size_t i = get_global_id(0);
  uchar old = var[at + i];
  var[at + i] = values[i];
  values[i] = old;
}
)";
  Program program = buildSource(source.c_str(), "-cl-std=CL2.0");
  ASSERT_TRUE(program);
  Kernel swap = createKernel(program, "swap");
  ASSERT_TRUE(swap);
  constexpr size_t kCount = 64;
  for (uint64_t at : {uint64_t{0}, uint64_t{size / 2 - kCount / 2}, uint64_t{size - kCount}}) {
    SCOPED_TRACE("at " + std::to_string(at));
    std::vector<uint8_t> written(kCount);
    for (size_t i = 0; i < kCount; ++i) written[i] = static_cast<uint8_t>(at + i * 7 + 1);
    Buffer values = bufferOf(written);
    setArgs(swap, values, at);
    run1d(swap, kCount);
    EXPECT_EQ(read<uint8_t>(values, kCount), std::vector<uint8_t>(kCount, 0)) << "not zero at first";
    run1d(swap, kCount);
    EXPECT_EQ(read<uint8_t>(values, kCount), written) << "what the first launch wrote";
  }
}

TEST_F(IcdGlobalVariables, TheDeviceAdvertisesThem) {
  EXPECT_GT(deviceInfo<size_t>(device_, CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE), size_t{64 * 1024});
  std::vector<cl_name_version> features = deviceInfoArray<cl_name_version>(device_, CL_DEVICE_OPENCL_C_FEATURES);
  bool found = false;
  for (const cl_name_version& feature : features)
    found |= std::string(feature.name) == "__opencl_c_program_scope_global_variables";
  EXPECT_TRUE(found);
}

}  // namespace
}  // namespace cl2vk::test
