// Images from the host, through the OpenCL API: clGetImageInfo and clGetMemObjectInfo of every
// image type, reads and writes of regions with host row and slice pitches, copies between images
// and between images and buffers, fills checked against the reference encoding of the colour, maps,
// images over host memory (CL_MEM_USE_HOST_PTR, CL_MEM_COPY_HOST_PTR) with a host row pitch, and
// the errors of creation, transfers and kernel arguments.

#include "icd/image_test_util.h"

namespace cl2vk::test {
namespace {

const char* kArgumentKernels = R"CLC(
kernel void read_2d(read_only image2d_t image, global float4* out) { out[0] = read_imagef(image, (int2)(0, 0)); }
kernel void write_2d(write_only image2d_t image, global const float4* in) {
  int x = get_global_id(0), y = get_global_id(1);
  write_imagef(image, (int2)(x, y), in[y * get_global_size(0) + x]);
}
)CLC";

// Copies a region of texels from `from` at `fromOrigin` to `to` at `toOrigin`; either side is
// given by its base, row pitch and slice pitch in bytes.
struct Texels {
  uint8_t* base;
  size_t rowPitch, slicePitch;
  uint8_t* at(const std::array<size_t, 3>& origin, size_t x, size_t y, size_t z, size_t elementSize) const {
    return base + (origin[2] + z) * slicePitch + (origin[1] + y) * rowPitch + (origin[0] + x) * elementSize;
  }
};

void copyRegion(const Texels& to, const std::array<size_t, 3>& toOrigin, const Texels& from,
                const std::array<size_t, 3>& fromOrigin, const std::array<size_t, 3>& region, size_t elementSize) {
  for (size_t z = 0; z < region[2]; ++z) {
    for (size_t y = 0; y < region[1]; ++y) {
      std::memcpy(to.at(toOrigin, 0, y, z, elementSize), from.at(fromOrigin, 0, y, z, elementSize),
                  region[0] * elementSize);
    }
  }
}

Texels texelsOf(HostImage& image) { return {image.bytes.data(), image.rowPitch(), image.slicePitch()}; }

class IcdImageHost : public IcdImageTest {
 protected:
  // An image of `shape` filled with texels of `seed`, and those texels.
  std::pair<Image, HostImage> filledImage(const cl_image_format& format, const ImageShape& shape, uint32_t seed) {
    HostImage texels(format, shape.region());
    fillTexels(texels, seed);
    Image image = createImage(format, shape);
    if (image) writeImage(image, texels);
    return {std::move(image), std::move(texels)};
  }

  // What clCreateImage returns for these arguments, which must not make an image.
  cl_int createStatus(const cl_image_format* format, const std::optional<cl_image_desc>& desc,
                      cl_mem_flags flags = CL_MEM_READ_WRITE, void* hostPtr = nullptr) {
    cl_int status = CL_SUCCESS;
    Image image(clCreateImage(context_, flags, format, desc ? &*desc : nullptr, hostPtr, &status));
    EXPECT_EQ(image.get(), nullptr);
    return status;
  }

  static constexpr cl_image_format kRgba{CL_RGBA, CL_UNORM_INT8};
  const cl_image_desc kImage2d = ImageShape{CL_MEM_OBJECT_IMAGE2D, 8, 4}.desc();

  template <typename T>
  T imageInfo(cl_mem image, cl_image_info name) {
    T value{};
    EXPECT_CL_SUCCESS(clGetImageInfo(image, name, sizeof(T), &value, nullptr)) << "image info 0x" << std::hex << name;
    return value;
  }

  template <typename T>
  T memInfo(cl_mem memory, cl_mem_info name) {
    T value{};
    EXPECT_CL_SUCCESS(clGetMemObjectInfo(memory, name, sizeof(T), &value, nullptr))
        << "memory object info 0x" << std::hex << name;
    return value;
  }
};

TEST_F(IcdImageHost, InfoDescribesEveryImageType) {
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT16};
  const size_t elementSize = 8;
  const ImageShape kShapes[] = {
      {CL_MEM_OBJECT_IMAGE1D, 37},    {CL_MEM_OBJECT_IMAGE1D_BUFFER, 45},     {CL_MEM_OBJECT_IMAGE1D_ARRAY, 19, 5},
      {CL_MEM_OBJECT_IMAGE2D, 13, 6}, {CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 4}, {CL_MEM_OBJECT_IMAGE3D, 6, 5, 4},
  };
  for (const ImageShape& shape : kShapes) {
    SCOPED_TRACE(shape.name());
    const bool fromBuffer = shape.type == CL_MEM_OBJECT_IMAGE1D_BUFFER;
    Buffer buffer = fromBuffer ? createBuffer(shape.width * elementSize) : Buffer();
    Image image = createImage(format, shape, CL_MEM_READ_ONLY, nullptr, 0, 0, buffer);
    if (!image) continue;
    const cl_image_format reported = imageInfo<cl_image_format>(image, CL_IMAGE_FORMAT);
    EXPECT_TRUE(imageref::sameFormat(reported, format)) << formatName(reported);
    EXPECT_EQ(imageInfo<size_t>(image, CL_IMAGE_ELEMENT_SIZE), elementSize);
    const size_t rowPitch = imageInfo<size_t>(image, CL_IMAGE_ROW_PITCH);
    EXPECT_GE(rowPitch, shape.width * elementSize);
    const size_t slicePitch = imageInfo<size_t>(image, CL_IMAGE_SLICE_PITCH);
    const bool arrayOr3d = shape.type == CL_MEM_OBJECT_IMAGE1D_ARRAY || shape.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                           shape.type == CL_MEM_OBJECT_IMAGE3D;
    const bool twoDimensional = shape.type == CL_MEM_OBJECT_IMAGE2D || shape.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                                shape.type == CL_MEM_OBJECT_IMAGE3D;
    if (!arrayOr3d) {
      EXPECT_EQ(slicePitch, 0u);
    } else {
      EXPECT_GE(slicePitch, rowPitch * (shape.type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : shape.height));
    }
    EXPECT_EQ(imageInfo<size_t>(image, CL_IMAGE_WIDTH), shape.width);
    EXPECT_EQ(imageInfo<size_t>(image, CL_IMAGE_HEIGHT), twoDimensional ? shape.height : 0u);
    EXPECT_EQ(imageInfo<size_t>(image, CL_IMAGE_DEPTH), shape.type == CL_MEM_OBJECT_IMAGE3D ? shape.depth : 0u);
    const size_t layers = shape.type == CL_MEM_OBJECT_IMAGE1D_ARRAY   ? shape.height
                          : shape.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ? shape.depth
                                                                      : 0;
    EXPECT_EQ(imageInfo<size_t>(image, CL_IMAGE_ARRAY_SIZE), layers);
    EXPECT_EQ(imageInfo<cl_mem>(image, CL_IMAGE_BUFFER), buffer.get());
    EXPECT_EQ(imageInfo<cl_uint>(image, CL_IMAGE_NUM_MIP_LEVELS), 0u);
    EXPECT_EQ(imageInfo<cl_uint>(image, CL_IMAGE_NUM_SAMPLES), 0u);

    EXPECT_EQ(memInfo<cl_mem_object_type>(image, CL_MEM_TYPE), shape.type);
    EXPECT_GE(memInfo<size_t>(image, CL_MEM_SIZE), shape.width * shape.height * shape.depth * elementSize);
    EXPECT_EQ(memInfo<cl_mem_flags>(image, CL_MEM_FLAGS), static_cast<cl_mem_flags>(CL_MEM_READ_ONLY));
    EXPECT_EQ(memInfo<cl_context>(image, CL_MEM_CONTEXT), context_.get());
    EXPECT_EQ(memInfo<cl_mem>(image, CL_MEM_ASSOCIATED_MEMOBJECT), buffer.get());
    EXPECT_EQ(memInfo<void*>(image, CL_MEM_HOST_PTR), nullptr);
  }
  // An unknown query, and an answer larger than the space given, are refused.
  Image image = createImage(format, kShapes[3]);
  ASSERT_TRUE(image.get());
  size_t value = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetImageInfo(image, 0x7777, sizeof(value), &value, nullptr));
  cl_uchar tooSmall = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetImageInfo(image, CL_IMAGE_WIDTH, sizeof(tooSmall), &tooSmall, nullptr));
  Buffer buffer = createBuffer(64);
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clGetImageInfo(buffer, CL_IMAGE_WIDTH, sizeof(value), &value, nullptr));
}

// Writes of a region from host memory whose rows (and slices) are padded, then reads of another
// region into padded host memory: what lands is the region, what is read is the image's texels,
// and the padding of the host memory is left as it was.
TEST_F(IcdImageHost, RegionsMoveWithHostRowAndSlicePitches) {
  struct Case {
    cl_image_format format;
    ImageShape shape;
    std::array<size_t, 3> writeOrigin, writeRegion, readOrigin, readRegion;
  };
  const Case kCases[] = {
      {{CL_RGBA, CL_UNORM_INT16}, {CL_MEM_OBJECT_IMAGE2D, 13, 9}, {3, 2, 0}, {5, 4, 1}, {1, 3, 0}, {7, 5, 1}},
      {{CL_RGBA, CL_SIGNED_INT8}, {CL_MEM_OBJECT_IMAGE3D, 7, 6, 5}, {1, 2, 1}, {4, 3, 3}, {2, 1, 0}, {5, 4, 4}},
      {{CL_RGBA, CL_FLOAT}, {CL_MEM_OBJECT_IMAGE2D_ARRAY, 6, 5, 4}, {0, 0, 2}, {6, 5, 1}, {1, 1, 1}, {4, 3, 3}},
      {{CL_RGBA, CL_UNSIGNED_INT8}, {CL_MEM_OBJECT_IMAGE1D_ARRAY, 11, 6}, {2, 1, 0}, {7, 4, 1}, {0, 2, 0}, {11, 3, 1}},
      {{CL_BGRA, CL_UNORM_INT8}, {CL_MEM_OBJECT_IMAGE1D, 40}, {5, 0, 0}, {20, 1, 1}, {3, 0, 0}, {30, 1, 1}},
  };
  for (const Case& test : kCases) {
    SCOPED_TRACE(test.shape.name() + " " + formatName(test.format));
    auto [image, expected] = filledImage(test.format, test.shape, 67);
    if (!image) continue;
    const size_t element = expected.elementSize;
    const bool sliced = test.shape.type == CL_MEM_OBJECT_IMAGE3D || test.shape.type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
    // The rows of a 1D array's region are its layers, a slice pitch apart in host memory: here the
    // slice pitch is 0, which makes it the row pitch (the next test gives one).
    auto hostTexels = [&](std::vector<uint8_t>& memory, size_t rowPitch, size_t slicePitch) {
      return Texels{memory.data(), rowPitch, slicePitch};
    };

    const size_t writeRowPitch = test.writeRegion[0] * element + 3 * element;
    const size_t writeSlicePitch = sliced ? writeRowPitch * test.writeRegion[1] + 2 * element : 0;
    std::vector<uint8_t> written(writeSlicePitch * test.writeRegion[1] * test.writeRegion[2] +
                                 writeRowPitch * test.writeRegion[1]);
    HostImage patch(test.format, test.writeRegion);
    fillTexels(patch, 71);
    copyRegion(hostTexels(written, writeRowPitch, writeSlicePitch), {0, 0, 0}, texelsOf(patch), {0, 0, 0},
               test.writeRegion, element);
    ASSERT_CL_SUCCESS(clEnqueueWriteImage(queue_, image, CL_TRUE, test.writeOrigin.data(), test.writeRegion.data(),
                                          writeRowPitch, writeSlicePitch, written.data(), 0, nullptr, nullptr));
    copyRegion(texelsOf(expected), test.writeOrigin, texelsOf(patch), {0, 0, 0}, test.writeRegion, element);
    EXPECT_TRUE(sameTexels(readImage(image, test.format, test.shape.region()), expected));

    const size_t readRowPitch = test.readRegion[0] * element + element;
    const size_t readSlicePitch = sliced ? readRowPitch * test.readRegion[1] + 5 * element : 0;
    const size_t readSize =
        readSlicePitch * test.readRegion[1] * test.readRegion[2] + readRowPitch * test.readRegion[1];
    std::vector<uint8_t> got(readSize, 0xee), wanted(readSize, 0xee);
    ASSERT_CL_SUCCESS(clEnqueueReadImage(queue_, image, CL_TRUE, test.readOrigin.data(), test.readRegion.data(),
                                         readRowPitch, readSlicePitch, got.data(), 0, nullptr, nullptr));
    copyRegion(hostTexels(wanted, readRowPitch, readSlicePitch), {0, 0, 0}, texelsOf(expected), test.readOrigin,
               test.readRegion, element);
    EXPECT_EQ(got, wanted);
  }
}

// The images of a 1D array are a slice pitch apart in host memory ("slice_pitch ... each image of
// a 1D or 2D image array"), whatever the row pitch.
TEST_F(IcdImageHost, LayersOfA1dArrayAreASlicePitchApartInHostMemory) {
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT8};
  const ImageShape shape{CL_MEM_OBJECT_IMAGE1D_ARRAY, 4, 3};
  auto [image, expected] = filledImage(format, shape, 131);
  ASSERT_TRUE(image.get());
  const size_t rowPitch = 16, slicePitch = 32;  // layers 32 bytes apart, rows of 16
  HostImage layers(format, shape.region());
  fillTexels(layers, 137);
  std::vector<uint8_t> host(slicePitch * shape.height, 0);
  copyRegion({host.data(), slicePitch, slicePitch}, {0, 0, 0}, texelsOf(layers), {0, 0, 0}, shape.region(), 4);
  const std::array<size_t, 3> origin{0, 0, 0};
  ASSERT_CL_SUCCESS(clEnqueueWriteImage(queue_, image, CL_TRUE, origin.data(), shape.region().data(), rowPitch,
                                        slicePitch, host.data(), 0, nullptr, nullptr));
  EXPECT_TRUE(sameTexels(readImage(image, format, shape.region()), layers));
  std::vector<uint8_t> got(host.size(), 0xee);
  ASSERT_CL_SUCCESS(clEnqueueReadImage(queue_, image, CL_TRUE, origin.data(), shape.region().data(), rowPitch,
                                       slicePitch, got.data(), 0, nullptr, nullptr));
  for (size_t layer = 0; layer < shape.height; ++layer) {
    EXPECT_EQ(std::vector<uint8_t>(got.begin() + layer * slicePitch, got.begin() + layer * slicePitch + 16),
              std::vector<uint8_t>(layers.texel(0, layer), layers.texel(0, layer) + 16))
        << "layer " << layer;
  }
}

TEST_F(IcdImageHost, CopyImageMovesRegionsBetweenImagesOfEveryType) {
  const cl_image_format format{CL_RGBA, CL_HALF_FLOAT};
  struct Case {
    ImageShape from, to;
    std::array<size_t, 3> fromOrigin, toOrigin, region;
  };
  const Case kCases[] = {
      {{CL_MEM_OBJECT_IMAGE2D, 11, 7}, {CL_MEM_OBJECT_IMAGE2D, 9, 8}, {2, 1, 0}, {4, 3, 0}, {5, 4, 1}},
      {{CL_MEM_OBJECT_IMAGE3D, 6, 5, 4}, {CL_MEM_OBJECT_IMAGE2D, 9, 8}, {1, 1, 2}, {0, 0, 0}, {4, 3, 1}},
      {{CL_MEM_OBJECT_IMAGE2D, 9, 8}, {CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 4}, {0, 2, 0}, {1, 1, 3}, {4, 3, 1}},
      {{CL_MEM_OBJECT_IMAGE2D_ARRAY, 7, 5, 4}, {CL_MEM_OBJECT_IMAGE3D, 6, 5, 4}, {1, 0, 1}, {0, 1, 2}, {5, 4, 2}},
      {{CL_MEM_OBJECT_IMAGE1D, 30}, {CL_MEM_OBJECT_IMAGE1D_ARRAY, 12, 3}, {7, 0, 0}, {2, 2, 0}, {9, 1, 1}},
  };
  for (const Case& test : kCases) {
    SCOPED_TRACE(test.from.name() + " to " + test.to.name());
    auto [from, fromTexels] = filledImage(format, test.from, 73);
    auto [to, expected] = filledImage(format, test.to, 79);
    if (!from || !to) continue;
    Event copied;
    ASSERT_CL_SUCCESS(clEnqueueCopyImage(queue_, from, to, test.fromOrigin.data(), test.toOrigin.data(),
                                         test.region.data(), 0, nullptr, copied.put()));
    cl_command_type type = 0;
    EXPECT_CL_SUCCESS(clGetEventInfo(copied, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
    EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_COPY_IMAGE));
    copyRegion(texelsOf(expected), test.toOrigin, texelsOf(fromTexels), test.fromOrigin, test.region, 8);
    EXPECT_TRUE(sameTexels(readImage(to, format, test.to.region()), expected));
  }

  // Within one image, regions apart are copied and overlapping ones refused; formats must match.
  const ImageShape shape{CL_MEM_OBJECT_IMAGE2D, 12, 6};
  auto [image, expected] = filledImage(format, shape, 83);
  ASSERT_TRUE(image.get());
  const std::array<size_t, 3> from{0, 0, 0}, apart{6, 2, 0}, overlapping{3, 2, 0}, region{5, 4, 1};
  ASSERT_CL_SUCCESS(
      clEnqueueCopyImage(queue_, image, image, from.data(), apart.data(), region.data(), 0, nullptr, nullptr));
  copyRegion(texelsOf(expected), apart, texelsOf(expected), from, region, 8);
  EXPECT_TRUE(sameTexels(readImage(image, format, shape.region()), expected));
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP, clEnqueueCopyImage(queue_, image, image, from.data(), overlapping.data(),
                                                          region.data(), 0, nullptr, nullptr));
  Image other = createImage({CL_RGBA, CL_FLOAT}, shape);
  ASSERT_TRUE(other.get());
  EXPECT_CL_ERROR(CL_IMAGE_FORMAT_MISMATCH, clEnqueueCopyImage(queue_, image, other, from.data(), from.data(),
                                                               region.data(), 0, nullptr, nullptr));
  Image another = createImage(format, shape);
  ASSERT_TRUE(another.get());
  const std::array<size_t, 3> beyond{8, 0, 0}, row{5, 1, 1};  // one texel past the row
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueCopyImage(queue_, image, another, from.data(), beyond.data(), row.data(),
                                                       0, nullptr, nullptr));
}

// Images to buffers and back: the buffer holds the region tightly packed at its offset, and the
// bytes around it stay.
TEST_F(IcdImageHost, CopiesBetweenImagesAndBuffersPackTheRegion) {
  struct Case {
    cl_image_format format;
    ImageShape shape;
    std::array<size_t, 3> origin, region;
    size_t offset;
  };
  const Case kCases[] = {
      {{CL_RGBA, CL_UNORM_INT8}, {CL_MEM_OBJECT_IMAGE2D, 9, 6}, {2, 1, 0}, {5, 3, 1}, 12},
      {{CL_RGBA, CL_FLOAT}, {CL_MEM_OBJECT_IMAGE3D, 5, 4, 3}, {1, 1, 1}, {3, 2, 2}, 48},
      {{CL_RGBA, CL_SIGNED_INT16}, {CL_MEM_OBJECT_IMAGE2D_ARRAY, 6, 4, 3}, {0, 1, 1}, {6, 2, 2}, 8},
      {{CL_RGBA, CL_UNSIGNED_INT32}, {CL_MEM_OBJECT_IMAGE1D, 20}, {3, 0, 0}, {11, 1, 1}, 16},
  };
  for (const Case& test : kCases) {
    SCOPED_TRACE(test.shape.name() + " " + formatName(test.format));
    auto [image, expected] = filledImage(test.format, test.shape, 89);
    if (!image) continue;
    const size_t element = expected.elementSize;
    const size_t packed = test.region[0] * test.region[1] * test.region[2] * element;
    const size_t size = test.offset + packed + 20;
    std::vector<uint8_t> wanted(size, 0xab);
    Buffer buffer = bufferOf(wanted);
    ASSERT_CL_SUCCESS(clEnqueueCopyImageToBuffer(queue_, image, buffer, test.origin.data(), test.region.data(),
                                                 test.offset, 0, nullptr, nullptr));
    const Texels tight{wanted.data() + test.offset, test.region[0] * element,
                       test.region[0] * test.region[1] * element};
    copyRegion(tight, {0, 0, 0}, texelsOf(expected), test.origin, test.region, element);
    EXPECT_EQ(read<uint8_t>(buffer, size), wanted);

    // Back into the image one texel further along x (still inside), from a buffer of new texels.
    HostImage patch(test.format, test.region);
    fillTexels(patch, 97);
    std::vector<uint8_t> source(test.offset, 0x11);
    source.insert(source.end(), patch.bytes.begin(), patch.bytes.end());
    Buffer sourceBuffer = bufferOf(source);
    const std::array<size_t, 3> to{test.origin[0] - (test.origin[0] > 0 ? 1 : 0), test.origin[1], test.origin[2]};
    ASSERT_CL_SUCCESS(clEnqueueCopyBufferToImage(queue_, sourceBuffer, image, test.offset, to.data(),
                                                 test.region.data(), 0, nullptr, nullptr));
    copyRegion(texelsOf(expected), to, texelsOf(patch), {0, 0, 0}, test.region, element);
    EXPECT_TRUE(sameTexels(readImage(image, test.format, test.shape.region()), expected));
  }
}

// clEnqueueFillImage converts its colour as a write would (float colours for normalized, half and
// float types, int and uint colours for the integer types, saturated), into a region only. The
// colours avoid rounding ties, which a fill may round either way.
TEST_F(IcdImageHost, FillImageStoresTheColorConvertedToTheFormat) {
  struct Case {
    cl_image_format format;
    std::array<float, 4> floats;
    Int4 integers;
  };
  const Case kCases[] = {
      {{CL_RGBA, CL_UNORM_INT8}, {0.21f, 0.62f, 0.03f, 1.2f}, {}},
      {{CL_BGRA, CL_UNORM_INT8}, {0.21f, -0.62f, 0.83f, 0.004f}, {}},
      {{CL_RGBA, CL_UNORM_INT16}, {0.21f, 0.62f, 0.0301f, -3.0f}, {}},
      {{CL_RGBA, CL_SNORM_INT8}, {-0.21f, 0.62f, -1.5f, 0.03f}, {}},
      {{CL_RGBA, CL_HALF_FLOAT}, {1.5f, -2.25f, 0.125f, 1000.5f}, {}},  // exact: a fill may round to zero
      {{CL_RGBA, CL_FLOAT}, {1.5f, -2.25f, 1e-3f, 3e38f}, {}},
      {{CL_R, CL_FLOAT}, {-7.5f, 2, 3, 4}, {}},
      {{CL_RGBA, CL_SIGNED_INT16}, {}, {static_cast<uint32_t>(-40000), 40000, static_cast<uint32_t>(-5), 123}},
      {{CL_RGBA, CL_SIGNED_INT32}, {}, {static_cast<uint32_t>(-40000), 0x7fffffff, 0x80000000, 7}},
      {{CL_RGBA, CL_UNSIGNED_INT8}, {}, {300, 7, 0, 255}},
      {{CL_RGBA, CL_UNSIGNED_INT16}, {}, {70000, 65535, 1, 0xffffffff}},
  };
  const ImageShape kShapes[] = {{CL_MEM_OBJECT_IMAGE2D, 9, 6}, {CL_MEM_OBJECT_IMAGE3D, 5, 4, 3}};
  const std::array<size_t, 3> kOrigins[] = {{2, 1, 0}, {1, 0, 1}}, kRegions[] = {{5, 3, 1}, {3, 4, 2}};
  for (const Case& test : kCases) {
    if (!supports(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D, test.format)) {
      std::cout << "[ SKIPPED ] fills of " << formatName(test.format) << ": not supported\n";
      continue;
    }
    const bool integer = imageref::readKind(test.format.image_channel_data_type) != imageref::ReadKind::kFloat;
    const std::vector<uint8_t> texel =
        integer ? imageref::encodeInteger(test.format, test.integers) : imageref::encodeFloat(test.format, test.floats);
    for (size_t s = 0; s < 2; ++s) {
      SCOPED_TRACE(kShapes[s].name() + " " + formatName(test.format));
      auto [image, expected] = filledImage(test.format, kShapes[s], 101);
      if (!image) continue;
      const void* color = integer ? static_cast<const void*>(test.integers.data()) : test.floats.data();
      Event filled;
      ASSERT_CL_SUCCESS(
          clEnqueueFillImage(queue_, image, color, kOrigins[s].data(), kRegions[s].data(), 0, nullptr, filled.put()));
      cl_event fillEvent = filled;
      ASSERT_CL_SUCCESS(clWaitForEvents(1, &fillEvent));
      for (size_t z = 0; z < kRegions[s][2]; ++z) {
        for (size_t y = 0; y < kRegions[s][1]; ++y) {
          for (size_t x = 0; x < kRegions[s][0]; ++x) {
            std::memcpy(expected.texel(kOrigins[s][0] + x, kOrigins[s][1] + y, kOrigins[s][2] + z), texel.data(),
                        texel.size());
          }
        }
      }
      EXPECT_TRUE(sameTexels(readImage(image, test.format, kShapes[s].region()), expected))
          << "the fill texel is " << bytesString(texel.data(), texel.size());
    }
  }
}

// A map of a region gives the row pitch (and the slice pitch of a 3D image or an array) of what it
// maps; it holds the image's texels, and what the host writes there the image holds once unmapped.
TEST_F(IcdImageHost, MapImageGivesThePitchesAndWritesThrough) {
  struct Case {
    cl_image_format format;
    ImageShape shape;
    std::array<size_t, 3> origin, region;
  };
  const Case kCases[] = {
      {{CL_RGBA, CL_FLOAT}, {CL_MEM_OBJECT_IMAGE2D, 11, 7}, {2, 3, 0}, {6, 3, 1}},
      {{CL_RGBA, CL_UNORM_INT8}, {CL_MEM_OBJECT_IMAGE3D, 5, 4, 3}, {1, 1, 1}, {3, 2, 2}},
      {{CL_RGBA, CL_SIGNED_INT16}, {CL_MEM_OBJECT_IMAGE1D_ARRAY, 9, 4}, {2, 1, 0}, {5, 3, 1}},
      {{CL_RGBA, CL_UNSIGNED_INT8}, {CL_MEM_OBJECT_IMAGE2D_ARRAY, 6, 5, 3}, {0, 2, 1}, {6, 3, 2}},
  };
  for (const Case& test : kCases) {
    SCOPED_TRACE(test.shape.name() + " " + formatName(test.format));
    auto [image, expected] = filledImage(test.format, test.shape, 103);
    if (!image) continue;
    const size_t element = expected.elementSize;
    size_t rowPitch = 0, slicePitch = 7;
    cl_int status = CL_SUCCESS;
    auto* mapped = static_cast<uint8_t*>(clEnqueueMapImage(queue_, image, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                           test.origin.data(), test.region.data(), &rowPitch,
                                                           &slicePitch, 0, nullptr, nullptr, &status));
    ASSERT_CL_SUCCESS(status);
    ASSERT_NE(mapped, nullptr);
    EXPECT_GE(rowPitch, test.region[0] * element);
    const bool is1dArray = test.shape.type == CL_MEM_OBJECT_IMAGE1D_ARRAY;
    if (test.shape.type == CL_MEM_OBJECT_IMAGE2D) {
      EXPECT_EQ(slicePitch, 0u);
    } else {
      EXPECT_GE(slicePitch, is1dArray ? rowPitch : rowPitch * test.region[1]);
    }
    // For a 1D array the region's rows are layers, a slice pitch apart.
    const Texels map{mapped, is1dArray ? slicePitch : rowPitch, slicePitch};
    HostImage seen(test.format, test.region);
    copyRegion(texelsOf(seen), {0, 0, 0}, map, {0, 0, 0}, test.region, element);
    HostImage wanted(test.format, test.region);
    copyRegion(texelsOf(wanted), {0, 0, 0}, texelsOf(expected), test.origin, test.region, element);
    EXPECT_TRUE(sameTexels(seen, wanted)) << "the mapped texels";

    HostImage patch(test.format, test.region);
    fillTexels(patch, 107);
    copyRegion(map, {0, 0, 0}, texelsOf(patch), {0, 0, 0}, test.region, element);
    ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, image, mapped, 0, nullptr, nullptr));
    copyRegion(texelsOf(expected), test.origin, texelsOf(patch), {0, 0, 0}, test.region, element);
    EXPECT_TRUE(sameTexels(readImage(image, test.format, test.shape.region()), expected));
  }
}

// CL_MEM_USE_HOST_PTR with a padded row pitch: the image reports that pitch, reads what the host
// memory holds, and a map after a kernel's writes returns the host memory itself (at the mapped
// origin) holding them.
TEST_F(IcdImageHost, UseHostPtrImageWithARowPitchIsTheHostMemory) {
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  const ImageShape shape{CL_MEM_OBJECT_IMAGE2D, 10, 6};
  const size_t rowPitch = shape.width * 4 + 32;
  HostImage texels(format, shape.region());
  fillTexels(texels, 109);
  std::vector<uint8_t> host(rowPitch * shape.height, 0x5a);
  copyRegion({host.data(), rowPitch, 0}, {0, 0, 0}, texelsOf(texels), {0, 0, 0}, shape.region(), 4);
  Image image = createImage(format, shape, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host.data(), rowPitch);
  ASSERT_TRUE(image.get());
  size_t reported = 0;
  EXPECT_CL_SUCCESS(clGetImageInfo(image, CL_IMAGE_ROW_PITCH, sizeof(reported), &reported, nullptr));
  EXPECT_EQ(reported, rowPitch);
  void* hostPtr = nullptr;
  EXPECT_CL_SUCCESS(clGetMemObjectInfo(image, CL_MEM_HOST_PTR, sizeof(hostPtr), &hostPtr, nullptr));
  EXPECT_EQ(hostPtr, host.data());
  EXPECT_TRUE(sameTexels(readImage(image, format, shape.region()), texels));

  Program program = buildSource(kArgumentKernels);
  ASSERT_TRUE(program.get());
  Kernel write = createKernel(program, "write_2d");
  ASSERT_TRUE(write.get());
  const std::vector<std::array<float, 4>> colors = floatColors(format, shape.width * shape.height, 113);
  Buffer in = bufferOf(colors);
  setArgs(write, image, in);
  runRange(write, shape.region());
  const std::array<size_t, 3> origin{1, 2, 0}, region{8, 3, 1};
  size_t mappedPitch = 0;
  cl_int status = CL_SUCCESS;
  auto* mapped =
      static_cast<uint8_t*>(clEnqueueMapImage(queue_, image, CL_TRUE, CL_MAP_READ, origin.data(), region.data(),
                                              &mappedPitch, nullptr, 0, nullptr, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_EQ(mapped, host.data() + origin[1] * rowPitch + origin[0] * 4);
  EXPECT_EQ(mappedPitch, rowPitch);
  for (size_t y = origin[1]; y < origin[1] + region[1]; ++y) {
    for (size_t x = origin[0]; x < origin[0] + region[0]; ++x) {
      const std::vector<uint8_t> texel = imageref::encodeFloat(format, colors[y * shape.width + x]);
      EXPECT_EQ(std::vector<uint8_t>(&host[y * rowPitch + x * 4], &host[y * rowPitch + x * 4 + 4]), texel)
          << x << ", " << y;
    }
  }
  ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, image, mapped, 0, nullptr, nullptr));
  ASSERT_CL_SUCCESS(clFinish(queue_));
}

// CL_MEM_COPY_HOST_PTR with padded rows and slices takes the texels (not the padding) at creation;
// changing the host memory afterwards changes nothing.
TEST_F(IcdImageHost, CopyHostPtrImageWithPitchesTakesACopyOfTheTexels) {
  const cl_image_format format{CL_RGBA, CL_UNSIGNED_INT16};
  const ImageShape shape{CL_MEM_OBJECT_IMAGE3D, 5, 4, 3};
  const size_t rowPitch = shape.width * 8 + 8, slicePitch = rowPitch * (shape.height + 1);  // a multiple of rows
  HostImage texels(format, shape.region());
  fillTexels(texels, 127);
  std::vector<uint8_t> host(slicePitch * shape.depth, 0x77);
  copyRegion({host.data(), rowPitch, slicePitch}, {0, 0, 0}, texelsOf(texels), {0, 0, 0}, shape.region(), 8);
  Image image = createImage(format, shape, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, host.data(), rowPitch, slicePitch);
  ASSERT_TRUE(image.get());
  std::fill(host.begin(), host.end(), 0);
  EXPECT_TRUE(sameTexels(readImage(image, format, shape.region()), texels));
  void* hostPtr = &host;
  EXPECT_CL_SUCCESS(clGetMemObjectInfo(image, CL_MEM_HOST_PTR, sizeof(hostPtr), &hostPtr, nullptr));
  EXPECT_EQ(hostPtr, nullptr);
}

TEST_F(IcdImageHost, TransfersOutsideTheImageOrWithBadPitchesAreInvalidValue) {
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  Image image = createImage(format, {CL_MEM_OBJECT_IMAGE2D, 8, 4});
  ASSERT_TRUE(image.get());
  std::vector<uint8_t> host(4096);
  auto readRegion = [&](std::array<size_t, 3> origin, std::array<size_t, 3> region, size_t rowPitch = 0,
                        size_t slicePitch = 0) {
    return clEnqueueReadImage(queue_, image, CL_TRUE, origin.data(), region.data(), rowPitch, slicePitch, host.data(),
                              0, nullptr, nullptr);
  };
  EXPECT_CL_SUCCESS(readRegion({0, 0, 0}, {8, 4, 1}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, readRegion({1, 0, 0}, {8, 4, 1}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, readRegion({0, 4, 0}, {1, 1, 1}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, readRegion({0, 0, 1}, {1, 1, 1}));  // a 2D image has no z
  EXPECT_CL_ERROR(CL_INVALID_VALUE, readRegion({0, 0, 0}, {1, 1, 2}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, readRegion({0, 0, 0}, {0, 1, 1}));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, readRegion({0, 0, 0}, {8, 4, 1}, 8 * 4 - 1));  // a row pitch shorter than a row
  EXPECT_CL_ERROR(CL_INVALID_VALUE, readRegion({0, 0, 0}, {8, 4, 1}, 0, 1024));    // a slice pitch for a 2D image
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueReadImage(queue_, image, CL_TRUE, std::array<size_t, 3>{}.data(),
                                     std::array<size_t, 3>{1, 1, 1}.data(), 0, 0, nullptr, 0, nullptr, nullptr));
  Image oneDimensional = createImage(format, {CL_MEM_OBJECT_IMAGE1D, 16});
  ASSERT_TRUE(oneDimensional.get());
  const std::array<size_t, 3> origin{0, 0, 0}, tall{4, 2, 1};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueWriteImage(queue_, oneDimensional, CL_TRUE, origin.data(), tall.data(), 0,
                                                        0, host.data(), 0, nullptr, nullptr));
  const cl_float4 color{};
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueFillImage(queue_, image, &color, origin.data(),
                                                       std::array<size_t, 3>{9, 1, 1}.data(), 0, nullptr, nullptr));
  Buffer buffer = createBuffer(64);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueCopyImageToBuffer(queue_, image, buffer, origin.data(),
                                                               std::array<size_t, 3>{8, 1, 1}.data(), 40, 0, nullptr,
                                                               nullptr));  // 32 bytes at 40 of 64
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT,
                  clEnqueueReadImage(queue_, buffer, CL_TRUE, origin.data(), std::array<size_t, 3>{1, 1, 1}.data(), 0,
                                     0, host.data(), 0, nullptr, nullptr));
}

// A valid format the device does not list for 2D images, if there is one.
std::optional<cl_image_format> unsupportedFormat(const std::vector<cl_image_format>& supported) {
  const cl_image_format kCandidates[] = {
      {CL_RG, CL_FLOAT},
      {CL_RA, CL_UNORM_INT8},
      {CL_LUMINANCE, CL_FLOAT},
      {CL_INTENSITY, CL_UNORM_INT8},
      {CL_RGB, CL_UNORM_SHORT_565},
      {CL_RGBx, CL_UNORM_INT8},
      {CL_ABGR, CL_UNORM_INT8},
      {CL_sRGBA, CL_UNORM_INT8},
      {CL_A, CL_FLOAT},
      {CL_RGB, CL_UNORM_INT_101010},
      {CL_Rx, CL_SIGNED_INT8},
      {CL_R, CL_SNORM_INT16},
  };
  for (const cl_image_format& candidate : kCandidates) {
    bool listed = false;
    for (const cl_image_format& format : supported) listed = listed || imageref::sameFormat(format, candidate);
    if (!listed) return candidate;
  }
  return std::nullopt;
}

TEST_F(IcdImageHost, CreationWithAnUnsupportedFormatIsFormatNotSupported) {
  std::optional<cl_image_format> format = unsupportedFormat(supportedFormats(CL_MEM_READ_WRITE, CL_MEM_OBJECT_IMAGE2D));
  if (!format) GTEST_SKIP() << "every candidate format is supported";
  EXPECT_CL_ERROR(CL_IMAGE_FORMAT_NOT_SUPPORTED, createStatus(&*format, kImage2d)) << formatName(*format);
}

// Formats OpenCL does not define: orders with types they do not take, unknown values, none.
TEST_F(IcdImageHost, CreationWithAnUndefinedFormatIsInvalidFormatDescriptor) {
  const cl_image_format kInvalidFormats[] = {
      {CL_RGB, CL_UNORM_INT8},       {CL_BGRA, CL_UNORM_INT16}, {CL_INTENSITY, CL_UNSIGNED_INT8},
      {CL_RGBA, CL_UNORM_SHORT_565}, {0x7777, CL_FLOAT},        {CL_RGBA, 0x7777}};
  for (const cl_image_format& format : kInvalidFormats) {
    EXPECT_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, createStatus(&format, kImage2d)) << formatName(format);
  }
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR, createStatus(nullptr, kImage2d));
}

// An extent of zero is not valid, nor one beyond the device's limits (OpenCL 3.0.17+: "if the image
// dimensions specified in image_desc are not valid or exceed the maximum").
TEST_F(IcdImageHost, CreationWithAZeroOrTooLargeExtentIsInvalidImageSize) {
  const size_t max2dWidth = deviceInfo<size_t>(device_, CL_DEVICE_IMAGE2D_MAX_WIDTH);
  const size_t max2dHeight = deviceInfo<size_t>(device_, CL_DEVICE_IMAGE2D_MAX_HEIGHT);
  const size_t max3dDepth = deviceInfo<size_t>(device_, CL_DEVICE_IMAGE3D_MAX_DEPTH);
  const size_t maxLayers = deviceInfo<size_t>(device_, CL_DEVICE_IMAGE_MAX_ARRAY_SIZE);
  const ImageShape kBadSizes[] = {
      {CL_MEM_OBJECT_IMAGE2D, 0, 4},
      {CL_MEM_OBJECT_IMAGE2D, 8, 0},
      {CL_MEM_OBJECT_IMAGE3D, 4, 4, 0},
      {CL_MEM_OBJECT_IMAGE2D, max2dWidth + 1, 1},
      {CL_MEM_OBJECT_IMAGE2D, 1, max2dHeight + 1},
      {CL_MEM_OBJECT_IMAGE1D, max2dWidth + 1},
      {CL_MEM_OBJECT_IMAGE3D, 1, 1, max3dDepth + 1},
      {CL_MEM_OBJECT_IMAGE2D_ARRAY, 1, 1, maxLayers + 1},
      {CL_MEM_OBJECT_IMAGE1D_ARRAY, 1, maxLayers + 1},
  };
  for (const ImageShape& shape : kBadSizes) {
    EXPECT_CL_ERROR(CL_INVALID_IMAGE_SIZE, createStatus(&kRgba, shape.desc())) << shape.name();
  }
}

TEST_F(IcdImageHost, CreationWithAnInvalidDescriptorIsInvalidImageDescriptor) {
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, createStatus(&kRgba, std::nullopt));
  std::vector<uint8_t> host(1 << 16);
  cl_image_desc desc = kImage2d;
  desc.image_type = CL_MEM_OBJECT_BUFFER;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, createStatus(&kRgba, desc)) << "a buffer type";
  desc = kImage2d;
  desc.image_row_pitch = 64;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, createStatus(&kRgba, desc)) << "a row pitch without host memory";
  desc.image_row_pitch = 8 * 4 - 4;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, createStatus(&kRgba, desc, CL_MEM_COPY_HOST_PTR, host.data()))
      << "a row pitch shorter than a row";
  desc.image_row_pitch = 8 * 4 + 2;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, createStatus(&kRgba, desc, CL_MEM_COPY_HOST_PTR, host.data()))
      << "a row pitch that is not a whole number of texels";
  desc = ImageShape{CL_MEM_OBJECT_IMAGE3D, 8, 4, 2}.desc();
  desc.image_row_pitch = 32;
  desc.image_slice_pitch = 32 * 4 - 32;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, createStatus(&kRgba, desc, CL_MEM_COPY_HOST_PTR, host.data()))
      << "a slice pitch shorter than a slice";
  desc.image_slice_pitch = 32 * 4 + 16;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, createStatus(&kRgba, desc, CL_MEM_COPY_HOST_PTR, host.data()))
      << "a slice pitch that is not a whole number of rows";
  Buffer buffer = createBuffer(1024);
  desc = ImageShape{CL_MEM_OBJECT_IMAGE3D, 4, 4, 4}.desc();
  desc.buffer = buffer;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, createStatus(&kRgba, desc)) << "a buffer under a 3D image";
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR,
                  createStatus(&kRgba, ImageShape{CL_MEM_OBJECT_IMAGE1D_BUFFER, 16}.desc()))
      << "a 1D buffer image without its buffer";
}

// num_mip_levels and num_samples must be 0 (without cl_khr_mipmap_image).
TEST_F(IcdImageHost, CreationWithMipLevelsOrSamplesIsInvalidImageDescriptor) {
  if (hasExtension("cl_khr_mipmap_image")) GTEST_SKIP() << "cl_khr_mipmap_image allows mip levels";
  cl_image_desc desc = kImage2d;
  desc.num_mip_levels = 1;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, createStatus(&kRgba, desc)) << "mip levels";
  desc = kImage2d;
  desc.num_samples = 1;
  EXPECT_CL_ERROR(CL_INVALID_IMAGE_DESCRIPTOR, createStatus(&kRgba, desc)) << "samples";
}

TEST_F(IcdImageHost, CreationWithHostMemoryTheFlagsDoNotMatchIsInvalidHostPtr) {
  std::vector<uint8_t> host(1 << 12);
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR, createStatus(&kRgba, kImage2d, CL_MEM_USE_HOST_PTR));
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR, createStatus(&kRgba, kImage2d, CL_MEM_COPY_HOST_PTR));
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR, createStatus(&kRgba, kImage2d, CL_MEM_READ_WRITE, host.data()));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, createStatus(&kRgba, kImage2d, CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY));
}

// An image argument takes an image of its own type, not a buffer or another type; a buffer
// argument takes no image; an image the kernel may not access as it declares is an invalid value.
TEST_F(IcdImageHost, KernelArgumentsTakeOnlyImagesOfTheirType) {
  Program program = buildSource(kArgumentKernels);
  ASSERT_TRUE(program.get());
  Kernel reader = createKernel(program, "read_2d"), writer = createKernel(program, "write_2d");
  ASSERT_TRUE(reader.get() && writer.get());
  const cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  Image image2d = createImage(format, {CL_MEM_OBJECT_IMAGE2D, 4, 4});
  Image image3d = createImage(format, {CL_MEM_OBJECT_IMAGE3D, 4, 4, 4});
  Image array2d = createImage(format, {CL_MEM_OBJECT_IMAGE2D_ARRAY, 4, 4, 2});
  Image image1d = createImage(format, {CL_MEM_OBJECT_IMAGE1D, 4});
  Image writeOnly = createImage(format, {CL_MEM_OBJECT_IMAGE2D, 4, 4}, CL_MEM_WRITE_ONLY);
  Image readOnly = createImage(format, {CL_MEM_OBJECT_IMAGE2D, 4, 4}, CL_MEM_READ_ONLY);
  ASSERT_TRUE(image2d.get() && image3d.get() && array2d.get() && image1d.get() && writeOnly.get() && readOnly.get());
  Buffer buffer = createBuffer(256);

  EXPECT_CL_SUCCESS(clSetKernelArg(reader, 0, sizeof(cl_mem), image2d.address()));
  EXPECT_CL_SUCCESS(clSetKernelArg(reader, 0, sizeof(cl_mem), readOnly.address()));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(reader, 0, sizeof(cl_mem), buffer.address()));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(reader, 0, sizeof(cl_mem), image3d.address()));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(reader, 0, sizeof(cl_mem), array2d.address()));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(reader, 0, sizeof(cl_mem), image1d.address()));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(reader, 0, sizeof(cl_mem), nullptr));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(reader, 0, sizeof(cl_mem) / 2, image2d.address()));
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArg(reader, 0, sizeof(cl_mem), writeOnly.address()));
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(reader, 1, sizeof(cl_mem), image2d.address()));
  EXPECT_CL_SUCCESS(clSetKernelArg(reader, 1, sizeof(cl_mem), buffer.address()));

  EXPECT_CL_SUCCESS(clSetKernelArg(writer, 0, sizeof(cl_mem), writeOnly.address()));
  EXPECT_CL_ERROR(CL_INVALID_ARG_VALUE, clSetKernelArg(writer, 0, sizeof(cl_mem), readOnly.address()));
}

}  // namespace
}  // namespace cl2vk::test
