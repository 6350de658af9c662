// Device memory that released buffers leave behind, kept for the next buffer of the same shape.
// vkAllocateMemory and vkFreeMemory take tens to hundreds of microseconds on GPU drivers (and
// NVIDIA caps how many allocations may live at once), while OpenCL clients create and release a
// small buffer on every call (CLBlast's temporaries) and every transfer needs a staging buffer:
// with the memory recycled, such calls allocate nothing. The cache is bounded, never holds large
// buffers (how large depends on the device: below), is emptied when an allocation fails (Buffer retries once) and
// before the device is destroyed (docs/runtime.md, "Memory"). Thread-safe.
#pragma once

#include <volk.h>

#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>

namespace cl2vk::vulkan {

// Everything that made an allocation: a kept one is handed out only for an equal shape.
struct BufferShape {
  VkBufferUsageFlags usage = 0;
  VkMemoryPropertyFlags required = 0;
  VkMemoryPropertyFlags preferred = 0;
  bool deviceAddress = false;
  VkDeviceSize capacity = 0;  // the VkBuffer's size: the size class (BufferCache::capacityFor)
  bool operator==(const BufferShape&) const = default;
};

// A VkBuffer bound to memory of its own, with what Buffer learnt when it made them.
struct BufferAllocation {
  BufferShape shape;
  VkBuffer buffer = VK_NULL_HANDLE;
  VkDeviceMemory memory = VK_NULL_HANDLE;
  VkDeviceSize memorySize = 0;
  VkDeviceAddress address = 0;  // when shape.deviceAddress
  void* mapped = nullptr;       // when shape.required has HOST_VISIBLE: stays mapped while kept
  bool hostCoherent = false;
};

class BufferCache {
 public:
  // At most this many allocations and maxKeptBytes() bytes are kept; the oldest go first.
  // Allocations above largestKept() bytes are freed at once: keeping them would hold memory the
  // application may need. The defaults are for CPU devices (lavapipe, SwiftShader), where an
  // allocation is a malloc; limitsFor gives a GPU more.
  static constexpr size_t kMaxKept = 64;
  static constexpr VkDeviceSize kMaxKeptBytes = VkDeviceSize{64} << 20;
  static constexpr VkDeviceSize kLargestKept = VkDeviceSize{4} << 20;

  struct Limits {
    VkDeviceSize maxKeptBytes = kMaxKeptBytes;
    VkDeviceSize largestKept = kLargestKept;
  };
  // A GPU keeps up to 1/16 of its largest device-local heap, between 64 MiB and 1 GiB, and
  // buffers up to a quarter of that: on NVIDIA's driver a 64 MiB allocation and its release took
  // about as long as a 4096^3 SGEMM (CLBlast allocates its padded copies on every call; measured
  // on the H100, docs/PERFORMANCE.md). Other devices get the defaults.
  static Limits limitsFor(VkPhysicalDeviceType type, VkDeviceSize deviceLocalHeapBytes);

  // The VkBuffer size a buffer of `size` bytes gets: up to kLargestKept, `size` rounded up to a
  // multiple of a quarter of its power of two and of 256 bytes (at most 25% or 255 bytes more), so
  // that transfers and buffers of nearby sizes share allocations; above it, `size` itself (a
  // larger buffer is reused only for the same size).
  static VkDeviceSize capacityFor(VkDeviceSize size);

  // `vk` must outlive the cache (the Device owns both).
  BufferCache(const VolkDeviceTable& vk, VkDevice device, Limits limits) : vk_(vk), device_(device), limits_(limits) {}
  // Frees nothing: the Device calls clear() before destroying the VkDevice, and leaves the cache
  // alone when the process is exiting (process_exit.h).
  ~BufferCache() = default;
  BufferCache(const BufferCache&) = delete;
  BufferCache& operator=(const BufferCache&) = delete;

  // The most recently kept allocation of exactly `shape`, which the caller then owns.
  std::optional<BufferAllocation> take(const BufferShape& shape);
  // Keeps `allocation` (whose contents become undefined) or frees it; frees the oldest kept ones
  // when the bounds are passed.
  void keep(const BufferAllocation& allocation);
  // Frees everything kept; returns how many allocations that was.
  size_t clear();

  size_t kept() const;
  VkDeviceSize keptBytes() const;

  // Destroys `allocation`'s buffer and frees its memory, keeping nothing.
  void free(const BufferAllocation& allocation) const;

 private:
  const VolkDeviceTable& vk_;
  VkDevice device_;
  Limits limits_;
  mutable std::mutex mutex_;
  std::deque<BufferAllocation> kept_;  // oldest first
  VkDeviceSize keptBytes_ = 0;
};

}  // namespace cl2vk::vulkan
