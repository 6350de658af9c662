// A compute pipeline from a SPIR-V module. Kernels reach their buffers through device addresses in
// push constants, so the layout has no descriptor sets, only one compute push-constant range.
#pragma once

#include <volk.h>

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk::vulkan {

class Device;

struct SpecializationConstant {
  uint32_t id = 0;
  // The constant's value in its own size: 1, 2, 4 or 8 bytes (4 for a bool, as a VkBool32).
  std::vector<std::byte> bytes;

  template <typename T>
  static SpecializationConstant of(uint32_t id, T value) {
    static_assert(std::is_trivially_copyable_v<T> &&
                  (sizeof(T) == 1 || sizeof(T) == 2 || sizeof(T) == 4 || sizeof(T) == 8));
    SpecializationConstant constant{id, std::vector<std::byte>(sizeof(T))};
    std::memcpy(constant.bytes.data(), &value, sizeof(T));
    return constant;
  }
};

struct PipelineDesc {
  std::span<const uint32_t> spirv;  // Only read during Pipeline::create.
  std::string entryPoint = "main";
  std::vector<SpecializationConstant> specializationConstants;
  uint32_t pushConstantSize = 0;  // A multiple of 4, at most maxPushConstantsSize.
  // VkPipelineShaderStageRequiredSubgroupSizeCreateInfo; an error where the device cannot.
  std::optional<uint32_t> requiredSubgroupSize;
  // VK_PIPELINE_SHADER_STAGE_CREATE_REQUIRE_FULL_SUBGROUPS_BIT; an error where the device cannot.
  bool requireFullSubgroups = false;
  // VK_PIPELINE_CREATE_CAPTURE_STATISTICS_BIT_KHR, for Pipeline::statistics; an error where the
  // device lacks pipelineExecutableInfo.
  bool captureStatistics = false;
};

class Pipeline {
 public:
  // Validates the module with SPIRV-Tools for the device's Vulkan version before the driver sees
  // it: invalid SPIR-V is an error, never a crash in the driver.
  static Expected<Pipeline> create(Device& device, const PipelineDesc& desc);

  Pipeline(Pipeline&& other) noexcept;
  Pipeline& operator=(Pipeline&& other) noexcept;
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;
  ~Pipeline();

  VkPipeline handle() const { return pipeline_; }
  VkPipelineLayout layout() const { return layout_; }
  uint32_t pushConstantSize() const { return pushConstantSize_; }
  const Device& device() const { return *device_; }

  // What the driver reports of the compiled code ("Register Count = 16", ...), one line per
  // statistic of each executable; needs PipelineDesc::captureStatistics.
  Expected<std::vector<std::string>> statistics() const;

 private:
  explicit Pipeline(Device& device) : device_(&device) {}
  void release();

  Device* device_ = nullptr;
  VkPipelineLayout layout_ = VK_NULL_HANDLE;
  VkPipeline pipeline_ = VK_NULL_HANDLE;
  uint32_t pushConstantSize_ = 0;
  bool capturedStatistics_ = false;
};

}  // namespace cl2vk::vulkan
