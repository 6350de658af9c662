// Events: profiling times, waiting, user events that hold commands back, callbacks, markers and
// barriers, and the errors of each.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <mutex>
#include <thread>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

using namespace std::chrono_literals;

class IcdEvent : public IcdTest {
 protected:
  // fill(global int* out, int value) from spirv/kernels/several_kernels.cl.
  Kernel fillKernel() {
    if (!program_) program_ = buildCorpusModule("kernels/several_kernels.O2.spv");
    if (!program_) return Kernel();
    return createKernel(program_, "fill");
  }

  cl_int executionStatus(cl_event event) {
    cl_int status = 1234;
    EXPECT_CL_SUCCESS(clGetEventInfo(event, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr));
    return status;
  }

  static void wait(cl_event event) { ASSERT_CL_SUCCESS(clWaitForEvents(1, &event)); }

  Program program_;
};

// What the callbacks saw, filled from whichever thread the runtime calls them on.
struct CallbackLog {
  std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::pair<cl_event, cl_int>> calls;

  static void CL_CALLBACK record(cl_event event, cl_int status, void* user) {
    auto* log = static_cast<CallbackLog*>(user);
    std::lock_guard lock(log->mutex);
    log->calls.emplace_back(event, status);
    log->changed.notify_all();
  }

  // Waits (at most 5 s) until `count` callbacks have come; returns how many have.
  size_t waitFor(size_t count) {
    std::unique_lock lock(mutex);
    changed.wait_for(lock, 5s, [&] { return calls.size() >= count; });
    return calls.size();
  }
};

TEST_F(IcdEvent, ProfilingTimesAreInOrder) {
  Kernel fill = fillKernel();
  ASSERT_TRUE(fill.get());
  const size_t n = 1 << 16;
  Buffer buffer = createBuffer(n * sizeof(cl_int));
  std::vector<cl_int> data(n, 3);
  Event write, kernel;
  ASSERT_CL_SUCCESS(
      clEnqueueWriteBuffer(queue_, buffer, CL_FALSE, 0, n * sizeof(cl_int), data.data(), 0, nullptr, write.put()));
  setArgs(fill, buffer, cl_int{9});
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, fill, 1, nullptr, &n, nullptr, 0, nullptr, kernel.put()));
  ASSERT_CL_SUCCESS(clFinish(queue_));
  for (cl_event event : {write.get(), kernel.get()}) {
    cl_ulong times[5] = {};
    const cl_profiling_info kPoints[] = {CL_PROFILING_COMMAND_QUEUED, CL_PROFILING_COMMAND_SUBMIT,
                                         CL_PROFILING_COMMAND_START, CL_PROFILING_COMMAND_END,
                                         CL_PROFILING_COMMAND_COMPLETE};
    for (int i = 0; i < 5; ++i) {
      ASSERT_CL_SUCCESS(clGetEventProfilingInfo(event, kPoints[i], sizeof(cl_ulong), &times[i], nullptr))
          << "point " << i;
    }
    EXPECT_GT(times[0], 0u);
    EXPECT_LE(times[0], times[1]) << "QUEUED after SUBMIT";
    EXPECT_LE(times[1], times[2]) << "SUBMIT after START";
    EXPECT_LE(times[2], times[3]) << "START after END";
    EXPECT_LE(times[3], times[4]) << "END after COMPLETE";
  }
  EXPECT_EQ(read<cl_int>(buffer, n), std::vector<cl_int>(n, 9));
}

// A launch without work-items (a NULL global size, allowed since OpenCL 2.1) is a command like any
// other: it waits for its wait list, completes, and its profiling times fall between the device
// timer's readings around it, as the CTS's profiling_timebase checks.
TEST_F(IcdEvent, ALaunchWithoutWorkItemsWaitsCompletesAndIsTimed) {
  Kernel fill = fillKernel();
  ASSERT_TRUE(fill.get());
  Buffer buffer = bufferOf(std::vector<cl_int>(16, 5));
  setArgs(fill, buffer, cl_int{9});
  cl_int status = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &status));
  ASSERT_CL_SUCCESS(status);
  cl_ulong before = 0, afterQueue = 0, afterCompletion = 0, host = 0;
  ASSERT_CL_SUCCESS(clGetDeviceAndHostTimer(device_, &before, &host));
  Event launch;
  ASSERT_CL_SUCCESS(
      clEnqueueNDRangeKernel(queue_, fill, 1, nullptr, nullptr, nullptr, 1, gate.address(), launch.put()));
  ASSERT_CL_SUCCESS(clGetDeviceAndHostTimer(device_, &afterQueue, &host));
  ASSERT_CL_SUCCESS(clFlush(queue_));
  EXPECT_NE(executionStatus(launch), CL_COMPLETE) << "it ran before its wait list";
  ASSERT_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  wait(launch);
  ASSERT_CL_SUCCESS(clGetDeviceAndHostTimer(device_, &afterCompletion, &host));
  cl_ulong queued = 0, submitted = 0, started = 0, ended = 0;
  ASSERT_CL_SUCCESS(clGetEventProfilingInfo(launch, CL_PROFILING_COMMAND_QUEUED, sizeof queued, &queued, nullptr));
  ASSERT_CL_SUCCESS(
      clGetEventProfilingInfo(launch, CL_PROFILING_COMMAND_SUBMIT, sizeof submitted, &submitted, nullptr));
  ASSERT_CL_SUCCESS(clGetEventProfilingInfo(launch, CL_PROFILING_COMMAND_START, sizeof started, &started, nullptr));
  ASSERT_CL_SUCCESS(clGetEventProfilingInfo(launch, CL_PROFILING_COMMAND_END, sizeof ended, &ended, nullptr));
  EXPECT_LT(before, queued);
  EXPECT_LT(queued, afterQueue);
  EXPECT_LE(queued, submitted);
  EXPECT_LE(submitted, started);
  EXPECT_LE(started, ended);
  EXPECT_LT(ended, afterCompletion);
  EXPECT_EQ(read<cl_int>(buffer, 16), std::vector<cl_int>(16, 5)) << "no work-item runs";
}

TEST_F(IcdEvent, ProfilingNeedsAProfilingQueueAndACommand) {
  cl_int status = CL_SUCCESS;
  Queue plain(clCreateCommandQueueWithProperties(context_, device_, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  Buffer buffer = createBuffer(64);
  cl_int value = 1;
  Event write;
  ASSERT_CL_SUCCESS(clEnqueueWriteBuffer(plain, buffer, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, write.put()));
  cl_ulong time = 0;
  EXPECT_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE,
                  clGetEventProfilingInfo(write, CL_PROFILING_COMMAND_START, sizeof(time), &time, nullptr));
  Event user(clCreateUserEvent(context_, &status));
  ASSERT_CL_SUCCESS(status);
  ASSERT_CL_SUCCESS(clSetUserEventStatus(user, CL_COMPLETE));
  EXPECT_CL_ERROR(CL_PROFILING_INFO_NOT_AVAILABLE,
                  clGetEventProfilingInfo(user, CL_PROFILING_COMMAND_START, sizeof(time), &time, nullptr));
}

TEST_F(IcdEvent, InfoDescribesTheCommand) {
  Kernel fill = fillKernel();
  ASSERT_TRUE(fill.get());
  Buffer buffer = createBuffer(64 * sizeof(cl_int));
  setArgs(fill, buffer, cl_int{1});
  const size_t n = 64;
  Event kernel;
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, fill, 1, nullptr, &n, nullptr, 0, nullptr, kernel.put()));
  wait(kernel);
  cl_command_type type = 0;
  EXPECT_CL_SUCCESS(clGetEventInfo(kernel, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_NDRANGE_KERNEL));
  cl_command_queue queue = nullptr;
  EXPECT_CL_SUCCESS(clGetEventInfo(kernel, CL_EVENT_COMMAND_QUEUE, sizeof(queue), &queue, nullptr));
  EXPECT_EQ(queue, queue_.get());
  cl_context context = nullptr;
  EXPECT_CL_SUCCESS(clGetEventInfo(kernel, CL_EVENT_CONTEXT, sizeof(context), &context, nullptr));
  EXPECT_EQ(context, context_.get());
  EXPECT_EQ(executionStatus(kernel), CL_COMPLETE);
  cl_uint references = 0;
  EXPECT_CL_SUCCESS(clGetEventInfo(kernel, CL_EVENT_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 1u);
  EXPECT_CL_SUCCESS(clRetainEvent(kernel));
  EXPECT_CL_SUCCESS(clGetEventInfo(kernel, CL_EVENT_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 2u);
  EXPECT_CL_SUCCESS(clReleaseEvent(kernel));

  cl_int status = CL_SUCCESS;
  Event user(clCreateUserEvent(context_, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_EQ(executionStatus(user), CL_SUBMITTED);
  EXPECT_CL_SUCCESS(clGetEventInfo(user, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_USER));
  queue = queue_;
  EXPECT_CL_SUCCESS(clGetEventInfo(user, CL_EVENT_COMMAND_QUEUE, sizeof(queue), &queue, nullptr));
  EXPECT_EQ(queue, nullptr);
  ASSERT_CL_SUCCESS(clSetUserEventStatus(user, CL_COMPLETE));
  EXPECT_EQ(executionStatus(user), CL_COMPLETE);
}

// A write that waits for a user event does not happen until the event completes; the commands
// behind it in the in-order queue wait too, while another queue goes on.
TEST_F(IcdEvent, UserEventHoldsBackTheCommandsThatWaitForIt) {
  const size_t n = 256;
  Buffer buffer = bufferOf(std::vector<cl_int>(n, 1));
  cl_int status = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &status));
  ASSERT_CL_SUCCESS(status);
  std::vector<cl_int> data(n, 2);
  Event write, marker;
  cl_event gateEvent = gate;
  ASSERT_CL_SUCCESS(
      clEnqueueWriteBuffer(queue_, buffer, CL_FALSE, 0, n * sizeof(cl_int), data.data(), 1, &gateEvent, write.put()));
  ASSERT_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, marker.put()));
  ASSERT_CL_SUCCESS(clFlush(queue_));
  std::this_thread::sleep_for(50ms);
  EXPECT_NE(executionStatus(write), CL_COMPLETE);
  EXPECT_GE(executionStatus(write), CL_SUBMITTED);  // queued or submitted, not running
  EXPECT_NE(executionStatus(marker), CL_COMPLETE);

  Queue other(clCreateCommandQueueWithProperties(context_, device_, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  std::vector<cl_int> before(n, 0);
  ASSERT_CL_SUCCESS(
      clEnqueueReadBuffer(other, buffer, CL_TRUE, 0, n * sizeof(cl_int), before.data(), 0, nullptr, nullptr));
  EXPECT_EQ(before, std::vector<cl_int>(n, 1)) << "the held-back write has happened";

  ASSERT_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  wait(write);
  wait(marker);
  EXPECT_EQ(executionStatus(write), CL_COMPLETE);
  EXPECT_EQ(read<cl_int>(buffer, n), data);
}

TEST_F(IcdEvent, CallbacksFireOnCompletion) {
  Kernel fill = fillKernel();
  ASSERT_TRUE(fill.get());
  const size_t n = 1024;
  Buffer buffer = createBuffer(n * sizeof(cl_int));
  setArgs(fill, buffer, cl_int{4});
  cl_int status = CL_SUCCESS;
  Event gate(clCreateUserEvent(context_, &status));
  ASSERT_CL_SUCCESS(status);
  cl_event gateEvent = gate;
  Event kernel;
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, fill, 1, nullptr, &n, nullptr, 1, &gateEvent, kernel.put()));

  CallbackLog log;
  ASSERT_CL_SUCCESS(clSetEventCallback(kernel, CL_COMPLETE, CallbackLog::record, &log));
  ASSERT_CL_SUCCESS(clSetEventCallback(kernel, CL_SUBMITTED, CallbackLog::record, &log));
  ASSERT_CL_SUCCESS(clSetEventCallback(gate, CL_COMPLETE, CallbackLog::record, &log));
  ASSERT_CL_SUCCESS(clFlush(queue_));
  std::this_thread::sleep_for(20ms);
  {
    std::lock_guard lock(log.mutex);
    for (auto& [event, reported] : log.calls)
      EXPECT_NE(reported, CL_COMPLETE) << "a callback said complete before the gate opened";
  }
  ASSERT_CL_SUCCESS(clSetUserEventStatus(gate, CL_COMPLETE));
  wait(kernel);
  ASSERT_EQ(log.waitFor(3), 3u) << "not every callback was called within 5 s";
  std::lock_guard lock(log.mutex);
  int kernelComplete = 0, gateComplete = 0;
  for (auto& [event, reported] : log.calls) {
    if (event == kernel.get() && reported == CL_COMPLETE) ++kernelComplete;
    if (event == gate.get() && reported == CL_COMPLETE) ++gateComplete;
    EXPECT_TRUE(event == kernel.get() || event == gate.get());
  }
  EXPECT_EQ(kernelComplete, 1);
  EXPECT_EQ(gateComplete, 1);
}

// Opens `gate` when the command it is registered on completes.
void CL_CALLBACK openGate(cl_event, cl_int, void* gate) {
  clSetUserEventStatus(static_cast<cl_event>(gate), CL_COMPLETE);
}

// Launch K1 filling `first` with 1, then launch K2 filling `second` with 2 behind a user event
// that K1's completion callback opens.
class IcdGatedLaunches : public IcdEvent {
 protected:
  void SetUp() override {
    IcdEvent::SetUp();
    if (HasFatalFailure()) return;
    fill_ = fillKernel();
    ASSERT_TRUE(fill_.get());
    first_ = createBuffer(kItems * sizeof(cl_int));
    second_ = createBuffer(kItems * sizeof(cl_int));
    cl_int status = CL_SUCCESS;
    gate_ = Event(clCreateUserEvent(context_, &status));
    ASSERT_CL_SUCCESS(status);
    setArgs(fill_, first_, cl_int{1});
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, fill_, 1, nullptr, &kItems, nullptr, 0, nullptr, k1_.put()));
    setArgs(fill_, second_, cl_int{2});
    cl_event gate = gate_;
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, fill_, 1, nullptr, &kItems, nullptr, 1, &gate, k2_.put()));
    ASSERT_CL_SUCCESS(clSetEventCallback(k1_, CL_COMPLETE, openGate, gate_.get()));
  }

  void expectBothFilled() {
    EXPECT_EQ(executionStatus(k2_), CL_COMPLETE);
    EXPECT_EQ(read<cl_int>(first_, kItems), std::vector<cl_int>(kItems, 1));
    EXPECT_EQ(read<cl_int>(second_, kItems), std::vector<cl_int>(kItems, 2));
  }

  static constexpr size_t kItems = 1024;
  Kernel fill_;
  Buffer first_, second_;
  Event gate_, k1_, k2_;
};

// K1 must complete while K2 waits. The queue's worker, the only thread watching K1's submission,
// used to block on K2's user event, and K1 stayed CL_RUNNING forever.
TEST_F(IcdGatedLaunches, ALaunchBehindAUserEventDoesNotHoldBackTheOneBeforeIt) {
  ASSERT_CL_SUCCESS(clFlush(queue_));
  // Polled, as the program would: nothing else waits for K1.
  auto deadline = std::chrono::steady_clock::now() + 20s;
  while (executionStatus(k1_) != CL_COMPLETE && std::chrono::steady_clock::now() < deadline)
    std::this_thread::sleep_for(1ms);
  EXPECT_EQ(executionStatus(k1_), CL_COMPLETE) << "K1 did not complete in 20 s while K2 waited for its user event";
  if (executionStatus(k1_) != CL_COMPLETE) clSetUserEventStatus(gate_, CL_COMPLETE);  // let the queue drain
  ASSERT_CL_SUCCESS(clFinish(queue_));
  expectBothFilled();
}

// The same with clFinish as the waiting thread: it completes K1, whose callback opens K2's gate,
// and returns once K2 is done.
TEST_F(IcdGatedLaunches, FinishCompletesWhatAUserEventWaitsForOnTheSameQueue) {
  // A watchdog opens the gate after 20 s, so that a regression fails instead of hanging.
  std::atomic<bool> finished = false;
  std::thread watchdog([&] {
    auto deadline = std::chrono::steady_clock::now() + 20s;
    while (!finished && std::chrono::steady_clock::now() < deadline) std::this_thread::sleep_for(5ms);
    if (!finished) clSetUserEventStatus(gate_, CL_COMPLETE);
  });
  auto started = std::chrono::steady_clock::now();
  cl_int finish = clFinish(queue_);
  finished = true;
  watchdog.join();
  ASSERT_CL_SUCCESS(finish);
  EXPECT_LT(std::chrono::steady_clock::now() - started, 15s) << "clFinish waited for the watchdog";
  expectBothFilled();
}

// Launches submitted together run in order on the device: while one still runs, a launch that
// waits for it is reported CL_SUBMITTED, never CL_RUNNING (the CTS's events `waitlists` saw both
// running on an idle lavapipe). Polled until the second completes; read in that order, a second
// reported running means the first had completed.
TEST_F(IcdEvent, ALaunchIsNotRunningWhileOneItWaitsForIs) {
  Kernel fill = fillKernel();
  ASSERT_TRUE(fill.get());
  const size_t n = size_t{1} << 24;
  Buffer first = createBuffer(n * sizeof(cl_int)), second = createBuffer(n * sizeof(cl_int));
  Event k1, k2;
  setArgs(fill, first, cl_int{5});
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, fill, 1, nullptr, &n, nullptr, 0, nullptr, k1.put()));
  setArgs(fill, second, cl_int{6});
  cl_event k1Event = k1;
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, fill, 1, nullptr, &n, nullptr, 1, &k1Event, k2.put()));
  ASSERT_CL_SUCCESS(clFlush(queue_));
  auto deadline = std::chrono::steady_clock::now() + 60s;
  size_t polls = 0;
  for (cl_int second = executionStatus(k2); second != CL_COMPLETE; second = executionStatus(k2), ++polls) {
    ASSERT_LT(std::chrono::steady_clock::now(), deadline) << "the launches did not complete in 60 s";
    if (second == CL_RUNNING) {
      ASSERT_EQ(executionStatus(k1), CL_COMPLETE) << "poll " << polls;
    }
  }
  EXPECT_EQ(executionStatus(k1), CL_COMPLETE);
}

TEST_F(IcdEvent, CallbackOnACompletedEventStillFires) {
  Buffer buffer = createBuffer(64);
  cl_int value = 5;
  Event write;
  ASSERT_CL_SUCCESS(clEnqueueWriteBuffer(queue_, buffer, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, write.put()));
  CallbackLog log;
  ASSERT_CL_SUCCESS(clSetEventCallback(write, CL_COMPLETE, CallbackLog::record, &log));
  ASSERT_EQ(log.waitFor(1), 1u);
  std::lock_guard lock(log.mutex);
  EXPECT_EQ(log.calls[0].second, CL_COMPLETE);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetEventCallback(write, CL_COMPLETE, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetEventCallback(write, CL_QUEUED, CallbackLog::record, &log));
}

TEST_F(IcdEvent, WaitForSeveralEvents) {
  Kernel fill = fillKernel();
  ASSERT_TRUE(fill.get());
  const size_t n = 512;
  std::vector<Buffer> buffers;
  std::vector<Event> events(4);
  std::vector<cl_event> raw;
  for (int i = 0; i < 4; ++i) {
    buffers.push_back(createBuffer(n * sizeof(cl_int)));
    setArgs(fill, buffers.back(), cl_int{10 + i});
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, fill, 1, nullptr, &n, nullptr, 0, nullptr, events[i].put()));
    raw.push_back(events[i]);
  }
  ASSERT_CL_SUCCESS(clWaitForEvents(static_cast<cl_uint>(raw.size()), raw.data()));
  for (int i = 0; i < 4; ++i) {
    EXPECT_EQ(executionStatus(events[i]), CL_COMPLETE);
    EXPECT_EQ(read<cl_int>(buffers[i], n), std::vector<cl_int>(n, 10 + i));
  }
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clWaitForEvents(0, nullptr));
}

TEST_F(IcdEvent, MarkersAndBarriersCompleteAfterWhatCameBefore) {
  Kernel fill = fillKernel();
  ASSERT_TRUE(fill.get());
  const size_t n = 4096;
  Buffer buffer = createBuffer(n * sizeof(cl_int));
  setArgs(fill, buffer, cl_int{6});
  Event kernel, marker, barrier;
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, fill, 1, nullptr, &n, nullptr, 0, nullptr, kernel.put()));
  ASSERT_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue_, 0, nullptr, marker.put()));
  cl_event kernelEvent = kernel;
  ASSERT_CL_SUCCESS(clEnqueueBarrierWithWaitList(queue_, 1, &kernelEvent, barrier.put()));
  wait(marker);
  EXPECT_EQ(executionStatus(kernel), CL_COMPLETE) << "the marker completed before the kernel";
  wait(barrier);
  cl_command_type type = 0;
  EXPECT_CL_SUCCESS(clGetEventInfo(marker, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_MARKER));
  EXPECT_CL_SUCCESS(clGetEventInfo(barrier, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_BARRIER));
  EXPECT_EQ(read<cl_int>(buffer, n), std::vector<cl_int>(n, 6));
}

TEST_F(IcdEvent, MisusedEventsAreRefused) {
  cl_int status = CL_SUCCESS;
  Event user(clCreateUserEvent(context_, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetUserEventStatus(user, CL_RUNNING));
  ASSERT_CL_SUCCESS(clSetUserEventStatus(user, CL_COMPLETE));
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, clSetUserEventStatus(user, CL_COMPLETE));

  Buffer buffer = createBuffer(64);
  cl_int value = 0;
  Event write;
  ASSERT_CL_SUCCESS(clEnqueueWriteBuffer(queue_, buffer, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, write.put()));
  EXPECT_CL_ERROR(CL_INVALID_EVENT, clSetUserEventStatus(write, CL_COMPLETE));
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST,
                  clEnqueueWriteBuffer(queue_, buffer, CL_TRUE, 0, sizeof(value), &value, 1, nullptr, nullptr));
  cl_event writeEvent = write;
  EXPECT_CL_ERROR(CL_INVALID_EVENT_WAIT_LIST,
                  clEnqueueWriteBuffer(queue_, buffer, CL_TRUE, 0, sizeof(value), &value, 0, &writeEvent, nullptr));

  // Events of two contexts cannot be waited for together.
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
  Context otherContext(clCreateContext(properties, 1, &device_, nullptr, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  Event otherUser(clCreateUserEvent(otherContext, &status));
  ASSERT_CL_SUCCESS(status);
  ASSERT_CL_SUCCESS(clSetUserEventStatus(otherUser, CL_COMPLETE));
  cl_event mixed[] = {user, otherUser};
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, clWaitForEvents(2, mixed));
  cl_event foreign = otherUser;
  EXPECT_CL_ERROR(CL_INVALID_CONTEXT, clEnqueueMarkerWithWaitList(queue_, 1, &foreign, nullptr));
}

}  // namespace
}  // namespace cl2vk::test
