// full-range-division: a float division x / y (OpFDiv of 32-bit floats, scalars and vectors) by
// a divisor above 2^126 in magnitude becomes (x / 4) / (y / 4). Vulkan bounds OpFDiv's error only
// for divisors in [2^-126, 2^126], and NVIDIA's driver, which divides through the reciprocal,
// returns 0 beyond (0x1.a7c1b6p+112 / -0x1.d503a8p+126 gave -0 for -0x1.ce983p-15: the CTS's
// math_brute_force); OpenCL's 2.5 ULP hold for every divisor. Scaling by a power of two is exact
// but where x / 4 loses bits below the normal range, and there the quotient is below 2^-252 and
// rounds to zero either way. A divisor below 2^-126 is a denormal, which a device that flushes
// denormals may take as zero, as OpenCL allows it to.
//
// A half division (OpFDiv of 16-bit floats) is correctly rounded: OpenCL bounds half division by
// 1 ULP and the CTS holds `1.0h / x` (reciprocal) to the correctly rounded half, while Vulkan's
// half OpFDiv has 2.5 ULP (NVIDIA's missed 1 ULP by 0.6). The magnitudes are divided in float,
// the quotient narrowed to the nearest half, and that half corrected by one step where the exact
// quotient lies beyond the midpoint to a neighbour: a midpoint has 12 significant bits and a half
// 11, so midpoint times divisor is exact in float and compares exactly with the dividend (ties
// go to the even half). Runs before link-builtins, so only the
// program's own divisions are rewritten (the builtin library's divisors stay in range), and does
// nothing with relaxed math (Target::relaxedMath), whose division has no bound.
#pragma once

#include "ir/builder.h"
#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> fullRangeDivision(ir::Module& module, const Target& target);

// x / y as full-range-division computes it, for 32-bit float scalars or vectors of one type.
uint32_t fullRangeDivide(ir::Builder& b, uint32_t x, uint32_t y);

// x / y correctly rounded, for 16-bit float scalars or vectors of one type.
uint32_t correctlyRoundedHalfDivide(ir::Builder& b, uint32_t x, uint32_t y);

}  // namespace cl2vk
