// The hand-written GLSL baselines (shaders/bench/*.spv) dispatched directly with cl2vk's Vulkan
// executor: the same inputs and outputs as the OpenCL kernels, buffers through device addresses in
// push constants, the work-group size as specialization constant 0. Times are the executor's
// device timestamps.
#pragma once

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "runner.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"
#include "vulkan/pipeline.h"

namespace cl2vk::bench {

class VulkanRunner : public Runner {
 public:
  // The default Vulkan device (CL2VK_DEVICE chooses another, as for the cl2vk ICD), with the
  // compiled shaders read from `shaderDir`.
  static Expected<std::unique_ptr<VulkanRunner>> open(std::string shaderDir);

  std::string name() const override { return "glsl"; }
  std::string deviceName() const override { return device_->info().name; }
  vulkan::Device& device() { return *device_; }

  Status createBuffers(const InputShape& shape) override;
  Expected<uint32_t> subgroupSize(uint32_t workGroupSize) override;
  Status prepare(const LaunchSpec& spec) override;
  Expected<double> run(size_t inputIndex, uint64_t workItems) override;
  Expected<std::vector<uint32_t>> readOutput(uint64_t words) override;

  // Host nanoseconds of vulkan::dispatch (record, submit, wait) of an empty shader with one
  // invocation, `count` times after `warmups` untimed dispatches.
  Expected<std::vector<double>> emptyDispatchHostTimes(size_t warmups, size_t count);

 private:
  explicit VulkanRunner(std::unique_ptr<vulkan::Device> device, std::string shaderDir)
      : device_(std::move(device)), shaderDir_(std::move(shaderDir)) {}

  // A pipeline of shader `name` with work-group size `workGroupSize`.
  Expected<vulkan::Pipeline> createPipeline(const std::string& name, uint32_t workGroupSize);

  std::unique_ptr<vulkan::Device> device_;
  std::string shaderDir_;
  std::map<InputSet, std::vector<vulkan::Buffer>> inputs_;
  std::optional<vulkan::Buffer> output_;
  std::map<uint32_t, uint32_t> subgroupSizes_;  // by work-group size

  LaunchSpec spec_;
  std::optional<vulkan::Pipeline> pipeline_;
};

}  // namespace cl2vk::bench
