// A device-local storage buffer that kernels reach through its device address, and the transfers
// between it and host memory. upload() and download() go through host-visible staging buffers and
// copies on the queue, in pieces of Device::stagingChunk() bytes with three in flight, so that the
// host copies one piece while the device copies the one before; they are ordered after every
// earlier submission, whatever thread made it. write() and read() are for a caller that already
// knows nothing in flight uses the range (the OpenCL runtime's transfer commands): where the
// buffer's memory is the host's (a CPU device: lavapipe, SwiftShader) they copy it directly.
#pragma once

#include <volk.h>

#include <cstddef>
#include <span>
#include <vector>

#include "cl2vk/expected.h"
#include "vulkan/buffer_cache.h"

namespace cl2vk::vulkan {

class Device;

class Buffer {
 public:
  // `size` bytes (> 0) of DEVICE_LOCAL memory when the device has such a type, with storage,
  // transfer and shader-device-address usage. The contents start undefined: the memory may be a
  // released buffer's, recycled through the device's BufferCache (as are staging buffers).
  static Expected<Buffer> create(Device& device, VkDeviceSize size);
  // The largest `size` that create() can allocate in one piece: the device's allocation and buffer
  // limits, less what its driver adds to a buffer's memory (SwiftShader pads every buffer past its
  // size, so a buffer of exactly maxMemoryAllocationSize bytes needs more than one allocation may
  // have). Asks the driver for the memory requirements of buffers it creates and destroys.
  static Expected<VkDeviceSize> largestSize(Device& device);
  // `size` bytes of host memory that the device copies into and out of directly (host-visible and
  // coherent; cached where the device has such memory, so that the host reads it at the speed of
  // its own memory), mapped for the buffer's whole life (hostAddress): what the OpenCL runtime
  // hands out for a map on a GPU. No device address.
  static Expected<Buffer> createHostMemory(Device& device, VkDeviceSize size);

  // A storage buffer (as create() makes) whose memory is the host's `size` bytes at `pointer`,
  // imported (VK_EXT_external_memory_host): the device reads and writes them, and hostAddress() is
  // `pointer`. The pages around them are imported too, so `pointer` need only be aligned as the
  // device aligns a buffer's memory. An error where the device cannot import that memory (no
  // extension, an address it refuses, a pointer not aligned enough); the memory must outlive the
  // buffer, and is never recycled.
  static Expected<Buffer> importHostMemory(Device& device, void* pointer, VkDeviceSize size);

  Buffer(Buffer&& other) noexcept;
  Buffer& operator=(Buffer&& other) noexcept;
  Buffer(const Buffer&) = delete;
  Buffer& operator=(const Buffer&) = delete;
  ~Buffer();

  VkDeviceSize size() const { return size_; }
  VkBuffer handle() const { return allocation_.buffer; }
  // What a kernel's pointer argument holds (a PhysicalStorageBuffer64 address).
  VkDeviceAddress deviceAddress() const { return allocation_.address; }
  Device& device() const { return *device_; }
  // Where the host reads and writes the buffer's memory directly: a host-memory buffer's
  // (createHostMemory), and on a CPU device every buffer's, whose device memory is host memory
  // (mapped when it is host-visible and coherent). Null otherwise.
  std::byte* hostAddress() const {
    return allocation_.hostCoherent ? static_cast<std::byte*>(allocation_.mapped) : nullptr;
  }

  // Copies `bytes` to the buffer at `offset`, through staging buffers, after everything submitted
  // before; blocks until done.
  Status upload(std::span<const std::byte> bytes, VkDeviceSize offset = 0);
  // Copies `bytes.size()` bytes from `offset` into `bytes`, after everything submitted before;
  // blocks until done.
  Status download(std::span<std::byte> bytes, VkDeviceSize offset = 0);
  // upload() and download() for a caller that knows no submission in flight uses the range: a
  // memcpy where the host reaches the memory directly (hostAddress), else the same as they. Both
  // fail once the device is lost, as submissions do.
  Status write(std::span<const std::byte> bytes, VkDeviceSize offset);
  Status read(std::span<std::byte> bytes, VkDeviceSize offset);
  // An error once the device is lost: the host's direct access (hostAddress) fails then, as
  // submissions do.
  Status checkNotLost() const;

  // Copies `size` bytes from `source` at `sourceOffset` to this buffer at `offset`, on the device,
  // after everything submitted before; blocks until done, when the host sees what the copy wrote
  // into host memory (createHostMemory). The ranges may be in the same buffer but must not overlap.
  Status copyFrom(const Buffer& source, VkDeviceSize sourceOffset, VkDeviceSize offset, VkDeviceSize size);
  // Writes the 4-byte `pattern` over `size` bytes at `offset` (both multiples of 4) with
  // vkCmdFillBuffer; blocks until done.
  Status fill(uint32_t pattern, VkDeviceSize offset, VkDeviceSize size);

  template <typename T>
  Status uploadValues(std::span<const T> values, VkDeviceSize offset = 0) {
    return upload(std::as_bytes(values), offset);
  }
  template <typename T>
  Expected<std::vector<T>> downloadValues(size_t count, VkDeviceSize offset = 0) {
    std::vector<T> values(count);
    Status status = download(std::as_writable_bytes(std::span<T>(values)), offset);
    if (!status) return status.error();
    return values;
  }

 private:
  struct MemoryRequest {
    VkBufferUsageFlags usage;
    VkMemoryPropertyFlags required;
    VkMemoryPropertyFlags preferred;
    bool deviceAddress;
    // Map the memory when the type chosen is host-visible and coherent (hostAddress), although
    // `required` does not ask for host-visible memory.
    bool mapWhereHostVisible;
  };
  static Expected<Buffer> allocate(Device& device, VkDeviceSize size, const MemoryRequest& request);
  explicit Buffer(Device& device) : device_(&device) {}
  // Hands the allocation to the device's cache, or frees it.
  void release();
  Status checkRange(VkDeviceSize offset, VkDeviceSize length) const;
  // A staging buffer mapped for the host, with its memory's coherence.
  static Expected<Buffer> createStaging(Device& device, VkDeviceSize size, VkBufferUsageFlags usage);
  // Makes the host's writes to a staging buffer's memory visible to the device (flushes it where
  // it is not coherent), or the device's to the host (invalidates it).
  Status flushForDevice() const;
  Status invalidateForHost() const;
  VkMappedMemoryRange wholeMemory() const;

  Device* device_ = nullptr;
  BufferAllocation allocation_;  // its VkBuffer may be larger than size_ (BufferCache::capacityFor)
  VkDeviceSize size_ = 0;
  // Whether the allocation is whole (bound, and mapped where asked), so that it may be recycled.
  bool recyclable_ = false;
};

}  // namespace cl2vk::vulkan
