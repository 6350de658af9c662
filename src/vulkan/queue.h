// One of the device's compute queues (Device::queue). Each submission records into a command buffer of its own and
// signals a fence of its own, so that several may be in flight at once: the OpenCL runtime submits
// a batch of launches without waiting for it and records the next while the device runs it. A
// submission waits for nothing before it: its commands start with a barrier on every earlier
// write (barriers.h), which orders them after the earlier submissions to this queue (not to the
// device's other queues: work for one of those that depends on this one's waits for it on the
// host). Transfers still submit and wait (submitAndWait). Several threads may submit at once
// (OpenCL command queues may share a Vulkan queue): recording and vkQueueSubmit are serialised,
// waits are not.
//
// On a GPU a wait polls the fence for up to 2 ms before it sleeps in vkWaitForFences: a sleeping
// wait wakes tens of microseconds after the device is done (measured on NVIDIA's driver: a tiny
// kernel's enqueue-and-finish took 60 us against 24 us through NVIDIA's OpenCL), which is more
// than many kernels take. On a CPU device (lavapipe, SwiftShader) the wait sleeps at once: polling
// would take a core from the threads that run the kernel. CL2VK_WAIT=poll or sleep overrides.
// Once a submission or its wait reports VK_ERROR_DEVICE_LOST, the device is lost for good: every
// later submission to any of its queues fails at once, as Vulkan requires (a lost device only
// takes destruction). A
// queue created with a hang timeout (DeviceOptions::hangTimeout, CL2VK_HANG_TIMEOUT) takes a
// submission that has not finished that long after it was submitted to hang: its wait fails and
// nothing more is submitted. Without one a wait has no limit, as with other OpenCL
// implementations: llvmpipe compiles a pipeline when it first runs it, which for a large kernel on
// a loaded machine takes minutes, and a kernel may legitimately run longer than any fixed limit.
#pragma once

#include <volk.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk::vulkan {

// Whether a queue of a device of `type` polls its fences (above).
bool pollFencesOn(VkPhysicalDeviceType type);

class Queue;

// One submitted command buffer. Any thread may wait for it, several at once. Destroying it waits
// for the device to finish it (unless the queue hangs or is lost), then hands its command buffer,
// fence and queries back to the queue.
class Submission {
 public:
  ~Submission();
  Submission(const Submission&) = delete;
  Submission& operator=(const Submission&) = delete;

  // Waits until the device has finished the submission: true; or until `deadline` passes first:
  // false. `sleep` waits in vkWaitForFences at once even where the queue polls (a thread that only
  // keeps things moving in the background). An error when the device is lost or the submission
  // hangs.
  Expected<bool> wait(std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt,
                      bool sleep = false) const;
  // The timestamps the submission wrote (queries 0 to `count` - 1 of its pool), once it has finished.
  Status readTimestamps(std::span<uint64_t> ticks) const;

 private:
  friend class Queue;
  // A command buffer, the fence its submission signals and its timestamp queries.
  struct Slot {
    VkCommandBuffer commands = VK_NULL_HANDLE;
    VkFence fence = VK_NULL_HANDLE;
    VkQueryPool timestamps = VK_NULL_HANDLE;
    uint32_t timestampCapacity = 0;
  };
  Submission(Queue& queue, Slot* slot) : queue_(queue), slot_(slot) {}

  Queue& queue_;
  Slot* slot_;
  std::chrono::steady_clock::time_point submittedAt_ = std::chrono::steady_clock::now();
  mutable std::atomic<bool> finished_ = false;
};

class Queue {
 public:
  // Queue `index` of `family`. `table` must outlive the queue (the Device owns both);
  // `deviceLost` is the device's loss, which all its queues share.
  // `hostQueryReset`: the device has that feature enabled, and a submission's timestamp queries
  // are reset on the host (vkResetQueryPool) rather than in its command buffer, which on NVIDIA's
  // driver cost a small launch about 6 microseconds (docs/PERFORMANCE.md, "Launch latency").
  static Expected<std::unique_ptr<Queue>> create(const VolkDeviceTable& table, VkDevice device, uint32_t family,
                                                 uint32_t index, uint32_t timestampValidBits, bool pollFences,
                                                 bool hostQueryReset, std::shared_ptr<std::atomic<bool>> deviceLost,
                                                 std::optional<std::chrono::seconds> hangTimeout = std::nullopt);
  ~Queue();
  Queue(const Queue&) = delete;
  Queue& operator=(const Queue&) = delete;

  uint32_t family() const { return family_; }
  // 0 when the family writes no timestamps.
  uint32_t timestampValidBits() const { return timestampValidBits_; }

  // Records with `record` into a command buffer and submits it; returns without waiting. With
  // `timestamps` > 0, `record` gets a query pool of at least that many timestamp queries, reset
  // before `record` runs (null where the queue writes no timestamps or the pool cannot be made).
  Expected<std::shared_ptr<Submission>> submit(const std::function<void(VkCommandBuffer, VkQueryPool)>& record,
                                               uint32_t timestamps = 0);

  // submit(), then waits until the device has finished (or the hang timeout has passed: an
  // error).
  Status submitAndWait(const std::function<void(VkCommandBuffer)>& record);

  // Whether a submission to one of the device's queues reported VK_ERROR_DEVICE_LOST.
  bool lost() const { return lost_->load(std::memory_order_acquire); }
  // What a submission on a lost queue fails with.
  static Error lostError();

 private:
  friend class Submission;
  Queue(const VolkDeviceTable& table, VkDevice device, std::shared_ptr<std::atomic<bool>> deviceLost)
      : vk_(table), device_(device), lost_(std::move(deviceLost)) {}
  // A free slot, or a new one; under mutex_.
  Expected<Submission::Slot*> takeSlot();
  void releaseSlot(Submission::Slot* slot);
  void destroySlot(Submission::Slot& slot);
  // Marks the device lost; the first time, after letting this queue finish what it was given
  // (vkQueueWaitIdle): a really lost device returns at once, and its owner frees the memory and
  // pipelines of the lost work next, which a device only reported lost (the tests' fault layer)
  // might still run, and which the validation layer would take as in use. `locked`: the caller
  // holds mutex_.
  void markLost(bool locked);

  const VolkDeviceTable& vk_;
  VkDevice device_;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool commandPool_ = VK_NULL_HANDLE;
  // Every slot made, and those not in flight; a slot is made when a submission finds none free.
  std::vector<std::unique_ptr<Submission::Slot>> slots_;
  std::vector<Submission::Slot*> free_;
  // Set when a submission did not finish in time: its command buffer may still run, so nothing
  // may be submitted (or freed) after it.
  std::atomic<bool> hung_ = false;
  std::shared_ptr<std::atomic<bool>> lost_;  // never null
  // Guards the pool, the slots and the VkQueue, which Vulkan requires to be externally
  // synchronised.
  std::mutex mutex_;
  uint32_t family_ = 0;
  bool pollFences_ = false;
  bool hostQueryReset_ = false;
  // How long a submission may run before it is taken to hang; none: no limit.
  std::optional<std::chrono::seconds> hangTimeout_;
  uint32_t timestampValidBits_ = 0;
};

}  // namespace cl2vk::vulkan
