// Images in kernels, through the OpenCL API: what the device reports (image support, limits, the
// formats OpenCL 3.0 requires), read_imagef/i/ui and write_imagef/i/ui at integer coordinates for
// every format the device lists, every image type (1D, 1D buffer, 1D array, 2D, 2D array, 3D, and
// 2D from a buffer), sampled reads of each type, and the image queries of OpenCL C. Results are
// compared with the CPU reference of image_reference.h. Samplers are in api_sampler_test.cc, host
// transfers, copies, maps and errors in api_image_host_test.cc.

#include <bit>
#include <span>

#include "icd/image_test_util.h"

namespace cl2vk::test {
namespace {

using imageref::ReadKind;

// Reads and writes at integer coordinates; `out`/`in` hold the texels x fastest, then y, then z
// (or the layer), over a range the size of the image.
const char* kIntegerCoordinateKernels = R"CLC(
#define INDEX ((get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0))
#define X ((int)get_global_id(0))
#define Y ((int)get_global_id(1))
#define Z ((int)get_global_id(2))

kernel void read_float(read_only image2d_t image, global float4* out) { out[INDEX] = read_imagef(image, (int2)(X, Y)); }
kernel void read_int(read_only image2d_t image, global int4* out) { out[INDEX] = read_imagei(image, (int2)(X, Y)); }
kernel void read_uint(read_only image2d_t image, global uint4* out) { out[INDEX] = read_imageui(image, (int2)(X, Y)); }
kernel void write_float(write_only image2d_t image, global const float4* in) {
  write_imagef(image, (int2)(X, Y), in[INDEX]);
}
kernel void write_int(write_only image2d_t image, global const int4* in) {
  write_imagei(image, (int2)(X, Y), in[INDEX]);
}
kernel void write_uint(write_only image2d_t image, global const uint4* in) {
  write_imageui(image, (int2)(X, Y), in[INDEX]);
}

kernel void read_1d(read_only image1d_t image, global float4* out) { out[INDEX] = read_imagef(image, X); }
kernel void read_1d_buffer(read_only image1d_buffer_t image, global float4* out) { out[INDEX] = read_imagef(image, X); }
kernel void read_1d_array(read_only image1d_array_t image, global float4* out) {
  out[INDEX] = read_imagef(image, (int2)(X, Y));
}
kernel void read_2d(read_only image2d_t image, global float4* out) { out[INDEX] = read_imagef(image, (int2)(X, Y)); }
kernel void read_2d_array(read_only image2d_array_t image, global float4* out) {
  out[INDEX] = read_imagef(image, (int4)(X, Y, Z, 0));
}
kernel void read_3d(read_only image3d_t image, global float4* out) {
  out[INDEX] = read_imagef(image, (int4)(X, Y, Z, 0));
}

kernel void write_1d(write_only image1d_t image, global const float4* in) { write_imagef(image, X, in[INDEX]); }
kernel void write_1d_buffer(write_only image1d_buffer_t image, global const float4* in) {
  write_imagef(image, X, in[INDEX]);
}
kernel void write_1d_array(write_only image1d_array_t image, global const float4* in) {
  write_imagef(image, (int2)(X, Y), in[INDEX]);
}
kernel void write_2d(write_only image2d_t image, global const float4* in) {
  write_imagef(image, (int2)(X, Y), in[INDEX]);
}
kernel void write_2d_array(write_only image2d_array_t image, global const float4* in) {
  write_imagef(image, (int4)(X, Y, Z, 0), in[INDEX]);
}
)CLC";

// Writes to 3D images need cl_khr_3d_image_writes (or OpenCL C 3.0's __opencl_c_3d_image_writes).
const char* k3dWriteKernel = R"CLC(
#pragma OPENCL EXTENSION cl_khr_3d_image_writes : enable
kernel void write_3d(write_only image3d_t image, global const float4* in) {
  size_t index = (get_global_id(2) * get_global_size(1) + get_global_id(1)) * get_global_size(0) + get_global_id(0);
  write_imagef(image, (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0), in[index]);
}
)CLC";

// Sampled reads, one per coordinate (the unused components of a coordinate are ignored).
const char* kSampledKernels = R"CLC(
kernel void sample_1d(read_only image1d_t image, sampler_t sampler, global const float4* coords, global float4* out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, sampler, coords[i].x);
}
kernel void sample_1d_array(read_only image1d_array_t image, sampler_t sampler, global const float4* coords,
                            global float4* out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, sampler, coords[i].xy);
}
kernel void sample_2d_array(read_only image2d_array_t image, sampler_t sampler, global const float4* coords,
                            global float4* out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, sampler, coords[i]);
}
kernel void sample_3d(read_only image3d_t image, sampler_t sampler, global const float4* coords, global float4* out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, sampler, coords[i]);
}
)CLC";

// The image queries of OpenCL C, one kernel per image type (get_image_dim is for 2D and 3D
// images only); each stores its answers in `out` in the order of the kernel's lines.
const char* kQueryKernels = R"CLC(
kernel void query_1d(read_only image1d_t image, global int* out) {
  out[0] = get_image_width(image);
  out[1] = get_image_channel_data_type(image);
  out[2] = get_image_channel_order(image);
}
kernel void query_1d_buffer(read_only image1d_buffer_t image, global int* out) {
  out[0] = get_image_width(image);
  out[1] = get_image_channel_data_type(image);
  out[2] = get_image_channel_order(image);
}
kernel void query_1d_array(read_only image1d_array_t image, global int* out) {
  out[0] = get_image_width(image);
  out[1] = get_image_array_size(image);
  out[2] = get_image_channel_data_type(image);
  out[3] = get_image_channel_order(image);
}
kernel void query_2d(read_only image2d_t image, global int* out) {
  out[0] = get_image_width(image);
  out[1] = get_image_height(image);
  int2 dim = get_image_dim(image);
  out[2] = dim.x;
  out[3] = dim.y;
  out[4] = get_image_channel_data_type(image);
  out[5] = get_image_channel_order(image);
}
kernel void query_2d_write(write_only image2d_t image, global int* out) {
  out[0] = get_image_width(image);
  out[1] = get_image_height(image);
  out[2] = get_image_channel_data_type(image);
  out[3] = get_image_channel_order(image);
}
kernel void query_2d_array(read_only image2d_array_t image, global int* out) {
  out[0] = get_image_width(image);
  out[1] = get_image_height(image);
  out[2] = get_image_array_size(image);
  int2 dim = get_image_dim(image);
  out[3] = dim.x;
  out[4] = dim.y;
  out[5] = get_image_channel_data_type(image);
  out[6] = get_image_channel_order(image);
}
kernel void query_3d(read_only image3d_t image, global int* out) {
  out[0] = get_image_width(image);
  out[1] = get_image_height(image);
  out[2] = get_image_depth(image);
  int4 dim = get_image_dim(image);
  out[3] = dim.x;
  out[4] = dim.y;
  out[5] = dim.z;
  out[6] = dim.w;
  out[7] = get_image_channel_data_type(image);
  out[8] = get_image_channel_order(image);
}
)CLC";

struct ImageTypeCase {
  ImageShape shape;
  const char* suffix;  // of the kernels read_<suffix>, write_<suffix>, query_<suffix>
};

// Odd extents, so that a row or slice pitch taken for another shows.
const ImageTypeCase kImageTypes[] = {
    {{CL_MEM_OBJECT_IMAGE1D, 37}, "1d"},      {{CL_MEM_OBJECT_IMAGE1D_ARRAY, 19, 5}, "1d_array"},
    {{CL_MEM_OBJECT_IMAGE2D, 13, 6}, "2d"},   {{CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 4}, "2d_array"},
    {{CL_MEM_OBJECT_IMAGE3D, 6, 5, 4}, "3d"},
};

class IcdImage : public IcdImageTest {
 protected:
  Kernel integerCoordinateKernel(const std::string& name) {
    if (!integerCoordinates_) integerCoordinates_ = buildSource(kIntegerCoordinateKernels);
    return integerCoordinates_ ? createKernel(integerCoordinates_, name) : Kernel();
  }

  // Reads every texel of `image` (whose contents are `texels`) with the kernel `name`, and compares
  // the colours with what read_imagef returns for them.
  testing::AssertionResult readsMatch(const std::string& name, cl_mem image, const HostImage& texels) {
    Kernel kernel = integerCoordinateKernel(name);
    if (!kernel) return testing::AssertionFailure() << "no kernel " << name;
    const size_t count = texels.texelCount();
    Buffer out = createBuffer(count * sizeof(cl_float4));
    setArgs(kernel, image, out);
    runRange(kernel, texels.size);
    const std::vector<cl_float4> got = read<cl_float4>(out, count);
    Mismatches mismatches(name + " of a " + formatName(texels.format) + " image");
    for (size_t i = 0; i < count; ++i) {
      const Float4 expected = imageref::decodeFloat(texels.format, texels.texelAt(i));
      for (int c = 0; c < 4; ++c) {
        if (!texelReadMatches(texels.format, c, expected[c], got[i].s[c])) {
          mismatches.add("texel " + std::to_string(i) + " (" + bytesString(texels.texelAt(i), texels.elementSize) +
                         "): expected " + colorString(expected) + ", got " +
                         colorString(std::array<float, 4>{got[i].s[0], got[i].s[1], got[i].s[2], got[i].s[3]}));
          break;
        }
      }
    }
    return mismatches.result();
  }

  // Samples an image of `type`, CL_RGBA/CL_FLOAT texels in [-1, 1], with each sampler at every
  // combination of the axisCoordinates of its filtered axes and of `layers` for an array's layer;
  // compares with the reference.
  void checkSampledReads(const ImageTypeCase& type, std::span<const SamplerState> samplers,
                         const std::vector<float>& layers) {
    SCOPED_TRACE(type.shape.name());
    if (!sampled_) sampled_ = buildSource(kSampledKernels);
    ASSERT_TRUE(sampled_.get());
    Kernel kernel = createKernel(sampled_, std::string("sample_") + type.suffix);
    ASSERT_TRUE(kernel.get());
    const cl_image_format format{CL_RGBA, CL_FLOAT};
    const int dimensions = type.shape.type == CL_MEM_OBJECT_IMAGE3D         ? 3
                           : type.shape.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? 2
                                                                            : 1;
    HostImage texels(format, type.shape.region());
    fillFloatTexels(texels, 23);
    Image image = createImage(format, type.shape);
    ASSERT_TRUE(image.get());
    writeImage(image, texels);
    for (const SamplerState& state : samplers) {
      SCOPED_TRACE(imageref::samplerName(state));
      std::vector<std::array<float, 4>> coords{{0, 0, 0, 0}};
      for (int axis = 0; axis < 3; ++axis) {
        const size_t size = type.shape.region()[axis];
        const bool layered =
            axis == dimensions && type.shape.type != CL_MEM_OBJECT_IMAGE1D && type.shape.type != CL_MEM_OBJECT_IMAGE3D;
        if (axis >= dimensions && !layered) continue;
        std::vector<float> values = layered ? layers : axisCoordinates(state, size);
        if (!layered && state.normalized) {
          for (float& value : values) value = static_cast<float>(value / static_cast<double>(size));
        }
        std::vector<std::array<float, 4>> combined;
        for (const auto& coord : coords) {
          for (float value : values) {
            combined.push_back(coord);
            combined.back()[axis] = value;
          }
        }
        coords = std::move(combined);
      }
      Sampler sampler = createSampler(state);
      ASSERT_TRUE(sampler.get());
      Buffer coordBuffer = bufferOf(coords), out = createBuffer(coords.size() * sizeof(cl_float4));
      setArgs(kernel, image, sampler, coordBuffer, out);
      runRange(kernel, {coords.size(), 1, 1});
      const std::vector<cl_float4> got = read<cl_float4>(out, coords.size());
      Mismatches mismatches(imageref::samplerName(state));
      for (size_t i = 0; i < coords.size(); ++i) {
        const Float4 expected = imageref::sampleFloat(texels, dimensions, state, coords[i]);
        for (int c = 0; c < 4; ++c) {
          if (!sampledReadMatches(format, state, c, expected[c], got[i].s[c])) {
            mismatches.add("at " + colorString(coords[i]) + ": expected " + colorString(expected) + ", got " +
                           colorString(std::array<float, 4>{got[i].s[0], got[i].s[1], got[i].s[2], got[i].s[3]}));
            break;
          }
        }
      }
      EXPECT_TRUE(mismatches.result());
    }
  }

  struct QueryCase {
    ImageShape shape;
    cl_image_format format;
    const char* kernel;
    std::vector<int> expected;  // what the kernel stores
  };

  void checkQueries(std::span<const QueryCase> cases) {
    Program program = buildSource(kQueryKernels);
    ASSERT_TRUE(program.get());
    for (const QueryCase& query : cases) {
      SCOPED_TRACE(query.shape.name() + " " + formatName(query.format));
      Buffer buffer;
      if (query.shape.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) {
        buffer = createBuffer(query.shape.width * *imageref::elementSize(query.format));
      }
      Image image = createImage(query.format, query.shape, CL_MEM_READ_WRITE, nullptr, 0, 0, buffer);
      if (!image) continue;
      Kernel kernel = createKernel(program, query.kernel);
      ASSERT_TRUE(kernel.get());
      Buffer out = bufferOf(std::vector<int32_t>(query.expected.size(), -1));
      setArgs(kernel, image, out);
      runRange(kernel, {1, 1, 1});
      EXPECT_EQ(read<int32_t>(out, query.expected.size()), query.expected);
    }
  }

  // The 2D formats the device lists for CL_MEM_READ_WRITE, then those it lists for `alsoFlags` only
  // (sRGB for reading ...), each with the flags to create it with; those the reference does not
  // know are printed and left out.
  std::vector<std::pair<cl_image_format, cl_mem_flags>> knownFormats(cl_mem_flags alsoFlags) {
    std::vector<std::pair<cl_image_format, cl_mem_flags>> known;
    for (cl_mem_flags flags : {cl_mem_flags{CL_MEM_READ_WRITE}, alsoFlags}) {
      for (const cl_image_format& format : supportedFormats(flags, CL_MEM_OBJECT_IMAGE2D)) {
        bool listed = false;
        for (const auto& [other, otherFlags] : known) listed = listed || imageref::sameFormat(other, format);
        if (listed) continue;
        if (imageref::isKnown(format)) {
          known.emplace_back(format, flags);
        } else {
          std::cout << "[ SKIPPED ] " << formatName(format) << ": the reference does not know this format\n";
        }
      }
    }
    return known;
  }

  Program integerCoordinates_, sampled_;
};

TEST_F(IcdImage, DeviceReportsTheMinimumImageLimitsOfOpenCl30) {
  // CL_DEVICE_IMAGE_SUPPORT is checked by the fixture. The minimums of a full-profile device.
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE2D_MAX_WIDTH), 16384u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE2D_MAX_HEIGHT), 16384u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE3D_MAX_WIDTH), 2048u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE3D_MAX_HEIGHT), 2048u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE3D_MAX_DEPTH), 2048u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE), 2048u);
  EXPECT_GE(deviceInfo<size_t>(device_, CL_DEVICE_IMAGE_MAX_BUFFER_SIZE), 65536u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_READ_IMAGE_ARGS), 128u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_WRITE_IMAGE_ARGS), 64u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_SAMPLERS), 16u);
  // The alignments of 2D images from buffers: powers of two where the device makes them, 0 where
  // it does not (OpenCL 3.0 makes them optional, cl_khr_image2d_from_buffer says it has them).
  const cl_uint pitch = deviceInfo<cl_uint>(device_, CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  const cl_uint base = deviceInfo<cl_uint>(device_, CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT);
  if (hasExtension("cl_khr_image2d_from_buffer")) {
    EXPECT_TRUE(pitch > 0 && std::has_single_bit(pitch)) << "CL_DEVICE_IMAGE_PITCH_ALIGNMENT " << pitch;
    EXPECT_TRUE(base > 0 && std::has_single_bit(base)) << "CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT " << base;
  } else {
    EXPECT_EQ(pitch, 0u) << "CL_DEVICE_IMAGE_PITCH_ALIGNMENT without cl_khr_image2d_from_buffer";
    EXPECT_EQ(base, 0u) << "CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT without cl_khr_image2d_from_buffer";
  }
}

// OpenCL 3.0's "Minimum List of Supported Image Formats" for reading or writing in a kernel
// (CL_R, CL_RG, the SNORM types and CL_sRGBA are required by OpenCL 2.x only), for every image type
// and kernel access; and its list for CL_MEM_KERNEL_READ_AND_WRITE where the device has read-write
// image arguments.
TEST_F(IcdImage, SupportedFormatsIncludeTheRequiredMinimumForEveryImageType) {
  const cl_channel_type kRgbaTypes[] = {CL_UNORM_INT8,   CL_UNORM_INT16,   CL_SIGNED_INT8,    CL_SIGNED_INT16,
                                        CL_SIGNED_INT32, CL_UNSIGNED_INT8, CL_UNSIGNED_INT16, CL_UNSIGNED_INT32,
                                        CL_HALF_FLOAT,   CL_FLOAT};
  std::vector<cl_image_format> required;
  for (cl_channel_type type : kRgbaTypes) required.push_back({CL_RGBA, type});
  required.push_back({CL_BGRA, CL_UNORM_INT8});
  const cl_channel_type kReadWriteTypes[] = {CL_UNORM_INT8,     CL_SIGNED_INT8,   CL_SIGNED_INT16,
                                             CL_SIGNED_INT32,   CL_UNSIGNED_INT8, CL_UNSIGNED_INT16,
                                             CL_UNSIGNED_INT32, CL_HALF_FLOAT,    CL_FLOAT};
  std::vector<cl_image_format> requiredReadWrite;
  for (cl_channel_order order : {CL_R, CL_RGBA}) {
    for (cl_channel_type type : kReadWriteTypes) requiredReadWrite.push_back({order, type});
  }
  const bool readWriteImages = deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS) > 0;

  const cl_mem_object_type kTypes[] = {CL_MEM_OBJECT_IMAGE1D, CL_MEM_OBJECT_IMAGE1D_BUFFER, CL_MEM_OBJECT_IMAGE1D_ARRAY,
                                       CL_MEM_OBJECT_IMAGE2D, CL_MEM_OBJECT_IMAGE2D_ARRAY,  CL_MEM_OBJECT_IMAGE3D};
  const cl_mem_flags kFlags[] = {CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY, CL_MEM_READ_WRITE, CL_MEM_KERNEL_READ_AND_WRITE};
  for (cl_mem_object_type type : kTypes) {
    for (cl_mem_flags flags : kFlags) {
      if (flags == CL_MEM_KERNEL_READ_AND_WRITE && !readWriteImages) continue;
      SCOPED_TRACE(imageTypeName(type) + ", flags 0x" + imageref::hex(static_cast<uint32_t>(flags)).substr(2));
      const std::vector<cl_image_format> supported = supportedFormats(flags, type);
      for (const cl_image_format& format : flags == CL_MEM_KERNEL_READ_AND_WRITE ? requiredReadWrite : required) {
        bool found = false;
        for (const cl_image_format& listed : supported) found = found || imageref::sameFormat(listed, format);
        EXPECT_TRUE(found) << formatName(format) << " is not listed";
      }
      // The count alone, and a list shorter than the count, agree with the whole list.
      cl_uint count = 0;
      EXPECT_CL_SUCCESS(clGetSupportedImageFormats(context_, flags, type, 0, nullptr, &count));
      EXPECT_EQ(count, supported.size());
      if (count > 1) {
        std::vector<cl_image_format> first(1);
        EXPECT_CL_SUCCESS(clGetSupportedImageFormats(context_, flags, type, 1, first.data(), nullptr));
        EXPECT_TRUE(imageref::sameFormat(first[0], supported[0]));
      }
    }
  }
  cl_uint count = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetSupportedImageFormats(context_, CL_MEM_READ_WRITE, CL_MEM_OBJECT_BUFFER, 0, nullptr, &count));
  cl_image_format format{};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetSupportedImageFormats(context_, CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, 0,
                                                               &format, nullptr));  // entries 0, formats not null
}

// Every texel of a 16x5 image, extremes first, read at integer coordinates without a sampler by
// the function of its channel type, for every 2D format the device lists for CL_MEM_READ_WRITE
// (and for CL_MEM_READ_ONLY: sRGB); compared with the reference decode.
TEST_F(IcdImage, ReadImageReturnsTheDecodedTexelForEverySupportedFormat) {
  const ImageShape shape{CL_MEM_OBJECT_IMAGE2D, 16, 5};
  const auto formats = knownFormats(CL_MEM_READ_ONLY);
  ASSERT_FALSE(formats.empty());
  for (const auto& [format, flags] : formats) {
    SCOPED_TRACE(formatName(format));
    HostImage texels(format, shape.region());
    fillTexels(texels, 7);
    Image image = createImage(format, shape, flags);
    if (!image) continue;
    writeImage(image, texels);
    const ReadKind kind = imageref::readKind(format.image_channel_data_type);
    if (kind == ReadKind::kFloat) {
      EXPECT_TRUE(readsMatch("read_float", image, texels));
      continue;
    }
    Kernel kernel = integerCoordinateKernel(kind == ReadKind::kInt ? "read_int" : "read_uint");
    ASSERT_TRUE(kernel.get());
    Buffer out = createBuffer(texels.texelCount() * sizeof(cl_uint4));
    setArgs(kernel, image, out);
    runRange(kernel, shape.region());
    const std::vector<Int4> got = read<Int4>(out, texels.texelCount());
    Mismatches mismatches("integer reads of " + formatName(format));
    for (size_t i = 0; i < texels.texelCount(); ++i) {
      const Int4 expected = imageref::decodeInteger(format, texels.texelAt(i));
      if (got[i] != expected) {
        mismatches.add("texel " + std::to_string(i) + ": expected " + colorString(expected, kind == ReadKind::kInt) +
                       ", got " + colorString(got[i], kind == ReadKind::kInt));
      }
    }
    EXPECT_TRUE(mismatches.result());
  }
}

// Colours written at integer coordinates by the function of the channel type, for every 2D format
// the device lists for CL_MEM_READ_WRITE (and CL_MEM_WRITE_ONLY), read back from the host: the
// extremes, values that saturate, ties of the rounding (to nearest even: OpenCL's preferred
// rounding, which docs/images.md takes), and pseudo-random ones.
TEST_F(IcdImage, WriteImageStoresTheEncodedColorForEverySupportedFormat) {
  const ImageShape shape{CL_MEM_OBJECT_IMAGE2D, 16, 5};
  const size_t count = shape.width * shape.height;
  const bool srgbWrites = hasExtension("cl_khr_srgb_image_writes");
  const auto formats = knownFormats(CL_MEM_WRITE_ONLY);
  ASSERT_FALSE(formats.empty());
  for (const auto& [format, flags] : formats) {
    SCOPED_TRACE(formatName(format));
    const bool srgb = imageref::channelOrder(format.image_channel_order)->srgb;
    if (srgb && !srgbWrites) {
      std::cout << "[ SKIPPED ] writes of " << formatName(format) << ": no cl_khr_srgb_image_writes\n";
      continue;
    }
    Image image = createImage(format, shape, flags);
    if (!image) continue;
    const ReadKind kind = imageref::readKind(format.image_channel_data_type);
    const std::vector<std::array<float, 4>> floats = floatColors(format, count, 11);
    const std::vector<Int4> integers = integerColors(format, count, 13);
    Kernel kernel = integerCoordinateKernel(kind == ReadKind::kFloat ? "write_float"
                                            : kind == ReadKind::kInt ? "write_int"
                                                                     : "write_uint");
    ASSERT_TRUE(kernel.get());
    Buffer in = kind == ReadKind::kFloat ? bufferOf(floats) : bufferOf(integers);
    setArgs(kernel, image, in);
    runRange(kernel, shape.region());
    const HostImage stored = readImage(image, format, shape.region());

    const std::vector<uint8_t> mask = imageref::definedBits(format);
    Mismatches mismatches("writes of " + formatName(format));
    for (size_t i = 0; i < count; ++i) {
      const std::vector<uint8_t> expected = kind == ReadKind::kFloat ? imageref::encodeFloat(format, floats[i])
                                                                     : imageref::encodeInteger(format, integers[i]);
      const uint8_t* got = stored.texelAt(i);
      bool same = true;
      if (srgb) {
        // sRGB colour channels within the specification's |x - 255 c_sRGB(y)| <= 0.6; alpha exactly.
        const std::vector<int> components = imageref::writtenComponents(format);
        for (size_t k = 0; k < components.size(); ++k) {
          const int c = components[k];
          if (c < 0) continue;
          same = same && (c == 3 ? got[k] == expected[k]
                                 : std::fabs(got[k] - 255 * imageref::linearToSrgb(floats[i][c])) <= 0.6);
        }
      } else {
        for (size_t b = 0; b < mask.size(); ++b) same = same && (got[b] & mask[b]) == (expected[b] & mask[b]);
      }
      if (!same) {
        mismatches.add(
            "texel " + std::to_string(i) + ", colour " +
            (kind == ReadKind::kFloat ? colorString(floats[i]) : colorString(integers[i], kind == ReadKind::kInt)) +
            ": expected " + bytesString(expected.data(), expected.size()) + ", got " +
            bytesString(got, stored.elementSize));
      }
    }
    EXPECT_TRUE(mismatches.result());
  }
}

TEST_F(IcdImage, EveryImageTypeIsReadAtIntegerCoordinates) {
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  for (const ImageTypeCase& type : kImageTypes) {
    SCOPED_TRACE(type.shape.name());
    HostImage texels(format, type.shape.region());
    fillTexels(texels, 17);
    Image image = createImage(format, type.shape);
    if (!image) continue;
    writeImage(image, texels);
    EXPECT_TRUE(readsMatch(std::string("read_") + type.suffix, image, texels));
  }
}

TEST_F(IcdImage, EveryImageTypeIsWrittenAtIntegerCoordinates) {
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  const bool writes3d = hasExtension("cl_khr_3d_image_writes");
  for (const ImageTypeCase& type : kImageTypes) {
    SCOPED_TRACE(type.shape.name());
    Kernel kernel;
    if (type.shape.type != CL_MEM_OBJECT_IMAGE3D) {
      kernel = integerCoordinateKernel(std::string("write_") + type.suffix);
    } else if (writes3d) {
      Program program = buildSource(k3dWriteKernel);
      if (program) kernel = createKernel(program, "write_3d");
    } else {
      std::cout << "[ SKIPPED ] writes to 3D images: no cl_khr_3d_image_writes\n";
      continue;
    }
    ASSERT_TRUE(kernel.get());
    const size_t count = type.shape.width * type.shape.height * type.shape.depth;
    Image image = createImage(format, type.shape);
    if (!image) continue;
    const std::vector<std::array<float, 4>> colors = floatColors(format, count, 19);
    Buffer in = bufferOf(colors);
    setArgs(kernel, image, in);
    runRange(kernel, type.shape.region());
    const HostImage stored = readImage(image, format, type.shape.region());
    Mismatches mismatches(std::string("write_") + type.suffix);
    for (size_t i = 0; i < count; ++i) {
      const std::vector<uint8_t> expected = imageref::encodeFloat(format, colors[i]);
      if (std::memcmp(expected.data(), stored.texelAt(i), expected.size()) != 0) {
        mismatches.add("texel " + std::to_string(i) + ": expected " + bytesString(expected.data(), expected.size()) +
                       ", got " + bytesString(stored.texelAt(i), stored.elementSize));
      }
    }
    EXPECT_TRUE(mismatches.result());
  }
}

// Samplers of each addressing mode, both filters and both kinds of coordinates.
const SamplerState kSamplers[] = {
    {false, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR},  {false, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_NEAREST},
    {false, CL_ADDRESS_NONE, CL_FILTER_LINEAR},   {true, CL_ADDRESS_CLAMP_TO_EDGE, CL_FILTER_LINEAR},
    {true, CL_ADDRESS_REPEAT, CL_FILTER_NEAREST}, {true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR},
    {true, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST},
};

TEST_F(IcdImage, SampledReadsOf1dAnd3dImagesFollowTheAddressingRules) {
  for (const ImageTypeCase& type : kImageTypes) {
    if (type.shape.type != CL_MEM_OBJECT_IMAGE1D && type.shape.type != CL_MEM_OBJECT_IMAGE3D) continue;
    checkSampledReads(type, kSamplers, {});
  }
}

// The layer of an array is clamp(rint(layer), 0, layers - 1): -0.7 and 0.4 select layer 0, 1.6
// and 2.2 layer 2, 9.2 the last. These coordinates are away from ties and the samplers take
// unnormalized coordinates; the next test has the rest.
TEST_F(IcdImage, SampledReadsOfArraysFollowTheAddressingRulesInTheRoundedLayer) {
  std::vector<SamplerState> unnormalized;
  for (const SamplerState& state : kSamplers) {
    if (!state.normalized) unnormalized.push_back(state);
  }
  for (const ImageTypeCase& type : kImageTypes) {
    if (type.shape.type != CL_MEM_OBJECT_IMAGE1D_ARRAY && type.shape.type != CL_MEM_OBJECT_IMAGE2D_ARRAY) continue;
    checkSampledReads(type, unnormalized, {-0.7f, 0.4f, 1.6f, 2.2f, 2.9f, 9.2f});
  }
}

// The layer coordinate is always unnormalized, with normalized samplers too ("Image Coordinates"
// of the environment specification), and rint rounds its ties to even: 0.5 selects layer 0,
// 1.5 and 2.5 layer 2, 3.5 layer 4 (or the last).
TEST_F(IcdImage, ArrayLayerCoordinateIsNeverNormalizedAndRoundsTiesToEven) {
  for (const ImageTypeCase& type : kImageTypes) {
    if (type.shape.type != CL_MEM_OBJECT_IMAGE1D_ARRAY && type.shape.type != CL_MEM_OBJECT_IMAGE2D_ARRAY) continue;
    checkSampledReads(type, kSamplers, {-0.5f, 0.5f, 1.5f, 2.5f, 3.5f, 0.4f, 1.6f});
  }
}

// A 1D image made from a buffer is that buffer's memory: what is written into the buffer, a
// kernel reads from the image, and what a kernel writes into the image, the buffer holds.
TEST_F(IcdImage, BufferImageSharesTheBuffersMemory) {
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  const ImageShape shape{CL_MEM_OBJECT_IMAGE1D_BUFFER, 45};
  HostImage texels(format, shape.region());
  fillTexels(texels, 29);
  Buffer buffer = createBuffer(texels.bytes.size() + 64);  // larger than the image needs
  ASSERT_TRUE(buffer.get());
  Image image = createImage(format, shape, CL_MEM_READ_WRITE, nullptr, 0, 0, buffer);
  ASSERT_TRUE(image.get());
  ASSERT_CL_SUCCESS(
      clEnqueueWriteBuffer(queue_, buffer, CL_TRUE, 0, texels.bytes.size(), texels.bytes.data(), 0, nullptr, nullptr));
  EXPECT_TRUE(readsMatch("read_1d_buffer", image, texels));

  Kernel write = integerCoordinateKernel("write_1d_buffer");
  ASSERT_TRUE(write.get());
  const std::vector<std::array<float, 4>> colors = floatColors(format, shape.width, 31);
  Buffer in = bufferOf(colors);
  setArgs(write, image, in);
  runRange(write, shape.region());
  const std::vector<uint8_t> bytes = read<uint8_t>(buffer, texels.bytes.size());
  for (size_t i = 0; i < shape.width; ++i) {
    const std::vector<uint8_t> expected = imageref::encodeFloat(format, colors[i]);
    EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + i * 4, bytes.begin() + i * 4 + 4), expected)
        << "texel " << i << ", colour " << colorString(colors[i]);
  }
  // The image's host transfers see the buffer too.
  const HostImage readBack = readImage(image, format, shape.region());
  EXPECT_EQ(readBack.bytes, bytes);
}

// cl_khr_image2d_from_buffer: a 2D image over a buffer, rows CL_DEVICE_IMAGE_PITCH_ALIGNMENT-aligned
// with room to spare, shares the buffer's memory as a 1D buffer image does.
TEST_F(IcdImage, Image2dFromABufferSharesTheBuffersMemory) {
  if (!hasExtension("cl_khr_image2d_from_buffer")) {
    GTEST_SKIP() << "no cl_khr_image2d_from_buffer";
  }
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  const ImageShape shape{CL_MEM_OBJECT_IMAGE2D, 13, 6};
  const size_t alignment = deviceInfo<cl_uint>(device_, CL_DEVICE_IMAGE_PITCH_ALIGNMENT);
  ASSERT_GT(alignment, 0u);
  const size_t rowPitch = (shape.width + alignment) / alignment * alignment * 4;  // at least one texel of padding
  HostImage texels(format, shape.region());
  fillTexels(texels, 37);
  std::vector<uint8_t> rows(rowPitch * shape.height, 0xcd);
  for (size_t y = 0; y < shape.height; ++y) std::memcpy(&rows[y * rowPitch], texels.texel(0, y), texels.rowPitch());
  Buffer buffer = bufferOf(rows);
  Image image = createImage(format, shape, CL_MEM_READ_WRITE, nullptr, rowPitch, 0, buffer);
  ASSERT_TRUE(image.get());
  size_t reportedPitch = 0;
  EXPECT_CL_SUCCESS(clGetImageInfo(image, CL_IMAGE_ROW_PITCH, sizeof(reportedPitch), &reportedPitch, nullptr));
  EXPECT_EQ(reportedPitch, rowPitch);
  EXPECT_TRUE(readsMatch("read_2d", image, texels));

  Kernel write = integerCoordinateKernel("write_2d");
  ASSERT_TRUE(write.get());
  const std::vector<std::array<float, 4>> colors = floatColors(format, shape.width * shape.height, 41);
  Buffer in = bufferOf(colors);
  setArgs(write, image, in);
  runRange(write, shape.region());
  const std::vector<uint8_t> bytes = read<uint8_t>(buffer, rows.size());
  for (size_t y = 0; y < shape.height; ++y) {
    for (size_t x = 0; x < shape.width; ++x) {
      const std::vector<uint8_t> expected = imageref::encodeFloat(format, colors[y * shape.width + x]);
      const size_t at = y * rowPitch + x * 4;
      EXPECT_EQ(std::vector<uint8_t>(bytes.begin() + at, bytes.begin() + at + 4), expected) << x << ", " << y;
    }
    // The padding between rows is not written.
    for (size_t at = y * rowPitch + shape.width * 4; at < (y + 1) * rowPitch; ++at) ASSERT_EQ(bytes[at], 0xcd) << at;
  }
}

// get_image_width ... get_image_channel_order for each image type, in shapes whose extents all
// differ; the channel queries return the CL_ values (CLK_UNORM_INT8 is CL_UNORM_INT8).
TEST_F(IcdImage, KernelQueriesReturnTheExtentAndFormatOfEveryImageType) {
  const QueryCase kCases[] = {
      {{CL_MEM_OBJECT_IMAGE1D, 37}, {CL_RGBA, CL_UNSIGNED_INT16}, "query_1d", {37, CL_UNSIGNED_INT16, CL_RGBA}},
      {{CL_MEM_OBJECT_IMAGE1D_ARRAY, 19, 5},
       {CL_RGBA, CL_SIGNED_INT8},
       "query_1d_array",
       {19, 5, CL_SIGNED_INT8, CL_RGBA}},
      {{CL_MEM_OBJECT_IMAGE2D, 13, 6}, {CL_BGRA, CL_UNORM_INT8}, "query_2d", {13, 6, 13, 6, CL_UNORM_INT8, CL_BGRA}},
      {{CL_MEM_OBJECT_IMAGE2D, 3, 17}, {CL_RGBA, CL_HALF_FLOAT}, "query_2d_write", {3, 17, CL_HALF_FLOAT, CL_RGBA}},
      {{CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 4},
       {CL_RGBA, CL_UNORM_INT16},
       "query_2d_array",
       {7, 5, 4, 7, 5, CL_UNORM_INT16, CL_RGBA}},
      {{CL_MEM_OBJECT_IMAGE3D, 6, 5, 4},
       {CL_RGBA, CL_SIGNED_INT32},
       "query_3d",
       {6, 5, 4, 6, 5, 4, 0, CL_SIGNED_INT32, CL_RGBA}},
  };
  checkQueries(kCases);
}

TEST_F(IcdImage, KernelQueriesReturnTheWidthAndFormatOfA1dBufferImage) {
  const QueryCase kCases[] = {
      {{CL_MEM_OBJECT_IMAGE1D_BUFFER, 45}, {CL_RGBA, CL_FLOAT}, "query_1d_buffer", {45, CL_FLOAT, CL_RGBA}},
  };
  checkQueries(kCases);
}

TEST_F(IcdImage, ChannelQueriesReturnTheFormatOfEverySupportedFormat) {
  Program program = buildSource(kQueryKernels);
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "query_2d");
  ASSERT_TRUE(kernel.get());
  for (const cl_image_format& format : supportedFormats(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D)) {
    SCOPED_TRACE(formatName(format));
    Image image = createImage(format, {CL_MEM_OBJECT_IMAGE2D, 2, 3});
    if (!image) continue;
    Buffer out = bufferOf(std::vector<int32_t>(6, -1));
    setArgs(kernel, image, out);
    runRange(kernel, {1, 1, 1});
    const std::vector<int32_t> got = read<int32_t>(out, 6);
    EXPECT_EQ(got[4], static_cast<int32_t>(format.image_channel_data_type)) << imageref::typeName(got[4]);
    EXPECT_EQ(got[5], static_cast<int32_t>(format.image_channel_order)) << imageref::orderName(got[5]);
  }
}

}  // namespace
}  // namespace cl2vk::test
