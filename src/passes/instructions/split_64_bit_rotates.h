// split-64-bit-rotates: a 64-bit rotate by a constant, x << a | x >> (64 - a), becomes two funnel
// shifts of x's 32-bit halves (for a of 32, the halves swapped).
//
// GPUs shift 32 bits at a time. NVIDIA's OpenCL compiles a 64-bit rotate to two funnel shifts;
// NVIDIA's Vulkan driver (580) compiled the same rotate written as 64-bit shifts and an or to about
// twice as many instructions: a chain of rotates ran at 0.54 of NVIDIA's OpenCL, 0.98 with the
// halves, and SHA-512's rounds (six rotates each) at 0.48 and 0.66 (docs/PERFORMANCE.md). The or
// of the halves' shifts is the form drivers recognize as a funnel shift. The rotates come from
// OpenCL's rotate (lower-opencl-std), from llvm-spirv's funnel-shift helper and from the idiom
// written out, all of them shifts of one value by constants adding up to 64 once
// fold-integer-constants has run. A CPU driver, whose x86 code has a 64-bit rotate, keeps them
// (Target::split64BitRotates); without shaderInt64, lower-int64 splits every 64-bit value anyway.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> split64BitRotates(ir::Module& module, const Target& target);

}  // namespace cl2vk
