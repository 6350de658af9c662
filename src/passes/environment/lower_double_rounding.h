// lower-double-rounding (Target::float64Rounding false: llvmpipe): GLSL.std.450 RoundEven and
// Trunc of 64-bit floats become Floor of the magnitude, a compare or two and selects, which every
// driver computes exactly. llvmpipe (Mesa 22.3) rounds doubles wrong on a CPU whose rounding
// instructions are narrower than its vectors of doubles (AVX2 without AVX-512, SSE4.1): it adds
// 0.49999997 and converts to an integer for RoundEven (rint(1.5) = 1), and returns every value above
// 2^24 unchanged for both (trunc(2^33 + 0.5) = 2^33 + 0.5); its Floor and Ceil are right there.
// Runs after the passes that make these instructions (lower-opencl-std, lower-conversions,
// lower-int64); uses no integers, so a target without 64-bit ones needs nothing more. Does
// nothing for other targets.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerDoubleRounding(ir::Module& module, const Target& target);

}  // namespace cl2vk
