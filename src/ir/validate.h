// SPIRV-Tools validation of a module for the environment it is written for.
#pragma once

#include <spirv-tools/libspirv.h>

#include "cl2vk/expected.h"
#include "ir/capabilities.h"
#include "ir/module.h"

namespace cl2vk::ir {

// The environment a module is checked against. A module that still declares the Kernel capability
// is OpenCL SPIR-V: opencl2.0, opencl2.1 or opencl2.2 for SPIR-V 1.0, 1.1 or 1.2, and the universal
// rules of its own version above that (SPIRV-Tools has no OpenCL environment past SPIR-V 1.2).
// Any other module is checked against `vulkanEnv`.
spv_target_env validationEnvironment(const Module& module, spv_target_env vulkanEnv);

// The universal environment of the module's own SPIR-V version: SPIR-V's core rules, without any
// client API's profile (the OpenCL profiles reject capabilities an OpenCL extension adds, such as
// Int64Atomics for cl_khr_int64_base_atomics).
spv_target_env universalEnvironment(const Module& module);
// The same for a module header's version word (0x00010400 for SPIR-V 1.4).
spv_target_env universalEnvironment(uint32_t version);

// Runs SPIRV-Tools' validator, and checks the few rules it misses that the passes rely on; the
// error carries the messages and names the environment.
Status validate(const Module& module, spv_target_env env);
// The same, with SPIR-V's universal limit on a function's parameters (255) raised to
// `maxFunctionParameters`: an OpenCL kernel may take more (CL_DEVICE_MAX_PARAMETER_SIZE bytes of
// them), and none of them reaches the Vulkan module as a function parameter.
// `maxIdBound` likewise raises the limit on the id bound (0x3FFFFF), for a module about to be
// renumbered.
Status validate(const Module& module, spv_target_env env, uint32_t maxFunctionParameters,
                uint32_t maxIdBound = 0x3FFFFF);

// "vulkan1.2" -> SPV_ENV_VULKAN_1_2, for the environments cl2vk targets (vulkan1.1 to vulkan1.3).
Expected<spv_target_env> parseVulkanEnvironment(std::string_view name);
// The short name SPIRV-Tools' tools use for `env` ("vulkan1.2", "opencl2.2", "spv1.4").
std::string environmentName(spv_target_env env);

}  // namespace cl2vk::ir
