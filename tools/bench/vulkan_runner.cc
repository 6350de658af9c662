#include "vulkan_runner.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <fstream>

#include "vulkan/dispatch.h"

namespace cl2vk::bench {
namespace {

// The push constants of every shader in shaders/bench/. A launch with more work-groups than one
// Vulkan dispatch may have becomes several dispatches, each starting at `groupOffset`.
struct Arguments {
  uint64_t source = 0;
  uint64_t destination = 0;
  uint32_t groupOffset = 0;
  uint32_t reserved = 0;
};

Expected<std::vector<uint32_t>> readSpirv(const std::string& path) {
  std::ifstream file(path, std::ios::binary | std::ios::ate);
  if (!file) return Error("cannot read " + path + " (build bench_shaders, or pass --shader-dir)");
  auto size = static_cast<size_t>(file.tellg());
  if (size % 4 != 0) return Error(path + " is not a SPIR-V binary");
  std::vector<uint32_t> words(size / 4);
  file.seekg(0);
  file.read(reinterpret_cast<char*>(words.data()), static_cast<std::streamsize>(size));
  return words;
}

}  // namespace

Expected<std::unique_ptr<VulkanRunner>> VulkanRunner::open(std::string shaderDir,
                                                           const vulkan::DeviceOptions& options) {
  auto device = vulkan::Device::open(options);
  if (!device) return device.error();
  return std::unique_ptr<VulkanRunner>(new VulkanRunner(std::move(*device), std::move(shaderDir)));
}

Status VulkanRunner::createBuffers(const InputShape& shape) {
  VkDeviceSize bytes = shape.words * sizeof(uint32_t);
  for (InputSet set : kInputSets) {
    for (size_t index = 0; index < shape.count; ++index) {
      auto buffer = vulkan::Buffer::create(*device_, bytes);
      if (!buffer) return buffer.error();
      std::vector<uint32_t> words = generateInput(set, index, shape.words);
      CL2VK_TRY(buffer->uploadValues(std::span<const uint32_t>(words)));
      inputs_[set].push_back(std::move(*buffer));
    }
  }
  auto output = vulkan::Buffer::create(*device_, bytes);
  if (!output) return output.error();
  output_.emplace(std::move(*output));
  return okStatus();
}

Expected<vulkan::Pipeline> VulkanRunner::createPipeline(const std::string& name, uint32_t workGroupSize) {
  Expected<std::vector<uint32_t>> spirv = readSpirv(shaderDir_ + "/" + name + ".spv");
  if (!spirv) return spirv.error();
  vulkan::PipelineDesc desc;
  desc.spirv = *spirv;
  desc.specializationConstants.push_back(vulkan::SpecializationConstant::of(0, workGroupSize));
  if (auto known = subgroupSizes_.find(workGroupSize); known != subgroupSizes_.end()) {
    // Specialization constant 1 sizes the shared array of subgroup partials.
    uint32_t subgroups = (workGroupSize + known->second - 1) / known->second;
    desc.specializationConstants.push_back(vulkan::SpecializationConstant::of(1, subgroups));
  }
  if (variant_.sharedBytes > 0) {
    desc.specializationConstants.push_back(vulkan::SpecializationConstant::of(2, variant_.sharedBytes / 4));
  }
  if (variant_.requireFullSubgroups) {
    desc.requiredSubgroupSize = device_->info().subgroup.maxSize;
    desc.requireFullSubgroups = true;
  }
  desc.captureStatistics = device_->info().features.pipelineExecutableInfo;
  desc.pushConstantSize = name == "empty" ? 0 : sizeof(Arguments);
  return vulkan::Pipeline::create(*device_, desc);
}

Expected<uint32_t> VulkanRunner::subgroupSize(uint32_t workGroupSize) {
  if (auto known = subgroupSizes_.find(workGroupSize); known != subgroupSizes_.end()) return known->second;
  auto probe = createPipeline("subgroup_size", workGroupSize);
  if (!probe) return probe.error();
  Arguments arguments{0, output_->deviceAddress()};
  auto ran = vulkan::dispatch(*device_, *probe, vulkan::bytesOf(arguments), 1);
  if (!ran) return ran.error();
  auto size = output_->downloadValues<uint32_t>(1);
  if (!size) return size.error();
  subgroupSizes_[workGroupSize] = size->front();
  return size->front();
}

Status VulkanRunner::prepare(const LaunchSpec& spec) {
  if (spec.workGroupSize > device_->info().limits.maxComputeWorkGroupInvocations) {
    return Error("work-group size " + std::to_string(spec.workGroupSize) + " exceeds maxComputeWorkGroupInvocations");
  }
  // Shaders with subgroup partials are specialized with the subgroup count.
  if (spec.workload->scope != Scope::kNone) {
    Expected<uint32_t> size = subgroupSize(spec.workGroupSize);
    if (!size) return size.error();
  }
  auto pipeline = createPipeline(spec.kernel, spec.workGroupSize);
  if (!pipeline) return pipeline.error();
  pipeline_.emplace(std::move(*pipeline));
  spec_ = spec;
  return okStatus();
}

Expected<double> VulkanRunner::run(size_t inputIndex, uint64_t workItems) {
  const std::vector<vulkan::Buffer>& inputs = inputs_[spec_.workload->inputSet()];
  uint64_t groups = workItems / spec_.workGroupSize;
  uint64_t maxGroups = device_->info().limits.maxComputeWorkGroupCount[0];
  uint64_t perDispatch = std::min(maxGroups, (groups + variant_.dispatches - 1) / variant_.dispatches);
  uint32_t width = static_cast<uint32_t>(std::min<uint64_t>(variant_.gridWidth, groups));
  uint32_t rows = 1;
  if (width > 0) {
    if (groups % width != 0 || groups / width > device_->info().limits.maxComputeWorkGroupCount[1]) {
      return Error(std::to_string(groups) + " work-groups do not make a grid " + std::to_string(width) + " wide");
    }
    perDispatch = groups;
    rows = static_cast<uint32_t>(groups / width);
  }
  std::vector<Arguments> arguments;
  for (uint64_t offset = 0; offset < groups; offset += perDispatch) {
    arguments.push_back({inputs.at(inputIndex % inputs.size()).deviceAddress(), output_->deviceAddress(),
                         static_cast<uint32_t>(offset), 0});
  }
  std::vector<vulkan::Dispatch> dispatches;
  for (size_t i = 0; i < arguments.size(); ++i) {
    uint64_t count = std::min(perDispatch, groups - i * perDispatch);
    std::array<uint32_t, 3> grid{static_cast<uint32_t>(count), 1, 1};
    if (width > 0) grid = {width, rows, 1};
    dispatches.push_back({&*pipeline_, vulkan::bytesOf(arguments[i]), grid});
  }
  auto times = vulkan::dispatchAll(*device_, dispatches);
  if (!times) return times.error();
  double total = 0;
  for (const vulkan::GpuTime& time : *times) {
    if (!time.nanoseconds) return Error("the device's compute queue writes no timestamps");
    total += *time.nanoseconds;
  }
  return total;
}

Expected<std::vector<std::string>> VulkanRunner::preparedStatistics() const {
  if (!pipeline_) return Error("no pipeline is prepared");
  if (!device_->info().features.pipelineExecutableInfo) return std::vector<std::string>{};
  return pipeline_->statistics();
}

Expected<std::vector<uint32_t>> VulkanRunner::readOutput(uint64_t words) {
  return output_->downloadValues<uint32_t>(words);
}

Expected<std::vector<double>> VulkanRunner::emptyDispatchHostTimes(size_t warmups, size_t count) {
  auto pipeline = createPipeline("empty", 1);
  if (!pipeline) return pipeline.error();
  std::vector<double> times;
  for (size_t i = 0; i < warmups + count; ++i) {
    auto start = std::chrono::steady_clock::now();
    auto ran = vulkan::dispatch(*device_, *pipeline, {}, 1);
    if (!ran) return ran.error();
    auto end = std::chrono::steady_clock::now();
    if (i >= warmups) times.push_back(std::chrono::duration<double, std::nano>(end - start).count());
  }
  return times;
}

}  // namespace cl2vk::bench
