#include "vulkan/buffer_cache.h"

#include <algorithm>
#include <bit>
#include <vector>

namespace cl2vk::vulkan {

VkDeviceSize BufferCache::capacityFor(VkDeviceSize size) {
  if (size > kLargestKept) return size;
  VkDeviceSize step = std::max<VkDeviceSize>(256, std::bit_floor(size) / 4);
  return (size + step - 1) / step * step;
}

BufferCache::Limits BufferCache::limitsFor(VkPhysicalDeviceType type, VkDeviceSize deviceLocalHeapBytes) {
  if (type == VK_PHYSICAL_DEVICE_TYPE_CPU) return Limits{};
  Limits limits;
  limits.maxKeptBytes = std::clamp(deviceLocalHeapBytes / 16, kMaxKeptBytes, VkDeviceSize{1} << 30);
  limits.largestKept = std::max(kLargestKept, limits.maxKeptBytes / 4);
  return limits;
}

std::optional<BufferAllocation> BufferCache::take(const BufferShape& shape) {
  std::lock_guard lock(mutex_);
  for (auto it = kept_.rbegin(); it != kept_.rend(); ++it) {
    if (it->shape != shape) continue;
    BufferAllocation allocation = *it;
    keptBytes_ -= allocation.memorySize;
    kept_.erase(std::next(it).base());
    return allocation;
  }
  return std::nullopt;
}

void BufferCache::keep(const BufferAllocation& allocation) {
  if (allocation.shape.capacity > limits_.largestKept) {
    free(allocation);
    return;
  }
  // Freed after the lock is let go: vkFreeMemory may take a while, and other threads may be
  // taking buffers meanwhile.
  std::vector<BufferAllocation> evicted;
  {
    std::lock_guard lock(mutex_);
    kept_.push_back(allocation);
    keptBytes_ += allocation.memorySize;
    while (kept_.size() > kMaxKept || keptBytes_ > limits_.maxKeptBytes) {
      evicted.push_back(kept_.front());
      keptBytes_ -= kept_.front().memorySize;
      kept_.pop_front();
    }
  }
  for (const BufferAllocation& old : evicted) free(old);
}

size_t BufferCache::clear() {
  std::deque<BufferAllocation> all;
  {
    std::lock_guard lock(mutex_);
    all.swap(kept_);
    keptBytes_ = 0;
  }
  for (const BufferAllocation& allocation : all) free(allocation);
  return all.size();
}

size_t BufferCache::kept() const {
  std::lock_guard lock(mutex_);
  return kept_.size();
}

VkDeviceSize BufferCache::keptBytes() const {
  std::lock_guard lock(mutex_);
  return keptBytes_;
}

void BufferCache::free(const BufferAllocation& allocation) const {
  // Freeing the memory unmaps it; the buffer goes first, as it is bound to the memory.
  if (allocation.buffer != VK_NULL_HANDLE) vk_.vkDestroyBuffer(device_, allocation.buffer, nullptr);
  if (allocation.memory != VK_NULL_HANDLE) vk_.vkFreeMemory(device_, allocation.memory, nullptr);
}

}  // namespace cl2vk::vulkan
