#include "runtime/image_format.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>

namespace cl2vk::runtime {
namespace {

// The channel types every colour order but the packed and 8-bit-only ones takes.
constexpr cl_channel_type kStandardTypes[] = {CL_SNORM_INT8,     CL_SNORM_INT16,    CL_UNORM_INT8,   CL_UNORM_INT16,
                                              CL_SIGNED_INT8,    CL_SIGNED_INT16,   CL_SIGNED_INT32, CL_UNSIGNED_INT8,
                                              CL_UNSIGNED_INT16, CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT};
constexpr cl_channel_type kNormalizedAndFloatTypes[] = {CL_SNORM_INT8,  CL_SNORM_INT16, CL_UNORM_INT8,
                                                        CL_UNORM_INT16, CL_HALF_FLOAT,  CL_FLOAT};
constexpr cl_channel_type kEightBitTypes[] = {CL_UNORM_INT8, CL_SNORM_INT8, CL_SIGNED_INT8, CL_UNSIGNED_INT8};
constexpr cl_channel_type kPackedTypes[] = {CL_UNORM_SHORT_565, CL_UNORM_SHORT_555, CL_UNORM_INT_101010};

template <size_t N>
bool contains(const cl_channel_type (&types)[N], cl_channel_type type) {
  return std::find(std::begin(types), std::end(types), type) != std::end(types);
}

// The channels stored per texel, in memory order (0 r, 1 g, 2 b, 3 a); empty for an order cl2vk
// does not offer. CL_INTENSITY and CL_LUMINANCE store one channel, written from x.
std::vector<int> storedChannels(cl_channel_order order) {
  switch (order) {
    case CL_R:
    case CL_INTENSITY:
    case CL_LUMINANCE: return {0};
    case CL_A: return {3};
    case CL_RG: return {0, 1};
    case CL_RA: return {0, 3};
    case CL_RGB: return {0, 1, 2};
    case CL_RGBA:
    case CL_sRGBA: return {0, 1, 2, 3};
    case CL_BGRA:
    case CL_sBGRA: return {2, 1, 0, 3};
    case CL_ARGB: return {3, 0, 1, 2};
    case CL_ABGR: return {3, 2, 1, 0};
    default: return {};
  }
}

bool typeAllowed(cl_channel_order order, cl_channel_type type) {
  switch (order) {
    case CL_R:
    case CL_A:
    case CL_RG:
    case CL_RA:
    case CL_RGBA: return contains(kStandardTypes, type);
    case CL_INTENSITY:
    case CL_LUMINANCE: return contains(kNormalizedAndFloatTypes, type);
    case CL_RGB: return contains(kPackedTypes, type);
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR: return contains(kEightBitTypes, type);
    case CL_sRGBA:
    case CL_sBGRA: return type == CL_UNORM_INT8;
    default: return false;
  }
}

size_t channelSize(cl_channel_type type) {
  switch (type) {
    case CL_SNORM_INT8:
    case CL_UNORM_INT8:
    case CL_SIGNED_INT8:
    case CL_UNSIGNED_INT8: return 1;
    case CL_SNORM_INT16:
    case CL_UNORM_INT16:
    case CL_SIGNED_INT16:
    case CL_UNSIGNED_INT16:
    case CL_HALF_FLOAT: return 2;
    default: return 4;
  }
}

// convert_<type>_sat_rte(value): NaN gives 0 (OpenCL's saturating conversions).
int64_t roundSaturated(float value, int64_t low, int64_t high) {
  if (std::isnan(value)) return 0;
  float rounded = std::nearbyint(value);  // the default rounding mode: to nearest even
  if (rounded <= static_cast<float>(low)) return low;
  if (rounded >= static_cast<float>(high)) return high;
  return static_cast<int64_t>(rounded);
}

// IEEE binary16 bits of `value`, rounded to nearest even.
uint16_t halfBits(float value) {
  uint32_t bits = std::bit_cast<uint32_t>(value);
  uint32_t sign = (bits >> 16) & 0x8000u;
  uint32_t magnitude = bits & 0x7fffffffu;
  if (magnitude > 0x7f800000u) return static_cast<uint16_t>(sign | 0x7e00u);   // NaN
  if (magnitude >= 0x477ff000u) return static_cast<uint16_t>(sign | 0x7c00u);  // rounds to infinity
  if (magnitude < 0x38800000u) {
    // A subnormal half (or zero): the value in units of 2^-24, rounded to nearest even.
    float scaled = std::fabs(value) * 16777216.0f;
    return static_cast<uint16_t>(sign | static_cast<uint32_t>(std::nearbyint(scaled)));
  }
  uint32_t rebased = magnitude - 0x38000000u;  // exponent bias 127 -> 15
  uint32_t half = rebased >> 13, rest = rebased & 0x1fffu;
  if (rest > 0x1000u || (rest == 0x1000u && (half & 1u))) ++half;
  return static_cast<uint16_t>(sign | half);
}

float linearToSrgb(float c) {
  if (std::isnan(c) || c <= 0.0f) return 0.0f;
  if (c <= 0.0031308f) return 12.92f * c;
  return std::min(1.0f, 1.055f * std::pow(c, 1.0f / 2.4f) - 0.055f);
}

// One channel of a float colour (normalized, half and float types), as its stored bits.
uint32_t encodeFloat(cl_channel_type type, float value) {
  switch (type) {
    case CL_UNORM_INT8: return static_cast<uint32_t>(roundSaturated(value * 255.0f, 0, 255));
    case CL_UNORM_INT16: return static_cast<uint32_t>(roundSaturated(value * 65535.0f, 0, 65535));
    case CL_SNORM_INT8: return static_cast<uint32_t>(roundSaturated(value * 127.0f, -128, 127)) & 0xffu;
    case CL_SNORM_INT16: return static_cast<uint32_t>(roundSaturated(value * 32767.0f, -32768, 32767)) & 0xffffu;
    case CL_HALF_FLOAT: return halfBits(value);
    default: return std::bit_cast<uint32_t>(value);
  }
}

uint32_t encodeInteger(cl_channel_type type, uint32_t value) {
  int32_t asSigned = static_cast<int32_t>(value);
  switch (type) {
    case CL_SIGNED_INT8: return static_cast<uint32_t>(std::clamp(asSigned, -128, 127)) & 0xffu;
    case CL_SIGNED_INT16: return static_cast<uint32_t>(std::clamp(asSigned, -32768, 32767)) & 0xffffu;
    case CL_UNSIGNED_INT8: return std::min(value, 255u);
    case CL_UNSIGNED_INT16: return std::min(value, 65535u);
    default: return value;
  }
}

bool isIntegerType(cl_channel_type type) {
  return type == CL_SIGNED_INT8 || type == CL_SIGNED_INT16 || type == CL_SIGNED_INT32 || type == CL_UNSIGNED_INT8 ||
         type == CL_UNSIGNED_INT16 || type == CL_UNSIGNED_INT32;
}

}  // namespace

bool imageFormatValid(const cl_image_format& format) {
  const cl_channel_order order = format.image_channel_order;
  const cl_channel_type type = format.image_channel_data_type;
  if (order < CL_R || order > CL_ABGR || type < CL_SNORM_INT8 || type > CL_UNORM_INT_101010_2) return false;
  // The orders cl2vk offers are checked pair by pair; of the others, only the packed types' pairs.
  if (!storedChannels(order).empty()) return typeAllowed(order, type);
  bool packed = contains(kPackedTypes, type) || type == CL_UNORM_INT_101010_2;
  bool packedOrder = order == CL_RGB || order == CL_RGBx || order == CL_RGBA;
  return !packed || packedOrder;
}

size_t texelSize(const cl_image_format& format) {
  if (!typeAllowed(format.image_channel_order, format.image_channel_data_type)) return 0;
  switch (format.image_channel_data_type) {
    case CL_UNORM_SHORT_565:
    case CL_UNORM_SHORT_555: return 2;
    case CL_UNORM_INT_101010: return 4;
    default: return storedChannels(format.image_channel_order).size() * channelSize(format.image_channel_data_type);
  }
}

bool imageFormatSupported(const cl_image_format& format, cl_mem_flags flags) {
  if (texelSize(format) == 0) return false;
  bool srgb = format.image_channel_order == CL_sRGBA || format.image_channel_order == CL_sBGRA;
  return !srgb || (flags & (CL_MEM_WRITE_ONLY | CL_MEM_READ_WRITE | CL_MEM_KERNEL_READ_AND_WRITE)) == 0;
}

std::vector<cl_image_format> supportedImageFormats(cl_mem_flags flags) {
  constexpr cl_channel_order kOrders[] = {CL_R,    CL_A,    CL_RG,        CL_RA,        CL_RGB,   CL_RGBA, CL_BGRA,
                                          CL_ARGB, CL_ABGR, CL_INTENSITY, CL_LUMINANCE, CL_sRGBA, CL_sBGRA};
  constexpr cl_channel_type kTypes[] = {
      CL_SNORM_INT8,      CL_SNORM_INT16,      CL_UNORM_INT8,     CL_UNORM_INT16,  CL_UNORM_SHORT_565,
      CL_UNORM_SHORT_555, CL_UNORM_INT_101010, CL_SIGNED_INT8,    CL_SIGNED_INT16, CL_SIGNED_INT32,
      CL_UNSIGNED_INT8,   CL_UNSIGNED_INT16,   CL_UNSIGNED_INT32, CL_HALF_FLOAT,   CL_FLOAT};
  std::vector<cl_image_format> formats;
  for (cl_channel_order order : kOrders) {
    for (cl_channel_type type : kTypes) {
      cl_image_format format{order, type};
      if (imageFormatSupported(format, flags)) formats.push_back(format);
    }
  }
  return formats;
}

std::vector<std::byte> fillTexel(const cl_image_format& format, const void* color) {
  const cl_channel_type type = format.image_channel_data_type;
  const cl_channel_order order = format.image_channel_order;
  std::vector<std::byte> texel(texelSize(format));
  std::array<uint32_t, 4> channels{};
  bool srgb = order == CL_sRGBA || order == CL_sBGRA;
  for (int c = 0; c < 4; ++c) {
    if (isIntegerType(type)) {
      uint32_t value;
      std::memcpy(&value, static_cast<const std::byte*>(color) + 4 * c, 4);
      channels[c] = encodeInteger(type, value);
    } else {
      float value;
      std::memcpy(&value, static_cast<const std::byte*>(color) + 4 * c, 4);
      channels[c] = encodeFloat(type, srgb && c < 3 ? linearToSrgb(value) : value);
    }
  }
  // The packed types: the colour channels' bits side by side, red highest.
  const auto* floats = static_cast<const float*>(color);
  auto unorm = [floats](int c, int bits) {
    int64_t max = (int64_t{1} << bits) - 1;
    return static_cast<uint32_t>(roundSaturated(floats[c] * static_cast<float>(max), 0, max));
  };
  uint32_t packed = 0;
  switch (type) {
    case CL_UNORM_SHORT_565: packed = unorm(0, 5) << 11 | unorm(1, 6) << 5 | unorm(2, 5); break;
    case CL_UNORM_SHORT_555: packed = unorm(0, 5) << 10 | unorm(1, 5) << 5 | unorm(2, 5); break;
    case CL_UNORM_INT_101010: packed = unorm(0, 10) << 20 | unorm(1, 10) << 10 | unorm(2, 10); break;
    default: {
      size_t size = channelSize(type);
      std::vector<int> stored = storedChannels(order);
      for (size_t i = 0; i < stored.size(); ++i) {
        std::memcpy(texel.data() + i * size, &channels[stored[i]], size);  // little-endian: the low bytes
      }
      return texel;
    }
  }
  std::memcpy(texel.data(), &packed, texel.size());
  return texel;
}

}  // namespace cl2vk::runtime
