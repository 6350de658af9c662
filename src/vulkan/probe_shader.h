// What a driver does rather than what it says: small compute shaders, written in SPIR-V assembly,
// that the runtime runs once per device and process to measure a behaviour Vulkan leaves open
// (loop_limit_probe.h, float_denormal_probe.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk::vulkan {

class Device;

// Runs `assembly` (a GLCompute shader, Vulkan 1.2 SPIR-V assembly) as one invocation. Its push
// constants are the 64-bit address of an output buffer of `outputWords` words, then
// `pushConstants`; the output is returned. `what` names the probe in errors.
Expected<std::vector<uint32_t>> runProbeShader(Device& device, const std::string& what, const char* assembly,
                                               std::span<const std::byte> pushConstants, uint32_t outputWords);

// `measure(device)`, run once per physical device (its UUID and driver version) for the process:
// a context opens a Vulkan device of its own, and a probe need not run again for each.
Expected<uint32_t> measureOncePerDevice(Device& device, const std::string& what,
                                        const std::function<Expected<uint32_t>(Device&)>& measure);

}  // namespace cl2vk::vulkan
