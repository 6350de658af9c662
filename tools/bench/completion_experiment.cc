#include "completion_experiment.h"

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "measure.h"
#include "opencl_runner.h"
#include "vulkan/barriers.h"
#include "vulkan/buffer.h"
#include "vulkan/dispatch.h"
#include "vulkan/vk_result.h"
#include "vulkan_runner.h"

namespace cl2vk::bench {
namespace {

using Clock = std::chrono::steady_clock;

double nanosecondsBetween(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration<double, std::nano>(end - start).count();
}

// A command pool, one command buffer and one fence of the device's queue family, for submissions
// made outside vulkan::Queue (which records each time and polls with a yield).
class RawSubmitter {
 public:
  static Expected<std::unique_ptr<RawSubmitter>> create(vulkan::Device& device) {
    std::unique_ptr<RawSubmitter> raw(new RawSubmitter(device));
    const VolkDeviceTable& vk = device.vk();
    uint32_t family = device.queue().family();
    // Queue 0 of the family, which the runner's own queue also is; this experiment runs one
    // submission at a time, so the two never submit at once.
    vk.vkGetDeviceQueue(device.handle(), family, 0, &raw->queue_);
    VkCommandPoolCreateInfo pool{};
    pool.sType = VK_STRUCTURE_TYPE_COMMAND_POOL_CREATE_INFO;
    pool.flags = VK_COMMAND_POOL_CREATE_RESET_COMMAND_BUFFER_BIT;
    pool.queueFamilyIndex = family;
    CL2VK_TRY(
        vulkan::check(vk.vkCreateCommandPool(device.handle(), &pool, nullptr, &raw->pool_), "vkCreateCommandPool"));
    VkCommandBufferAllocateInfo allocate{};
    allocate.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_ALLOCATE_INFO;
    allocate.commandPool = raw->pool_;
    allocate.level = VK_COMMAND_BUFFER_LEVEL_PRIMARY;
    allocate.commandBufferCount = 1;
    CL2VK_TRY(vulkan::check(vk.vkAllocateCommandBuffers(device.handle(), &allocate, &raw->commands_),
                            "vkAllocateCommandBuffers"));
    VkFenceCreateInfo fence{};
    fence.sType = VK_STRUCTURE_TYPE_FENCE_CREATE_INFO;
    CL2VK_TRY(vulkan::check(vk.vkCreateFence(device.handle(), &fence, nullptr, &raw->fence_), "vkCreateFence"));
    return raw;
  }

  ~RawSubmitter() {
    const VolkDeviceTable& vk = device_.vk();
    vk.vkDeviceWaitIdle(device_.handle());
    if (fence_) vk.vkDestroyFence(device_.handle(), fence_, nullptr);
    if (pool_) vk.vkDestroyCommandPool(device_.handle(), pool_, nullptr);
  }

  // Records the command buffer anew with `record`.
  Status record(const std::function<void(VkCommandBuffer)>& record) {
    const VolkDeviceTable& vk = device_.vk();
    CL2VK_TRY(vulkan::check(vk.vkResetCommandBuffer(commands_, 0), "vkResetCommandBuffer"));
    VkCommandBufferBeginInfo begin{};
    begin.sType = VK_STRUCTURE_TYPE_COMMAND_BUFFER_BEGIN_INFO;
    CL2VK_TRY(vulkan::check(vk.vkBeginCommandBuffer(commands_, &begin), "vkBeginCommandBuffer"));
    record(commands_);
    return vulkan::check(vk.vkEndCommandBuffer(commands_), "vkEndCommandBuffer");
  }

  Status submit() {
    const VolkDeviceTable& vk = device_.vk();
    CL2VK_TRY(vulkan::check(vk.vkResetFences(device_.handle(), 1, &fence_), "vkResetFences"));
    VkSubmitInfo submit{};
    submit.sType = VK_STRUCTURE_TYPE_SUBMIT_INFO;
    submit.commandBufferCount = 1;
    submit.pCommandBuffers = &commands_;
    return vulkan::check(vk.vkQueueSubmit(queue_, 1, &submit, fence_), "vkQueueSubmit");
  }

  // Polls vkGetFenceStatus until the fence signals, yielding between polls or not.
  Status spinOnFence(bool yield) {
    VkResult result;
    while ((result = device_.vk().vkGetFenceStatus(device_.handle(), fence_)) == VK_NOT_READY) {
      if (yield) std::this_thread::yield();
    }
    return vulkan::check(result, "vkGetFenceStatus");
  }

  Status sleepOnFence() {
    return vulkan::check(device_.vk().vkWaitForFences(device_.handle(), 1, &fence_, VK_TRUE, UINT64_MAX),
                         "vkWaitForFences");
  }

 private:
  explicit RawSubmitter(vulkan::Device& device) : device_(device) {}

  vulkan::Device& device_;
  VkQueue queue_ = VK_NULL_HANDLE;
  VkCommandPool pool_ = VK_NULL_HANDLE;
  VkCommandBuffer commands_ = VK_NULL_HANDLE;
  VkFence fence_ = VK_NULL_HANDLE;
};

// The empty dispatch as the runtime records it: a barrier on earlier writes, the pipeline, one
// work-group.
void recordEmptyDispatch(const VolkDeviceTable& vk, VkCommandBuffer commands, const vulkan::Pipeline& pipeline) {
  vulkan::waitForEarlierWrites(vk, commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT,
                               VK_ACCESS_SHADER_READ_BIT | VK_ACCESS_SHADER_WRITE_BIT);
  vk.vkCmdBindPipeline(commands, VK_PIPELINE_BIND_POINT_COMPUTE, pipeline.handle());
  vk.vkCmdDispatch(commands, 1, 1, 1);
}

// After the dispatch, the device writes 1 to the first word of `marker` (host memory) and makes
// it visible to the host.
void recordCompletionMarker(const VolkDeviceTable& vk, VkCommandBuffer commands, const vulkan::Buffer& marker) {
  VkMemoryBarrier afterDispatch{};
  afterDispatch.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  afterDispatch.srcAccessMask = VK_ACCESS_SHADER_WRITE_BIT;
  afterDispatch.dstAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  vk.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_COMPUTE_SHADER_BIT, VK_PIPELINE_STAGE_TRANSFER_BIT, 0, 1,
                          &afterDispatch, 0, nullptr, 0, nullptr);
  vk.vkCmdFillBuffer(commands, marker.handle(), 0, 4, 1);
  VkMemoryBarrier toHost{};
  toHost.sType = VK_STRUCTURE_TYPE_MEMORY_BARRIER;
  toHost.srcAccessMask = VK_ACCESS_TRANSFER_WRITE_BIT;
  toHost.dstAccessMask = VK_ACCESS_HOST_READ_BIT;
  vk.vkCmdPipelineBarrier(commands, VK_PIPELINE_STAGE_TRANSFER_BIT, VK_PIPELINE_STAGE_HOST_BIT, 0, 1, &toHost, 0,
                          nullptr, 0, nullptr);
}

}  // namespace

int runCompletionExperiment(const Options& options) {
  // NVIDIA's OpenCL first: a process whose only GPU work is Vulkan leaves an NVIDIA GPU at its idle
  // clock (docs/PERFORMANCE.md, "Clocks"); the native platform's CUDA context holds it up.
  std::unique_ptr<OpenClRunner> native;
  if (!options.nativePlatform.empty()) {
    auto opened = OpenClRunner::open(options.nativePlatform, "native-opencl");
    if (!opened) {
      std::fprintf(stderr, "cl2vk-bench: %s\n", opened.error().message().c_str());
      return 1;
    }
    native = std::move(*opened);
  }
  auto cl2vk = OpenClRunner::open(options.platform, "cl2vk");
  if (!cl2vk) {
    std::fprintf(stderr, "cl2vk-bench: %s\n", cl2vk.error().message().c_str());
    return 1;
  }
  auto glsl = VulkanRunner::open(options.shaderDir);
  if (!glsl) {
    std::fprintf(stderr, "cl2vk-bench: cannot open the Vulkan device: %s\n", glsl.error().message().c_str());
    return 1;
  }
  vulkan::Device& device = (*glsl)->device();
  const VolkDeviceTable& vk = device.vk();
  auto pipeline = (*glsl)->createPipeline("empty", 1);
  auto raw = RawSubmitter::create(device);
  auto marker = vulkan::Buffer::createHostMemory(device, 256);
  if (!pipeline || !raw || !marker) {
    Error why = !pipeline ? pipeline.error() : !raw ? raw.error() : marker.error();
    std::fprintf(stderr, "cl2vk-bench: %s\n", why.message().c_str());
    return 1;
  }
  auto* markerWord = reinterpret_cast<std::atomic<uint32_t>*>(marker->hostAddress());
  if (!markerWord) {
    std::fprintf(stderr, "cl2vk-bench: the marker's memory is not mapped\n");
    return 1;
  }

  size_t count = options.launchIterations;
  size_t warmups = std::max<size_t>(count / 10, 5);
  VariantTimes variants(1000, "us");

  // OpenCL: enqueue and finish of an empty kernel of one work-item, and the enqueue alone.
  auto openclRows = [&](OpenClRunner& runner, const std::string& label) {
    std::vector<double> enqueues;
    auto whole = runner.emptyLaunchHostTimes(warmups, count, &enqueues);
    variants.add(label + ": clEnqueueNDRangeKernel + clFinish", whole);
    if (whole) variants.add(label + ": clEnqueueNDRangeKernel alone (of the same launches)", enqueues);
  };
  if (native) openclRows(*native, "NVIDIA's OpenCL");
  openclRows(**cl2vk, "cl2vk");

  // cl2vk's Vulkan layer: vulkan::dispatch records, submits and waits as the runtime does.
  variants.add("vulkan::dispatch (record, submit, poll the fence yielding up to 2 ms)",
               repeat(warmups, count, [&]() -> Expected<double> {
                 auto start = Clock::now();
                 CL2VK_TRY(vulkan::dispatch(device, *pipeline, {}, 1));
                 return nanosecondsBetween(start, Clock::now());
               }));

  auto emptyDispatch = [&](VkCommandBuffer commands) { recordEmptyDispatch(vk, commands, *pipeline); };
  auto withMarker = [&](VkCommandBuffer commands) {
    recordEmptyDispatch(vk, commands, *pipeline);
    recordCompletionMarker(vk, commands, *marker);
  };
  RawSubmitter& submitter = **raw;
  // The recorded command buffer submitted, then waited for by `wait`, timed.
  auto submitThen = [&](const std::function<Status()>& wait) {
    return repeat(warmups, count, [&]() -> Expected<double> {
      auto start = Clock::now();
      CL2VK_TRY(submitter.submit());
      CL2VK_TRY(wait());
      return nanosecondsBetween(start, Clock::now());
    });
  };
  variants.add("raw: record each time, submit, poll the fence yielding",
               repeat(warmups, count, [&]() -> Expected<double> {
                 auto start = Clock::now();
                 CL2VK_TRY(submitter.record(emptyDispatch));
                 CL2VK_TRY(submitter.submit());
                 CL2VK_TRY(submitter.spinOnFence(true));
                 return nanosecondsBetween(start, Clock::now());
               }));
  Status recorded = submitter.record(emptyDispatch);
  if (!recorded) {
    std::fprintf(stderr, "cl2vk-bench: %s\n", recorded.error().message().c_str());
    return 1;
  }
  std::vector<double> submits;
  variants.add("raw: recorded once, submit, poll the fence yielding", repeat(warmups, count, [&]() -> Expected<double> {
                 auto start = Clock::now();
                 CL2VK_TRY(submitter.submit());
                 submits.push_back(nanosecondsBetween(start, Clock::now()));
                 CL2VK_TRY(submitter.spinOnFence(true));
                 return nanosecondsBetween(start, Clock::now());
               }));
  submits.erase(submits.begin(), submits.begin() + static_cast<std::ptrdiff_t>(std::min(warmups, submits.size())));
  variants.add("raw: the same, vkQueueSubmit alone", submits);
  variants.add("raw: recorded once, submit, poll the fence without yielding",
               submitThen([&] { return submitter.spinOnFence(false); }));
  variants.add("raw: recorded once, submit, sleep in vkWaitForFences",
               submitThen([&] { return submitter.sleepOnFence(); }));
  recorded = submitter.record(withMarker);
  if (!recorded) {
    std::fprintf(stderr, "cl2vk-bench: %s\n", recorded.error().message().c_str());
    return 1;
  }
  variants.add("raw: recorded once with a marker, submit, poll the marker's host word",
               repeat(warmups, count, [&]() -> Expected<double> {
                 markerWord->store(0, std::memory_order_relaxed);
                 auto start = Clock::now();
                 CL2VK_TRY(submitter.submit());
                 while (markerWord->load(std::memory_order_acquire) == 0) {
                 }
                 double time = nanosecondsBetween(start, Clock::now());
                 CL2VK_TRY(submitter.spinOnFence(false));
                 return time;
               }));
  variants.add("raw: recorded once with a marker, submit, poll the fence without yielding",
               submitThen([&] { return submitter.spinOnFence(false); }));

  // Timestamps around the dispatch, as a profiling queue's launches have them: reset in the
  // command buffer (as vulkan::Queue does) or on the host (hostQueryReset), read after the fence.
  VkQueryPool timestamps = VK_NULL_HANDLE;
  VkQueryPoolCreateInfo poolInfo{};
  poolInfo.sType = VK_STRUCTURE_TYPE_QUERY_POOL_CREATE_INFO;
  poolInfo.queryType = VK_QUERY_TYPE_TIMESTAMP;
  poolInfo.queryCount = 2;
  if (device.queue().timestampValidBits() > 0 &&
      vk.vkCreateQueryPool(device.handle(), &poolInfo, nullptr, &timestamps) == VK_SUCCESS) {
    auto timedDispatch = [&](bool resetInCommands) {
      return [&, resetInCommands](VkCommandBuffer commands) {
        if (resetInCommands) vk.vkCmdResetQueryPool(commands, timestamps, 0, 2);
        vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_TOP_OF_PIPE_BIT, timestamps, 0);
        recordEmptyDispatch(vk, commands, *pipeline);
        vk.vkCmdWriteTimestamp(commands, VK_PIPELINE_STAGE_BOTTOM_OF_PIPE_BIT, timestamps, 1);
      };
    };
    auto timedRun = [&](bool resetOnHost, VkQueryResultFlags wait) -> Expected<double> {
      auto start = Clock::now();
      if (resetOnHost) vk.vkResetQueryPool(device.handle(), timestamps, 0, 2);
      CL2VK_TRY(submitter.submit());
      CL2VK_TRY(submitter.spinOnFence(true));
      uint64_t ticks[2];
      CL2VK_TRY(vulkan::check(vk.vkGetQueryPoolResults(device.handle(), timestamps, 0, 2, sizeof ticks, ticks,
                                                       sizeof(uint64_t), VK_QUERY_RESULT_64_BIT | wait),
                              "vkGetQueryPoolResults"));
      return nanosecondsBetween(start, Clock::now());
    };
    if (submitter.record(timedDispatch(true))) {
      variants.add("raw: recorded once with timestamps reset in it, submit, poll the fence yielding, read them",
                   repeat(warmups, count, [&] { return timedRun(false, VK_QUERY_RESULT_WAIT_BIT); }));
      variants.add("raw: the same, read without VK_QUERY_RESULT_WAIT_BIT",
                   repeat(warmups, count, [&] { return timedRun(false, 0); }));
    }
    if (device.info().features.hostQueryReset && submitter.record(timedDispatch(false))) {
      variants.add("raw: recorded once with timestamps reset on the host (vkResetQueryPool), submit, poll, read them",
                   repeat(warmups, count, [&] { return timedRun(true, VK_QUERY_RESULT_WAIT_BIT); }));
    }
    vk.vkDeviceWaitIdle(device.handle());
    vk.vkDestroyQueryPool(device.handle(), timestamps, nullptr);
  }

  const std::vector<VariantTimes::Row>& rows = variants.rows();
  double baseline = rows.empty() ? 0 : rows.front().median;
  std::printf("Host time of an empty launch of one work-item on \"%s\", %zu times after %zu warm-ups (us)\n\n",
              (*glsl)->deviceName().c_str(), count, warmups);
  std::printf("| variant | 10%% | median | 90%% | median / first row |\n|---|--:|--:|--:|--:|\n");
  for (const VariantTimes::Row& row : rows) {
    std::printf("| %s | %.2f | %.2f | %.2f | %.2f |\n", row.name.c_str(), row.percentile(0.1) / 1000, row.median / 1000,
                row.percentile(0.9) / 1000, baseline > 0 ? row.median / baseline : 0.0);
  }
  std::printf("\n%d failed\n", variants.failures());
  return variants.failures() == 0 ? 0 : 1;
}

}  // namespace cl2vk::bench
