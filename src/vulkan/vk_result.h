// VkResult as an Error: every failing Vulkan call becomes a message naming the call and the result
// ("vkAllocateMemory failed: VK_ERROR_OUT_OF_DEVICE_MEMORY").
#pragma once

#include <volk.h>

#include <string_view>

#include "cl2vk/expected.h"

namespace cl2vk::vulkan {

// The enumerator's name ("VK_ERROR_DEVICE_LOST"), or "VkResult(<number>)" for one not known here.
std::string resultName(VkResult result);

Error vulkanError(std::string_view call, VkResult result);

// Success is VK_SUCCESS only: the calls that may return other non-error codes (VK_INCOMPLETE,
// VK_TIMEOUT) are handled where they are made.
inline Status check(VkResult result, std::string_view call) {
  if (result == VK_SUCCESS) return okStatus();
  return vulkanError(call, result);
}

}  // namespace cl2vk::vulkan
