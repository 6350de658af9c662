#include "vulkan/dispatch.h"

#include <cstdio>

#include "vulkan/barriers.h"
#include "vulkan/device.h"
#include "vulkan/pipeline.h"
#include "vulkan/vk_result.h"

namespace cl2vk::vulkan {
namespace {

Status checkDispatch(const Device& device, const Dispatch& dispatch, size_t position) {
  std::string which = "dispatch " + std::to_string(position);
  if (dispatch.pipeline == nullptr) return Error(which + " has no pipeline");
  if (&dispatch.pipeline->device() != &device) {
    return Error(which + " uses a pipeline created on another device");
  }
  if (dispatch.pushConstants.size() != dispatch.pipeline->pushConstantSize()) {
    return Error(which + " gives " + std::to_string(dispatch.pushConstants.size()) +
                 " bytes of push constants; its pipeline takes " +
                 std::to_string(dispatch.pipeline->pushConstantSize()));
  }
  const DeviceLimits& limits = device.info().limits;
  for (int i = 0; i < 3; ++i) {
    if (dispatch.groupCount[i] > limits.maxComputeWorkGroupCount[i]) {
      return Error(which + ": " + std::to_string(dispatch.groupCount[i]) + " work-groups in dimension " +
                   std::to_string(i) + " exceed maxComputeWorkGroupCount (" +
                   std::to_string(limits.maxComputeWorkGroupCount[i]) + ")");
    }
  }
  return okStatus();
}

}  // namespace

std::string GpuTime::toString() const {
  if (!nanoseconds) return "unavailable";
  char text[32];
  std::snprintf(text, sizeof text, "%.3f us", *nanoseconds / 1000.0);
  return text;
}

Expected<GpuTime> dispatch(Device& device, const Pipeline& pipeline, std::span<const std::byte> pushConstants,
                           uint32_t groupCountX, uint32_t groupCountY, uint32_t groupCountZ) {
  Dispatch one{&pipeline, pushConstants, {groupCountX, groupCountY, groupCountZ}};
  Expected<std::vector<GpuTime>> times = dispatchAll(device, std::span<const Dispatch>(&one, 1));
  if (!times) return times.error();
  return times->front();
}

Expected<std::vector<GpuTime>> dispatchAll(Device& device, std::span<const Dispatch> dispatches) {
  Expected<SubmittedDispatches> submitted = submitDispatches(device, device.queue(), dispatches, true);
  if (!submitted) return submitted.error();
  Expected<bool> finished = submitted->wait();
  if (!finished) return finished.error();
  return submitted->times();
}

Expected<SubmittedDispatches> submitDispatches(Device& device, Queue& queue, std::span<const Dispatch> dispatches,
                                               bool timed) {
  for (size_t i = 0; i < dispatches.size(); ++i) CL2VK_TRY(checkDispatch(device, dispatches[i], i));
  SubmittedDispatches submitted;
  submitted.device_ = &device;
  submitted.count_ = dispatches.size();
  if (dispatches.empty()) return submitted;

  const VolkDeviceTable& vk = device.vk();
  uint32_t queryCount = timed ? static_cast<uint32_t>(2 * dispatches.size()) : 0;
  Expected<std::shared_ptr<Submission>> submission = queue.submit(
      [&](VkCommandBuffer commands, VkQueryPool timestamps) {
        // None when untimed, or where the queue writes no timestamps.
        submitted.timed_ = timestamps != VK_NULL_HANDLE;
        for (uint32_t i = 0; i < dispatches.size(); ++i) {
          const Dispatch& d = dispatches[i];
          // Uploads and earlier dispatches (this submission's or not) come before this dispatch.
          if (d.afterEarlierWrites) {
            waitForEarlierWrites(vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                                 VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
          }
          vk.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, d.pipeline->handle());
          if (!d.pushConstants.empty()) {
            vk.vkCmdPushConstants(commands, d.pipeline->layout(), VK_SHADER_STAGE_COMPUTE_BIT, 0,
                                  static_cast<uint32_t>(d.pushConstants.size()), d.pushConstants.data());
          }
          if (timestamps != VK_NULL_HANDLE) {
            vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestamps, 2 * i);
          }
          vk.vkCmdDispatch(commands, d.groupCount[0], d.groupCount[1], d.groupCount[2]);
          if (timestamps != VK_NULL_HANDLE) {
            vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps, 2 * i + 1);
          }
        }
      },
      queryCount);
  if (!submission) return submission.error();
  submitted.submission_ = std::move(*submission);
  return submitted;
}

Expected<bool> SubmittedDispatches::wait(std::optional<std::chrono::steady_clock::time_point> deadline,
                                         bool sleep) const {
  if (!submission_) return true;
  return submission_->wait(deadline, sleep);
}

Expected<std::vector<GpuTime>> SubmittedDispatches::times() const {
  std::vector<GpuTime> times(count_);
  if (!timed_ || count_ == 0) return times;
  std::vector<uint64_t> ticks(2 * count_);
  CL2VK_TRY(submission_->readTimestamps(ticks));
  // Timestamps wrap at timestampValidBits; the masked difference survives one wrap.
  uint32_t bits = device_->queue().timestampValidBits();
  uint64_t mask = bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << bits) - 1;
  double period = device_->info().limits.timestampPeriod;
  for (size_t i = 0; i < count_; ++i) {
    uint64_t elapsed = (ticks[2 * i + 1] - ticks[2 * i]) & mask;
    times[i].nanoseconds = static_cast<double>(elapsed) * period;
    times[i].startNanoseconds = static_cast<double>((ticks[2 * i] - ticks[0]) & mask) * period;
  }
  return times;
}

}  // namespace cl2vk::vulkan
