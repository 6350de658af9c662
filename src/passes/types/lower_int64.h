// lower-int64: for a device without shaderInt64 (Target::int64 false), every 64-bit integer
// becomes a pair of 32-bit words, as Mesa's nir_lower_int64 does it. A value (a long, a size_t, a
// vector of them) becomes its low and high halves, each a uint or a uint vector of its shape; in
// memory a 64-bit integer is a uvec2 (a vector of them an array of uvec2) at the same offset and
// stride, so no layout changes; pointers are bit-cast to and from uvec2. Arithmetic, compares,
// shifts, multiply (low and high), division, conversions to and from every width and float or
// double, the work-item builtins' size_t values and the sub-group operations on long are
// computed on the halves. What it cannot emulate (64-bit atomics, a switch whose cases differ in
// the high word) is refused, naming the kernel, the instruction and the missing feature. A device
// with shaderInt64 keeps native code.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerInt64(ir::Module& module, const Target& target);

}  // namespace cl2vk
