// The image record's narrow-offsets flag (docs/images.md): which images get 32-bit texel offsets,
// and a kernel reading and writing a 3D image with padded pitches (spirv/kernels/image_offsets.cl)
// giving the CPU's texels with the flag set (32-bit offsets, what every image below 4 GiB gets)
// and clear (64-bit offsets, the path of larger images, which no test machine could allocate).

#include <algorithm>
#include <cstring>
#include <random>

#include "cl2vk/reflection.h"
#include "kernel_test_util.h"
#include "launch/argument_block.h"

namespace cl2vk::test {
namespace {

using launch::imageOffsetsAreNarrow;
using launch::KernelArg;

TEST(ImageOffsetFlag, NarrowWhereTheLastTexelIsBelowFourGiB) {
  // 16384 x 16384 RGBA float: the last texel ends at exactly 2^32.
  EXPECT_TRUE(imageOffsetsAreNarrow({16384, 16384, 1}, 16, 16384 * 16, 0));
  EXPECT_FALSE(imageOffsetsAreNarrow({16384, 16385, 1}, 16, 16384 * 16, 0));
  EXPECT_FALSE(imageOffsetsAreNarrow({2048, 2048, 2048}, 4, 2048 * 4, 2048 * 2048 * 4));
  EXPECT_TRUE(imageOffsetsAreNarrow({2048, 2048, 255}, 4, 2048 * 4, 2048 * 2048 * 4));
  // A pitch along a dimension of one texel is never multiplied.
  EXPECT_TRUE(imageOffsetsAreNarrow({100, 1, 1}, 4, uint64_t{1} << 40, uint64_t{1} << 40));
  EXPECT_TRUE(imageOffsetsAreNarrow({8, 1, 1}, 4, uint64_t{1} << 32, 0));
  EXPECT_FALSE(imageOffsetsAreNarrow({8, 2, 1}, 4, uint64_t{1} << 32, 0));
  // Products that would wrap 64 bits are caught, not wrapped.
  EXPECT_FALSE(imageOffsetsAreNarrow({uint64_t{1} << 40, 1, 1}, uint64_t{1} << 30, 0, 0));
  EXPECT_FALSE(imageOffsetsAreNarrow({2, 1 << 20, 1 << 20}, 1, 1 << 12, uint64_t{1} << 31));
}

class ImageOffsets : public KernelTest {};

constexpr uint32_t kClRgba = 0x10B5;       // CL_RGBA
constexpr uint32_t kClUnormInt8 = 0x10D2;  // CL_UNORM_INT8

// The 48-byte image record (ImageRecordLayout) of an RGBA8 image at `address`.
KernelArg imageRecord(uint64_t address, uint32_t width, uint32_t height, uint32_t depth, uint32_t rowPitch,
                      uint64_t slicePitch, bool narrow) {
  KernelArg arg;
  arg.bytes.resize(ImageRecordLayout::kBytes);
  uint32_t fields[8] = {width, height, depth, 1, rowPitch, kClRgba, kClUnormInt8, narrow ? 1u : 0u};
  std::memcpy(arg.bytes.data() + ImageRecordLayout::kData, &address, 8);
  std::memcpy(arg.bytes.data() + ImageRecordLayout::kSlicePitch, &slicePitch, 8);
  std::memcpy(arg.bytes.data() + ImageRecordLayout::kSize, fields, sizeof fields);
  return arg;
}

TEST_P(ImageOffsets, ThirtyTwoAndSixtyFourBitOffsetsReachTheSameTexels) {
  constexpr uint32_t kWidth = 7, kHeight = 5, kDepth = 3;
  constexpr uint32_t kRowPitch = kWidth * 4 + 12;             // padded rows
  constexpr uint64_t kSlicePitch = kRowPitch * kHeight + 64;  // and slices
  constexpr size_t kBytes = kSlicePitch * kDepth;
  std::mt19937 random(7);
  std::vector<uint8_t> texels(kBytes);
  for (uint8_t& byte : texels) byte = static_cast<uint8_t>(random());
  auto texel = [&](const std::vector<uint8_t>& image, uint32_t x, uint32_t y, uint32_t z) {
    return &image[z * kSlicePitch + y * kRowPitch + x * 4];
  };
  auto k = kernel("image_offsets", "image_offsets");
  ASSERT_TRUE(k);
  for (bool narrow : {true, false}) {
    SCOPED_TRACE(narrow ? "32-bit offsets" : "64-bit offsets");
    vulkan::Buffer in = buffer(texels);
    vulkan::Buffer out = buffer(std::vector<uint8_t>(kBytes, 0));
    vulkan::Buffer sampled = buffer(std::vector<float>(kWidth * kHeight * kDepth * 4, -1.0f));
    launch::NDRange range;
    range.dimensions = 3;
    range.globalSize = {kWidth, kHeight, kDepth};
    run(*k, range,
        {imageRecord(in.deviceAddress(), kWidth, kHeight, kDepth, kRowPitch, kSlicePitch, narrow),
         imageRecord(out.deviceAddress(), kWidth, kHeight, kDepth, kRowPitch, kSlicePitch, narrow),
         KernelArg::buffer(sampled)});
    std::vector<float> values = read<float>(sampled, kWidth * kHeight * kDepth * 4);
    std::vector<uint8_t> written = read<uint8_t>(out, kBytes);
    std::vector<uint8_t> expected(kBytes, 0);
    size_t wrong = 0;
    for (uint32_t z = 0; z < kDepth; ++z) {
      for (uint32_t y = 0; y < kHeight; ++y) {
        for (uint32_t x = 0; x < kWidth; ++x) {
          // The neighbour (x + 1, y - 1, z + 1), clamped to the edge.
          const uint8_t* source =
              texel(texels, std::min(x + 1, kWidth - 1), y == 0 ? 0 : y - 1, std::min(z + 1, kDepth - 1));
          const float* value = &values[((z * kHeight + y) * kWidth + x) * 4];
          for (int c = 0; c < 4; ++c) {
            float reference = static_cast<float>(source[c]) * (1.0f / 255.0f);
            if (value[c] != reference && wrong++ < 8)
              ADD_FAILURE() << "texel (" << x << ", " << y << ", " << z << ") channel " << c << ": read " << value[c]
                            << ", expected " << reference;
          }
          uint8_t* target = &expected[z * kSlicePitch + y * kRowPitch + x * 4];
          for (int c = 0; c < 4; ++c) target[c] = source[3 - c];
        }
      }
    }
    // Every texel written where it belongs, the padding between rows and slices untouched.
    for (size_t i = 0; i < kBytes; ++i) {
      if (written[i] != expected[i] && wrong++ < 16)
        ADD_FAILURE() << "byte " << i << " of the written image: " << int{written[i]} << ", expected "
                      << int{expected[i]};
    }
    EXPECT_EQ(wrong, 0u);
  }
}

CL2VK_KERNEL_TEST_SUITE(ImageOffsets, "O0", "O2", "CL12");

}  // namespace
}  // namespace cl2vk::test
