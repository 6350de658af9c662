// Running pipelines: record, submit, wait, and time each dispatch on the GPU with timestamps.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk::vulkan {

class Device;
class Pipeline;

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
};

// Runs one dispatch and waits for it.
Expected<GpuTime> dispatch(Device& device, const Pipeline& pipeline, std::span<const std::byte> pushConstants,
                           uint32_t groupCountX, uint32_t groupCountY = 1, uint32_t groupCountZ = 1);

// Runs `dispatches` in order in one submission, each one seeing the writes of those before it
// (OpenCL's in-order queue), and waits; one time per dispatch.
Expected<std::vector<GpuTime>> dispatchAll(Device& device, std::span<const Dispatch> dispatches);

// The bytes of `value`, for push constants: a struct laid out as the kernel's push-constant block.
template <typename T>
std::span<const std::byte> bytesOf(const T& value) {
  return std::as_bytes(std::span<const T>(&value, 1));
}

}  // namespace cl2vk::vulkan
