// Some drivers end loops early: llvmpipe's gallivm (lavapipe) keeps one counter per batch of
// invocations, shared by every loop of the shader, and leaves the loop it is in, silently, once
// 65536 loop iterations have run (docs/runtime.md, "Loop limit"). A probe shader measures that
// budget on the device itself rather than trusting a driver's name.
#pragma once

#include <cstdint>

#include "cl2vk/expected.h"

namespace cl2vk::vulkan {

class Device;

// How many loop-header executions one invocation of `device` may make before the driver ends its
// loop (0: no limit seen). Runs a probe with a loop of kLoopLimitProbeIterations iterations the
// first time it is asked for a physical device, and remembers the answer for the process.
Expected<uint32_t> measureLoopIterationLimit(Device& device);

inline constexpr uint32_t kLoopLimitProbeIterations = 1u << 20;

}  // namespace cl2vk::vulkan
