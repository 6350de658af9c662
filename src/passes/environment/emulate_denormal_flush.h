// emulate-denormal-flush (test-only; Target::emulateFloat32DenormalFlush): makes a device that
// keeps float denormals (lavapipe) compute like one that flushes them (NVIDIA's, which offers no
// shaderDenormPreserveFloat32), so that the builtin library's behaviour there can be tested here.
// Every 32-bit float operand of float arithmetic, comparisons, conversions, GLSL.std.450
// instructions and float subgroup arithmetic that may be a denormal becomes zero of its sign,
// and so does every such 32-bit float result, as FTZ hardware does. Loads, stores, bit casts,
// integer operations, selects, phis and composites pass denormals through, as they do there.
// Float division becomes the dividend times the divisor's flushed reciprocal, as NVIDIA divides
// (within Vulkan's 2.5 ULP; zero for a divisor above 2^126, where Vulkan leaves OpFDiv undefined).
// Does nothing unless the target asks for it.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> emulateDenormalFlush(ir::Module& module, const Target& target);

}  // namespace cl2vk
