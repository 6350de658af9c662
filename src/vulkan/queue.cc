#include "vulkan/queue.h"

#include <algorithm>
#include <cstdlib>
#include <optional>
#include <string>
#include <thread>

#include "support/settings.h"
#include "vulkan/vk_result.h"

namespace cl2vk::vulkan {
namespace {

constexpr std::chrono::microseconds kPollTime{2000};

}  // namespace

bool pollFencesOn(VkPhysicalDeviceType type) {
  const std::optional<std::string> choice = settings::read(settings::Setting::kWait);
  if (choice == "poll") return true;
  if (choice == "sleep") return false;
  return type != VK_PHYSICAL_DEVICE_TYPE_CPU;
}

Expected<std::unique_ptr<Queue>> Queue::create(const VolkDeviceTable& table, VkDevice device, uint32_t family,
                                               uint32_t index, uint32_t timestampValidBits, bool pollFences,
                                               bool hostQueryReset, std::shared_ptr<std::atomic<bool>> deviceLost,
                                               std::optional<std::chrono::seconds> hangTimeout) {
  std::unique_ptr<Queue> queue(new Queue(table, device, std::move(deviceLost)));
  queue->pollFences_ = pollFences;
  queue->hostQueryReset_ = hostQueryReset;
  queue->hangTimeout_ = hangTimeout;
  queue->family_ = family;
  queue->timestampValidBits_ = timestampValidBits;
  table.vkGetDeviceQueue(device, family, index, &queue->queue_);

  VkCommandPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
  poolInfo.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
  poolInfo.queueFamilyIndex = family;
  CL2VK_TRY(check(table.vkCreateCommandPool(device, &poolInfo, nullptr, &queue->commandPool_), "vkCreateCommandPool"));
  return queue;
}

Queue::~Queue() {
  // After a hang a command buffer may still run: the pool, fences and queries are left alone.
  if (hung_) return;
  for (const std::unique_ptr<Submission::Slot>& slot : slots_) destroySlot(*slot);
  if (commandPool_ != VK_NULL_HANDLE) vk_.vkDestroyCommandPool(device_, commandPool_, nullptr);
}

void Queue::destroySlot(Submission::Slot& slot) {
  if (slot.timestamps != VK_NULL_HANDLE) vk_.vkDestroyQueryPool(device_, slot.timestamps, nullptr);
  if (slot.fence != VK_NULL_HANDLE) vk_.vkDestroyFence(device_, slot.fence, nullptr);
  if (slot.commands != VK_NULL_HANDLE) vk_.vkFreeCommandBuffers(device_, commandPool_, 1, &slot.commands);
}

Expected<Submission::Slot*> Queue::takeSlot() {
  if (!free_.empty()) {
    Submission::Slot* slot = free_.back();
    free_.pop_back();
    return slot;
  }
  auto slot = std::make_unique<Submission::Slot>();
  VkCommandBufferAllocateInfo allocateInfo{};
  allocateInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
  allocateInfo.commandPool = commandPool_;
  allocateInfo.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
  allocateInfo.commandBufferCount = 1;
  VkFenceCreateInfo fenceInfo{};
  fenceInfo.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
  Status made =
      check(vk_.vkAllocateCommandBuffers(device_, &allocateInfo, &slot->commands), "vkAllocateCommandBuffers");
  if (made) made = check(vk_.vkCreateFence(device_, &fenceInfo, nullptr, &slot->fence), "vkCreateFence");
  if (!made) {
    destroySlot(*slot);
    return made.error();
  }
  slots_.push_back(std::move(slot));
  return slots_.back().get();
}

void Queue::markLost(bool locked) {
  if (lost_->exchange(true, std::memory_order_acq_rel)) return;
  std::unique_lock lock(mutex_, std::defer_lock);
  if (!locked) lock.lock();
  (void)vk_.vkQueueWaitIdle(queue_);  // VK_ERROR_DEVICE_LOST is the expected answer
}

Error Queue::lostError() {
  return Error("the Vulkan device was lost (VK_ERROR_DEVICE_LOST) in an earlier submission; it runs nothing more");
}

void Queue::releaseSlot(Submission::Slot* slot) {
  std::lock_guard lock(mutex_);
  free_.push_back(slot);
}

Expected<std::shared_ptr<Submission>> Queue::submit(const std::function<void(VkCommandBuffer, VkQueryPool)>& record,
                                                    uint32_t timestamps) {
  if (hung_) return Error("an earlier submission never finished; the device cannot take more work");
  if (lost()) return lostError();
  std::lock_guard lock(mutex_);
  Expected<Submission::Slot*> taken = takeSlot();
  if (!taken) return taken.error();
  Submission::Slot& slot = **taken;
  // Until it is submitted, the slot goes back to the free list on every way out.
  bool submitted = false;
  struct GiveBack {
    Queue& queue;
    Submission::Slot* slot;
    const bool& submitted;
    ~GiveBack() {
      if (!submitted) queue.free_.push_back(slot);
    }
  } giveBack{*this, &slot, submitted};

  VkQueryPool pool = VK_NULL_HANDLE;
  if (timestamps > 0 && timestampValidBits_ > 0) {
    if (slot.timestampCapacity < timestamps) {
      if (slot.timestamps != VK_NULL_HANDLE) vk_.vkDestroyQueryPool(device_, slot.timestamps, nullptr);
      slot.timestamps = VK_NULL_HANDLE;
      slot.timestampCapacity = 0;
      VkQueryPoolCreateInfo info{};
      info.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
      info.queryType = VK_QUERY_TYPE_TIMESTAMP;
      info.queryCount = std::max<uint32_t>(timestamps, 64);
      if (vk_.vkCreateQueryPool(device_, &info, nullptr, &slot.timestamps) == VK_SUCCESS)
        slot.timestampCapacity = info.queryCount;
    }
    pool = slot.timestamps;
  }

  VkCommandBufferBeginInfo beginInfo{};
  beginInfo.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
  beginInfo.flags = VK_COMMAND_BUFFER_USAGE_ONE_TIME_SUBMIT_BIT;
  // The slot's last submission has finished: its queries may be reset on the host, and beginning
  // resets the buffer (the pool allows it).
  if (pool != VK_NULL_HANDLE && hostQueryReset_) vk_.vkResetQueryPool(device_, pool, 0, timestamps);
  CL2VK_TRY(check(vk_.vkBeginCommandBuffer(slot.commands, &beginInfo), "vkBeginCommandBuffer"));
  if (pool != VK_NULL_HANDLE && !hostQueryReset_) vk_.vkCmdResetQueryPool(slot.commands, pool, 0, timestamps);
  record(slot.commands, pool);
  CL2VK_TRY(check(vk_.vkEndCommandBuffer(slot.commands), "vkEndCommandBuffer"));
  CL2VK_TRY(check(vk_.vkResetFences(device_, 1, &slot.fence), "vkResetFences"));

  VkSubmitInfo submitInfo{};
  submitInfo.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
  submitInfo.commandBufferCount = 1;
  submitInfo.pCommandBuffers = &slot.commands;
  VkResult result = vk_.vkQueueSubmit(queue_, 1, &submitInfo, slot.fence);
  if (result == VK_ERROR_DEVICE_LOST) markLost(/*locked=*/true);
  CL2VK_TRY(check(result, "vkQueueSubmit"));
  submitted = true;
  return std::shared_ptr<Submission>(new Submission(*this, &slot));
}

Status Queue::submitAndWait(const std::function<void(VkCommandBuffer)>& record) {
  Expected<std::shared_ptr<Submission>> submission =
      submit([&](VkCommandBuffer commands, VkQueryPool) { record(commands); });
  if (!submission) return submission.error();
  Expected<bool> finished = (*submission)->wait();
  if (!finished) return finished.error();
  return okStatus();
}

Submission::~Submission() {
  if (!finished_ && !queue_.hung_ && !queue_.lost()) (void)wait();
  // A hung submission may still run: its slot is never used again.
  if (queue_.hung_ && !finished_) return;
  queue_.releaseSlot(slot_);
}

Expected<bool> Submission::wait(std::optional<std::chrono::steady_clock::time_point> deadline, bool sleep) const {
  if (finished_.load(std::memory_order_acquire)) return true;
  const VolkDeviceTable& vk = queue_.vk_;
  std::optional<std::chrono::steady_clock::time_point> hangsAt;
  if (queue_.hangTimeout_) hangsAt = submittedAt_ + *queue_.hangTimeout_;
  std::optional<std::chrono::steady_clock::time_point> until = deadline;
  if (hangsAt && (!until || *hangsAt < *until)) until = hangsAt;
  VkResult result = VK_NOT_READY;
  if (queue_.pollFences_ && !sleep) {
    auto pollUntil = std::chrono::steady_clock::now() + kPollTime;
    if (until) pollUntil = std::min(pollUntil, *until);
    while ((result = vk.vkGetFenceStatus(queue_.device_, slot_->fence)) == VK_NOT_READY &&
           std::chrono::steady_clock::now() < pollUntil)
      std::this_thread::yield();
  }
  if (result == VK_NOT_READY) {
    uint64_t timeout = UINT64_MAX;
    if (until) {
      auto left = std::chrono::duration_cast<std::chrono::nanoseconds>(*until - std::chrono::steady_clock::now());
      timeout = static_cast<uint64_t>(std::max<int64_t>(left.count(), 0));
    }
    result = vk.vkWaitForFences(queue_.device_, 1, &slot_->fence, VK_TRUE, timeout);
  }
  if (result == VK_ERROR_DEVICE_LOST) queue_.markLost(/*locked=*/false);
  if (result == VK_TIMEOUT) {
    if (!hangsAt || until < hangsAt) return false;
    queue_.hung_ = true;
    return Error("a submission did not finish within its time limit (CL2VK_HANG_TIMEOUT, " +
                 std::to_string(queue_.hangTimeout_->count()) + " s); the kernel may not terminate");
  }
  CL2VK_TRY(check(result, "vkWaitForFences"));
  finished_.store(true, std::memory_order_release);
  return true;
}

Status Submission::readTimestamps(std::span<uint64_t> ticks) const {
  if (slot_->timestamps == VK_NULL_HANDLE || ticks.size() > slot_->timestampCapacity)
    return Error("the submission wrote no timestamps");
  return check(queue_.vk_.vkGetQueryPoolResults(queue_.device_, slot_->timestamps, 0,
                                                static_cast<uint32_t>(ticks.size()), ticks.size_bytes(), ticks.data(),
                                                sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | VK_QUERY_RESULT_WAIT_BIT),
               "vkGetQueryPoolResults");
}

}  // namespace cl2vk::vulkan
