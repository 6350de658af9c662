// Running pipelines: record, submit, wait, and time each dispatch on the GPU with timestamps.
#pragma once

#include <array>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk::vulkan {

class Device;
class Pipeline;
class Submission;
class Queue;

// The time the device spent between a dispatch's start and end timestamps; no value when the
// queue writes no timestamps.
struct GpuTime {
  std::optional<double> nanoseconds;
  // When it started, after the start of the submission's first dispatch.
  std::optional<double> startNanoseconds;

  std::string toString() const;  // "12.345 us", or "unavailable".
};

struct Dispatch {
  const Pipeline* pipeline = nullptr;
  // Exactly the pipeline's push-constant size (the kernel arguments: addresses and scalars).
  std::span<const std::byte> pushConstants;
  std::array<uint32_t, 3> groupCount{1, 1, 1};
  // Whether the dispatch starts after every earlier write to its queue (a barrier before it); one
  // that depends on nothing before it (an out-of-order queue's independent launch) may run beside
  // the dispatches before it, this submission's and earlier ones.
  bool afterEarlierWrites = true;
};

// Runs one dispatch and waits for it.
Expected<GpuTime> dispatch(Device& device, const Pipeline& pipeline, std::span<const std::byte> pushConstants,
                           uint32_t groupCountX, uint32_t groupCountY = 1, uint32_t groupCountZ = 1);

// Runs `dispatches` in order in one submission on the device's first queue, each one seeing the
// writes of those before it (OpenCL's in-order queue), and waits; one time per dispatch.
Expected<std::vector<GpuTime>> dispatchAll(Device& device, std::span<const Dispatch> dispatches);

// Dispatches submitted together, which the device may still be running.
class SubmittedDispatches {
 public:
  // Waits for the device to finish them (Submission::wait).
  Expected<bool> wait(std::optional<std::chrono::steady_clock::time_point> deadline = std::nullopt,
                      bool sleep = false) const;
  // One time per dispatch, once they have finished; no values when they were submitted untimed
  // or the queue writes no timestamps.
  Expected<std::vector<GpuTime>> times() const;

 private:
  friend Expected<SubmittedDispatches> submitDispatches(Device&, Queue&, std::span<const Dispatch>, bool);
  Device* device_ = nullptr;
  std::shared_ptr<Submission> submission_;
  size_t count_ = 0;
  bool timed_ = false;
};

// Submits `dispatches` to `queue`, one of `device`'s, as dispatchAll does but without waiting, and
// with a barrier only before those that are `afterEarlierWrites`; `timed` writes
// a start and an end timestamp around each (what dispatchAll measures).
Expected<SubmittedDispatches> submitDispatches(Device& device, Queue& queue, std::span<const Dispatch> dispatches,
                                               bool timed);

// The bytes of `value`, for push constants: a struct laid out as the kernel's push-constant block.
template <typename T>
std::span<const std::byte> bytesOf(const T& value) {
  return std::as_bytes(std::span<const T>(&value, 1));
}

}  // namespace cl2vk::vulkan
