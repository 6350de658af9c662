// lower-wide-vectors: removes the vectors of 8 and 16 components (OpenCL's Vector16 capability),
// which Vulkan does not have. Each wide value becomes its 4-component parts ("scalar replacement"
// into vec4s), and every instruction that makes or reads one is rewritten on the parts: arithmetic,
// comparisons, conversions and component-wise OpenCL.std on each part; composites, shuffles
// (OpVectorShuffle, and OpenCL.std shuffle and shuffle2 with run-time masks) and dynamic indexing
// by picking parts; bit casts between different component counts through 32-bit
// words; loads and stores part by part. In memory (pointees, struct members, array elements,
// variables, by-value kernel arguments) a wide vector becomes an array of its parts, which has the
// same size; a struct whose member offsets or size that would change is an error. vloadn and
// vstoren of 8 or 16 (and the half forms) become several 4-wide ones.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerWideVectors(ir::Module& module, const Target& target);

}  // namespace cl2vk
