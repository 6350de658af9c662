// Exact floating-point rounding built from integer arithmetic on the bits, for the conversions
// Vulkan cannot be told how to round: a float narrowed to a smaller format, and an integer turned
// into a float, each under any of OpenCL's four rounding modes. Vulkan leaves the rounding of
// OpFConvert and OpConvert*ToF implementation-defined (nearest-even or toward zero) and accepts
// FPRoundingMode only on a few 16-bit stores, so the lowerings compute the rounded bits themselves.
#pragma once

#include <cstdint>

#include "ir/builder.h"

namespace cl2vk {

// An IEEE binary format: half, float or double.
struct FloatFormat {
  uint32_t width;
  uint32_t mantissaBits;
  uint32_t exponentBits;
  uint32_t bias;

  uint64_t signBit() const { return 1ull << (width - 1); }
  uint64_t infinityBits() const { return ((1ull << exponentBits) - 1) << mantissaBits; }
};

// The format of the float type of `width` bits (16, 32 or 64).
FloatFormat formatOf(uint32_t width);

enum class Rounding { kNearestEven, kTowardZero, kTowardPositive, kTowardNegative };

// The rounding mode an FPRoundingMode operand or decoration names.
Rounding roundingFromSpirv(uint32_t mode);

// The bits of float `value` rounded to the float format of `dstWidth` bits (16 or 32, narrower
// than the value's), held in an unsigned integer of the value's own width. Overflow gives infinity
// or the largest finite value as the mode says; NaN stays NaN (quiet), denormals are produced.
uint32_t narrowFloatBits(ir::Builder& e, uint32_t value, uint32_t dstWidth, Rounding mode);

// `value` rounded to the narrower float type `dstType` (a scalar or vector float type).
uint32_t narrowFloat(ir::Builder& e, uint32_t value, uint32_t dstType, Rounding mode);

// Integer `value` (two's complement when `isSigned`) converted to the float type `dstType` with
// `mode`, exactly: plain OpConvert*ToF where every value of the source is representable.
uint32_t intToFloat(ir::Builder& e, uint32_t value, bool isSigned, uint32_t dstType, Rounding mode);

// IEEE half bits (an integer of 16 or more bits) as a value of the float type `dstType` (32 or 64
// bits), exactly, denormals, infinities and NaNs included.
uint32_t halfBitsToFloat(ir::Builder& e, uint32_t bits, uint32_t dstType);

// The index of the most significant set bit of a 32- or 64-bit unsigned value, as an integer of
// the value's width; -1 for zero (GLSL.std.450 FindUMsb, which takes 32 bits, on each half).
uint32_t findMsb(ir::Builder& e, uint32_t value);

}  // namespace cl2vk
