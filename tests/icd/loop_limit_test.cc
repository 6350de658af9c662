// A kernel whose loops need more iterations than the device's driver runs (lavapipe ends loops
// after 65536 loop-header executions per batch of invocations, all loops together) fails as a
// command, never hands back a wrong result: its event ends with CL_OUT_OF_RESOURCES, the context's
// callback is told the kernel and the limit, and clWaitForEvents returns
// CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST. On a device without a limit the result is right.

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

constexpr const char* kLoops = R"(
kernel void sum(global uint* out, uint n) {
  uint c = 0;
  for (uint i = 0; i < n; ++i) c += (i ^ (uint)get_global_id(0)) & 7;
  out[get_global_id(0)] = c;
}
)";

uint32_t expectedSum(uint32_t n, uint32_t id) {
  uint32_t c = 0;
  for (uint32_t i = 0; i < n; ++i) c += (i ^ id) & 7;
  return c;
}

class IcdLoopLimit : public IcdTestWithMessages {
 protected:
  // Runs `sum` over `items` work-items with `n` iterations each; returns the event's final status
  // and leaves the results in `results`.
  cl_int runSum(uint32_t n, size_t items, std::vector<uint32_t>& results) {
    Program program = buildSource(kLoops);
    if (!program) return CL_BUILD_PROGRAM_FAILURE;
    Kernel kernel = createKernel(program, "sum");
    Buffer out = bufferOf(std::vector<uint32_t>(items, 0));
    setArgs(kernel, out, n);
    cl_int status = runToTheEnd(kernel, items);
    results = read<uint32_t>(out, items);
    return status;
  }

  bool onLavapipe() { return deviceString(device_, CL_DEVICE_NAME).find("llvmpipe") != std::string::npos; }
};

// 100000 iterations: the right sums, or the command failed with the reason; on lavapipe, whose
// driver would have cut the loop at 65536, the failure.
TEST_F(IcdLoopLimit, ALoopPastTheLimitFailsTheCommandInsteadOfAWrongResult) {
  const uint32_t n = 100000;
  const size_t items = 16;
  std::vector<uint32_t> results;
  cl_int status = runSum(n, items, results);
  if (status == CL_COMPLETE) {
    EXPECT_FALSE(onLavapipe()) << "lavapipe ran 100000 loop iterations: has its loop limit gone?";
    for (size_t id = 0; id < items; ++id) EXPECT_EQ(results[id], expectedSum(n, id)) << "work-item " << id;
    EXPECT_TRUE(messages_.empty());
    return;
  }
  EXPECT_EQ(status, CL_OUT_OF_RESOURCES);
  ASSERT_EQ(messages_.size(), 1u);
  EXPECT_NE(messages_[0].find("kernel 'sum': a loop ran past"), std::string::npos) << messages_[0];
  EXPECT_NE(messages_[0].find("limit of 65536 loop iterations"), std::string::npos) << messages_[0];
}

// Loops well within the limit run as before, with no false alarm: nested loops and many
// work-items in several batches.
TEST_F(IcdLoopLimit, LoopsWithinTheLimitRunWithoutAnError) {
  const uint32_t n = 60000;
  const size_t items = 40;
  std::vector<uint32_t> results;
  EXPECT_EQ(runSum(n, items, results), CL_COMPLETE);
  for (size_t id = 0; id < items; ++id) EXPECT_EQ(results[id], expectedSum(n, id)) << "work-item " << id;
  EXPECT_TRUE(messages_.empty());
}

// After the failed command the queue and the context go on working.
TEST_F(IcdLoopLimit, TheQueueRunsOnAfterAFailedCommand) {
  std::vector<uint32_t> results;
  runSum(200000, 8, results);
  messages_.clear();
  EXPECT_EQ(runSum(1000, 8, results), CL_COMPLETE);
  for (size_t id = 0; id < 8; ++id) EXPECT_EQ(results[id], expectedSum(1000, id)) << "work-item " << id;
}

}  // namespace
}  // namespace cl2vk::test
