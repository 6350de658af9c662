#include "vulkan/buffer.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "vulkan/barriers.h"
#include "vulkan/device.h"
#include "vulkan/host_copy.h"
#include "vulkan/process_exit.h"
#include "vulkan/vk_result.h"

namespace cl2vk::vulkan {
namespace {

// The first memory type allowed by `typeBits` with all of `required` and `preferred`, else the
// first with `required` alone.
std::optional<uint32_t> findMemoryType(const VkPhysicalDeviceMemoryProperties& memory, uint32_t typeBits,
                                       VkMemoryPropertyFlags required, VkMemoryPropertyFlags preferred) {
  for (VkMemoryPropertyFlags wanted : {required | preferred, required}) {
    for (uint32_t i = 0; i < memory.memoryTypeCount; ++i) {
      if ((typeBits & (1u << i)) && (memory.memoryTypes[i].propertyFlags & wanted) == wanted) return i;
    }
  }
  return std::nullopt;
}

// The most bytes one copy or fill region covers: lavapipe keeps a region's size in a signed 32-bit
// int and overruns memory from 2 GiB on (a 2 GiB program-scope array crashed its queue thread), so
// larger transfers go as several regions.
constexpr VkDeviceSize kLargestRegion = VkDeviceSize{1} << 30;

// The regions of a copy of `size` bytes from `sourceOffset` to `offset`, none larger than
// kLargestRegion.
std::vector<VkBufferCopy> copyRegions(VkDeviceSize sourceOffset, VkDeviceSize offset, VkDeviceSize size) {
  std::vector<VkBufferCopy> regions;
  for (VkDeviceSize done = 0; done < size; done += kLargestRegion)
    regions.push_back({sourceOffset + done, offset + done, std::min(kLargestRegion, size - done)});
  return regions;
}

void copyBuffer(const VolkDeviceTable& vk, VkCommandBuffer commands, VkBuffer source, VkBuffer destination,
                VkDeviceSize sourceOffset, VkDeviceSize offset, VkDeviceSize size) {
  std::vector<VkBufferCopy> regions = copyRegions(sourceOffset, offset, size);
  vk.vkCmdCopyBuffer(commands, source, destination, static_cast<uint32_t>(regions.size()), regions.data());
}

constexpr VkBufferUsageFlags kStorageUsage = VK_BUFFER_USAGE_STORAGE_BUFFER_BIT | VK_BUFFER_USAGE_TRANSFER_SRC_BIT |
                                             VK_BUFFER_USAGE_TRANSFER_DST_BIT |
                                             VK_BUFFER_USAGE_SHADER_DEVICE_ADDRESS_BIT;

// How many bytes of memory the driver asks for a storage buffer of `size` bytes.
Expected<VkDeviceSize> memoryNeededFor(Device& device, VkDeviceSize size) {
  const VolkDeviceTable& vk = device.vk();
  VkBufferCreateInfo bufferInfo{};
  bufferInfo.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bufferInfo.size = size;
  bufferInfo.usage = kStorageUsage;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  VkBuffer buffer = VK_NULL_HANDLE;
  CL2VK_TRY(check(vk.vkCreateBuffer(device.handle(), &bufferInfo, nullptr, &buffer), "vkCreateBuffer"));
  VkMemoryRequirements requirements{};
  vk.vkGetBufferMemoryRequirements(device.handle(), buffer, &requirements);
  vk.vkDestroyBuffer(device.handle(), buffer, nullptr);
  return requirements.size;
}

}  // namespace

Expected<VkDeviceSize> Buffer::largestSize(Device& device) {
  const DeviceLimits& limits = device.info().limits;
  constexpr VkDeviceSize kPage = 4096;
  VkDeviceSize size = limits.maxMemoryAllocationSize;
  if (limits.maxBufferSize != 0) size = std::min(size, limits.maxBufferSize);
  // SwiftShader refuses an allocation of exactly maxMemoryAllocationSize bytes (16 bytes less
  // succeeds), which the requirements of its buffers do not say. Finding that by allocating would
  // cost a zero-filled gigabyte in every process, so its limit is taken as excluded.
  if (device.info().driverId == VK_DRIVER_ID_GOOGLE_SWIFTSHADER && size == limits.maxMemoryAllocationSize)
    size -= kPage;
  // A page less at each step: what drivers add to a buffer's memory is a few bytes rounded up to
  // an alignment, so one or two steps find the size.
  for (int step = 0; step < 16 && size > kPage; ++step, size = (size - kPage) / kPage * kPage) {
    Expected<VkDeviceSize> needed = memoryNeededFor(device, size);
    if (!needed) return needed.error();
    if (*needed <= limits.maxMemoryAllocationSize) return size;
  }
  return Error("no buffer within a few pages of maxMemoryAllocationSize fits one allocation");
}

Expected<Buffer> Buffer::create(Device& device, VkDeviceSize size) {
  MemoryRequest request{};
  request.usage = kStorageUsage;
  request.required = 0;
  request.preferred = VK_MEMORY_PROPERTY_DEVICE_LOCAL_BIT;
  request.deviceAddress = true;
  // A CPU device's memory is the host's: mapped, the runtime's transfers need no staging copy.
  if (device.info().type == VK_PHYSICAL_DEVICE_TYPE_CPU) {
    request.preferred |= VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
    request.mapWhereHostVisible = true;
  }
  return allocate(device, size, request);
}

Expected<Buffer> Buffer::createHostMemory(Device& device, VkDeviceSize size) {
  MemoryRequest request{};
  request.usage = VK_BUFFER_USAGE_TRANSFER_SRC_BIT | VK_BUFFER_USAGE_TRANSFER_DST_BIT;
  request.required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  request.preferred = VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  request.deviceAddress = false;
  return allocate(device, size, request);
}

Expected<Buffer> Buffer::createStaging(Device& device, VkDeviceSize size, VkBufferUsageFlags usage) {
  MemoryRequest request{};
  request.usage = usage;
  request.required = VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT;
  // Reads back are faster from cached memory; writes are fine either way.
  request.preferred = VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  if (usage & VK_BUFFER_USAGE_TRANSFER_DST_BIT) request.preferred |= VK_MEMORY_PROPERTY_HOST_CACHED_BIT;
  request.deviceAddress = false;
  return allocate(device, size, request);
}

Expected<Buffer> Buffer::allocate(Device& device, VkDeviceSize size, const MemoryRequest& request) {
  if (size == 0) return Error("cannot create a buffer of 0 bytes");
  BufferShape shape;
  shape.usage = request.usage;
  shape.required = request.required;
  shape.preferred = request.preferred;
  shape.deviceAddress = request.deviceAddress;
  shape.capacity = BufferCache::capacityFor(size);
  Buffer buffer(device);
  buffer.size_ = size;
  if (std::optional<BufferAllocation> kept = device.bufferCache().take(shape)) {
    buffer.allocation_ = *kept;
    buffer.recyclable_ = true;
    return buffer;
  }

  const VolkDeviceTable& vk = device.vk();
  VkDevice handle = device.handle();
  BufferAllocation& allocation = buffer.allocation_;
  allocation.shape = shape;
  VkBufferCreateInfo bufferInfo{};
  bufferInfo.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bufferInfo.size = shape.capacity;
  bufferInfo.usage = request.usage;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  CL2VK_TRY(check(vk.vkCreateBuffer(handle, &bufferInfo, nullptr, &allocation.buffer), "vkCreateBuffer"));

  VkMemoryRequirements requirements{};
  vk.vkGetBufferMemoryRequirements(handle, allocation.buffer, &requirements);
  const VkPhysicalDeviceMemoryProperties& memory = device.memoryProperties();
  std::optional<uint32_t> type =
      findMemoryType(memory, requirements.memoryTypeBits, request.required, request.preferred);
  if (!type) {
    return Error("no memory type suits a buffer of " + std::to_string(size) + " bytes" +
                 (request.required ? " in host-visible memory" : ""));
  }
  VkMemoryPropertyFlags typeFlags = memory.memoryTypes[*type].propertyFlags;
  allocation.hostCoherent = (typeFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;

  VkMemoryAllocateFlagsInfo flagsInfo{};
  flagsInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO;
  flagsInfo.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo allocateInfo{};
  allocateInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocateInfo.pNext = request.deviceAddress ? &flagsInfo : nullptr;
  allocateInfo.allocationSize = requirements.size;
  allocateInfo.memoryTypeIndex = *type;
  VkResult allocated = vk.vkAllocateMemory(handle, &allocateInfo, nullptr, &allocation.memory);
  if (allocated == VK_ERROR_OUT_OF_DEVICE_MEMORY || allocated == VK_ERROR_OUT_OF_HOST_MEMORY) {
    // The memory the cache holds may be what is missing: give it all back and try once more.
    device.bufferCache().clear();
    allocated = vk.vkAllocateMemory(handle, &allocateInfo, nullptr, &allocation.memory);
  }
  CL2VK_TRY(check(allocated, "vkAllocateMemory"));
  allocation.memorySize = requirements.size;
  device.memoryAllocations_.fetch_add(1, std::memory_order_relaxed);
  CL2VK_TRY(check(vk.vkBindBufferMemory(handle, allocation.buffer, allocation.memory, 0), "vkBindBufferMemory"));

  if (request.deviceAddress) {
    VkBufferDeviceAddressInfo addressInfo{};
    addressInfo.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO;
    addressInfo.buffer = allocation.buffer;
    allocation.address = vk.vkGetBufferDeviceAddress(handle, &addressInfo);
  }
  constexpr VkMemoryPropertyFlags kHostMemory =
      VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT | VK_MEMORY_PROPERTY_HOST_COHERENT_BIT;
  if ((request.required & VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT) ||
      (request.mapWhereHostVisible && (typeFlags & kHostMemory) == kHostMemory)) {
    CL2VK_TRY(check(vk.vkMapMemory(handle, allocation.memory, 0, VK_WHOLE_SIZE, 0, &allocation.mapped), "vkMapMemory"));
  }
  buffer.recyclable_ = true;
  return buffer;
}

Expected<Buffer> Buffer::importHostMemory(Device& device, void* pointer, VkDeviceSize size) {
  const VkDeviceSize pageSize = device.info().importedHostPointerAlignment;
  if (pageSize == 0) return Error(device.info().name + " cannot import host memory (no VK_EXT_external_memory_host)");
  if (size == 0 || pointer == nullptr) return Error("cannot import an empty range of host memory");
  const auto address = reinterpret_cast<uintptr_t>(pointer);
  const uintptr_t first = address / pageSize * pageSize;
  const VkDeviceSize offset = address - first;
  const VkDeviceSize importedSize = (offset + size + pageSize - 1) / pageSize * pageSize;
  const VolkDeviceTable& vk = device.vk();
  VkDevice handle = device.handle();
  constexpr VkExternalMemoryHandleTypeFlagBits kHandleType = VK_EXTERNAL_MEMORY_HANDLE_TYPE_HOST_ALLOCATION_BIT_EXT;
  VkMemoryHostPointerPropertiesEXT hostProperties{};
  hostProperties.sType = VK_STRUCTURE_TYPE_MEMORY_HOST_POINTER_PROPERTIES_EXT;
  CL2VK_TRY(check(
      vk.vkGetMemoryHostPointerPropertiesEXT(handle, kHandleType, reinterpret_cast<void*>(first), &hostProperties),
      "vkGetMemoryHostPointerPropertiesEXT"));

  Buffer buffer(device);
  buffer.size_ = size;
  BufferAllocation& allocation = buffer.allocation_;
  allocation.shape.usage = kStorageUsage;
  allocation.shape.deviceAddress = true;
  allocation.shape.capacity = size;
  VkExternalMemoryBufferCreateInfo external{};
  external.sType = VK_STRUCTURE_TYPE_EXTERNAL_MEMORY_BUFFER_CREATE_INFO;
  external.handleTypes = kHandleType;
  VkBufferCreateInfo bufferInfo{};
  bufferInfo.sType = VK_STRUCTURE_TYPE_BUFFER_CREATE_INFO;
  bufferInfo.pNext = &external;
  bufferInfo.size = size;
  bufferInfo.usage = kStorageUsage;
  bufferInfo.sharingMode = VK_SHARING_MODE_EXCLUSIVE;
  CL2VK_TRY(check(vk.vkCreateBuffer(handle, &bufferInfo, nullptr, &allocation.buffer), "vkCreateBuffer"));
  VkMemoryRequirements requirements{};
  vk.vkGetBufferMemoryRequirements(handle, allocation.buffer, &requirements);
  if (offset % requirements.alignment != 0) {
    char where[32];
    std::snprintf(where, sizeof where, "%#zx", static_cast<size_t>(address));
    return Error(std::string("host memory at ") + where + " is not aligned to " +
                 std::to_string(requirements.alignment) + " bytes, as the device's buffers are");
  }
  if (offset + requirements.size > importedSize) return Error("the device's buffer needs more memory than imported");
  const VkPhysicalDeviceMemoryProperties& memory = device.memoryProperties();
  std::optional<uint32_t> type =
      findMemoryType(memory, requirements.memoryTypeBits & hostProperties.memoryTypeBits,
                     VK_MEMORY_PROPERTY_HOST_VISIBLE_BIT, VK_MEMORY_PROPERTY_HOST_COHERENT_BIT);
  if (!type) return Error("no memory type of the device's buffers can hold imported host memory");
  allocation.hostCoherent = (memory.memoryTypes[*type].propertyFlags & VK_MEMORY_PROPERTY_HOST_COHERENT_BIT) != 0;

  VkImportMemoryHostPointerInfoEXT import{};
  import.sType = VK_STRUCTURE_TYPE_IMPORT_MEMORY_HOST_POINTER_INFO_EXT;
  import.handleType = kHandleType;
  import.pHostPointer = reinterpret_cast<void*>(first);
  VkMemoryAllocateFlagsInfo flagsInfo{};
  flagsInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_FLAGS_INFO;
  flagsInfo.pNext = &import;
  flagsInfo.flags = VK_MEMORY_ALLOCATE_DEVICE_ADDRESS_BIT;
  VkMemoryAllocateInfo allocateInfo{};
  allocateInfo.sType = VK_STRUCTURE_TYPE_MEMORY_ALLOCATE_INFO;
  allocateInfo.pNext = &flagsInfo;
  allocateInfo.allocationSize = importedSize;
  allocateInfo.memoryTypeIndex = *type;
  CL2VK_TRY(check(vk.vkAllocateMemory(handle, &allocateInfo, nullptr, &allocation.memory), "vkAllocateMemory"));
  allocation.memorySize = importedSize;
  device.memoryAllocations_.fetch_add(1, std::memory_order_relaxed);
  CL2VK_TRY(check(vk.vkBindBufferMemory(handle, allocation.buffer, allocation.memory, offset), "vkBindBufferMemory"));
  VkBufferDeviceAddressInfo addressInfo{};
  addressInfo.sType = VK_STRUCTURE_TYPE_BUFFER_DEVICE_ADDRESS_INFO;
  addressInfo.buffer = allocation.buffer;
  allocation.address = vk.vkGetBufferDeviceAddress(handle, &addressInfo);
  // The application's own address: the memory is not mapped again (the host reaches it already).
  allocation.mapped = pointer;
  return buffer;
}

Buffer::Buffer(Buffer&& other) noexcept
    : device_(other.device_),
      allocation_(std::exchange(other.allocation_, {})),
      size_(std::exchange(other.size_, 0)),
      recyclable_(std::exchange(other.recyclable_, false)) {}

Buffer& Buffer::operator=(Buffer&& other) noexcept {
  if (this != &other) {
    release();
    device_ = other.device_;
    allocation_ = std::exchange(other.allocation_, {});
    size_ = std::exchange(other.size_, 0);
    recyclable_ = std::exchange(other.recyclable_, false);
  }
  return *this;
}

Buffer::~Buffer() { release(); }

void Buffer::release() {
  if (device_ == nullptr || processIsExiting()) return;
  // A lost device's memory is not worth keeping, and a half-made buffer cannot be reused.
  if (recyclable_ && !device_->lost()) {
    device_->bufferCache().keep(allocation_);
  } else {
    device_->bufferCache().free(allocation_);
  }
  allocation_ = {};
  recyclable_ = false;
}

Status Buffer::checkRange(VkDeviceSize offset, VkDeviceSize length) const {
  if (offset > size_ || length > size_ - offset) {
    return Error("range of " + std::to_string(length) + " bytes at offset " + std::to_string(offset) +
                 " is outside a buffer of " + std::to_string(size_) + " bytes");
  }
  return okStatus();
}

VkMappedMemoryRange Buffer::wholeMemory() const {
  VkMappedMemoryRange range{};
  range.sType = VK_STRUCTURE_TYPE_MAPPED_MEMORY_RANGE;
  range.memory = allocation_.memory;
  range.size = VK_WHOLE_SIZE;
  return range;
}

Status Buffer::flushForDevice() const {
  if (allocation_.hostCoherent) return okStatus();
  VkMappedMemoryRange range = wholeMemory();
  return check(device_->vk().vkFlushMappedMemoryRanges(device_->handle(), 1, &range), "vkFlushMappedMemoryRanges");
}

Status Buffer::invalidateForHost() const {
  if (allocation_.hostCoherent) return okStatus();
  VkMappedMemoryRange range = wholeMemory();
  return check(device_->vk().vkInvalidateMappedMemoryRanges(device_->handle(), 1, &range),
               "vkInvalidateMappedMemoryRanges");
}

namespace {

// How many staging buffers of one transfer the device may be copying while the host fills or
// empties the next: enough that neither waits for the other when their speeds are close.
constexpr size_t kStagingDepth = 3;

// One piece of a transfer: its staging buffer, where it goes, and the copy once submitted.
// The copy is declared last, so that it is destroyed first: destroying a submission waits for it,
// and only then may the staging buffer go back to the cache.
struct StagedPiece {
  Buffer staging;
  VkDeviceSize done;  // where the piece starts, from the start of the transfer
  VkDeviceSize length;
  std::shared_ptr<Submission> copy;
};

Status waitFor(const Submission& submission) {
  Expected<bool> finished = submission.wait();
  if (!finished) return finished.error();
  return okStatus();
}

}  // namespace

Status Buffer::upload(std::span<const std::byte> bytes, VkDeviceSize offset) {
  CL2VK_TRY(checkRange(offset, bytes.size()));
  if (bytes.empty()) return okStatus();
  const VolkDeviceTable& vk = device_->vk();
  const VkDeviceSize chunk = std::min<VkDeviceSize>(device_->stagingChunk(), bytes.size());
  std::deque<StagedPiece> inFlight;
  for (VkDeviceSize done = 0; done < bytes.size(); done += chunk) {
    VkDeviceSize length = std::min<VkDeviceSize>(chunk, bytes.size() - done);
    std::optional<Buffer> staging;
    if (inFlight.size() == kStagingDepth) {
      CL2VK_TRY(waitFor(*inFlight.front().copy));
      staging = std::move(inFlight.front().staging);
      inFlight.pop_front();
    } else {
      Expected<Buffer> made = createStaging(*device_, chunk, VK_BUFFER_USAGE_TRANSFER_SRC_BIT);
      if (!made) return made.error().withContext("uploading to a buffer");
      staging = std::move(*made);
    }
    copyHostMemory(staging->allocation_.mapped, bytes.data() + done, length);
    CL2VK_TRY(staging->flushForDevice());
    // vkQueueSubmit makes the host's writes to the staging buffer visible to the copy.
    VkBuffer from = staging->allocation_.buffer;
    Expected<std::shared_ptr<Submission>> copy = device_->queue().submit([&](VkCommandBuffer commands, VkQueryPool) {
      waitForEarlierWrites(vk, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
      copyBuffer(vk, commands, from, allocation_.buffer, 0, offset + done, length);
    });
    if (!copy) return copy.error();
    inFlight.push_back({std::move(*staging), done, length, std::move(*copy)});
  }
  for (const StagedPiece& piece : inFlight) CL2VK_TRY(waitFor(*piece.copy));
  return okStatus();
}

Status Buffer::download(std::span<std::byte> bytes, VkDeviceSize offset) {
  CL2VK_TRY(checkRange(offset, bytes.size()));
  if (bytes.empty()) return okStatus();
  const VolkDeviceTable& vk = device_->vk();
  const VkDeviceSize chunk = std::min<VkDeviceSize>(device_->stagingChunk(), bytes.size());
  std::deque<StagedPiece> inFlight;
  // Submits the copy of the piece at `done` into `staging`.
  auto submitPiece = [&](Buffer staging, VkDeviceSize done) -> Status {
    VkDeviceSize length = std::min<VkDeviceSize>(chunk, bytes.size() - done);
    VkBuffer to = staging.allocation_.buffer;
    Expected<std::shared_ptr<Submission>> copy = device_->queue().submit([&](VkCommandBuffer commands, VkQueryPool) {
      // The copy reads this buffer and writes the staging buffer, whose recycled memory an earlier
      // submission (of any thread) may have written last.
      waitForEarlierWrites(vk, commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                           VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
      copyBuffer(vk, commands, allocation_.buffer, to, offset + done, 0, length);
      makeWritesVisibleToHost(vk, commands);
    });
    if (!copy) return copy.error();
    inFlight.push_back({std::move(staging), done, length, std::move(*copy)});
    return okStatus();
  };
  VkDeviceSize submitted = 0;
  for (; submitted < bytes.size() && inFlight.size() < kStagingDepth; submitted += chunk) {
    Expected<Buffer> staging = createStaging(*device_, chunk, VK_BUFFER_USAGE_TRANSFER_DST_BIT);
    if (!staging) return staging.error().withContext("downloading from a buffer");
    CL2VK_TRY(submitPiece(std::move(*staging), submitted));
  }
  while (!inFlight.empty()) {
    StagedPiece& piece = inFlight.front();
    CL2VK_TRY(waitFor(*piece.copy));
    CL2VK_TRY(piece.staging.invalidateForHost());
    copyHostMemory(bytes.data() + piece.done, piece.staging.allocation_.mapped, piece.length);
    Buffer staging = std::move(piece.staging);
    inFlight.pop_front();
    if (submitted < bytes.size()) {
      CL2VK_TRY(submitPiece(std::move(staging), submitted));
      submitted += chunk;
    }
  }
  return okStatus();
}

Status Buffer::checkNotLost() const {
  if (!device_->lost()) return okStatus();
  return Queue::lostError();
}

Status Buffer::write(std::span<const std::byte> bytes, VkDeviceSize offset) {
  CL2VK_TRY(checkRange(offset, bytes.size()));
  std::byte* host = hostAddress();
  if (host == nullptr) return upload(bytes, offset);
  CL2VK_TRY(checkNotLost());
  if (!bytes.empty()) copyHostMemory(host + offset, bytes.data(), bytes.size());
  return okStatus();
}

Status Buffer::read(std::span<std::byte> bytes, VkDeviceSize offset) {
  CL2VK_TRY(checkRange(offset, bytes.size()));
  const std::byte* host = hostAddress();
  if (host == nullptr) return download(bytes, offset);
  CL2VK_TRY(checkNotLost());
  if (!bytes.empty()) copyHostMemory(bytes.data(), host + offset, bytes.size());
  return okStatus();
}

Status Buffer::copyFrom(const Buffer& source, VkDeviceSize sourceOffset, VkDeviceSize offset, VkDeviceSize size) {
  CL2VK_TRY(source.checkRange(sourceOffset, size));
  CL2VK_TRY(checkRange(offset, size));
  if (source.allocation_.buffer == allocation_.buffer && sourceOffset < offset + size && offset < sourceOffset + size)
    return Error("the source and destination ranges of a copy overlap");
  if (size == 0) return okStatus();
  const VolkDeviceTable& vk = device_->vk();
  return device_->queue().submitAndWait([&](VkCommandBuffer commands) {
    waitForEarlierWrites(vk, commands, VK_PIPELINE_STAGE_TRANSFER_BIT,
                         VK_ACCESS_TRANSFER_READ_BIT | VK_ACCESS_TRANSFER_WRITE_BIT);
    copyBuffer(vk, commands, source.allocation_.buffer, allocation_.buffer, sourceOffset, offset, size);
    makeWritesVisibleToHost(vk, commands);
  });
}

Status Buffer::fill(uint32_t pattern, VkDeviceSize offset, VkDeviceSize size) {
  CL2VK_TRY(checkRange(offset, size));
  if (offset % 4 != 0 || size % 4 != 0) return Error("a fill's offset and size must be multiples of 4");
  if (size == 0) return okStatus();
  const VolkDeviceTable& vk = device_->vk();
  return device_->queue().submitAndWait([&](VkCommandBuffer commands) {
    waitForEarlierWrites(vk, commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_ACCESS_TRANSFER_WRITE_BIT);
    for (VkDeviceSize done = 0; done < size; done += kLargestRegion)
      vk.vkCmdFillBuffer(commands, allocation_.buffer, offset + done, std::min(kLargestRegion, size - done), pattern);
  });
}

}  // namespace cl2vk::vulkan
