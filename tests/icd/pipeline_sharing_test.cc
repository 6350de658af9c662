// Pipelines are compiled once per program, kernel name and shape, not once per cl_kernel: CLBlast
// creates, runs and releases a cl_kernel for every call. Counted with cl2vk's own query
// (CL_CONTEXT_PIPELINES_CREATED_CL2VK, docs/runtime.md), every result checked against the CPU.

#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <string>
#include <thread>

#include "cl2vk/cl_ext_cl2vk.h"
#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

// BIAS comes from the build options, so that a rebuilt program computes something else.
constexpr const char* kKernels = R"(
kernel void scale(global int* out, global const int* in, int factor) {
  size_t i = get_global_id(0);
  out[i] = in[i] * factor + BIAS;
}

kernel void reverse_in_group(global int* out, global const int* in, local int* scratch) {
  size_t lid = get_local_id(0), n = get_local_size(0), gid = get_global_id(0);
  scratch[lid] = in[gid];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[gid] = scratch[n - 1 - lid];
}
)";

constexpr const char* kOptions = "-cl-std=CL2.0 -D BIAS=1";

std::vector<cl_int> inputOf(size_t n) {
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<cl_int>(i * 7) - 300;
  return in;
}

class IcdPipelineSharing : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    if (HasFatalFailure()) return;
    program_ = buildSource(kKernels, kOptions);
    ASSERT_TRUE(program_.get());
  }

  cl_ulong pipelinesCreated() {
    cl_ulong count = 0;
    EXPECT_CL_SUCCESS(clGetContextInfo(context_, CL_CONTEXT_PIPELINES_CREATED_CL2VK, sizeof count, &count, nullptr));
    return count;
  }

  // A new cl_kernel `scale` of `program`, run over `n` items in work-groups of `local` and released,
  // as CLBlast does for each call; the result checked.
  void scaleOnce(cl_program program, cl_int factor, cl_int bias, size_t n = 256, size_t local = 64) {
    std::vector<cl_int> in = inputOf(n);
    Buffer input = bufferOf(in);
    Buffer out = createBuffer(n * sizeof(cl_int));
    Kernel kernel = createKernel(program, "scale");
    ASSERT_TRUE(kernel.get());
    setArgs(kernel, out, input, factor);
    run1d(kernel, n, local);
    std::vector<cl_int> got = read<cl_int>(out, n);
    for (size_t i = 0; i < n; ++i)
      ASSERT_EQ(got[i], in[i] * factor + bias) << "item " << i << " of " << n << " in groups of " << local;
  }

  // A new cl_kernel `reverse_in_group` with `scratchInts` ints of __local memory over `n` items in
  // work-groups of `local` (the last one smaller when `local` does not divide `n`); the result
  // checked.
  void reverseOnce(size_t n, size_t local, size_t scratchInts) {
    std::vector<cl_int> in = inputOf(n);
    Buffer input = bufferOf(in);
    Buffer out = createBuffer(n * sizeof(cl_int));
    Kernel kernel = createKernel(program_, "reverse_in_group");
    ASSERT_TRUE(kernel.get());
    setArgs(kernel, out, input);
    ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 2, scratchInts * sizeof(cl_int), nullptr));
    run1d(kernel, n, local);
    std::vector<cl_int> got = read<cl_int>(out, n);
    for (size_t i = 0; i < n; ++i) {
      size_t first = i / local * local, size = std::min(local, n - first);
      ASSERT_EQ(got[i], in[first + size - 1 - (i - first)])
          << "item " << i << " of " << n << ", local " << local << ", __local " << scratchInts << " ints";
    }
  }

  Program program_;
};

TEST_F(IcdPipelineSharing, TenKernelsOfOneNameCompileOnePipeline) {
  const cl_ulong before = pipelinesCreated();
  for (cl_int call = 0; call < 10; ++call) {
    scaleOnce(program_, call - 3, 1);
    if (HasFatalFailure()) return;
  }
  EXPECT_EQ(pipelinesCreated() - before, 1u) << "10 cl_kernels of one name and shape";

  // Another program of the same source has pipelines of its own.
  Program other = buildSource(kKernels, kOptions);
  ASSERT_TRUE(other.get());
  scaleOnce(other, 4, 1);
  EXPECT_EQ(pipelinesCreated() - before, 2u) << "a second program";
}

TEST_F(IcdPipelineSharing, WorkGroupShapesAndLocalSizesGetTheirOwnPipelines) {
  const cl_ulong before = pipelinesCreated();
  struct Launch {
    size_t n, local, scratchInts;
    cl_ulong newPipelines;  // what the launch adds to the program's pipelines
  };
  const Launch launches[] = {
      {64, 16, 16, 1},  // the first shape
      {64, 32, 32, 1},  // another work-group size and __local size
      {64, 16, 16, 0},  // the first again, from a new cl_kernel
      {64, 16, 48, 1},  // the first work-group size with more __local memory
      {72, 16, 16, 1},  // the first shape for 64 items, plus a remainder group of 8
      {72, 16, 16, 0},  // both again
      {64, 32, 32, 0},  // the second again
  };
  cl_ulong expected = 0;
  for (const Launch& launch : launches) {
    reverseOnce(launch.n, launch.local, launch.scratchInts);
    if (HasFatalFailure()) return;
    expected += launch.newPipelines;
    EXPECT_EQ(pipelinesCreated() - before, expected) << "after " << launch.n << " items in groups of " << launch.local
                                                     << " with " << launch.scratchInts << " ints of __local memory";
  }
}

// `scale` uses no barrier, no __local memory and no sub-group function: with free work-groups (the
// default) one pipeline serves all its local sizes, the remainder work-group of a non-uniform range
// included; without them (CL2VK_FREE_WORK_GROUPS=0, ctest icd_tests_fixed_work_groups) each size,
// and the remainder, has its own. `reverse_in_group` has its own pipelines either way.
TEST_F(IcdPipelineSharing, KernelsFreeOfTheirWorkGroupsHaveOnePipelineForEveryLocalSize) {
  const char* setting = std::getenv("CL2VK_FREE_WORK_GROUPS");
  const bool free = !setting || std::string(setting) != "0";
  const cl_ulong before = pipelinesCreated();
  const std::pair<size_t, size_t> launches[] = {{256, 64}, {256, 32}, {256, 1}, {72, 16}, {256, 64}};
  for (auto [n, local] : launches) {
    scaleOnce(program_, 3, 1, n, local);
    if (HasFatalFailure()) return;
  }
  EXPECT_EQ(pipelinesCreated() - before, free ? 1u : 5u)
      << "local sizes 64, 32, 1 and 16 with a remainder of 8, " << (free ? "with" : "without") << " free work-groups";
  reverseOnce(72, 16, 16);
  if (HasFatalFailure()) return;
  EXPECT_EQ(pipelinesCreated() - before, free ? 3u : 7u) << "a kernel with a barrier and __local memory";
}

TEST_F(IcdPipelineSharing, KernelsOfOneNameLiveSideBySideWithTheirOwnArguments) {
  // Two cl_kernels of one name alive at once with different arguments and __local sizes, their
  // launches interleaved in one queue without waiting in between.
  const size_t n = 96;
  std::vector<cl_int> in = inputOf(n);
  Buffer input = bufferOf(in);
  Buffer out16 = createBuffer(n * sizeof(cl_int)), out32 = createBuffer(n * sizeof(cl_int));
  Kernel by16 = createKernel(program_, "reverse_in_group"), by32 = createKernel(program_, "reverse_in_group");
  ASSERT_TRUE(by16.get() && by32.get());
  setArgs(by16, out16, input);
  setArgs(by32, out32, input);
  ASSERT_CL_SUCCESS(clSetKernelArg(by16, 2, 16 * sizeof(cl_int), nullptr));
  ASSERT_CL_SUCCESS(clSetKernelArg(by32, 2, 32 * sizeof(cl_int), nullptr));
  const size_t local16 = 16, local32 = 32;
  for (int round = 0; round < 3; ++round) {
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, by16, 1, nullptr, &n, &local16, 0, nullptr, nullptr));
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, by32, 1, nullptr, &n, &local32, 0, nullptr, nullptr));
  }
  ASSERT_CL_SUCCESS(clFinish(queue_));
  std::vector<cl_int> got16 = read<cl_int>(out16, n), got32 = read<cl_int>(out32, n);
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(got16[i], in[i / 16 * 16 + 15 - i % 16]) << "item " << i << ", groups of 16";
    EXPECT_EQ(got32[i], in[i / 32 * 32 + 31 - i % 32]) << "item " << i << ", groups of 32";
  }
}

TEST_F(IcdPipelineSharing, ARebuiltProgramRunsItsNewBuild) {
  scaleOnce(program_, 3, 1);
  if (HasFatalFailure()) return;
  const cl_ulong before = pipelinesCreated();
  // Its kernels are released, so the program may be built again, with another BIAS: the launchers
  // of the old build must not serve the new one.
  ASSERT_CL_SUCCESS(clBuildProgram(program_, 1, &device_, "-cl-std=CL2.0 -D BIAS=5", nullptr, nullptr))
      << programBuildLog(program_, device_);
  scaleOnce(program_, 3, 5);
  if (HasFatalFailure()) return;
  scaleOnce(program_, -2, 5);
  EXPECT_EQ(pipelinesCreated() - before, 1u) << "the rebuilt program's one pipeline";
}

TEST_F(IcdPipelineSharing, ThreadsCreatingKernelsOfOneNameShareOnePipeline) {
  constexpr int kThreads = 4, kRounds = 8;
  const size_t n = 512, local = 64;
  const std::vector<cl_int> in = inputOf(n);
  Buffer input = bufferOf(in);
  const cl_ulong before = pipelinesCreated();
  // Each thread has its own queue and creates, runs and releases a cl_kernel per round; returns
  // what went wrong, if anything (gtest's assertions cannot stop a test from another thread).
  auto worker = [&](int thread) -> std::string {
    cl_int status = CL_SUCCESS;
    Queue queue(clCreateCommandQueueWithProperties(context_, device_, nullptr, &status));
    if (status != CL_SUCCESS) return "clCreateCommandQueueWithProperties: " + clErrorName(status);
    Buffer out(clCreateBuffer(context_, CL_MEM_READ_WRITE, n * sizeof(cl_int), nullptr, &status));
    if (status != CL_SUCCESS) return "clCreateBuffer: " + clErrorName(status);
    for (int round = 0; round < kRounds; ++round) {
      const cl_int factor = thread * 10 + round;
      Kernel kernel(clCreateKernel(program_, "scale", &status));
      if (status != CL_SUCCESS) return "clCreateKernel: " + clErrorName(status);
      status = clSetKernelArg(kernel, 0, sizeof(cl_mem), out.address());
      if (status == CL_SUCCESS) status = clSetKernelArg(kernel, 1, sizeof(cl_mem), input.address());
      if (status == CL_SUCCESS) status = clSetKernelArg(kernel, 2, sizeof factor, &factor);
      if (status == CL_SUCCESS)
        status = clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, &local, 0, nullptr, nullptr);
      std::vector<cl_int> got(n);
      if (status == CL_SUCCESS)
        status = clEnqueueReadBuffer(queue, out, CL_TRUE, 0, n * sizeof(cl_int), got.data(), 0, nullptr, nullptr);
      if (status != CL_SUCCESS) return "round " + std::to_string(round) + ": " + clErrorName(status);
      for (size_t i = 0; i < n; ++i) {
        if (got[i] != in[i] * factor + 1) {
          std::ostringstream why;
          why << "round " << round << " item " << i << ": got " << got[i] << ", expected " << in[i] * factor + 1;
          return why.str();
        }
      }
    }
    return "";
  };
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) threads.emplace_back([&, t] { failures[t] = worker(t); });
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
  EXPECT_EQ(pipelinesCreated() - before, 1u) << kThreads * kRounds << " cl_kernels on " << kThreads << " threads";
}

TEST_F(IcdPipelineSharing, TheCountIsACulongQuery) {
  cl_ulong count = 0;
  size_t size = 0;
  ASSERT_CL_SUCCESS(clGetContextInfo(context_, CL_CONTEXT_PIPELINES_CREATED_CL2VK, 0, nullptr, &size));
  EXPECT_EQ(size, sizeof(cl_ulong));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetContextInfo(context_, CL_CONTEXT_PIPELINES_CREATED_CL2VK, sizeof(cl_uint), &count, nullptr));
}

}  // namespace
}  // namespace cl2vk::test
