#include "vulkan/host_relay.h"

#include <algorithm>
#include <future>

#include "vulkan/device.h"
#include "vulkan/process_exit.h"

namespace cl2vk::vulkan {

Expected<std::unique_ptr<HostRelay>> HostRelay::create(Device& first, Device& second) {
  const VkDeviceSize firstPage = first.info().importedHostPointerAlignment;
  const VkDeviceSize secondPage = second.info().importedHostPointerAlignment;
  if (firstPage == 0 || secondPage == 0) return std::unique_ptr<HostRelay>();
  const VkDeviceSize page = std::max({firstPage, secondPage, VkDeviceSize{64}});
  const VkDeviceSize blockSize = (kPiece + page - 1) / page * page;
  std::unique_ptr<HostRelay> relay(new HostRelay(first, second));
  for (Block& block : relay->blocks_) {
    block.memory = static_cast<std::byte*>(std::aligned_alloc(page, blockSize));
    if (block.memory == nullptr) return Error("out of host memory for moving buffers between devices");
    for (size_t d = 0; d < 2; ++d) {
      Expected<Buffer> imported = Buffer::importHostMemory(d == 0 ? first : second, block.memory, blockSize);
      // A driver need not import every allocation: the caller moves contents another way.
      if (!imported) return std::unique_ptr<HostRelay>();
      block.imported[d] = std::move(*imported);
    }
  }
  return relay;
}

HostRelay::~HostRelay() {
  for (Block& block : blocks_) {
    for (std::optional<Buffer>& imported : block.imported) imported.reset();
    // While the process exits the imports are left to its end (process_exit.h), and so is their memory.
    if (!processIsExiting()) std::free(block.memory);
  }
}

Status HostRelay::copy(Buffer& source, Buffer& destination, VkDeviceSize size) {
  if (size > source.size() || size > destination.size())
    return Error("a move between devices of " + std::to_string(size) + " bytes is larger than its buffers");
  std::lock_guard lock(mutex_);
  // The piece in each block that the destination is still copying out.
  std::array<std::future<Status>, 2> emptying;
  Status status = okStatus();
  size_t k = 0;
  for (VkDeviceSize offset = 0; offset < size && status; offset += kPiece, k ^= 1) {
    Block& block = blocks_[k];
    VkDeviceSize length = std::min(kPiece, size - offset);
    if (emptying[k].valid()) status = emptying[k].get();
    if (status) status = on(block, source.device()).copyFrom(source, offset, 0, length);
    if (status) {
      emptying[k] = std::async(std::launch::async, [this, &block, &destination, offset, length] {
        return destination.copyFrom(on(block, destination.device()), 0, offset, length);
      });
    }
  }
  for (std::future<Status>& pending : emptying) {
    if (!pending.valid()) continue;
    Status emptied = pending.get();
    if (status && !emptied) status = emptied;
  }
  return status;
}

}  // namespace cl2vk::vulkan
