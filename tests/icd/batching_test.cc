// Launches submitted without waiting and batched (src/runtime/queue.h): a launch on an idle queue
// starts at once; launches enqueued while the device is busy share one submission and start when
// something asks for them, when the device is done, or after the batch delay. These tests check
// that whatever asks (a finish, a wait, a status query, a callback, a non-launch command, nobody
// at all) gets every launch run, in order, with its own event and profiling times.

#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

using namespace std::chrono_literals;

constexpr const char* kIncrementSource = R"(
kernel void increment(global uint* values) { values[get_global_id(0)] += 1; }
kernel void twice(global uint* values) { values[get_global_id(0)] *= 2; }
)";

class IcdBatching : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    if (HasFatalFailure()) return;
    program_ = buildSource(kIncrementSource);
    ASSERT_TRUE(program_.get());
    increment_ = createKernel(program_, "increment");
    twice_ = createKernel(program_, "twice");
    values_ = bufferOf(std::vector<cl_uint>(kCount, 0));
    setArgs(increment_, values_);
    setArgs(twice_, values_);
  }

  cl_int launch(cl_kernel kernel, cl_uint waitCount = 0, const cl_event* waitList = nullptr,
                cl_event* event = nullptr) {
    return clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &kCount, nullptr, waitCount, waitList, event);
  }

  cl_int executionStatus(cl_event event) {
    cl_int status = 1234;
    EXPECT_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr));
    return status;
  }

  cl_ulong profilingTime(cl_event event, cl_profiling_info point) {
    cl_ulong time = 0;
    EXPECT_CL_SUCCESS(clGetEventProfilingInfo(event, point, sizeof(time), &time, nullptr));
    return time;
  }

  static constexpr size_t kCount = 1024;
  Program program_;
  Kernel increment_, twice_;
  Buffer values_;
};

// More launches than one submission takes (64), never flushed: clFinish runs them all, in order
// ((0 + 1) * 2 + 1 ... differs from any other order).
TEST_F(IcdBatching, ManyLaunchesRunInTheOrderTheyWereEnqueued) {
  cl_uint expected = 0;  // wraps modulo 2^32, as the kernels' uint arithmetic does
  for (int i = 0; i < 150; ++i) {
    bool doubling = i % 3 == 2;
    ASSERT_CL_SUCCESS(launch(doubling ? twice_ : increment_));
    expected = doubling ? expected * 2 : expected + 1;
  }
  ASSERT_CL_SUCCESS(clFinish(queue_));
  EXPECT_EQ(read<cl_uint>(values_, kCount), std::vector<cl_uint>(kCount, expected));
}

// Each launch waits for the previous one's event (as CLBlast chains its kernels): the first
// starts at once, the rest share a submission made while it runs, every event completes, and the
// profiling times follow the chain across the two submissions.
TEST_F(IcdBatching, ChainedLaunchesCompleteWithTimesInOrder) {
  std::vector<Event> events(10);
  for (size_t i = 0; i < events.size(); ++i) {
    cl_event previous = i > 0 ? events[i - 1].get() : nullptr;
    ASSERT_CL_SUCCESS(launch(i % 2 ? twice_ : increment_, i > 0 ? 1 : 0, i > 0 ? &previous : nullptr, events[i].put()));
  }
  cl_event last = events.back().get();
  ASSERT_CL_SUCCESS(clWaitForEvents(1, &last));
  cl_ulong previousEnd = 0;
  for (size_t i = 0; i < events.size(); ++i) {
    EXPECT_EQ(executionStatus(events[i]), CL_COMPLETE) << "launch " << i;
    cl_ulong queued = profilingTime(events[i], CL_PROFILING_COMMAND_QUEUED);
    cl_ulong submitted = profilingTime(events[i], CL_PROFILING_COMMAND_SUBMIT);
    cl_ulong started = profilingTime(events[i], CL_PROFILING_COMMAND_START);
    cl_ulong ended = profilingTime(events[i], CL_PROFILING_COMMAND_END);
    EXPECT_LE(queued, submitted) << "launch " << i;
    EXPECT_LE(submitted, started) << "launch " << i;
    EXPECT_LE(started, ended) << "launch " << i;
    EXPECT_GE(started, previousEnd) << "launch " << i << " started before the one it waits for ended";
    previousEnd = ended;
  }
  // ((((0+1)*2+1)*2 ...: five increments and five doublings, alternating.
  cl_uint expected = 0;
  for (size_t i = 0; i < events.size(); ++i) expected = i % 2 ? expected * 2 : expected + 1;
  EXPECT_EQ(read<cl_uint>(values_, kCount), std::vector<cl_uint>(kCount, expected));
}

// A program that polls its event (and never flushes) sees it complete.
TEST_F(IcdBatching, PollingTheStatusGetsTheLaunchRun) {
  Event event;
  ASSERT_CL_SUCCESS(launch(increment_, 0, nullptr, event.put()));
  auto deadline = std::chrono::steady_clock::now() + 10s;
  while (executionStatus(event) != CL_COMPLETE && std::chrono::steady_clock::now() < deadline)
    std::this_thread::yield();
  EXPECT_EQ(executionStatus(event), CL_COMPLETE);
}

// A callback registered on a pending launch fires without a flush.
TEST_F(IcdBatching, ACallbackGetsTheLaunchRun) {
  struct Seen {
    std::mutex mutex;
    std::condition_variable changed;
    cl_int status = 1;
  } seen;
  Event event;
  ASSERT_CL_SUCCESS(launch(increment_, 0, nullptr, event.put()));
  ASSERT_CL_SUCCESS(clSetEventCallback(
      event, CL_COMPLETE,
      [](cl_event, cl_int status, void* user) {
        auto* seen = static_cast<Seen*>(user);
        std::lock_guard lock(seen->mutex);
        seen->status = status;
        seen->changed.notify_all();
      },
      &seen));
  std::unique_lock lock(seen.mutex);
  EXPECT_TRUE(seen.changed.wait_for(lock, 10s, [&] { return seen.status == CL_COMPLETE; }));
}

// Nobody asks: the launches still start (the first at once on an idle queue, the second when the
// device has finished the first or after the batch delay, 200 us), not when they are waited for
// 300 ms later. START is when each began running on the host's clock.
TEST_F(IcdBatching, LaunchesNobodyAsksForStartWithoutAWait) {
  Event first, second;
  ASSERT_CL_SUCCESS(launch(increment_, 0, nullptr, first.put()));
  ASSERT_CL_SUCCESS(launch(increment_, 0, nullptr, second.put()));
  std::this_thread::sleep_for(300ms);
  cl_event handle = second.get();
  ASSERT_CL_SUCCESS(clWaitForEvents(1, &handle));
  for (cl_event event : {first.get(), second.get()}) {
    cl_ulong queued = profilingTime(event, CL_PROFILING_COMMAND_QUEUED);
    cl_ulong started = profilingTime(event, CL_PROFILING_COMMAND_START);
    EXPECT_LT(started - queued, 150'000'000u) << "a launch waited " << (started - queued) / 1000 << " us to start";
  }
}

// A launch enqueued while the queue has nothing on the device is submitted before
// clEnqueueNDRangeKernel returns, so that the device starts while the program goes on. (SUBMIT is
// on the host timer's clock.)
TEST_F(IcdBatching, ALaunchOnAnIdleQueueIsSubmittedBeforeTheEnqueueReturns) {
  ASSERT_CL_SUCCESS(launch(increment_));  // compiles the pipeline
  ASSERT_CL_SUCCESS(clFinish(queue_));
  Event event;
  ASSERT_CL_SUCCESS(launch(increment_, 0, nullptr, event.put()));
  cl_ulong returned = 0;
  ASSERT_CL_SUCCESS(clGetHostTimer(device_, &returned));
  ASSERT_CL_SUCCESS(clFinish(queue_));
  cl_ulong submitted = profilingTime(event, CL_PROFILING_COMMAND_SUBMIT);
  EXPECT_LE(submitted, returned) << "submitted " << (submitted - returned) / 1000 << " us after the enqueue returned";
  EXPECT_EQ(read<cl_uint>(values_, kCount), std::vector<cl_uint>(kCount, 2));
}

// A command that is not a launch (a blocking read) runs after the launches before it.
TEST_F(IcdBatching, AReadAfterLaunchesSeesTheirWrites) {
  for (int i = 0; i < 5; ++i) ASSERT_CL_SUCCESS(launch(increment_));
  EXPECT_EQ(read<cl_uint>(values_, kCount), std::vector<cl_uint>(kCount, 5));
}

// Launches on two queues, each waiting for the other's previous launch: neither queue's batch
// may hold a launch back that the other waits for.
TEST_F(IcdBatching, LaunchesWaitingAcrossQueuesFinish) {
  cl_int error = CL_SUCCESS;
  Queue other(clCreateCommandQueueWithProperties(context_, device_, nullptr, &error));
  ASSERT_CL_SUCCESS(error);
  std::vector<Event> events(8);
  for (size_t i = 0; i < events.size(); ++i) {
    cl_event previous = i > 0 ? events[i - 1].get() : nullptr;
    cl_command_queue queue = i % 2 ? other.get() : queue_.get();
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue, increment_, 1, nullptr, &kCount, nullptr, i > 0 ? 1 : 0,
                                             i > 0 ? &previous : nullptr, events[i].put()));
  }
  cl_event last = events.back().get();
  ASSERT_CL_SUCCESS(clWaitForEvents(1, &last));
  EXPECT_EQ(read<cl_uint>(values_, kCount), std::vector<cl_uint>(kCount, static_cast<cl_uint>(events.size())));
}

}  // namespace
}  // namespace cl2vk::test
