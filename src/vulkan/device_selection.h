// Which physical device cl2vk runs on.
#pragma once

#include <volk.h>

#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "cl2vk/expected.h"
#include "vulkan/device_info.h"

namespace cl2vk::vulkan {

// The index in `devices` of the device to open. `request` is CL2VK_DEVICE's value: all digits is an
// index into the enumeration; anything else is a case-insensitive substring of the device name
// ("llvmpipe"), the first match winning. An empty request picks the first usable discrete GPU, else
// integrated GPU, else any other usable device (lavapipe and SwiftShader are CPU devices). A request
// that names an unusable device fails with checkUsable's reason.
Expected<uint32_t> selectDevice(const std::vector<DeviceInfo>& devices, std::string_view request);

// The queue family cl2vk submits to. `request` is CL2VK_QUEUE's value: "compute" (and empty, the
// default) prefers a family that has compute but not graphics, "graphics" one that has both.
// Families that write timestamps come first either way, so that dispatches can be timed; among
// equals the lowest index wins. On NVIDIA the compute-only family runs a 256-wide 4-byte copy 15%
// faster than the graphics family (docs/PERFORMANCE.md). An error for an unknown request or a
// device without compute.
Expected<uint32_t> selectQueueFamily(std::span<const VkQueueFamilyProperties> families, std::string_view request);

}  // namespace cl2vk::vulkan
