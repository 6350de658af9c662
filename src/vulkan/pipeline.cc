#include "vulkan/pipeline.h"

#include <chrono>
#include <set>
#include <utility>

#include "vulkan/device.h"
#include "vulkan/isolated_compile.h"
#include "vulkan/process_exit.h"
#include "vulkan/shader_check.h"
#include "vulkan/vk_result.h"

namespace cl2vk::vulkan {
namespace {

// How long a child process may compile one pipeline (isolated_compile.h) before it is taken to
// hang and the compile goes on in the process itself.
constexpr std::chrono::seconds kIsolatedCompileLimit{600};

Status checkDesc(const DeviceInfo& info, const PipelineDesc& desc) {
  if (desc.pushConstantSize % 4 != 0 || desc.pushConstantSize > info.limits.maxPushConstantsSize) {
    return Error("push-constant size " + std::to_string(desc.pushConstantSize) +
                 " must be a multiple of 4 and at most " + std::to_string(info.limits.maxPushConstantsSize) +
                 " (maxPushConstantsSize)");
  }
  std::set<uint32_t> ids;
  for (const SpecializationConstant& constant : desc.specializationConstants) {
    size_t size = constant.bytes.size();
    if (size != 1 && size != 2 && size != 4 && size != 8) {
      return Error("specialization constant " + std::to_string(constant.id) + " has " + std::to_string(size) +
                   " bytes; it must have 1, 2, 4 or 8");
    }
    if (!ids.insert(constant.id).second) {
      return Error("specialization constant " + std::to_string(constant.id) + " is given twice");
    }
  }
  const SubgroupInfo& subgroup = info.subgroup;
  if (desc.requiredSubgroupSize) {
    uint32_t size = *desc.requiredSubgroupSize;
    if (!subgroup.requiredSizeInCompute) {
      return Error(info.name +
                   " cannot require a subgroup size in compute shaders "
                   "(no subgroupSizeControl, or compute missing from requiredSubgroupSizeStages)");
    }
    if (size == 0 || (size & (size - 1)) != 0 || size < subgroup.minSize || size > subgroup.maxSize) {
      return Error("required subgroup size " + std::to_string(size) + " must be a power of two in [" +
                   std::to_string(subgroup.minSize) + ", " + std::to_string(subgroup.maxSize) + "] on " + info.name);
    }
  }
  if (desc.requireFullSubgroups && !subgroup.computeFullSubgroups) {
    return Error(info.name + " lacks computeFullSubgroups, so full subgroups cannot be required");
  }
  if (desc.captureStatistics && !info.features.pipelineExecutableInfo) {
    return Error(info.name + " lacks VK_KHR_pipeline_executable_properties, so it reports no pipeline statistics");
  }
  return okStatus();
}

}  // namespace

Expected<Pipeline> Pipeline::create(Device& device, const PipelineDesc& desc) {
  const DeviceInfo& info = device.info();
  CL2VK_TRY(checkDesc(info, desc));
  CL2VK_TRY(checkComputeShader(desc.spirv, desc.entryPoint, device.apiVersion(), info.features));

  const VolkDeviceTable& vk = device.vk();
  VkDevice handle = device.handle();
  Pipeline pipeline(device);
  pipeline.pushConstantSize_ = desc.pushConstantSize;
  pipeline.capturedStatistics_ = desc.captureStatistics;

  VkPushConstantRange range{VK_SHADER_STAGE_COMPUTE_BIT, 0, desc.pushConstantSize};
  VkPipelineLayoutCreateInfo layoutInfo{};
  layoutInfo.sType = VK_STRUCTURE_TYPE_PIPELINE_LAYOUT_CREATE_INFO;
  layoutInfo.pushConstantRangeCount = desc.pushConstantSize > 0 ? 1 : 0;
  layoutInfo.pPushConstantRanges = &range;
  CL2VK_TRY(
      check(vk.vkCreatePipelineLayout(handle, &layoutInfo, nullptr, &pipeline.layout_), "vkCreatePipelineLayout"));

  VkShaderModuleCreateInfo moduleInfo{};
  moduleInfo.sType = VK_STRUCTURE_TYPE_SHADER_MODULE_CREATE_INFO;
  moduleInfo.codeSize = desc.spirv.size_bytes();
  moduleInfo.pCode = desc.spirv.data();
  VkShaderModule module = VK_NULL_HANDLE;
  CL2VK_TRY(check(vk.vkCreateShaderModule(handle, &moduleInfo, nullptr, &module), "vkCreateShaderModule"));

  std::vector<VkSpecializationMapEntry> entries;
  std::vector<std::byte> data;
  for (const SpecializationConstant& constant : desc.specializationConstants) {
    entries.push_back({constant.id, static_cast<uint32_t>(data.size()), constant.bytes.size()});
    data.insert(data.end(), constant.bytes.begin(), constant.bytes.end());
  }
  VkSpecializationInfo specialization{};
  specialization.mapEntryCount = static_cast<uint32_t>(entries.size());
  specialization.pMapEntries = entries.data();
  specialization.dataSize = data.size();
  specialization.pData = data.data();

  VkPipelineShaderStageRequiredSubgroupSizeCreateInfo subgroupSize{};
  subgroupSize.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_REQUIRED_SUBGROUP_SIZE_CREATE_INFO;
  subgroupSize.requiredSubgroupSize = desc.requiredSubgroupSize.value_or(0);

  VkComputePipelineCreateInfo pipelineInfo{};
  pipelineInfo.sType = VK_STRUCTURE_TYPE_COMPUTE_PIPELINE_CREATE_INFO;
  pipelineInfo.layout = pipeline.layout_;
  if (desc.captureStatistics) pipelineInfo.flags = VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR;
  VkPipelineShaderStageCreateInfo& stage = pipelineInfo.stage;
  stage.sType = VK_STRUCTURE_TYPE_PIPELINE_SHADER_STAGE_CREATE_INFO;
  stage.pNext = desc.requiredSubgroupSize ? &subgroupSize : nullptr;
  stage.flags = desc.requireFullSubgroups ? VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT : 0;
  stage.stage = VK_SHADER_STAGE_COMPUTE_BIT;
  stage.module = module;
  stage.pName = desc.entryPoint.c_str();
  stage.pSpecializationInfo = entries.empty() ? nullptr : &specialization;
  if (compilesInChildFirst(info, desc.spirv)) {
    auto create = [&] {
      VkPipeline trial = VK_NULL_HANDLE;
      return vk.vkCreateComputePipelines(handle, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &trial);
    };
    if (Status survived = tryInChildProcess(info.name, create, kIsolatedCompileLimit); !survived) {
      vk.vkDestroyShaderModule(handle, module, nullptr);
      return survived.error();
    }
  }
  VkResult result = vk.vkCreateComputePipelines(handle, VK_NULL_HANDLE, 1, &pipelineInfo, nullptr, &pipeline.pipeline_);
  vk.vkDestroyShaderModule(handle, module, nullptr);
  CL2VK_TRY(check(result, "vkCreateComputePipelines"));
  device.pipelinesCreated_.fetch_add(1, std::memory_order_relaxed);
  return pipeline;
}

Expected<std::vector<std::string>> Pipeline::statistics() const {
  if (!capturedStatistics_) return Error("the pipeline was created without captureStatistics");
  const VolkDeviceTable& vk = device_->vk();
  VkPipelineInfoKHR pipelineInfo{VK_STRUCTURE_TYPE_PIPELINE_INFO_KHR, nullptr, pipeline_};
  uint32_t executableCount = 0;
  CL2VK_TRY(check(vk.vkGetPipelineExecutablePropertiesKHR(device_->handle(), &pipelineInfo, &executableCount, nullptr),
                  "vkGetPipelineExecutablePropertiesKHR"));
  std::vector<std::string> lines;
  for (uint32_t executable = 0; executable < executableCount; ++executable) {
    VkPipelineExecutableInfoKHR executableInfo{VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_INFO_KHR, nullptr, pipeline_,
                                               executable};
    uint32_t count = 0;
    CL2VK_TRY(check(vk.vkGetPipelineExecutableStatisticsKHR(device_->handle(), &executableInfo, &count, nullptr),
                    "vkGetPipelineExecutableStatisticsKHR"));
    VkPipelineExecutableStatisticKHR blank{};
    blank.sType = VK_STRUCTURE_TYPE_PIPELINE_EXECUTABLE_STATISTIC_KHR;
    std::vector<VkPipelineExecutableStatisticKHR> statistics(count, blank);
    CL2VK_TRY(
        check(vk.vkGetPipelineExecutableStatisticsKHR(device_->handle(), &executableInfo, &count, statistics.data()),
              "vkGetPipelineExecutableStatisticsKHR"));
    for (const VkPipelineExecutableStatisticKHR& statistic : statistics) {
      std::string value;
      switch (statistic.format) {
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_BOOL32_KHR: value = statistic.value.b32 ? "true" : "false"; break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_INT64_KHR: value = std::to_string(statistic.value.i64); break;
        case VK_PIPELINE_EXECUTABLE_STATISTIC_FORMAT_UINT64_KHR: value = std::to_string(statistic.value.u64); break;
        default: value = std::to_string(statistic.value.f64); break;
      }
      lines.push_back(std::string(statistic.name) + " = " + value);
    }
  }
  return lines;
}

Pipeline::Pipeline(Pipeline&& other) noexcept
    : device_(other.device_),
      layout_(std::exchange(other.layout_, VK_NULL_HANDLE)),
      pipeline_(std::exchange(other.pipeline_, VK_NULL_HANDLE)),
      pushConstantSize_(other.pushConstantSize_),
      capturedStatistics_(other.capturedStatistics_) {}

Pipeline& Pipeline::operator=(Pipeline&& other) noexcept {
  if (this != &other) {
    release();
    device_ = other.device_;
    layout_ = std::exchange(other.layout_, VK_NULL_HANDLE);
    pipeline_ = std::exchange(other.pipeline_, VK_NULL_HANDLE);
    pushConstantSize_ = other.pushConstantSize_;
    capturedStatistics_ = other.capturedStatistics_;
  }
  return *this;
}

Pipeline::~Pipeline() { release(); }

void Pipeline::release() {
  if (device_ == nullptr || processIsExiting()) return;
  if (pipeline_ != VK_NULL_HANDLE) device_->vk().vkDestroyPipeline(device_->handle(), pipeline_, nullptr);
  if (layout_ != VK_NULL_HANDLE) {
    device_->vk().vkDestroyPipelineLayout(device_->handle(), layout_, nullptr);
  }
  pipeline_ = VK_NULL_HANDLE;
  layout_ = VK_NULL_HANDLE;
}

}  // namespace cl2vk::vulkan
