// The CPU reference of the image tests, written from the specifications alone: how each image
// format stores a texel (OpenCL 3.0 API specification, "Image Format Descriptor"), what a kernel's
// read_imagef/i/ui returns for it and what its write_imagef/i/ui stores ("Conversion Rules" of the
// OpenCL SPIR-V environment specification), the border colour (OpenCL C, "Determining the Border
// Color or Value"), and where a sampler reads ("Image Addressing and Filtering"). Decoded values
// and filtering are computed in double; nothing here is shared with the runtime or the builtins.
#pragma once

#include <CL/cl.h>

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

namespace cl2vk::test::imageref {

// A colour as read_imagef returns it, exactly.
using Float4 = std::array<double, 4>;
// A colour as read_imagei/read_imageui return it: the bits of each int or uint.
using Int4 = std::array<uint32_t, 4>;

inline std::string hex(uint32_t value) {
  std::ostringstream out;
  out << "0x" << std::hex << value;
  return out.str();
}

inline std::string orderName(cl_channel_order order) {
  switch (order) {
#define CL2VK_ORDER(name) \
  case name: return #name;
    CL2VK_ORDER(CL_R)
    CL2VK_ORDER(CL_A)
    CL2VK_ORDER(CL_RG)
    CL2VK_ORDER(CL_RA)
    CL2VK_ORDER(CL_RGB)
    CL2VK_ORDER(CL_RGBA)
    CL2VK_ORDER(CL_BGRA)
    CL2VK_ORDER(CL_ARGB)
    CL2VK_ORDER(CL_ABGR)
    CL2VK_ORDER(CL_INTENSITY)
    CL2VK_ORDER(CL_LUMINANCE)
    CL2VK_ORDER(CL_Rx)
    CL2VK_ORDER(CL_RGx)
    CL2VK_ORDER(CL_RGBx)
    CL2VK_ORDER(CL_DEPTH)
    CL2VK_ORDER(CL_sRGB)
    CL2VK_ORDER(CL_sRGBx)
    CL2VK_ORDER(CL_sRGBA)
    CL2VK_ORDER(CL_sBGRA)
#undef CL2VK_ORDER
  }
  return "channel order " + hex(order);
}

inline std::string typeName(cl_channel_type type) {
  switch (type) {
#define CL2VK_TYPE(name) \
  case name: return #name;
    CL2VK_TYPE(CL_SNORM_INT8)
    CL2VK_TYPE(CL_SNORM_INT16)
    CL2VK_TYPE(CL_UNORM_INT8)
    CL2VK_TYPE(CL_UNORM_INT16)
    CL2VK_TYPE(CL_UNORM_SHORT_565)
    CL2VK_TYPE(CL_UNORM_SHORT_555)
    CL2VK_TYPE(CL_UNORM_INT_101010)
    CL2VK_TYPE(CL_UNORM_INT_101010_2)
    CL2VK_TYPE(CL_SIGNED_INT8)
    CL2VK_TYPE(CL_SIGNED_INT16)
    CL2VK_TYPE(CL_SIGNED_INT32)
    CL2VK_TYPE(CL_UNSIGNED_INT8)
    CL2VK_TYPE(CL_UNSIGNED_INT16)
    CL2VK_TYPE(CL_UNSIGNED_INT32)
    CL2VK_TYPE(CL_HALF_FLOAT)
    CL2VK_TYPE(CL_FLOAT)
    CL2VK_TYPE(CL_UNORM_INT24)
#undef CL2VK_TYPE
  }
  return "channel type " + hex(type);
}

inline std::string formatName(const cl_image_format& format) {
  return orderName(format.image_channel_order) + "/" + typeName(format.image_channel_data_type);
}

inline bool sameFormat(const cl_image_format& a, const cl_image_format& b) {
  return a.image_channel_order == b.image_channel_order && a.image_channel_data_type == b.image_channel_data_type;
}

// Which read function a channel type is read with (the others are undefined for it).
enum class ReadKind { kFloat, kInt, kUint };

inline ReadKind readKind(cl_channel_type type) {
  switch (type) {
    case CL_SIGNED_INT8:
    case CL_SIGNED_INT16:
    case CL_SIGNED_INT32: return ReadKind::kInt;
    case CL_UNSIGNED_INT8:
    case CL_UNSIGNED_INT16:
    case CL_UNSIGNED_INT32: return ReadKind::kUint;
    default: return ReadKind::kFloat;
  }
}

inline bool isNormalized(cl_channel_type type) {
  return readKind(type) == ReadKind::kFloat && type != CL_HALF_FLOAT && type != CL_FLOAT;
}

inline bool isPacked(cl_channel_type type) {
  return type == CL_UNORM_SHORT_565 || type == CL_UNORM_SHORT_555 || type == CL_UNORM_INT_101010 ||
         type == CL_UNORM_INT_101010_2;
}

// Bytes of one stored channel of a type that is not packed; 0 for a type this reference lacks.
inline size_t channelBytes(cl_channel_type type) {
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
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32:
    case CL_FLOAT: return 4;
    default: return 0;
  }
}

// How a channel order places the stored channels: `placement[c]` is the stored channel that
// becomes component c of the colour (r, g, b, a), or -1 where the order lacks it (read as 0, alpha
// as 1). `stored` counts the channels in memory, padding (the x of CL_Rx ...) included; for a
// packed type, the fields of the element.
struct ChannelOrder {
  int stored = 0;
  std::array<int, 4> placement{};
  bool srgb = false;
};

inline std::optional<ChannelOrder> channelOrder(cl_channel_order order) {
  switch (order) {
    case CL_R: return ChannelOrder{1, {0, -1, -1, -1}};
    case CL_A: return ChannelOrder{1, {-1, -1, -1, 0}};
    case CL_INTENSITY: return ChannelOrder{1, {0, 0, 0, 0}};
    case CL_LUMINANCE: return ChannelOrder{1, {0, 0, 0, -1}};
    case CL_RG: return ChannelOrder{2, {0, 1, -1, -1}};
    case CL_RA: return ChannelOrder{2, {0, -1, -1, 1}};
    case CL_Rx: return ChannelOrder{2, {0, -1, -1, -1}};
    case CL_RGB: return ChannelOrder{3, {0, 1, 2, -1}};
    case CL_RGx: return ChannelOrder{3, {0, 1, -1, -1}};
    case CL_sRGB: return ChannelOrder{3, {0, 1, 2, -1}, true};
    case CL_RGBA: return ChannelOrder{4, {0, 1, 2, 3}};
    case CL_BGRA: return ChannelOrder{4, {2, 1, 0, 3}};
    case CL_ARGB: return ChannelOrder{4, {1, 2, 3, 0}};
    case CL_ABGR: return ChannelOrder{4, {3, 2, 1, 0}};
    case CL_RGBx: return ChannelOrder{4, {0, 1, 2, -1}};
    case CL_sRGBA: return ChannelOrder{4, {0, 1, 2, 3}, true};
    case CL_sBGRA: return ChannelOrder{4, {2, 1, 0, 3}, true};
    case CL_sRGBx: return ChannelOrder{4, {0, 1, 2, -1}, true};
    default: return std::nullopt;
  }
}

// The fields of a packed element, most significant first: (shift, width).
inline std::vector<std::pair<int, int>> packedFields(cl_channel_type type) {
  switch (type) {
    case CL_UNORM_SHORT_565: return {{11, 5}, {5, 6}, {0, 5}};
    case CL_UNORM_SHORT_555: return {{10, 5}, {5, 5}, {0, 5}};       // bit 15 undefined
    case CL_UNORM_INT_101010: return {{20, 10}, {10, 10}, {0, 10}};  // bits 31:30 undefined
    case CL_UNORM_INT_101010_2: return {{22, 10}, {12, 10}, {2, 10}, {0, 2}};
    default: return {};
  }
}

// Bytes of one texel, or nothing for a format this reference does not know or that OpenCL does
// not allow (CL_RGB with an 8-bit type, CL_BGRA with 16 ...).
inline std::optional<size_t> elementSize(const cl_image_format& format) {
  const cl_channel_order order = format.image_channel_order;
  const cl_channel_type type = format.image_channel_data_type;
  std::optional<ChannelOrder> placement = channelOrder(order);
  if (!placement) return std::nullopt;
  if (isPacked(type)) {
    if (type == CL_UNORM_INT_101010_2) return order == CL_RGBA ? std::optional<size_t>(4) : std::nullopt;
    if (order != CL_RGB && order != CL_RGBx) return std::nullopt;
    return type == CL_UNORM_INT_101010 ? 4 : 2;
  }
  const size_t bytes = channelBytes(type);
  if (bytes == 0 || order == CL_RGB) return std::nullopt;
  switch (order) {
    case CL_BGRA:
    case CL_ARGB:
    case CL_ABGR:
      if (bytes != 1) return std::nullopt;
      break;
    case CL_INTENSITY:
    case CL_LUMINANCE:
      if (readKind(type) != ReadKind::kFloat) return std::nullopt;
      break;
    case CL_sRGB:
    case CL_sRGBx:
    case CL_sRGBA:
    case CL_sBGRA:
      if (type != CL_UNORM_INT8) return std::nullopt;
      break;
    default: break;
  }
  return bytes * placement->stored;
}

inline bool isKnown(const cl_image_format& format) { return elementSize(format).has_value(); }

// The border colour of CL_ADDRESS_CLAMP: transparent black for the orders OpenCL C lists (those
// with alpha, and the padded CL_Rx, CL_RGx, CL_RGBx, CL_sRGBx), opaque black for the others.
inline bool transparentBorder(cl_channel_order order) {
  switch (order) {
    case CL_A:
    case CL_INTENSITY:
    case CL_Rx:
    case CL_RA:
    case CL_RGx:
    case CL_RGBx:
    case CL_sRGBx:
    case CL_ARGB:
    case CL_BGRA:
    case CL_ABGR:
    case CL_RGBA:
    case CL_sRGBA:
    case CL_sBGRA: return true;
    default: return false;
  }
}

inline Float4 borderColor(cl_channel_order order) {
  return transparentBorder(order) ? Float4{0, 0, 0, 0} : Float4{0, 0, 0, 1};
}

inline Int4 borderInteger(cl_channel_order order) {
  return transparentBorder(order) ? Int4{0, 0, 0, 0} : Int4{0, 0, 0, 1};
}

inline double halfToDouble(uint16_t half) {
  const double sign = half & 0x8000 ? -1.0 : 1.0;
  const int exponent = (half >> 10) & 0x1f;
  const int mantissa = half & 0x3ff;
  if (exponent == 0) return sign * std::ldexp(mantissa, -24);
  if (exponent == 0x1f) return mantissa ? std::nan("") : sign * INFINITY;
  return sign * std::ldexp(1024 + mantissa, exponent - 25);
}

// `value` as a half, rounded to nearest even (denormals kept, 65520 and above to infinity).
inline uint16_t floatToHalf(float value) {
  const uint16_t sign = std::signbit(value) ? 0x8000 : 0;
  const double magnitude = std::fabs(static_cast<double>(value));
  if (std::isnan(value)) return sign | 0x7e00;
  if (magnitude >= 65520.0) return sign | 0x7c00;
  if (magnitude < std::ldexp(1.0, -14)) {
    // Steps of 2^-24; a count of 1024 is the smallest normal, whose bits are the same.
    return sign | static_cast<uint16_t>(std::nearbyint(std::ldexp(magnitude, 24)));
  }
  int exponent = 0;
  std::frexp(magnitude, &exponent);  // magnitude in [2^(exponent-1), 2^exponent)
  int halfExponent = exponent - 1;
  uint32_t steps = static_cast<uint32_t>(std::nearbyint(std::ldexp(magnitude, 10 - halfExponent)));  // [1024, 2048]
  if (steps == 2048) {
    steps = 1024;
    ++halfExponent;
  }
  return sign | static_cast<uint16_t>((halfExponent + 15) << 10) | static_cast<uint16_t>(steps - 1024);
}

inline double srgbToLinear(double r) { return r <= 0.04045 ? r / 12.92 : std::pow((r + 0.055) / 1.055, 2.4); }

// The sRGB standard's encoding (the environment specification's formula omits its "- 0.055").
inline double linearToSrgb(double y) {
  if (!(y >= 0)) return 0;
  if (y < 0.0031308) return 12.92 * y;
  if (y <= 1) return 1.055 * std::pow(y, 1 / 2.4) - 0.055;
  return 1;
}

// The raw bits of each stored channel of the texel at `texel` (each field of a packed element).
inline std::vector<uint32_t> storedChannels(const cl_image_format& format, const uint8_t* texel) {
  const cl_channel_type type = format.image_channel_data_type;
  std::vector<uint32_t> raw;
  if (isPacked(type)) {
    uint32_t element = 0;
    std::memcpy(&element, texel, *elementSize(format));
    for (auto [shift, width] : packedFields(type)) raw.push_back((element >> shift) & ((1u << width) - 1));
    return raw;
  }
  const size_t bytes = channelBytes(type);
  for (int i = 0; i < channelOrder(format.image_channel_order)->stored; ++i) {
    uint32_t value = 0;
    std::memcpy(&value, texel + i * bytes, bytes);
    raw.push_back(value);
  }
  return raw;
}

// Stored channel `index` with raw bits `raw` as read_imagef returns it, before sRGB decoding.
inline double channelToDouble(cl_channel_type type, uint32_t raw, int index) {
  switch (type) {
    case CL_UNORM_INT8: return raw / 255.0;
    case CL_UNORM_INT16: return raw / 65535.0;
    case CL_SNORM_INT8: return std::max(-1.0, static_cast<int8_t>(raw) / 127.0);
    case CL_SNORM_INT16: return std::max(-1.0, static_cast<int16_t>(raw) / 32767.0);
    case CL_HALF_FLOAT: return halfToDouble(static_cast<uint16_t>(raw));
    case CL_FLOAT: return std::bit_cast<float>(raw);
    default: {
      const int width = packedFields(type).at(index).second;
      return raw / static_cast<double>((1u << width) - 1);
    }
  }
}

// What read_imagef returns for the texel at `texel` (a format whose readKind is kFloat).
inline Float4 decodeFloat(const cl_image_format& format, const uint8_t* texel) {
  const ChannelOrder order = *channelOrder(format.image_channel_order);
  const std::vector<uint32_t> raw = storedChannels(format, texel);
  Float4 color{};
  for (int c = 0; c < 4; ++c) {
    const int stored = order.placement[c];
    if (stored < 0) {
      color[c] = c == 3 ? 1.0 : 0.0;
      continue;
    }
    color[c] = channelToDouble(format.image_channel_data_type, raw[stored], stored);
    if (order.srgb && c < 3) color[c] = srgbToLinear(color[c]);
  }
  return color;
}

// What read_imagei or read_imageui returns for the texel at `texel`.
inline Int4 decodeInteger(const cl_image_format& format, const uint8_t* texel) {
  const ChannelOrder order = *channelOrder(format.image_channel_order);
  const std::vector<uint32_t> raw = storedChannels(format, texel);
  const cl_channel_type type = format.image_channel_data_type;
  Int4 color{};
  for (int c = 0; c < 4; ++c) {
    const int stored = order.placement[c];
    if (stored < 0) {
      color[c] = c == 3 ? 1 : 0;
      continue;
    }
    uint32_t value = raw[stored];
    if (type == CL_SIGNED_INT8) value = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int8_t>(value)));
    if (type == CL_SIGNED_INT16) value = static_cast<uint32_t>(static_cast<int32_t>(static_cast<int16_t>(value)));
    color[c] = value;
  }
  return color;
}

// For each stored channel, the colour component a write stores in it: the first component the
// order places there (red for CL_INTENSITY and CL_LUMINANCE), or -1 for padding.
inline std::vector<int> writtenComponents(const cl_image_format& format) {
  const ChannelOrder order = *channelOrder(format.image_channel_order);
  const int stored = isPacked(format.image_channel_data_type)
                         ? static_cast<int>(packedFields(format.image_channel_data_type).size())
                         : order.stored;
  std::vector<int> components(stored, -1);
  for (int c = 3; c >= 0; --c) {
    if (order.placement[c] >= 0 && order.placement[c] < stored) components[order.placement[c]] = c;
  }
  return components;
}

// convert_<type>_sat_rte(value * max), OpenCL's preferred rounding for normalized writes; NaN gives 0.
inline uint32_t unormBits(float value, uint32_t max) {
  const float scaled = value * static_cast<float>(max);
  if (std::isnan(scaled)) return 0;
  return static_cast<uint32_t>(std::nearbyint(std::clamp(scaled, 0.0f, static_cast<float>(max))));
}

inline int32_t snormValue(float value, int32_t max) {
  const float scaled = value * static_cast<float>(max);
  if (std::isnan(scaled)) return 0;
  return static_cast<int32_t>(
      std::nearbyint(std::clamp(scaled, static_cast<float>(-max - 1), static_cast<float>(max))));
}

// Puts raw channel bits into a texel of `format`; padding and undefined bits stay 0.
inline std::vector<uint8_t> packTexel(const cl_image_format& format, const std::vector<uint32_t>& raw) {
  std::vector<uint8_t> texel(*elementSize(format), 0);
  const cl_channel_type type = format.image_channel_data_type;
  if (isPacked(type)) {
    uint32_t element = 0;
    const auto fields = packedFields(type);
    for (size_t i = 0; i < fields.size(); ++i) element |= raw[i] << fields[i].first;
    std::memcpy(texel.data(), &element, texel.size());
    return texel;
  }
  const size_t bytes = channelBytes(type);
  for (size_t i = 0; i < raw.size(); ++i) std::memcpy(texel.data() + i * bytes, &raw[i], bytes);
  return texel;
}

// The bits of a texel that OpenCL defines: 0 over padding channels and undefined packed bits.
inline std::vector<uint8_t> definedBits(const cl_image_format& format) {
  const std::vector<int> components = writtenComponents(format);
  std::vector<uint32_t> ones(components.size());
  const auto fields = packedFields(format.image_channel_data_type);
  for (size_t i = 0; i < components.size(); ++i) {
    if (components[i] < 0) continue;
    ones[i] = fields.empty()
                  ? static_cast<uint32_t>((uint64_t{1} << (8 * channelBytes(format.image_channel_data_type))) - 1)
                  : (1u << fields[i].second) - 1;
  }
  return packTexel(format, ones);
}

// What write_imagef of `color` stores (a format whose readKind is kFloat), with the preferred
// round-to-nearest-even of every conversion; sRGB formats encode the colour channels first.
inline std::vector<uint8_t> encodeFloat(const cl_image_format& format, const std::array<float, 4>& color) {
  const cl_channel_type type = format.image_channel_data_type;
  const bool srgb = channelOrder(format.image_channel_order)->srgb;
  const std::vector<int> components = writtenComponents(format);
  const auto fields = packedFields(type);
  std::vector<uint32_t> raw(components.size(), 0);
  for (size_t i = 0; i < components.size(); ++i) {
    const int c = components[i];
    if (c < 0) continue;
    float value = color[c];
    if (srgb && c < 3) value = static_cast<float>(linearToSrgb(value));
    switch (type) {
      case CL_UNORM_INT8: raw[i] = unormBits(value, 255); break;
      case CL_UNORM_INT16: raw[i] = unormBits(value, 65535); break;
      case CL_SNORM_INT8: raw[i] = static_cast<uint8_t>(snormValue(value, 127)); break;
      case CL_SNORM_INT16: raw[i] = static_cast<uint16_t>(snormValue(value, 32767)); break;
      case CL_HALF_FLOAT: raw[i] = floatToHalf(value); break;
      case CL_FLOAT: raw[i] = std::bit_cast<uint32_t>(value); break;
      default: raw[i] = unormBits(value, (1u << fields.at(i).second) - 1); break;
    }
  }
  return packTexel(format, raw);
}

// What write_imagei or write_imageui of `color` stores: the value saturated to the channel type.
inline std::vector<uint8_t> encodeInteger(const cl_image_format& format, const Int4& color) {
  const cl_channel_type type = format.image_channel_data_type;
  const std::vector<int> components = writtenComponents(format);
  std::vector<uint32_t> raw(components.size(), 0);
  for (size_t i = 0; i < components.size(); ++i) {
    const int c = components[i];
    if (c < 0) continue;
    const int32_t asSigned = static_cast<int32_t>(color[c]);
    switch (type) {
      case CL_SIGNED_INT8: raw[i] = static_cast<uint8_t>(std::clamp(asSigned, -128, 127)); break;
      case CL_SIGNED_INT16: raw[i] = static_cast<uint16_t>(std::clamp(asSigned, -32768, 32767)); break;
      case CL_UNSIGNED_INT8: raw[i] = std::min<uint32_t>(color[c], 255); break;
      case CL_UNSIGNED_INT16: raw[i] = std::min<uint32_t>(color[c], 65535); break;
      default: raw[i] = color[c]; break;
    }
  }
  return packTexel(format, raw);
}

// The texels of an image on the host, tightly packed: x fastest, then y, then z. `size` is the
// image's extent as a region of clEnqueueReadImage has it: for a 1D array, y counts the layers; for
// a 2D array, z; 1 along the axes the image lacks.
struct HostImage {
  HostImage(const cl_image_format& imageFormat, std::array<size_t, 3> extent)
      : format(imageFormat), elementSize(imageref::elementSize(imageFormat).value_or(0)), size(extent) {
    bytes.resize(size[0] * size[1] * size[2] * elementSize);
  }

  size_t texelCount() const { return size[0] * size[1] * size[2]; }
  size_t rowPitch() const { return size[0] * elementSize; }
  size_t slicePitch() const { return rowPitch() * size[1]; }
  uint8_t* texel(size_t x, size_t y = 0, size_t z = 0) {
    return bytes.data() + z * slicePitch() + y * rowPitch() + x * elementSize;
  }
  const uint8_t* texel(size_t x, size_t y = 0, size_t z = 0) const {
    return bytes.data() + z * slicePitch() + y * rowPitch() + x * elementSize;
  }
  // The texel at linear index i (x fastest).
  const uint8_t* texelAt(size_t i) const { return bytes.data() + i * elementSize; }
  uint8_t* texelAt(size_t i) { return bytes.data() + i * elementSize; }

  cl_image_format format;
  size_t elementSize;
  std::array<size_t, 3> size;
  std::vector<uint8_t> bytes;
};

struct SamplerState {
  bool normalized = false;
  cl_addressing_mode addressing = CL_ADDRESS_CLAMP;
  cl_filter_mode filter = CL_FILTER_NEAREST;
};

inline std::string addressingName(cl_addressing_mode mode) {
  switch (mode) {
    case CL_ADDRESS_NONE: return "CL_ADDRESS_NONE";
    case CL_ADDRESS_CLAMP_TO_EDGE: return "CL_ADDRESS_CLAMP_TO_EDGE";
    case CL_ADDRESS_CLAMP: return "CL_ADDRESS_CLAMP";
    case CL_ADDRESS_REPEAT: return "CL_ADDRESS_REPEAT";
    case CL_ADDRESS_MIRRORED_REPEAT: return "CL_ADDRESS_MIRRORED_REPEAT";
  }
  return "addressing mode " + hex(mode);
}

inline std::string samplerName(const SamplerState& sampler) {
  return std::string(sampler.normalized ? "normalized" : "unnormalized") + " " + addressingName(sampler.addressing) +
         (sampler.filter == CL_FILTER_LINEAR ? " CL_FILTER_LINEAR" : " CL_FILTER_NEAREST");
}

// The OpenCL C literal of a sampler: "CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | ...".
inline std::string samplerLiteral(const SamplerState& sampler) {
  std::string addressing = addressingName(sampler.addressing);
  return std::string(sampler.normalized ? "CLK_NORMALIZED_COORDS_TRUE" : "CLK_NORMALIZED_COORDS_FALSE") + " | CLK" +
         addressing.substr(2) + (sampler.filter == CL_FILTER_LINEAR ? " | CLK_FILTER_LINEAR" : " | CLK_FILTER_NEAREST");
}

// The texels a sampler reads along one axis of `size` texels at coordinate `coord`, with their
// weights: one for nearest filtering, two for linear. An index of -1 or `size` is the border.
struct AxisTaps {
  int count = 1;
  std::array<int64_t, 2> index{};
  std::array<double, 2> weight{1, 0};
};

inline AxisTaps axisTaps(const SamplerState& sampler, float coord, size_t size) {
  const double s = coord, n = static_cast<double>(size);
  const bool linear = sampler.filter == CL_FILTER_LINEAR;
  const int64_t last = static_cast<int64_t>(size) - 1;
  AxisTaps taps;
  auto linearTaps = [&](double u, int64_t i0, int64_t i1) {
    taps.count = 2;
    taps.index = {i0, i1};
    const double a = (u - 0.5) - std::floor(u - 0.5);
    taps.weight = {1 - a, a};
    return taps;
  };
  switch (sampler.addressing) {
    case CL_ADDRESS_REPEAT: {
      const double u = (s - std::floor(s)) * n;
      if (!linear) {
        int64_t i = static_cast<int64_t>(std::floor(u));
        if (i > last) i -= static_cast<int64_t>(size);
        taps.index[0] = i;
        return taps;
      }
      int64_t i0 = static_cast<int64_t>(std::floor(u - 0.5)), i1 = i0 + 1;
      if (i0 < 0) i0 += static_cast<int64_t>(size);
      if (i1 > last) i1 -= static_cast<int64_t>(size);
      return linearTaps(u, i0, i1);
    }
    case CL_ADDRESS_MIRRORED_REPEAT: {
      const double u = std::fabs(s - 2 * std::nearbyint(0.5 * s)) * n;
      if (!linear) {
        taps.index[0] = std::min(static_cast<int64_t>(std::floor(u)), last);
        return taps;
      }
      const int64_t i0 = static_cast<int64_t>(std::floor(u - 0.5));
      return linearTaps(u, std::max<int64_t>(i0, 0), std::min(i0 + 1, last));
    }
    default: {
      const double u = sampler.normalized ? s * n : s;
      auto address = [&](int64_t i) -> int64_t {
        if (sampler.addressing == CL_ADDRESS_CLAMP) return std::clamp<int64_t>(i, -1, static_cast<int64_t>(size));
        if (sampler.addressing == CL_ADDRESS_CLAMP_TO_EDGE) return std::clamp<int64_t>(i, 0, last);
        return i;  // CL_ADDRESS_NONE: the tests keep inside the image
      };
      if (!linear) {
        taps.index[0] = address(static_cast<int64_t>(std::floor(u)));
        return taps;
      }
      const int64_t i0 = static_cast<int64_t>(std::floor(u - 0.5));
      return linearTaps(u, address(i0), address(i0 + 1));
    }
  }
}

// The layer a sampled read of an array selects: clamp(rint(coord), 0, layers - 1).
inline size_t arrayLayer(float coord, size_t layers) {
  return static_cast<size_t>(std::clamp<double>(std::nearbyint(coord), 0, static_cast<double>(layers - 1)));
}

// What read_imagef(image, sampler, coord) returns. `dimensions` are the filtered axes (1 for 1D
// images and 1D arrays, 2 for 2D images and arrays, 3 for 3D); an array's layer is the coordinate
// after them, chosen by arrayLayer.
inline Float4 sampleFloat(const HostImage& image, int dimensions, const SamplerState& sampler,
                          const std::array<float, 4>& coord) {
  std::array<AxisTaps, 3> taps{};
  for (int axis = 0; axis < dimensions; ++axis) taps[axis] = axisTaps(sampler, coord[axis], image.size[axis]);
  std::array<size_t, 3> fixed{0, 0, 0};
  if (dimensions < 3 && image.size[dimensions] > 1)
    fixed[dimensions] = arrayLayer(coord[dimensions], image.size[dimensions]);
  Float4 color{};
  for (int k = 0; k < taps[2].count; ++k) {
    for (int j = 0; j < taps[1].count; ++j) {
      for (int i = 0; i < taps[0].count; ++i) {
        const std::array<int64_t, 3> at{taps[0].index[i], taps[1].index[j], taps[2].index[k]};
        const double weight = taps[0].weight[i] * taps[1].weight[j] * taps[2].weight[k];
        if (weight == 0) continue;
        std::array<size_t, 3> texel = fixed;
        bool border = false;
        for (int axis = 0; axis < dimensions; ++axis) {
          border = border || at[axis] < 0 || at[axis] >= static_cast<int64_t>(image.size[axis]);
          texel[axis] = static_cast<size_t>(at[axis]);
        }
        const Float4 value = border ? borderColor(image.format.image_channel_order)
                                    : decodeFloat(image.format, image.texel(texel[0], texel[1], texel[2]));
        for (int c = 0; c < 4; ++c) color[c] += weight * value[c];
      }
    }
  }
  return color;
}

// What read_imagei/read_imageui(image, sampler, coord) returns; integer formats are read with
// nearest filtering only.
inline Int4 sampleInteger(const HostImage& image, int dimensions, const SamplerState& sampler,
                          const std::array<float, 4>& coord) {
  std::array<size_t, 3> texel{0, 0, 0};
  if (dimensions < 3 && image.size[dimensions] > 1)
    texel[dimensions] = arrayLayer(coord[dimensions], image.size[dimensions]);
  for (int axis = 0; axis < dimensions; ++axis) {
    const int64_t i = axisTaps(sampler, coord[axis], image.size[axis]).index[0];
    if (i < 0 || i >= static_cast<int64_t>(image.size[axis])) return borderInteger(image.format.image_channel_order);
    texel[axis] = static_cast<size_t>(i);
  }
  return decodeInteger(image.format, image.texel(texel[0], texel[1], texel[2]));
}

}  // namespace cl2vk::test::imageref
