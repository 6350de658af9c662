// What the image tests (api_image_test.cc, api_image_host_test.cc, api_sampler_test.cc) share: a
// fixture whose device must support images, images and samplers made from a short description,
// whole-image transfers, the texels and colours the tests store, and the comparisons of a kernel's
// results with the CPU reference of image_reference.h.
#pragma once

#include <cfloat>
#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "icd/icd_test_util.h"
#include "icd/image_reference.h"

namespace cl2vk::test {

using imageref::Float4;
using imageref::formatName;
using imageref::HostImage;
using imageref::Int4;
using imageref::SamplerState;

inline std::string imageTypeName(cl_mem_object_type type) {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D: return "1D image";
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return "1D buffer image";
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return "1D image array";
    case CL_MEM_OBJECT_IMAGE2D: return "2D image";
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return "2D image array";
    case CL_MEM_OBJECT_IMAGE3D: return "3D image";
  }
  return "memory object type " + imageref::hex(type);
}

// An image's type and extent, as a region of clEnqueueReadImage has it: for a 1D array `height`
// counts the layers, for a 2D array `depth`.
struct ImageShape {
  cl_mem_object_type type = CL_MEM_OBJECT_IMAGE2D;
  size_t width = 1, height = 1, depth = 1;

  std::array<size_t, 3> region() const { return {width, height, depth}; }

  cl_image_desc desc() const {
    cl_image_desc desc{};
    desc.image_type = type;
    desc.image_width = width;
    if (type == CL_MEM_OBJECT_IMAGE1D_ARRAY) desc.image_array_size = height;
    if (type == CL_MEM_OBJECT_IMAGE2D || type == CL_MEM_OBJECT_IMAGE2D_ARRAY || type == CL_MEM_OBJECT_IMAGE3D) {
      desc.image_height = height;
    }
    if (type == CL_MEM_OBJECT_IMAGE2D_ARRAY) desc.image_array_size = depth;
    if (type == CL_MEM_OBJECT_IMAGE3D) desc.image_depth = depth;
    return desc;
  }

  std::string name() const {
    return std::to_string(width) + "x" + std::to_string(height) + "x" + std::to_string(depth) + " " +
           imageTypeName(type);
  }
};

// Stored channel values worth reading: zero, the extremes, the most negative values (which
// normalized types read as -1 twice), half's denormals and largest finite values.
inline std::vector<uint32_t> extremeChannels(cl_channel_type type) {
  switch (type) {
    case CL_UNORM_INT8:
    case CL_UNSIGNED_INT8: return {0, 255, 1, 128, 127, 254};
    case CL_SNORM_INT8:
    case CL_SIGNED_INT8: return {0x80, 0x81, 0x7f, 0, 0xff, 1};
    case CL_UNORM_INT16:
    case CL_UNSIGNED_INT16: return {0, 0xffff, 1, 0x8000, 0x7fff};
    case CL_SNORM_INT16:
    case CL_SIGNED_INT16: return {0x8000, 0x8001, 0x7fff, 0, 0xffff};
    case CL_SIGNED_INT32:
    case CL_UNSIGNED_INT32: return {0, 0xffffffff, 0x80000000, 0x7fffffff, 1};
    case CL_HALF_FLOAT: return {0, 0x8000, 0x3c00, 0xbc00, 0x7bff, 0xfbff, 0x0001, 0x03ff, 0x0400, 0x3555};
    case CL_FLOAT: return {0, 0x80000000, 0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff, 0x00800000, 0x3eaaaaab};
    default: return {0, 0xffffffff, 0x55555555, 0xaaaaaaaa};  // whole packed elements
  }
}

// A pseudo-random stored channel (a whole element for packed types): finite halves and floats,
// and no float denormals, which a device may flush to zero.
inline uint32_t randomChannel(cl_channel_type type, std::mt19937& random) {
  uint32_t bits = random();
  switch (type) {
    case CL_HALF_FLOAT:
      bits &= 0xffff;
      if (((bits >> 10) & 0x1f) == 0x1f) bits &= ~0x4000u;
      return bits;
    case CL_FLOAT: return (bits & 0x807fffffu) | ((97 + random() % 61) << 23);  // magnitudes 2^-30 .. 2^30
    default: {
      const size_t bytes = imageref::isPacked(type) ? 4 : imageref::channelBytes(type);
      return bytes >= 4 ? bits : bits & ((1u << (8 * bytes)) - 1);
    }
  }
}

// Fills `image` with texels of its format: the extremes first, each in every channel, then
// pseudo-random ones.
inline void fillTexels(HostImage& image, uint32_t seed) {
  std::mt19937 random(seed);
  const cl_channel_type type = image.format.image_channel_data_type;
  const bool packed = imageref::isPacked(type);
  const size_t channels = packed ? 1 : imageref::channelOrder(image.format.image_channel_order)->stored;
  const size_t channelSize = packed ? image.elementSize : imageref::channelBytes(type);
  const std::vector<uint32_t> extremes = extremeChannels(type);
  for (size_t t = 0; t < image.texelCount(); ++t) {
    for (size_t c = 0; c < channels; ++c) {
      const uint32_t value = t < extremes.size() ? extremes[(t + c) % extremes.size()] : randomChannel(type, random);
      std::memcpy(image.texelAt(t) + c * channelSize, &value, channelSize);
    }
  }
}

// Fills a CL_FLOAT image with texels in [-1, 1], which filtering mixes within the tolerance of
// sampledReadMatches.
inline void fillFloatTexels(HostImage& image, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(-1, 1);
  for (size_t i = 0; i < image.bytes.size() / sizeof(float); ++i) {
    const float value = uniform(random);
    std::memcpy(image.bytes.data() + i * sizeof(float), &value, sizeof(float));
  }
}

// Scalars that a normalized write of `max` steps (255, 65535, 31 ...) rounds from a tie: v whose
// v * max, in float as OpenCL writes it, is k + 0.5 exactly.
inline std::vector<float> normalizedTies(uint32_t max, bool isSigned) {
  std::vector<float> ties;
  for (uint32_t k : {0u, 1u, 2u, 3u, 6u, max / 2, max - 2, max - 1}) {
    if (k >= max) continue;
    const float v = static_cast<float>((k + 0.5) / max);
    if (v * static_cast<float>(max) == static_cast<float>(k) + 0.5f) {
      ties.push_back(v);
      if (isSigned) ties.push_back(-v);
    }
  }
  return ties;
}

// Colours for write_imagef into `format`: the extremes, values that saturate, ties of the
// conversion's rounding, then pseudo-random ones. For CL_INTENSITY and CL_LUMINANCE the colour
// channels are equal, so that which one the single channel stores does not matter.
inline std::vector<std::array<float, 4>> floatColors(const cl_image_format& format, size_t count, uint32_t seed) {
  const cl_channel_type type = format.image_channel_data_type;
  std::vector<float> specials;
  float low = -0.25f, high = 1.25f;
  switch (type) {
    case CL_HALF_FLOAT:
      specials = {0.0f,
                  -0.0f,
                  1.0f,
                  -1.0f,
                  65504.0f,
                  -65504.0f,
                  65519.0f,
                  0.1f,
                  1.0f / 3,
                  std::ldexp(1.0f, -14),          // the smallest normal half
                  1 + std::ldexp(1.0f, -11),      // a tie, to 1
                  1 + 3 * std::ldexp(1.0f, -11),  // a tie, to 1 + 2^-9
                  -(1 + 3 * std::ldexp(1.0f, -11)),
                  1 + std::ldexp(1.0f, -12),
                  1 + 3 * std::ldexp(1.0f, -12)};
      low = -1000, high = 1000;
      break;
    case CL_FLOAT:
      specials = {0.0f, -0.0f, 1.0f, -1.0f, FLT_MAX, -FLT_MAX, FLT_MIN, 1.0f / 3, 1e-30f, 12345.678f};
      low = -1e6f, high = 1e6f;
      break;
    case CL_SNORM_INT8:
    case CL_SNORM_INT16: {
      const uint32_t max = type == CL_SNORM_INT8 ? 127 : 32767;
      specials = {0.0f, 1.0f, -1.0f, -1.5f, 2.0f, -2.0f, 1e30f, -1e30f, 0.5f, -0.5f, 1.0f / 3};
      for (float tie : normalizedTies(max, true)) specials.push_back(tie);
      low = -1.25f;
      break;
    }
    default: {
      specials = {0.0f, 1.0f, -0.0f, -1.0f, 2.0f, 1e30f, -1e30f, 0.5f, 0.25f, 1.0f / 3, 0.999f};
      std::vector<uint32_t> steps;
      if (type == CL_UNORM_INT8) steps = {255};
      if (type == CL_UNORM_INT16) steps = {65535};
      for (auto [shift, width] : imageref::packedFields(type)) steps.push_back((1u << width) - 1);
      for (uint32_t max : steps) {
        for (float tie : normalizedTies(max, false)) specials.push_back(tie);
      }
      break;
    }
  }
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> uniform(low, high);
  std::vector<std::array<float, 4>> colors(count);
  for (size_t i = 0; i < count; ++i) {
    for (size_t c = 0; c < 4; ++c)
      colors[i][c] = i < specials.size() ? specials[(i + c) % specials.size()] : uniform(random);
    if (format.image_channel_order == CL_INTENSITY)
      colors[i] = {colors[i][0], colors[i][0], colors[i][0], colors[i][0]};
    if (format.image_channel_order == CL_LUMINANCE)
      colors[i] = {colors[i][0], colors[i][0], colors[i][0], colors[i][3]};
  }
  return colors;
}

// Colours for write_imagei/write_imageui: the limits of every integer type and one past them,
// then pseudo-random ones.
inline std::vector<Int4> integerColors(const cl_image_format& format, size_t count, uint32_t seed) {
  std::vector<uint32_t> specials;
  if (imageref::readKind(format.image_channel_data_type) == imageref::ReadKind::kInt) {
    for (int32_t v : {0, -1, 127, 128, -128, -129, 32767, 32768, -32768, -32769, INT32_MAX, INT32_MIN, 255, 1}) {
      specials.push_back(static_cast<uint32_t>(v));
    }
  } else {
    specials = {0, 1, 255, 256, 65535, 65536, 0xffffffff, 0x80000000, 127};
  }
  std::mt19937 random(seed);
  std::vector<Int4> colors(count);
  for (size_t i = 0; i < count; ++i) {
    for (size_t c = 0; c < 4; ++c) colors[i][c] = i < specials.size() ? specials[(i + c) % specials.size()] : random();
  }
  return colors;
}

// Whether `got` is component `component` of what read_imagef returns, `expected` (exact, from
// decodeFloat), for a read that picks one texel. Half and float read exactly. Normalized types
// within 1.5 ulp, the precision the environment specification gives their conversion, but 0, 1
// and -1 exactly (it requires those). sRGB colour channels within its |x - 255 c_sRGB(y)| <= 0.5.
inline bool texelReadMatches(const cl_image_format& format, int component, double expected, float got) {
  if (std::isnan(got)) return false;
  if (imageref::channelOrder(format.image_channel_order)->srgb && component < 3) {
    const double stored = std::round(imageref::linearToSrgb(expected) * 255);
    return std::fabs(255 * imageref::linearToSrgb(got) - stored) <= 0.5;
  }
  if (!imageref::isNormalized(format.image_channel_data_type) || expected == 0 || std::fabs(expected) == 1) {
    return got == expected;
  }
  const float nearest = static_cast<float>(std::fabs(expected));
  const double ulp = std::nextafter(nearest, INFINITY) - nearest;
  return std::fabs(got - expected) <= 1.5 * ulp;
}

// Whether a sampled read `got` matches the reference `expected`. Nearest filtering picks one texel
// (or the border), compared as texelReadMatches does. Linear filtering weighs two to eight in an
// arithmetic whose precision OpenCL leaves undefined ("Precision of Addressing and Filter Modes"),
// so the tolerance is of the CTS's kind: 1.5 steps of an 8-bit normalized type (1.5 / 255), and
// 1e-4 for the other types (relative above 1; the tests' texels lie in [-1, 1]).
inline bool sampledReadMatches(const cl_image_format& format, const SamplerState& sampler, int component,
                               double expected, float got) {
  if (sampler.filter == CL_FILTER_NEAREST) return texelReadMatches(format, component, expected, got);
  if (std::isnan(got)) return false;
  const cl_channel_type type = format.image_channel_data_type;
  const double tolerance = imageref::isNormalized(type) && imageref::channelBytes(type) == 1
                               ? 1.5 / 255
                               : 1e-4 * std::max(1.0, std::fabs(expected));
  return std::fabs(got - expected) <= tolerance;
}

// Unnormalized coordinates along an axis of `size` texels for `sampler`: inside the image, on texel
// boundaries and centres, next to the edges and beyond them on both sides, past a whole repeat of
// the image. Nearest filtering gets each 1/64 of a texel past the boundary, so that the texel it
// picks does not depend on the rounding of a normalized coordinate. CL_ADDRESS_NONE keeps those
// whose texels are all inside the image (OpenCL leaves the others undefined, even at weight 0).
inline std::vector<float> axisCoordinates(const SamplerState& sampler, size_t size) {
  const double n = static_cast<double>(size);
  const double points[] = {-n - 0.75, -1.5,    -1,       -0.5,          -0.25,         0,     0.25,    0.5,
                           0.75,      1,       1.5,      2.25,          n / 2 + 0.125, n - 1, n - 0.5, n - 0.25,
                           n,         n + 0.5, n + 1.25, 2 * n + 0.375, 3 * n - 0.625};
  const bool linear = sampler.filter == CL_FILTER_LINEAR;
  std::vector<float> coords;
  for (double u : points) {
    if (!linear) u += 1.0 / 64;
    if (sampler.addressing == CL_ADDRESS_NONE && (linear ? u < 0.5 || u >= n - 0.5 : u < 0 || u >= n)) continue;
    coords.push_back(static_cast<float>(u));
  }
  return coords;
}

inline std::string colorString(const Float4& color) {
  std::ostringstream out;
  out.precision(9);
  out << "(" << color[0] << ", " << color[1] << ", " << color[2] << ", " << color[3] << ")";
  return out.str();
}

inline std::string colorString(const std::array<float, 4>& color) {
  return colorString(Float4{color[0], color[1], color[2], color[3]});
}

// An integer colour as read_imagei (`isSigned`) or read_imageui returns it.
inline std::string colorString(const Int4& color, bool isSigned = false) {
  std::ostringstream out;
  out << "(";
  for (int c = 0; c < 4; ++c) {
    out << (c ? ", " : "");
    if (isSigned) {
      out << static_cast<int32_t>(color[c]);
    } else {
      out << color[c];
    }
  }
  out << ")";
  return out.str();
}

inline std::string bytesString(const uint8_t* bytes, size_t size) {
  std::ostringstream out;
  out << std::hex;
  for (size_t i = 0; i < size; ++i) out << (i ? " " : "") << static_cast<int>(bytes[i]);
  return out.str();
}

// Gathers the mismatches of a comparison and reports the first few of them, with their count.
class Mismatches {
 public:
  explicit Mismatches(std::string what) : what_(std::move(what)) {}
  void add(const std::string& mismatch) {
    if (count_++ < kShown) shown_ += "\n  " + mismatch;
  }
  size_t count() const { return count_; }
  testing::AssertionResult result() const {
    if (count_ == 0) return testing::AssertionSuccess();
    return testing::AssertionFailure() << what_ << ": " << count_ << " mismatches" << shown_
                                       << (count_ > kShown ? "\n  ..." : "");
  }

 private:
  static constexpr size_t kShown = 8;
  std::string what_;
  std::string shown_;
  size_t count_ = 0;
};

// Whether `got` holds the texels of `expected` (of the same format and extent); names the first
// texels that differ.
inline testing::AssertionResult sameTexels(const HostImage& got, const HostImage& expected) {
  if (got.bytes.size() != expected.bytes.size()) {
    return testing::AssertionFailure() << got.bytes.size() << " bytes of texels, expected " << expected.bytes.size();
  }
  Mismatches mismatches("texels of " + formatName(expected.format));
  for (size_t z = 0; z < expected.size[2]; ++z) {
    for (size_t y = 0; y < expected.size[1]; ++y) {
      for (size_t x = 0; x < expected.size[0]; ++x) {
        if (std::memcmp(got.texel(x, y, z), expected.texel(x, y, z), expected.elementSize) == 0) continue;
        mismatches.add("(" + std::to_string(x) + ", " + std::to_string(y) + ", " + std::to_string(z) + "): expected " +
                       bytesString(expected.texel(x, y, z), expected.elementSize) + ", got " +
                       bytesString(got.texel(x, y, z), got.elementSize));
      }
    }
  }
  return mismatches.result();
}

// clCreateSampler: deprecated since OpenCL 2.0, still in OpenCL 3.0, and one of the ways under test.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
inline cl_sampler createSamplerObject(cl_context context, cl_bool normalized, cl_addressing_mode addressing,
                                      cl_filter_mode filter, cl_int* status) {
  return clCreateSampler(context, normalized, addressing, filter, status);
}
#pragma GCC diagnostic pop

class IcdImageTest : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    if (HasFatalFailure()) return;
    ASSERT_EQ(deviceInfo<cl_bool>(device_, CL_DEVICE_IMAGE_SUPPORT), static_cast<cl_bool>(CL_TRUE))
        << "the device reports no image support (CL_DEVICE_IMAGE_SUPPORT)";
  }

  // The image described, or null with a failure that names it.
  Image createImage(const cl_image_format& format, const ImageShape& shape, cl_mem_flags flags = CL_MEM_READ_WRITE,
                    void* hostPtr = nullptr, size_t rowPitch = 0, size_t slicePitch = 0, cl_mem buffer = nullptr) {
    cl_image_desc desc = shape.desc();
    desc.image_row_pitch = rowPitch;
    desc.image_slice_pitch = slicePitch;
    desc.buffer = buffer;
    cl_int status = CL_SUCCESS;
    Image image(clCreateImage(context_, flags, &format, &desc, hostPtr, &status));
    EXPECT_CL_SUCCESS(status) << "clCreateImage of a " << shape.name() << " " << formatName(format);
    return image;
  }

  // `data`, written into the whole of `image` (blocking, tightly packed).
  void writeImage(cl_mem image, const HostImage& data) {
    const size_t origin[3] = {0, 0, 0};
    EXPECT_CL_SUCCESS(clEnqueueWriteImage(queue_, image, CL_TRUE, origin, data.size.data(), 0, 0, data.bytes.data(), 0,
                                          nullptr, nullptr));
  }

  // The whole of `image`, read back (blocking, tightly packed).
  HostImage readImage(cl_mem image, const cl_image_format& format, const std::array<size_t, 3>& size) {
    HostImage data(format, size);
    const size_t origin[3] = {0, 0, 0};
    EXPECT_CL_SUCCESS(
        clEnqueueReadImage(queue_, image, CL_TRUE, origin, size.data(), 0, 0, data.bytes.data(), 0, nullptr, nullptr));
    return data;
  }

  std::vector<cl_image_format> supportedFormats(cl_mem_flags flags, cl_mem_object_type type) {
    cl_uint count = 0;
    EXPECT_CL_SUCCESS(clGetSupportedImageFormats(context_, flags, type, 0, nullptr, &count));
    std::vector<cl_image_format> formats(count);
    if (count > 0) {
      EXPECT_CL_SUCCESS(clGetSupportedImageFormats(context_, flags, type, count, formats.data(), nullptr));
    }
    return formats;
  }

  bool supports(cl_mem_flags flags, cl_mem_object_type type, const cl_image_format& format) {
    for (const cl_image_format& supported : supportedFormats(flags, type)) {
      if (imageref::sameFormat(supported, format)) return true;
    }
    return false;
  }

  Sampler createSampler(const SamplerState& state) {
    cl_int status = CL_SUCCESS;
    Sampler sampler(
        createSamplerObject(context_, state.normalized ? CL_TRUE : CL_FALSE, state.addressing, state.filter, &status));
    EXPECT_CL_SUCCESS(status) << "clCreateSampler " << imageref::samplerName(state);
    return sampler;
  }

  // Runs `kernel` over `global` (its trailing 1s dropped) and waits for it.
  void runRange(cl_kernel kernel, std::array<size_t, 3> global) {
    const cl_uint dimensions = global[2] > 1 ? 3 : global[1] > 1 ? 2 : 1;
    EXPECT_CL_SUCCESS(
        clEnqueueNDRangeKernel(queue_, kernel, dimensions, nullptr, global.data(), nullptr, 0, nullptr, nullptr));
    EXPECT_CL_SUCCESS(clFinish(queue_));
  }

  bool hasExtension(const std::string& name) { return hasWord(deviceString(device_, CL_DEVICE_EXTENSIONS), name); }
};

}  // namespace cl2vk::test
