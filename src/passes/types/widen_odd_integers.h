// widen-odd-integers: integers of widths other than 8, 16, 32 and 64 (clang-15 -O2 narrows a
// switch on `x & 3` to an i2, on `x & 0xf` to an i4; llvm-spirv writes them as `OpTypeInt N`
// under SPV_INTEL_arbitrary_precision_integers) become integers of the next standard width that
// hold the value's N bits zero-extended, so that every later pass and the validator see only
// widths Vulkan has (a device without 8/16/64-bit integers then gets them from
// lower-narrow-integers and lower-int64). Exact N-bit semantics are kept: what can carry past bit
// N (add, sub, mul, shift left, not, negate, conversions to N bits) is masked, and what reads the
// sign (signed compare, divide, remainder, arithmetic shift, sign extension, conversion to float,
// the signed OpenCL.std functions) first sign-extends from bit N. Constants, vectors, bit casts
// between shapes (`<2 x i2>` to `i4`), switches and function signatures follow; an iN in memory
// takes LLVM's store size, ceil(N/8) bytes, written and read a byte at a time where the wider
// type would touch more.
//
// Refused, naming kernel and instruction: widths above 64, spec constants, atomics and vectors of
// such integers in memory, kernel parameters of such types, and operations this pass does not know.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> widenOddIntegers(ir::Module& module, const Target& target);

}  // namespace cl2vk
