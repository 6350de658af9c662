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

// How the runner asks Vulkan to run a shader, for the dispatch experiment (dispatch_experiment.h);
// the defaults are what the benchmarks use.
struct DispatchVariant {
  // Work-groups per row of a 2D grid (the shader must read gl_NumWorkGroups); 0: a 1D grid.
  uint32_t gridWidth = 0;
  // The launch split into this many dispatches (groupOffset tells each where it starts).
  uint32_t dispatches = 1;
  // Pipelines created with the device's largest subgroup size required and full subgroups.
  bool requireFullSubgroups = false;
  // Specialization constant 2: bytes of shared memory the *_shared shaders hold per work-group.
  uint32_t sharedBytes = 0;
};

class VulkanRunner : public Runner {
 public:
  // The Vulkan device `options` chooses (by default CL2VK_DEVICE's and CL2VK_QUEUE's choice, as
  // for the cl2vk ICD), with the compiled shaders read from `shaderDir`.
  static Expected<std::unique_ptr<VulkanRunner>> open(
      std::string shaderDir, const vulkan::DeviceOptions& options = vulkan::DeviceOptions::fromEnvironment());

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

  // A pipeline of shader `name` (shaders/bench/NAME.spv) with work-group size `workGroupSize`,
  // under the variant set.
  Expected<vulkan::Pipeline> createPipeline(const std::string& name, uint32_t workGroupSize);

  // Applies to the pipelines prepared and the launches run after it.
  void setVariant(const DispatchVariant& variant) { variant_ = variant; }
  // The driver's statistics of the prepared pipeline (registers, shared memory), where it has
  // VK_KHR_pipeline_executable_properties; empty where it has not.
  Expected<std::vector<std::string>> preparedStatistics() const;

 private:
  explicit VulkanRunner(std::unique_ptr<vulkan::Device> device, std::string shaderDir)
      : device_(std::move(device)), shaderDir_(std::move(shaderDir)) {}

  std::unique_ptr<vulkan::Device> device_;
  std::string shaderDir_;
  std::map<InputSet, std::vector<vulkan::Buffer>> inputs_;
  std::optional<vulkan::Buffer> output_;
  std::map<uint32_t, uint32_t> subgroupSizes_;  // by work-group size

  DispatchVariant variant_;
  LaunchSpec spec_;
  std::optional<vulkan::Pipeline> pipeline_;
};

}  // namespace cl2vk::bench
