// Commands that may run at once (src/runtime/queue.h): each command queue submits to a Vulkan queue
// of its own where the device has several, and an out-of-order queue's launch that waits for
// nothing of its queue has no barrier before it. These tests check that what must still come in
// order does: a launch sees the writes of the launches its events name, of a barrier's and
// marker's predecessors, and of another queue's commands it waits for. Each step is long enough
// (a few hundred rounds per work-item) that a launch started early would read its input before
// the step that writes it had finished, on a GPU; on a CPU device, which runs one dispatch at a
// time, they check the results and that nothing waits forever.

#include <numeric>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

constexpr const char* kStepSource = R"(
kernel void step(global const uint* in, global uint* out, uint rounds) {
  size_t i = get_global_id(0);
  uint x = in[i];
  for (uint r = 0; r < rounds; ++r) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    x += r;
  }
  out[i] = x;
}

kernel void mix(global const uint* a, global const uint* b, global uint* out) {
  size_t i = get_global_id(0);
  out[i] = a[i] * 3u + b[i];
}
)";

constexpr size_t kCount = 4096;
constexpr cl_uint kRounds = 300;

// What `step` makes of one value.
cl_uint stepped(cl_uint x) {
  for (cl_uint r = 0; r < kRounds; ++r) {
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    x += r;
  }
  return x;
}

std::vector<cl_uint> stepped(std::vector<cl_uint> values, int times = 1) {
  for (int t = 0; t < times; ++t) {
    for (cl_uint& value : values) value = stepped(value);
  }
  return values;
}

std::vector<cl_uint> seeds(cl_uint first) {
  std::vector<cl_uint> values(kCount);
  std::iota(values.begin(), values.end(), first);
  return values;
}

class ConcurrentQueues : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    if (HasFatalFailure()) return;
    program_ = buildSource(kStepSource);
    ASSERT_TRUE(program_.get());
    step_ = createKernel(program_, "step");
    mix_ = createKernel(program_, "mix");
  }

  Queue createQueue(cl_command_queue_properties properties) {
    cl_queue_properties list[] = {CL_QUEUE_PROPERTIES, properties, 0};
    cl_int error = CL_SUCCESS;
    Queue queue(clCreateCommandQueueWithProperties(context_, device_, properties ? list : nullptr, &error));
    EXPECT_CL_SUCCESS(error);
    return queue;
  }

  // Enqueues `step` from `in` to `out` on `queue` after `waitList`.
  cl_int enqueueStep(cl_command_queue queue, const Buffer& in, const Buffer& out, std::vector<cl_event> waitList = {},
                     cl_event* event = nullptr) {
    setArgs(step_, in, out, kRounds);
    return clEnqueueNDRangeKernel(queue, step_, 1, nullptr, &kCount, nullptr, static_cast<cl_uint>(waitList.size()),
                                  waitList.empty() ? nullptr : waitList.data(), event);
  }

  Program program_;
  Kernel step_, mix_;
};

// A chain of launches, each waiting for the one before through its event, interleaved with
// launches that wait for nothing and may run beside them: the chain's end has every step's work.
TEST_F(ConcurrentQueues, AnOutOfOrderQueueRunsEachLaunchAfterTheEventsItWaitsFor) {
  Queue queue = createQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_TRUE(queue.get());
  constexpr int kSteps = 6;
  std::vector<Buffer> chain;
  chain.push_back(bufferOf(seeds(1)));
  for (int i = 0; i < kSteps; ++i) chain.push_back(createBuffer(kCount * sizeof(cl_uint)));
  std::vector<Buffer> loose, looseOut;
  std::vector<Event> events(kSteps);
  for (int i = 0; i < kSteps; ++i) {
    std::vector<cl_event> waitList;
    if (i > 0) waitList.push_back(events[i - 1].get());
    ASSERT_CL_SUCCESS(enqueueStep(queue, chain[i], chain[i + 1], waitList, events[i].put()));
    loose.push_back(bufferOf(seeds(1000 * (i + 1))));
    looseOut.push_back(createBuffer(kCount * sizeof(cl_uint)));
    ASSERT_CL_SUCCESS(enqueueStep(queue, loose.back(), looseOut.back()));
  }
  ASSERT_CL_SUCCESS(clFinish(queue));
  EXPECT_EQ(read<cl_uint>(chain.back(), kCount), stepped(seeds(1), kSteps));
  for (int i = 0; i < kSteps; ++i) {
    EXPECT_EQ(read<cl_uint>(looseOut[i], kCount), stepped(seeds(1000 * (i + 1)))) << "independent launch " << i;
  }
}

// Two independent launches of an out-of-order queue (on a device with several Vulkan queues, each
// on its own), then a launch waiting for both, and one waiting for that: it sees both results.
TEST_F(ConcurrentQueues, AnOutOfOrderLaunchWaitingForLaunchesOnTwoVulkanQueuesSeesBoth) {
  Queue queue = createQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_TRUE(queue.get());
  for (int round = 0; round < 3; ++round) {
    Buffer a = bufferOf(seeds(11 + round)), b = bufferOf(seeds(5000 + round));
    Buffer a1 = createBuffer(kCount * sizeof(cl_uint)), b1 = createBuffer(kCount * sizeof(cl_uint));
    Buffer mixed = createBuffer(kCount * sizeof(cl_uint)), last = createBuffer(kCount * sizeof(cl_uint));
    Event aDone, bDone, mixDone;
    ASSERT_CL_SUCCESS(enqueueStep(queue, a, a1, {}, aDone.put()));
    ASSERT_CL_SUCCESS(enqueueStep(queue, b, b1, {}, bDone.put()));
    setArgs(mix_, a1, b1, mixed);
    cl_event both[] = {aDone.get(), bDone.get()};
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue, mix_, 1, nullptr, &kCount, nullptr, 2, both, mixDone.put()));
    ASSERT_CL_SUCCESS(enqueueStep(queue, mixed, last, {mixDone.get()}));
    ASSERT_CL_SUCCESS(clFinish(queue));
    std::vector<cl_uint> expected = stepped(seeds(11 + round)), other = stepped(seeds(5000 + round));
    for (size_t i = 0; i < kCount; ++i) expected[i] = expected[i] * 3u + other[i];
    EXPECT_EQ(read<cl_uint>(last, kCount), stepped(expected)) << "round " << round;
  }
}

// In an out-of-order queue a barrier (and a marker waited for) orders what follows after what
// came before, with no event between the launches themselves.
TEST_F(ConcurrentQueues, AnOutOfOrderQueuesBarrierOrdersTheLaunchesAroundIt) {
  Queue queue = createQueue(CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
  ASSERT_TRUE(queue.get());
  Buffer first = bufferOf(seeds(7));
  Buffer second = createBuffer(kCount * sizeof(cl_uint)), third = createBuffer(kCount * sizeof(cl_uint));
  ASSERT_CL_SUCCESS(enqueueStep(queue, first, second));
  ASSERT_CL_SUCCESS(clEnqueueBarrierWithWaitList(queue, 0, nullptr, nullptr));
  ASSERT_CL_SUCCESS(enqueueStep(queue, second, third));
  Event marker;
  ASSERT_CL_SUCCESS(clEnqueueMarkerWithWaitList(queue, 0, nullptr, marker.put()));
  cl_event markerEvent = marker.get();
  ASSERT_CL_SUCCESS(enqueueStep(queue, third, first, {markerEvent}));
  ASSERT_CL_SUCCESS(clFinish(queue));
  EXPECT_EQ(read<cl_uint>(first, kCount), stepped(seeds(7), 3));
}

// Four in-order queues, each a chain on buffers of its own, then one launch per queue that waits
// for the next queue's chain and steps its result: every queue's commands stay in order, and a
// launch waiting for another queue's event sees what that queue wrote.
TEST_F(ConcurrentQueues, SeveralQueuesKeepTheirOwnOrderAndSeeEachOthersWaitedForWrites) {
  constexpr int kQueues = 4, kSteps = 4;
  std::vector<Queue> queues;
  std::vector<Buffer> ping, pong, across;
  std::vector<Event> ends(kQueues);
  for (int q = 0; q < kQueues; ++q) {
    queues.push_back(createQueue(0));
    ASSERT_TRUE(queues.back().get());
    ping.push_back(bufferOf(seeds(100 * q)));
    pong.push_back(createBuffer(kCount * sizeof(cl_uint)));
    across.push_back(createBuffer(kCount * sizeof(cl_uint)));
  }
  for (int s = 0; s < kSteps; ++s) {
    for (int q = 0; q < kQueues; ++q) {
      bool last = s == kSteps - 1;
      const Buffer& in = s % 2 ? pong[q] : ping[q];
      const Buffer& out = s % 2 ? ping[q] : pong[q];
      ASSERT_CL_SUCCESS(enqueueStep(queues[q], in, out, {}, last ? ends[q].put() : nullptr));
    }
  }
  for (int q = 0; q < kQueues; ++q) ASSERT_CL_SUCCESS(clFlush(queues[q]));
  // kSteps is even: each chain ends in ping.
  for (int q = 0; q < kQueues; ++q) {
    int next = (q + 1) % kQueues;
    ASSERT_CL_SUCCESS(enqueueStep(queues[q], ping[next], across[q], {ends[next].get()}));
  }
  for (int q = 0; q < kQueues; ++q) ASSERT_CL_SUCCESS(clFinish(queues[q]));
  for (int q = 0; q < kQueues; ++q) {
    int next = (q + 1) % kQueues;
    EXPECT_EQ(read<cl_uint>(across[q], kCount), stepped(seeds(100 * next), kSteps + 1)) << "queue " << q;
  }
}

}  // namespace
}  // namespace cl2vk::test
