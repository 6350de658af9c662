// Host memory that two devices both import (VK_EXT_external_memory_host), through which a buffer's
// contents move from one device to the other with no copy by the host: the source device copies a
// piece into one block while the destination device copies the piece before out of the other.
// The blocks are made once and kept (the OpenCL runtime keeps one relay per pair of devices of a
// context): importing host memory pins its pages, and a relay made for every move spent more time
// pinning than copying (docs/PERFORMANCE.md, "Two GPUs").
#pragma once

#include <array>
#include <cstddef>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <optional>

#include "cl2vk/expected.h"
#include "vulkan/buffer.h"

namespace cl2vk::vulkan {

class Device;

class HostRelay {
 public:
  // How many bytes one block holds: on two H200s 1, 4, 16 and 64 MiB moved 10.7, 24.5, 35.0 and
  // 36.5 GB/s; 16 MiB pins 32 MiB of host memory per pair of devices.
  static constexpr VkDeviceSize kPiece = VkDeviceSize{16} << 20;

  // A relay between `first` and `second`, which must outlive it; null (not an error) where either
  // device cannot import host memory, or refuses the memory it was given.
  static Expected<std::unique_ptr<HostRelay>> create(Device& first, Device& second);
  ~HostRelay();
  HostRelay(const HostRelay&) = delete;
  HostRelay& operator=(const HostRelay&) = delete;

  // Copies the first `size` bytes of `source` to `destination`, one a buffer of each of the relay's
  // devices (either way), after everything submitted before on both; blocks until done. One copy
  // at a time: a second caller waits.
  Status copy(Buffer& source, Buffer& destination, VkDeviceSize size);

 private:
  struct Block {
    std::byte* memory = nullptr;                    // std::aligned_alloc'd, freed after the imports
    std::array<std::optional<Buffer>, 2> imported;  // on first_, on second_
  };
  HostRelay(Device& first, Device& second) : first_(first), second_(second) {}
  // Where `block` is imported on `device`, one of the relay's.
  Buffer& on(Block& block, const Device& device) { return *block.imported[&device == &first_ ? 0 : 1]; }

  Device& first_;
  Device& second_;
  std::array<Block, 2> blocks_;
  std::mutex mutex_;
};

}  // namespace cl2vk::vulkan
