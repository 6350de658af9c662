// Released buffers' Vulkan memory is recycled (docs/runtime.md, "Memory"): a program that creates,
// writes, reads and releases a small cl_mem per call, as CLBlast does with its temporaries,
// allocates Vulkan memory on its first call only, counted with cl2vk's own query
// (CL_CONTEXT_MEMORY_ALLOCATIONS_CL2VK). Every value read back is checked, and what a released
// buffer held never reaches the hidden buffers of a launch (loop-limit flag, printf buffer).

#include <sstream>
#include <thread>

#include "cl2vk/cl_ext_cl2vk.h"
#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

constexpr const char* kKernels = R"(
kernel void sum(global uint* out, uint n) {
  uint c = 0;
  for (uint i = 0; i < n; ++i) c += (i ^ (uint)get_global_id(0)) & 7;
  out[get_global_id(0)] = c;
}

kernel void greet(global int* out) {
  printf("item %d\n", (int)get_global_id(0));
  out[get_global_id(0)] = 1;
}
)";

constexpr size_t kBytes = 4096;

// kBytes / 4 words that differ from one cycle to the next.
std::vector<cl_uint> wordsOf(unsigned cycle) {
  std::vector<cl_uint> words(kBytes / 4);
  for (size_t i = 0; i < words.size(); ++i) words[i] = static_cast<cl_uint>(i * 2654435761u + cycle * 40503u + 1);
  return words;
}

class IcdMemoryRecycling : public IcdTest {
 protected:
  cl_ulong allocations() {
    cl_ulong count = 0;
    EXPECT_CL_SUCCESS(clGetContextInfo(context_, CL_CONTEXT_MEMORY_ALLOCATIONS_CL2VK, sizeof count, &count, nullptr));
    return count;
  }

  // Creates a buffer, writes `cycle`'s words, reads them back, checks them and releases it.
  void cycleOnce(cl_command_queue queue, unsigned cycle) {
    cl_int status = CL_SUCCESS;
    Buffer buffer(clCreateBuffer(context_, CL_MEM_READ_WRITE, kBytes, nullptr, &status));
    ASSERT_CL_SUCCESS(status);
    std::vector<cl_uint> sent = wordsOf(cycle), back(sent.size());
    ASSERT_CL_SUCCESS(clEnqueueWriteBuffer(queue, buffer, CL_FALSE, 0, kBytes, sent.data(), 0, nullptr, nullptr));
    ASSERT_CL_SUCCESS(clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, kBytes, back.data(), 0, nullptr, nullptr));
    ASSERT_EQ(back, sent) << "cycle " << cycle;
  }

  // Leaves a released buffer of `bytes` bytes, all ones, for the cache to hand out again.
  void releaseOnes(size_t bytes) {
    Buffer ones = bufferOf(std::vector<cl_uint>(bytes / 4, 0xFFFFFFFFu));
    ASSERT_TRUE(ones.get());
  }
};

TEST_F(IcdMemoryRecycling, CreateWriteReadReleaseCyclesAllocateAHandful) {
  const cl_ulong before = allocations();
  for (unsigned cycle = 0; cycle < 100; ++cycle) {
    cycleOnce(queue_, cycle);
    if (HasFatalFailure()) return;
  }
  // The buffer, the write's staging buffer and the read's, each once.
  EXPECT_LE(allocations() - before, 3u);

  // A size of another class allocates anew.
  const cl_ulong beforeLarge = allocations();
  Buffer large = createBuffer(1 << 20);
  EXPECT_EQ(allocations(), beforeLarge + 1);
}

TEST_F(IcdMemoryRecycling, ThreadsRecyclingAtOnceKeepTheirData) {
  constexpr unsigned kThreads = 4, kCycles = 50;
  std::vector<std::thread> threads;
  for (unsigned t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] {
      cl_int status = CL_SUCCESS;
      Queue queue(clCreateCommandQueueWithProperties(context_, device_, nullptr, &status));
      EXPECT_CL_SUCCESS(status);
      for (unsigned cycle = 0; cycle < kCycles && !HasFailure(); ++cycle) cycleOnce(queue, t * 1000 + cycle);
    });
  }
  for (std::thread& thread : threads) thread.join();
}

TEST_F(IcdMemoryRecycling, ReleasedContentsDoNotReachALaunch) {
  Program program = buildSource(kKernels);
  ASSERT_TRUE(program);
  // Buffers of the sizes of the loop-limit flag (4 bytes, lavapipe only) and of the printf buffer,
  // filled with ones and released: the launches below may get their memory.
  releaseOnes(4);
  releaseOnes(1 << 20);

  const size_t items = 64;
  const cl_uint n = 1000;
  Kernel sum = createKernel(program, "sum");
  Buffer out = createBuffer(items * sizeof(cl_uint));
  setArgs(sum, out, n);
  cl_event raw = nullptr;
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, sum, 1, nullptr, &items, nullptr, 0, nullptr, &raw));
  Event event(raw);
  EXPECT_CL_SUCCESS(clWaitForEvents(1, &raw)) << "a stale loop-limit flag would fail the command";
  std::vector<cl_uint> sums = read<cl_uint>(out, items);
  for (size_t id = 0; id < items; ++id) {
    cl_uint expected = 0;
    for (cl_uint i = 0; i < n; ++i) expected += (i ^ static_cast<cl_uint>(id)) & 7;
    EXPECT_EQ(sums[id], expected) << "item " << id;
  }

  releaseOnes(1 << 20);
  Kernel greet = createKernel(program, "greet");
  Buffer greeted = createBuffer(4 * sizeof(cl_int));
  setArgs(greet, greeted);
  testing::internal::CaptureStdout();
  run1d(greet, 4, 4);
  std::string text = testing::internal::GetCapturedStdout();
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  EXPECT_EQ(lines, (std::vector<std::string>{"item 0", "item 1", "item 2", "item 3"}))
      << "a stale printf header would print records nobody wrote";
  EXPECT_EQ(read<cl_int>(greeted, 4), std::vector<cl_int>(4, 1));
}

}  // namespace
}  // namespace cl2vk::test
