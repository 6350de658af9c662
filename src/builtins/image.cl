// OpenCL images in software (docs/images.md): an image is a buffer of texels, and lower-images
// replaces each image instruction with a call of one of the functions at the end of this file.
// They take the image record's fields: `data`, the device address of texel (0, 0, 0) of layer 0;
// `slicePitch`, bytes from one slice (3D) or layer (arrays) to the next; `size`, (width, height,
// depth, layers); `layout`, (row pitch in bytes, cl_channel_order, cl_channel_type, narrow), where
// narrow is 1 when every texel lies less than 2^32 bytes from `data`.
//
// A texel is loaded and stored with one access of its whole size (1, 2, 4, 8 or 16 bytes; the
// data and pitches are multiples of it) and unpacked or packed in registers. Sampling follows the
// OpenCL 3.0 API specification, "Image Addressing and Filtering", formula for formula, in float,
// each operation rounded as written (no fused multiply-add: the CTS's reference has none). Where
// OpenCL leaves a result undefined, docs/images.md says what happens; nothing here reads or writes
// outside the image.
#pragma OPENCL FP_CONTRACT OFF

// The image record, as every helper below takes it.
#define IMAGE_RECORD ulong data, ulong slicePitch, uint4 size, uint4 layout
#define IMAGE_FIELDS data, slicePitch, size, layout

// The helpers that take the geometry (`dims`, 1 to 3, and `arrayed`) are always inlined, so that
// each function of the library is specialized for its own (LLVM would keep one copy with the
// geometry as parameters).
#define GEOMETRY_GENERIC static __attribute__((always_inline))

// ---- Formats
//
// Properties of the orders and types are bits of sets, tested by shifting, rather than switches
// or chains of comparisons: LLVM turns those into switches whose cases share a result, gives the
// phi after them an entry per case, and llvm-spirv copies the duplicates, which SPIR-V forbids
// (and the library is not repaired as programs are). Likewise a switch on a value of known range,
// such as a texel's size, LLVM narrows to an odd integer width that llvm-spirv cannot translate:
// loadTexel and the like compare instead.

#define ORDER_BIT(order) (1u << ((order)-CLK_R))
#define TYPE_BIT(type) (1u << ((type)-CLK_SNORM_INT8))

// Orders of 2 and 4 channels in memory; the others have 1 (CL_RGB comes only with the packed
// types, whose texel is one channel).
#define TWO_CHANNELS (ORDER_BIT(CLK_RG) | ORDER_BIT(CLK_RA))
#define FOUR_CHANNELS                                                                                             \
  (ORDER_BIT(CLK_RGBA) | ORDER_BIT(CLK_BGRA) | ORDER_BIT(CLK_ARGB) | ORDER_BIT(CLK_ABGR) | ORDER_BIT(CLK_sRGBA) | \
   ORDER_BIT(CLK_sBGRA))
#define SRGB (ORDER_BIT(CLK_sRGBA) | ORDER_BIT(CLK_sBGRA))
#define ALPHA                                                                                               \
  (ORDER_BIT(CLK_A) | ORDER_BIT(CLK_RA) | ORDER_BIT(CLK_RGBA) | ORDER_BIT(CLK_BGRA) | ORDER_BIT(CLK_ARGB) | \
   ORDER_BIT(CLK_ABGR) | ORDER_BIT(CLK_INTENSITY) | SRGB)

// Types of 2 and 4 bytes per channel; the others have 1. The packed types' texel is one channel.
#define TWO_BYTES                                                                                                      \
  (TYPE_BIT(CLK_SNORM_INT16) | TYPE_BIT(CLK_UNORM_INT16) | TYPE_BIT(CLK_SIGNED_INT16) | TYPE_BIT(CLK_UNSIGNED_INT16) | \
   TYPE_BIT(CLK_HALF_FLOAT) | TYPE_BIT(CLK_UNORM_SHORT_565) | TYPE_BIT(CLK_UNORM_SHORT_555))
#define FOUR_BYTES \
  (TYPE_BIT(CLK_SIGNED_INT32) | TYPE_BIT(CLK_UNSIGNED_INT32) | TYPE_BIT(CLK_FLOAT) | TYPE_BIT(CLK_UNORM_INT_101010))

// 1 where `order` is in the set, else 0 (OpenCL masks the shift: any value is safe).
static uint orderIn(uint order, uint set) { return (set >> (order - CLK_R)) & 1u; }
static uint typeIn(uint type, uint set) { return (set >> (type - CLK_SNORM_INT8)) & 1u; }

static uint channelBytes(uint type) { return 1u << (2u * typeIn(type, FOUR_BYTES) + typeIn(type, TWO_BYTES)); }
static uint channelCount(uint order) {
  return 1u << (2u * orderIn(order, FOUR_CHANNELS) + orderIn(order, TWO_CHANNELS));
}
static uint texelBytes(uint4 layout) { return channelCount(layout.y) * channelBytes(layout.z); }

static bool isSrgb(uint order) { return orderIn(order, SRGB) != 0; }

// CLK_ADDRESS_CLAMP's border colour is transparent black where the order has alpha, else opaque.
static bool hasAlpha(uint order) { return orderIn(order, ALPHA) != 0; }

// ---- Memory

// The address of texel `index`: (x, y, z), z the slice of a 3D image or the layer of an array,
// inside the image. Its offset from `data` is computed in 32 bits where the image is narrow (below
// 4 GiB, nearly every image; the runtime makes the flag a specialization constant): GPUs then
// spend one multiply-add per dimension, not the 64-bit ones, which in a kernel that samples much
// (a 5x5 convolution) were a fifth of its time.
static ulong texelAddress(IMAGE_RECORD, int4 index) {
  if (layout.w == 1u)
    return data + ((uint)index.x * texelBytes(layout) + (uint)index.y * layout.x + (uint)index.z * (uint)slicePitch);
  return data + (ulong)(uint)index.x * texelBytes(layout) + (ulong)(uint)index.y * layout.x +
         (ulong)(uint)index.z * slicePitch;
}

// The texel's bytes as little-endian words, read with one load of its size.
static uint4 loadTexel(ulong address, uint bytes) {
  if (bytes >= 16) return *(__global const uint4*)address;
  if (bytes >= 8) return (uint4)(*(__global const uint2*)address, 0u, 0u);
  if (bytes >= 4) return (uint4)(*(__global const uint*)address, 0u, 0u, 0u);
  if (bytes >= 2) return (uint4)(*(__global const ushort*)address, 0u, 0u, 0u);
  return (uint4)(*(__global const uchar*)address, 0u, 0u, 0u);
}

static void storeTexel(ulong address, uint bytes, uint4 words) {
  if (bytes >= 16)
    *(__global uint4*)address = words;
  else if (bytes >= 8)
    *(__global uint2*)address = words.xy;
  else if (bytes >= 4)
    *(__global uint*)address = words.x;
  else if (bytes >= 2)
    *(__global ushort*)address = (ushort)words.x;
  else
    *(__global uchar*)address = (uchar)words.x;
}

// ---- Channels

// The channels in memory order, zero-extended: channel i is byte i of the texel for 8-bit channels,
// halfword i for 16-bit ones, word i for 32-bit ones. Channels past the texel's are 0.
static uint4 unpackChannels(uint4 words, uint bytes) {
  if (bytes >= 4) return words;
  if (bytes >= 2) return (uint4)(words.x, words.x >> 16, words.y, words.y >> 16) & 0xffffu;
  return (uint4)(words.x, words.x >> 8, words.x >> 16, words.x >> 24) & 0xffu;
}

// The inverse: channel bits (only the low `bytes` bytes of each count) to the texel's words. A
// store of the texel's size drops the channels past its own.
static uint4 packChannels(uint4 channels, uint bytes) {
  if (bytes >= 4) return channels;
  if (bytes >= 2) {
    uint4 c = channels & 0xffffu;
    return (uint4)(c.x | c.y << 16, c.z | c.w << 16, 0u, 0u);
  }
  uint4 c = channels & 0xffu;
  return (uint4)(c.x | c.y << 8 | c.z << 16 | c.w << 24, 0u, 0u, 0u);
}

// The order with the sRGB orders' channels: theirs are CL_RGBA's and CL_BGRA's.
static uint linearOrder(uint order) { return order == CLK_sRGBA ? CLK_RGBA : order == CLK_sBGRA ? CLK_BGRA : order; }

// Memory channels to (r, g, b, a) as the channel order places them: a missing colour channel is
// 0, a missing alpha `one` (1, or the bits of 1.0f). Works on bits, for integers and floats alike.
static uint4 toRgba(uint4 c, uint order, uint one) {
  switch (linearOrder(order)) {
    case CLK_A: return (uint4)(0u, 0u, 0u, c.x);
    case CLK_RG: return (uint4)(c.x, c.y, 0u, one);
    case CLK_RA: return (uint4)(c.x, 0u, 0u, c.y);
    case CLK_RGB: return (uint4)(c.x, c.y, c.z, one);  // the packed types' decoded r, g, b
    case CLK_RGBA: return c;
    case CLK_BGRA: return c.zyxw;
    case CLK_ARGB: return c.yzwx;
    case CLK_ABGR: return c.wzyx;
    case CLK_INTENSITY: return c.xxxx;
    case CLK_LUMINANCE: return (uint4)(c.x, c.x, c.x, one);
    default: return (uint4)(c.x, 0u, 0u, one);  // CLK_R
  }
}

// (r, g, b, a) to memory channels: a single-channel order keeps r (alpha for CL_A).
static uint4 fromRgba(uint4 v, uint order) {
  switch (linearOrder(order)) {
    case CLK_A: return v.wwww;
    case CLK_RA: return v.xwzy;
    case CLK_BGRA: return v.zyxw;
    case CLK_ARGB: return v.wxyz;
    case CLK_ABGR: return v.wzyx;
    default: return v;  // CLK_R, CLK_RG, CLK_RGB, CLK_RGBA, CLK_sRGBA, CLK_INTENSITY, CLK_LUMINANCE
  }
}

// ---- Conversions (OpenCL 3.0 API, "Conversion Rules")

static int4 signExtend(uint4 c, uint bits) { return as_int4(c << (32u - bits)) >> (32u - bits); }

// Half bits to float, exactly: a normal half by rebiasing its exponent (127 - 15 = 112), a
// subnormal one (a multiple of 2^-24) through an exact integer conversion and scaling, so that no
// float subnormal is involved (a device may flush those).
static float4 halfToFloat(uint4 h) {
  uint4 magnitude = (h & 0x7fffu) << 13;
  uint4 exponent = h & 0x7c00u;
  uint4 normal = magnitude + (112u << 23);
  uint4 subnormal = as_uint4(convert_float4(h & 0x3ffu) * 0x1p-24f);
  uint4 infinityOrNan = magnitude | 0x7f800000u;
  uint4 bits = select(normal, subnormal, exponent == 0u);
  bits = select(bits, infinityOrNan, exponent == 0x7c00u);
  return as_float4(((h & 0x8000u) << 16) | bits);
}

// Float to half bits, rounded to nearest even, keeping subnormals and NaNs: in integers, and for
// the subnormal halves (multiples of 2^-24) by an exact scaling and rint, since Vulkan leaves a
// conversion instruction's rounding open.
static uint4 floatToHalf(float4 value) {
  uint4 bits = as_uint4(value);
  uint4 magnitude = bits & 0x7fffffffu;
  // Rebiased, the 13 dropped bits rounded to nearest even; past the largest half, infinity.
  uint4 normal = min((magnitude - (112u << 23) + 0xfffu + ((magnitude >> 13) & 1u)) >> 13, 0x7c00u);
  uint4 subnormal = convert_uint4(rint(as_float4(magnitude) * 0x1p24f));
  uint4 nan = 0x7e00u | ((magnitude >> 13) & 0x3ffu);
  uint4 result = select(normal, subnormal, magnitude < 0x38800000u);  // below 2^-14
  result = select(result, nan, magnitude > 0x7f800000u);
  return ((bits >> 16) & 0x8000u) | result;
}

// Channel bits to floats. Normalized values are c * (1 / max) rather than c / max: Vulkan's
// division has 2.5 ULP (NVIDIA's goes through a reciprocal) and could miss max -> 1.0, which
// OpenCL requires; the product with the rounded reciprocal is within 1 ULP of the quotient and
// exact at 0 and max (checked for every c of every type). Integer types, which read_imagef does
// not define, give their values.
static float4 channelsToFloat(uint4 c, uint type) {
  switch (type) {
    case CLK_UNORM_INT8: return convert_float4(c) * (1.0f / 255.0f);
    case CLK_UNORM_INT16: return convert_float4(c) * (1.0f / 65535.0f);
    case CLK_SNORM_INT8: return fmax(convert_float4(signExtend(c, 8)) * (1.0f / 127.0f), -1.0f);
    case CLK_SNORM_INT16: return fmax(convert_float4(signExtend(c, 16)) * (1.0f / 32767.0f), -1.0f);
    case CLK_HALF_FLOAT: return halfToFloat(c);
    case CLK_FLOAT: return as_float4(c);
    // The packed types, in channel 0: R in the high bits, B in the low (bit 15 of 555 and bits
    // 31:30 of 101010 unused).
    case CLK_UNORM_SHORT_565:
      return convert_float4((uint4)(c.x >> 11, c.x >> 5, c.x, 0u) & (uint4)(31u, 63u, 31u, 0u)) *
             (float4)(1.0f / 31.0f, 1.0f / 63.0f, 1.0f / 31.0f, 0.0f);
    case CLK_UNORM_SHORT_555: return convert_float4((uint4)(c.x >> 10, c.x >> 5, c.x, 0u) & 31u) * (1.0f / 31.0f);
    case CLK_UNORM_INT_101010: return convert_float4((uint4)(c.x >> 20, c.x >> 10, c.x, 0u) & 1023u) * (1.0f / 1023.0f);
    case CLK_SIGNED_INT8: return convert_float4(signExtend(c, 8));
    case CLK_SIGNED_INT16: return convert_float4(signExtend(c, 16));
    case CLK_SIGNED_INT32: return convert_float4(as_int4(c));
    default: return convert_float4(c);
  }
}

// Channel bits as read_imagei and read_imageui return them: sign-extended for the signed types,
// zero-extended for the others.
static uint4 channelsToInteger(uint4 c, uint type) {
  switch (type) {
    case CLK_SIGNED_INT8: return as_uint4(signExtend(c, 8));
    case CLK_SIGNED_INT16: return as_uint4(signExtend(c, 16));
    default: return c;
  }
}

// Integers saturated to the channel type: signed for the signed types, unsigned for the unsigned
// ones; 32-bit channels (and the float types, which write_imagei does not define) as they are.
static uint4 saturateInteger(uint4 v, uint type) {
  switch (type) {
    case CLK_SIGNED_INT8: return as_uint4(clamp(as_int4(v), -128, 127));
    case CLK_SIGNED_INT16: return as_uint4(clamp(as_int4(v), -32768, 32767));
    case CLK_UNSIGNED_INT8: return min(v, 255u);
    case CLK_UNSIGNED_INT16: return min(v, 65535u);
    default: return v;
  }
}

// Floats (in memory order) to channel bits: normalized types rounded to nearest even and saturated,
// half rounded to nearest even, float as it is. Integer types, which write_imagef does not define,
// take the values rounded and saturated.
static uint4 floatToChannels(float4 v, uint type) {
  switch (type) {
    case CLK_UNORM_INT8: return convert_uint4(convert_uchar4_sat_rte(v * 255.0f));
    case CLK_UNORM_INT16: return convert_uint4(convert_ushort4_sat_rte(v * 65535.0f));
    case CLK_SNORM_INT8: return as_uint4(convert_int4(convert_char4_sat_rte(v * 127.0f)));
    case CLK_SNORM_INT16: return as_uint4(convert_int4(convert_short4_sat_rte(v * 32767.0f)));
    case CLK_HALF_FLOAT: return floatToHalf(v);
    case CLK_FLOAT: return as_uint4(v);
    case CLK_UNORM_SHORT_565: {
      uint4 c = min(convert_uint4_sat_rte(v * (float4)(31.0f, 63.0f, 31.0f, 0.0f)), (uint4)(31u, 63u, 31u, 0u));
      return (uint4)(c.x << 11 | c.y << 5 | c.z, 0u, 0u, 0u);
    }
    case CLK_UNORM_SHORT_555: {
      uint4 c = min(convert_uint4_sat_rte(v * 31.0f), 31u);
      return (uint4)(c.x << 10 | c.y << 5 | c.z, 0u, 0u, 0u);
    }
    case CLK_UNORM_INT_101010: {
      uint4 c = min(convert_uint4_sat_rte(v * 1023.0f), 1023u);
      return (uint4)(c.x << 20 | c.y << 10 | c.z, 0u, 0u, 0u);
    }
    case CLK_SIGNED_INT8:
    case CLK_SIGNED_INT16:
    case CLK_SIGNED_INT32: return saturateInteger(as_uint4(convert_int4_sat_rte(v)), type);
    default: return saturateInteger(convert_uint4_sat_rte(v), type);
  }
}

// sRGB to linear, for the colour channels ("Conversion Rules for sRGBA and sBGRA Images"). OpenCL
// bounds both directions by about half an 8-bit step (|x - 255 c_sRGB(y)| <= 0.5 reading, 0.6
// writing); native_powr (Vulkan's Pow, tens of ULP at worst here) is far within that, where the
// library's pow, many times larger, would be linked into every kernel that reads an image.
static float4 srgbToLinear(float4 c) {
  float3 r = c.xyz;
  float3 curve = native_powr((r + 0.055f) / 1.055f, (float3)2.4f);
  return (float4)(select(curve, r / 12.92f, r <= 0.04045f), c.w);
}

// Linear to sRGB: 0 for NaN and below 0, 1 above 1 (the clamp), 12.92 y below 0.0031308, else
// 1.055 y^(1/2.4) - 0.055 (the specification's formula lacks the - 0.055; its sRGB standard and the
// CTS have it).
static float4 linearToSrgb(float4 c) {
  float3 y = clamp(c.xyz, 0.0f, 1.0f);
  float3 curve = 1.055f * native_powr(y, (float3)(1.0f / 2.4f)) - 0.055f;
  return (float4)(select(curve, 12.92f * y, y < 0.0031308f), c.w);
}

// ---- Texels

static float4 readTexelFloat(IMAGE_RECORD, int4 index) {
  uint4 words = loadTexel(texelAddress(IMAGE_FIELDS, index), texelBytes(layout));
  float4 channels = channelsToFloat(unpackChannels(words, channelBytes(layout.z)), layout.z);
  float4 rgba = as_float4(toRgba(as_uint4(channels), layout.y, as_uint(1.0f)));
  return isSrgb(layout.y) ? srgbToLinear(rgba) : rgba;
}

static uint4 readTexelInteger(IMAGE_RECORD, int4 index) {
  uint4 words = loadTexel(texelAddress(IMAGE_FIELDS, index), texelBytes(layout));
  return toRgba(channelsToInteger(unpackChannels(words, channelBytes(layout.z)), layout.z), layout.y, 1u);
}

static float4 borderFloat(uint order) { return (float4)(0.0f, 0.0f, 0.0f, hasAlpha(order) ? 0.0f : 1.0f); }
static uint4 borderInteger(uint order) { return (uint4)(0u, 0u, 0u, hasAlpha(order) ? 0u : 1u); }

// ---- Addressing (OpenCL 3.0 API, "Image Addressing and Filtering")

// Texels along x, y and z: z the depth of a 3D image or the layers of an array, 1 along a
// dimension the image lacks.
GEOMETRY_GENERIC int4 extentOf(uint4 size, int dims, bool arrayed) {
  return (int4)((int)size.x, dims >= 2 ? (int)size.y : 1, dims == 3 ? (int)size.z : arrayed ? (int)size.w : 1, 1);
}

// The texel index (x, y, z) of integer coordinates: z the slice of a 3D image or the layer of an
// array, the component after the image's dimensions.
GEOMETRY_GENERIC int4 integerIndex(int4 coord, int dims, bool arrayed) {
  int z = arrayed ? (dims == 1 ? coord.y : coord.z) : dims == 3 ? coord.z : 0;
  return (int4)(coord.x, dims >= 2 ? coord.y : 0, z, 0);
}

// The layer of an array from float coordinates: clamp(rint(c), 0, layers - 1).
GEOMETRY_GENERIC int floatLayer(float4 coord, int layers, int dims) {
  return (int)clamp(rint(dims == 1 ? coord.y : coord.z), 0.0f, (float)(layers - 1));
}

// The sampler's addressing mode (sampler bits 1-3), where the repeats of unnormalized coordinates,
// undefined in OpenCL, clamp to the edge (docs/images.md). Every mode but the repeats and
// CLK_ADDRESS_CLAMP clamps to the edge: CLK_ADDRESS_NONE too, whose result outside OpenCL leaves
// undefined.
static uint addressingMode(uint sampler) {
  uint mode = sampler & 0xeu;
  bool normalized = (sampler & CLK_NORMALIZED_COORDS_TRUE) != 0;
  return normalized || mode < CLK_ADDRESS_REPEAT ? mode : CLK_ADDRESS_CLAMP_TO_EDGE;
}

// The unnormalized coordinate u of coordinate s along a dimension of n texels. (Selects rather
// than a switch: LLVM narrows a switch on the mode's masked bits to an i4, which llvm-spirv cannot
// translate.)
static float unnormalize(float s, int n, uint mode, bool normalized) {
  float repeated = (s - floor(s)) * (float)n;
  float mirrored = fabs(s - 2.0f * rint(0.5f * s)) * (float)n;
  float scaled = normalized ? s * (float)n : s;
  return mode == CLK_ADDRESS_REPEAT ? repeated : mode == CLK_ADDRESS_MIRRORED_REPEAT ? mirrored : scaled;
}

// floor(u) as an int in [-2, n]: clamped in float first, since converting a float beyond int's
// range, an infinity or a NaN is undefined. An index outside [0, n - 1] stands for every texel
// past that edge, and -2 keeps linear filtering's i0 + 1 past it too.
static int floorIndex(float u, int n) { return (int)clamp(floor(u), -2.0f, (float)n); }

static float frac(float x) { return x - floor(x); }

// Nearest filtering's texel along a dimension of n texels. Beyond the edges (the clamps, where the
// specification's min(i, w - 1) of mirrored repeat is one too) the index is clamped to the edge or
// gives the border colour in sampledTexel*.
static int nearestTexel(float u, int n, uint mode) {
  int i = floorIndex(u, n);
  if (mode == CLK_ADDRESS_REPEAT && i > n - 1) i -= n;
  return i;
}

// Linear filtering's two texels, i0 and i1, along a dimension of n texels; beyond the edges as
// nearestTexel's (mirrored repeat's max(i0, 0) and min(i1, w - 1) are the clamp to the edge).
static int2 linearTexels(float u, int n, uint mode) {
  int i0 = floorIndex(u - 0.5f, n);
  int i1 = i0 + 1;
  if (mode == CLK_ADDRESS_REPEAT) {
    if (i0 < 0) i0 += n;
    if (i1 > n - 1) i1 -= n;
  }
  return (int2)(i0, i1);
}

// The texel nearest filtering picks for float coordinates.
GEOMETRY_GENERIC int4 nearestIndex(float4 coord, int4 extent, uint sampler, int dims, bool arrayed) {
  uint mode = addressingMode(sampler);
  bool normalized = (sampler & CLK_NORMALIZED_COORDS_TRUE) != 0;
  int x = nearestTexel(unnormalize(coord.x, extent.x, mode, normalized), extent.x, mode);
  int y = dims >= 2 ? nearestTexel(unnormalize(coord.y, extent.y, mode, normalized), extent.y, mode) : 0;
  int z = dims == 3 ? nearestTexel(unnormalize(coord.z, extent.z, mode, normalized), extent.z, mode)
          : arrayed ? floatLayer(coord, extent.z, dims)
                    : 0;
  return (int4)(x, y, z, 0);
}

// The texel at `index`, or where it is outside the image and `border` is set (CLK_ADDRESS_CLAMP)
// the border colour. The load itself is clamped to the edge: it never leaves the image, and it is
// issued whether the border is taken or not, so that a filter's loads go out together.
static float4 sampledTexelFloat(IMAGE_RECORD, int4 index, int4 extent, bool border) {
  int4 edge = clamp(index, (int4)0, extent - 1);
  float4 texel = readTexelFloat(IMAGE_FIELDS, edge);
  return border && any(edge != index) ? borderFloat(layout.y) : texel;
}

static uint4 sampledTexelInteger(IMAGE_RECORD, int4 index, int4 extent, bool border) {
  int4 edge = clamp(index, (int4)0, extent - 1);
  uint4 texel = readTexelInteger(IMAGE_FIELDS, edge);
  return border && any(edge != index) ? borderInteger(layout.y) : texel;
}

// ---- Reading, sampling and writing, for an image of `dims` dimensions (1 to 3), arrayed or not

// Reads without a sampler clamp to the edge (docs/images.md).
GEOMETRY_GENERIC float4 readFloat(IMAGE_RECORD, int4 coord, int dims, bool arrayed) {
  return sampledTexelFloat(IMAGE_FIELDS, integerIndex(coord, dims, arrayed), extentOf(size, dims, arrayed), false);
}

GEOMETRY_GENERIC uint4 readInteger(IMAGE_RECORD, int4 coord, int dims, bool arrayed) {
  return sampledTexelInteger(IMAGE_FIELDS, integerIndex(coord, dims, arrayed), extentOf(size, dims, arrayed), false);
}

GEOMETRY_GENERIC float4 sampleFloat(IMAGE_RECORD, uint sampler, float4 coord, int dims, bool arrayed) {
  int4 extent = extentOf(size, dims, arrayed);
  uint mode = addressingMode(sampler);
  bool border = mode == CLK_ADDRESS_CLAMP;
  if ((sampler & CLK_FILTER_LINEAR) == 0)
    return sampledTexelFloat(IMAGE_FIELDS, nearestIndex(coord, extent, sampler, dims, arrayed), extent, border);
  // Linear: the weighted sum of 2, 4 or 8 texels, in the specification's order.
  bool normalized = (sampler & CLK_NORMALIZED_COORDS_TRUE) != 0;
  int layer = arrayed ? floatLayer(coord, extent.z, dims) : 0;
#define T(x, y, z) sampledTexelFloat(IMAGE_FIELDS, (int4)(x, y, z, 0), extent, border)
  float u = unnormalize(coord.x, extent.x, mode, normalized);
  int2 i = linearTexels(u, extent.x, mode);
  float a = frac(u - 0.5f);
  if (dims == 1) return (1.0f - a) * T(i.x, 0, layer) + a * T(i.y, 0, layer);
  float v = unnormalize(coord.y, extent.y, mode, normalized);
  int2 j = linearTexels(v, extent.y, mode);
  float b = frac(v - 0.5f);
  if (dims == 2)
    return (1.0f - a) * (1.0f - b) * T(i.x, j.x, layer) + a * (1.0f - b) * T(i.y, j.x, layer) +
           (1.0f - a) * b * T(i.x, j.y, layer) + a * b * T(i.y, j.y, layer);
  float w = unnormalize(coord.z, extent.z, mode, normalized);
  int2 k = linearTexels(w, extent.z, mode);
  float c = frac(w - 0.5f);
  return (1.0f - a) * (1.0f - b) * (1.0f - c) * T(i.x, j.x, k.x) + a * (1.0f - b) * (1.0f - c) * T(i.y, j.x, k.x) +
         (1.0f - a) * b * (1.0f - c) * T(i.x, j.y, k.x) + a * b * (1.0f - c) * T(i.y, j.y, k.x) +
         (1.0f - a) * (1.0f - b) * c * T(i.x, j.x, k.y) + a * (1.0f - b) * c * T(i.y, j.x, k.y) +
         (1.0f - a) * b * c * T(i.x, j.y, k.y) + a * b * c * T(i.y, j.y, k.y);
#undef T
}

// Integer results: nearest filtering only (OpenCL defines no other).
GEOMETRY_GENERIC uint4 sampleInteger(IMAGE_RECORD, uint sampler, float4 coord, int dims, bool arrayed) {
  int4 extent = extentOf(size, dims, arrayed);
  bool border = addressingMode(sampler) == CLK_ADDRESS_CLAMP;
  return sampledTexelInteger(IMAGE_FIELDS, nearestIndex(coord, extent, sampler, dims, arrayed), extent, border);
}

// Integer coordinates with a sampler: unnormalized, nearest, the layer clamped to the array, and
// outside the image the border colour for CLK_ADDRESS_CLAMP, the edge for the other modes.
GEOMETRY_GENERIC int4 sampledIntegerIndex(int4 coord, int4 extent, int dims, bool arrayed) {
  int4 index = integerIndex(coord, dims, arrayed);
  if (arrayed) index.z = clamp(index.z, 0, extent.z - 1);
  return index;
}

GEOMETRY_GENERIC float4 sampleFloatAt(IMAGE_RECORD, uint sampler, int4 coord, int dims, bool arrayed) {
  int4 extent = extentOf(size, dims, arrayed);
  bool border = (sampler & 0xeu) == CLK_ADDRESS_CLAMP;
  return sampledTexelFloat(IMAGE_FIELDS, sampledIntegerIndex(coord, extent, dims, arrayed), extent, border);
}

GEOMETRY_GENERIC uint4 sampleIntegerAt(IMAGE_RECORD, uint sampler, int4 coord, int dims, bool arrayed) {
  int4 extent = extentOf(size, dims, arrayed);
  bool border = (sampler & 0xeu) == CLK_ADDRESS_CLAMP;
  return sampledTexelInteger(IMAGE_FIELDS, sampledIntegerIndex(coord, extent, dims, arrayed), extent, border);
}

// Writes outside the image (the layer included) do nothing.
GEOMETRY_GENERIC void writeChannels(IMAGE_RECORD, int4 coord, uint4 channels, int dims, bool arrayed) {
  int4 index = integerIndex(coord, dims, arrayed);
  if (any(as_uint4(index) >= as_uint4(extentOf(size, dims, arrayed)))) return;
  storeTexel(texelAddress(IMAGE_FIELDS, index), texelBytes(layout), packChannels(channels, channelBytes(layout.z)));
}

GEOMETRY_GENERIC void writeFloat(IMAGE_RECORD, int4 coord, float4 value, int dims, bool arrayed) {
  if (isSrgb(layout.y)) value = linearToSrgb(value);
  uint4 channels = floatToChannels(as_float4(fromRgba(as_uint4(value), layout.y)), layout.z);
  writeChannels(IMAGE_FIELDS, coord, channels, dims, arrayed);
}

GEOMETRY_GENERIC void writeInteger(IMAGE_RECORD, int4 coord, uint4 value, int dims, bool arrayed) {
  writeChannels(IMAGE_FIELDS, coord, saturateInteger(fromRgba(value, layout.y), layout.z), dims, arrayed);
}

// ---- The library's functions, by geometry: __cl2vk_image_<operation>_<geometry>

#define READ_WRITE_FUNCTIONS(geometry, dims, arrayed)                             \
  float4 __cl2vk_image_read_f_##geometry(IMAGE_RECORD, int4 coord) {              \
    return readFloat(IMAGE_FIELDS, coord, dims, arrayed);                         \
  }                                                                               \
  uint4 __cl2vk_image_read_i_##geometry(IMAGE_RECORD, int4 coord) {               \
    return readInteger(IMAGE_FIELDS, coord, dims, arrayed);                       \
  }                                                                               \
  void __cl2vk_image_write_f_##geometry(IMAGE_RECORD, int4 coord, float4 value) { \
    writeFloat(IMAGE_FIELDS, coord, value, dims, arrayed);                        \
  }                                                                               \
  void __cl2vk_image_write_i_##geometry(IMAGE_RECORD, int4 coord, uint4 value) {  \
    writeInteger(IMAGE_FIELDS, coord, value, dims, arrayed);                      \
  }

#define SAMPLE_FUNCTIONS(geometry, dims, arrayed)                                      \
  float4 __cl2vk_image_sample_f_##geometry(IMAGE_RECORD, uint sampler, float4 coord) { \
    return sampleFloat(IMAGE_FIELDS, sampler, coord, dims, arrayed);                   \
  }                                                                                    \
  uint4 __cl2vk_image_sample_i_##geometry(IMAGE_RECORD, uint sampler, float4 coord) {  \
    return sampleInteger(IMAGE_FIELDS, sampler, coord, dims, arrayed);                 \
  }                                                                                    \
  float4 __cl2vk_image_sample_fi_##geometry(IMAGE_RECORD, uint sampler, int4 coord) {  \
    return sampleFloatAt(IMAGE_FIELDS, sampler, coord, dims, arrayed);                 \
  }                                                                                    \
  uint4 __cl2vk_image_sample_ii_##geometry(IMAGE_RECORD, uint sampler, int4 coord) {   \
    return sampleIntegerAt(IMAGE_FIELDS, sampler, coord, dims, arrayed);               \
  }

READ_WRITE_FUNCTIONS(1d, 1, false)
READ_WRITE_FUNCTIONS(1d_array, 1, true)
READ_WRITE_FUNCTIONS(2d, 2, false)
READ_WRITE_FUNCTIONS(2d_array, 2, true)
READ_WRITE_FUNCTIONS(3d, 3, false)
READ_WRITE_FUNCTIONS(buffer, 1, false)
SAMPLE_FUNCTIONS(1d, 1, false)
SAMPLE_FUNCTIONS(1d_array, 1, true)
SAMPLE_FUNCTIONS(2d, 2, false)
SAMPLE_FUNCTIONS(2d_array, 2, true)
SAMPLE_FUNCTIONS(3d, 3, false)
