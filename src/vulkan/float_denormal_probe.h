// Whether a device keeps float (32-bit) denormals. Vulkan lets a driver say so
// (shaderDenormPreserveFloat32) and lets a shader ask for it; lavapipe and SwiftShader do neither,
// yet compute with the host's IEEE arithmetic, which keeps them. OpenCL reports the behaviour
// (CL_FP_DENORM), and the CTS holds a device that does not report it to flushed results, so the
// behaviour is measured on the device itself.
#pragma once

#include "cl2vk/expected.h"

namespace cl2vk::vulkan {

class Device;

// Whether a multiplication that takes a denormal, one that makes one and an addition of two keep
// them exactly (all three: a device that flushes either way is not counted as keeping them). Runs
// once per physical device for the process.
Expected<bool> measureFloat32DenormalsKept(Device& device);

}  // namespace cl2vk::vulkan
