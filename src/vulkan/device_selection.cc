#include "vulkan/device_selection.h"

#include <algorithm>
#include <cctype>
#include <optional>
#include <string>

namespace cl2vk::vulkan {
namespace {

std::string lowercase(std::string_view text) {
  std::string lower(text);
  std::transform(lower.begin(), lower.end(), lower.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return lower;
}

std::string deviceList(const std::vector<DeviceInfo>& devices) {
  std::string list;
  for (const DeviceInfo& device : devices) {
    if (!list.empty()) list += ", ";
    list += "[" + std::to_string(device.index) + "] " + device.name;
  }
  return list;
}

Expected<uint32_t> usableOrError(const std::vector<DeviceInfo>& devices, uint32_t index) {
  Status usable = checkUsable(devices[index]);
  if (!usable) return usable.error().withContext("the selected Vulkan device cannot run cl2vk");
  return index;
}

int preferenceRank(VkPhysicalDeviceType type) {
  switch (type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU: return 0;
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU: return 1;
    default: return 2;
  }
}

}  // namespace

Expected<uint32_t> selectDevice(const std::vector<DeviceInfo>& devices, std::string_view request) {
  if (devices.empty()) {
    return Error("no Vulkan device found; install a driver (mesa-vulkan-drivers provides lavapipe)");
  }
  if (!request.empty() &&
      std::all_of(request.begin(), request.end(), [](unsigned char c) { return std::isdigit(c); })) {
    unsigned long index = std::stoul(std::string(request.substr(0, 9)));
    if (request.size() > 9 || index >= devices.size()) {
      return Error("CL2VK_DEVICE=" + std::string(request) + " is out of range; the devices are " + deviceList(devices));
    }
    return usableOrError(devices, static_cast<uint32_t>(index));
  }
  if (!request.empty()) {
    std::string wanted = lowercase(request);
    for (uint32_t i = 0; i < devices.size(); ++i) {
      if (lowercase(devices[i].name).find(wanted) != std::string::npos) return usableOrError(devices, i);
    }
    return Error("CL2VK_DEVICE=" + std::string(request) + " matches no device name; the devices are " +
                 deviceList(devices));
  }

  std::optional<uint32_t> best;
  std::string reasons;
  for (uint32_t i = 0; i < devices.size(); ++i) {
    Status usable = checkUsable(devices[i]);
    if (!usable) {
      reasons += "; " + usable.error().message();
      continue;
    }
    if (!best || preferenceRank(devices[i].type) < preferenceRank(devices[*best].type)) best = i;
  }
  if (!best) return Error("no Vulkan device can run cl2vk" + reasons);
  return *best;
}

Expected<uint32_t> selectQueueFamily(std::span<const VkQueueFamilyProperties> families, std::string_view request) {
  if (!request.empty() && request != "graphics" && request != "compute") {
    return Error("CL2VK_QUEUE=" + std::string(request) + " is not a queue choice (\"graphics\" or \"compute\")");
  }
  bool wantsGraphics = request == "graphics";
  // Lower is better: no timestamps first, then the wrong kind of family.
  auto rank = [&](const VkQueueFamilyProperties& family) {
    bool graphics = (family.queueFlags & VK_QUEUE_GRAPHICS_BIT) != 0;
    return (family.timestampValidBits == 0 ? 2 : 0) + (graphics == wantsGraphics ? 0 : 1);
  };
  std::optional<uint32_t> best;
  for (uint32_t i = 0; i < families.size(); ++i) {
    if (!(families[i].queueFlags & VK_QUEUE_COMPUTE_BIT) || families[i].queueCount == 0) continue;
    if (!best || rank(families[i]) < rank(families[*best])) best = i;
  }
  if (!best) return Error("the device has no queue family with compute");
  return *best;
}

}  // namespace cl2vk::vulkan
