// Checks a compute module before a driver sees it. Drivers may crash on invalid SPIR-V (Vulkan
// leaves it undefined), so the executor validates with SPIRV-Tools first and turns any problem
// into an error.
#pragma once

#include <cstdint>
#include <span>
#include <string>

#include "cl2vk/expected.h"
#include "vulkan/device_info.h"

namespace cl2vk::vulkan {

// Ok when `words` is a valid module for the Vulkan version `apiVersion` (with the block layouts
// and LocalSizeId that `features` allow) and has a GLCompute entry point named `entryPoint`.
Status checkComputeShader(std::span<const uint32_t> words, const std::string& entryPoint, uint32_t apiVersion,
                          const DeviceFeatures& features);

}  // namespace cl2vk::vulkan
