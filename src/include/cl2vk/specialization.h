// The specialization constants of an OpenCL SPIR-V module, as clSetProgramSpecializationConstant
// sees them: each SpecId with the size of its value, and the module with new values written in as
// the constants' defaults. The translator then freezes every specialization constant of its input
// at the value it holds (the freeze-spec-constants pass), so a module specialized here translates
// to code with those values.
#pragma once

#include <cstdint>
#include <map>
#include <span>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk {

// SpecId -> the size in bytes of the constant's value: its type's width, 1 for a bool (which
// clSetProgramSpecializationConstant passes as a cl_uchar).
Expected<std::map<uint32_t, uint32_t>> specializationConstants(std::span<const uint32_t> spirv);

// `spirv` with each SpecId of `values` given that value (little-endian bytes, as many as
// specializationConstants() says; a bool is true when its byte is not 0). An id the module lacks,
// or a value of the wrong size, is an error.
Expected<std::vector<uint32_t>> specialize(std::span<const uint32_t> spirv,
                                           const std::map<uint32_t, std::vector<uint8_t>>& values);

}  // namespace cl2vk
