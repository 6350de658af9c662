// The CPU reference of the image tests (image_reference.h) against values worked out by hand from
// the specifications, for what no device at hand checks it against: the packed and sRGB formats,
// the channel orders that replicate or reorder, half rounding, and the addressing of the repeats.
// It needs no OpenCL device.

#include <gtest/gtest.h>

#include <cmath>

#include "icd/image_reference.h"

namespace cl2vk::test::imageref {
namespace {

std::vector<uint8_t> bytes(std::initializer_list<int> values) {
  return std::vector<uint8_t>(values.begin(), values.end());
}

TEST(ImageReference, ChannelOrdersPlaceTheStoredChannels) {
  const std::vector<uint8_t> texel = bytes({1, 2, 3, 4});
  EXPECT_EQ(decodeInteger({CL_RGBA, CL_UNSIGNED_INT8}, texel.data()), (Int4{1, 2, 3, 4}));
  EXPECT_EQ(decodeInteger({CL_BGRA, CL_UNSIGNED_INT8}, texel.data()), (Int4{3, 2, 1, 4}));
  EXPECT_EQ(decodeInteger({CL_ARGB, CL_UNSIGNED_INT8}, texel.data()), (Int4{2, 3, 4, 1}));
  EXPECT_EQ(decodeInteger({CL_ABGR, CL_UNSIGNED_INT8}, texel.data()), (Int4{4, 3, 2, 1}));
  EXPECT_EQ(decodeInteger({CL_R, CL_UNSIGNED_INT8}, texel.data()), (Int4{1, 0, 0, 1}));
  EXPECT_EQ(decodeInteger({CL_A, CL_UNSIGNED_INT8}, texel.data()), (Int4{0, 0, 0, 1}));
  EXPECT_EQ(decodeInteger({CL_RA, CL_UNSIGNED_INT8}, texel.data()), (Int4{1, 0, 0, 2}));
  EXPECT_EQ(decodeInteger({CL_Rx, CL_UNSIGNED_INT8}, texel.data()), (Int4{1, 0, 0, 1}));
  EXPECT_EQ(decodeInteger({CL_RGBA, CL_SIGNED_INT8}, bytes({0xff, 0x80, 0x7f, 0}).data()),
            (Int4{0xffffffff, 0xffffff80, 0x7f, 0}));
  EXPECT_EQ(decodeFloat({CL_INTENSITY, CL_UNORM_INT8}, bytes({51}).data()), (Float4{0.2, 0.2, 0.2, 0.2}));
  EXPECT_EQ(decodeFloat({CL_LUMINANCE, CL_UNORM_INT8}, bytes({51}).data()), (Float4{0.2, 0.2, 0.2, 1}));
  EXPECT_EQ(writtenComponents({CL_ARGB, CL_UNORM_INT8}), (std::vector<int>{3, 0, 1, 2}));
  EXPECT_EQ(writtenComponents({CL_RGBx, CL_UNORM_INT8}), (std::vector<int>{0, 1, 2, -1}));
  EXPECT_EQ(encodeInteger({CL_ABGR, CL_UNSIGNED_INT8}, {1, 2, 3, 4}), bytes({4, 3, 2, 1}));
}

// Fields from the most significant bit: 565 is R 15:11, G 10:5, B 4:0; 555 and 101010 leave
// their top bits undefined; 101010_2 has A in bits 1:0.
TEST(ImageReference, PackedFormatsKeepTheirFieldsWhereTheSpecificationPutsThem) {
  auto decode16 = [](cl_channel_type type, uint16_t element) {
    return decodeFloat({CL_RGB, type}, reinterpret_cast<const uint8_t*>(&element));
  };
  EXPECT_EQ(decode16(CL_UNORM_SHORT_565, 0xf800), (Float4{1, 0, 0, 1}));
  EXPECT_EQ(decode16(CL_UNORM_SHORT_565, 0x07e0), (Float4{0, 1, 0, 1}));
  EXPECT_EQ(decode16(CL_UNORM_SHORT_565, 0x0001), (Float4{0, 0, 1 / 31.0, 1}));
  EXPECT_EQ(decode16(CL_UNORM_SHORT_555, 0x8000 | 0x7c00), (Float4{1, 0, 0, 1}));
  const uint32_t element = (1023u << 20) | (512u << 10) | 1u | (3u << 30);
  EXPECT_EQ(decodeFloat({CL_RGB, CL_UNORM_INT_101010}, reinterpret_cast<const uint8_t*>(&element)),
            (Float4{1, 512 / 1023.0, 1 / 1023.0, 1}));
  const uint32_t withAlpha = (1023u << 22) | 2u;
  EXPECT_EQ(decodeFloat({CL_RGBA, CL_UNORM_INT_101010_2}, reinterpret_cast<const uint8_t*>(&withAlpha)),
            (Float4{1, 0, 0, 2 / 3.0}));
  EXPECT_EQ(encodeFloat({CL_RGB, CL_UNORM_SHORT_565}, {1, 0.5f, 0, 0.25f}), bytes({0x00, 0xfc}));  // G 31.5 to 32
  EXPECT_EQ(definedBits({CL_RGB, CL_UNORM_SHORT_555}), bytes({0xff, 0x7f}));
  EXPECT_EQ(definedBits({CL_RGB, CL_UNORM_INT_101010}), bytes({0xff, 0xff, 0xff, 0x3f}));
  EXPECT_FALSE(elementSize({CL_RGB, CL_UNORM_INT8}).has_value()) << "CL_RGB is for the packed types only";
  EXPECT_EQ(elementSize({CL_RGBx, CL_UNORM_SHORT_565}).value_or(0), 2u);
}

// Every stored value of the normalized 8-bit types reads as c / 255 (or c / 127, -128 as -1) and
// writes back to itself; sRGB the same through its curve.
TEST(ImageReference, NormalizedValuesRoundTrip) {
  for (int c = 0; c < 256; ++c) {
    const std::vector<uint8_t> texel = bytes({c, c, c, c});
    const Float4 unorm = decodeFloat({CL_RGBA, CL_UNORM_INT8}, texel.data());
    ASSERT_EQ(unorm[0], c / 255.0);
    const std::array<float, 4> color{static_cast<float>(unorm[0]), 0, 0, 0};
    ASSERT_EQ(encodeFloat({CL_RGBA, CL_UNORM_INT8}, color)[0], c);

    const Float4 srgb = decodeFloat({CL_sRGBA, CL_UNORM_INT8}, texel.data());
    ASSERT_EQ(srgb[3], c / 255.0) << "alpha is linear";
    const std::vector<uint8_t> encoded =
        encodeFloat({CL_sRGBA, CL_UNORM_INT8}, {static_cast<float>(srgb[0]), 0, 0, static_cast<float>(srgb[3])});
    ASSERT_EQ(encoded[0], c);
    ASSERT_EQ(encoded[3], c);

    const double snorm = decodeFloat({CL_R, CL_SNORM_INT8}, texel.data())[0];
    const int8_t stored = static_cast<int8_t>(c);
    ASSERT_EQ(snorm, stored == -128 ? -1.0 : stored / 127.0);
    ASSERT_EQ(static_cast<int8_t>(encodeFloat({CL_R, CL_SNORM_INT8}, {static_cast<float>(snorm), 0, 0, 0})[0]),
              stored == -128 ? -127 : stored);
  }
  EXPECT_NEAR(srgbToLinear(0.5), 0.214041, 1e-6);
  EXPECT_NEAR(linearToSrgb(0.214041), 0.5, 1e-6);
  // Saturation, and the float product's ties to even: 0.5f / 255 * 255 is 0.5 in float.
  EXPECT_EQ(encodeFloat({CL_R, CL_UNORM_INT8}, {2.0f, 0, 0, 0})[0], 255);
  EXPECT_EQ(encodeFloat({CL_R, CL_UNORM_INT8}, {-2.0f, 0, 0, 0})[0], 0);
  EXPECT_EQ(encodeFloat({CL_R, CL_SNORM_INT8}, {-2.0f, 0, 0, 0})[0], 0x80);
  EXPECT_EQ(encodeFloat({CL_R, CL_UNORM_INT8}, {0.5f / 255, 0, 0, 0})[0], 0);
  EXPECT_EQ(encodeFloat({CL_R, CL_UNORM_INT8}, {1.5f / 255, 0, 0, 0})[0], 2);
}

TEST(ImageReference, HalfConversionsRoundToNearestEven) {
  EXPECT_EQ(floatToHalf(1.0f), 0x3c00);
  EXPECT_EQ(floatToHalf(1 + std::ldexp(1.0f, -11)), 0x3c00);      // tie to even
  EXPECT_EQ(floatToHalf(1 + 3 * std::ldexp(1.0f, -11)), 0x3c02);  // tie to even
  EXPECT_EQ(floatToHalf(-(1 + 3 * std::ldexp(1.0f, -11))), 0xbc02);
  EXPECT_EQ(floatToHalf(65504.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65519.0f), 0x7bff);
  EXPECT_EQ(floatToHalf(65520.0f), 0x7c00);
  EXPECT_EQ(floatToHalf(std::ldexp(1.0f, -25)), 0x0000);      // half the smallest denormal: a tie to 0
  EXPECT_EQ(floatToHalf(3 * std::ldexp(1.0f, -25)), 0x0002);  // a tie to 2 steps
  EXPECT_EQ(floatToHalf(std::ldexp(1023.0f, -24) + std::ldexp(1.0f, -25)), 0x0400);  // up to the smallest normal
  EXPECT_EQ(floatToHalf(-0.0f), 0x8000);
  for (uint32_t half = 0; half < 0x10000; ++half) {
    if ((half & 0x7c00) == 0x7c00) continue;  // infinities and NaNs
    ASSERT_EQ(floatToHalf(static_cast<float>(halfToDouble(static_cast<uint16_t>(half)))), half) << std::hex << half;
  }
}

TEST(ImageReference, BorderColorsFollowOpenClC) {
  for (cl_channel_order order : {CL_A, CL_INTENSITY, CL_Rx, CL_RA, CL_RGx, CL_RGBx, CL_sRGBx, CL_ARGB, CL_BGRA, CL_ABGR,
                                 CL_RGBA, CL_sRGBA, CL_sBGRA}) {
    EXPECT_EQ(borderColor(order), (Float4{0, 0, 0, 0})) << orderName(order);
  }
  for (cl_channel_order order : {CL_R, CL_RG, CL_RGB, CL_LUMINANCE}) {
    EXPECT_EQ(borderColor(order), (Float4{0, 0, 0, 1})) << orderName(order);
  }
}

// Worked examples of "Image Addressing and Filtering" on 5 texels.
TEST(ImageReference, AddressingFollowsTheSpecificationsFormulas) {
  auto nearest = [](cl_addressing_mode mode, bool normalized, float coord) {
    return axisTaps({normalized, mode, CL_FILTER_NEAREST}, coord, 5).index[0];
  };
  EXPECT_EQ(nearest(CL_ADDRESS_CLAMP, false, -0.5f), -1);
  EXPECT_EQ(nearest(CL_ADDRESS_CLAMP, false, 7.0f), 5);
  EXPECT_EQ(nearest(CL_ADDRESS_CLAMP_TO_EDGE, false, 7.0f), 4);
  EXPECT_EQ(nearest(CL_ADDRESS_CLAMP_TO_EDGE, true, 0.5f), 2);
  EXPECT_EQ(nearest(CL_ADDRESS_REPEAT, true, -0.1f), 4);           // u = 0.9 * 5
  EXPECT_EQ(nearest(CL_ADDRESS_REPEAT, true, 2.3f), 1);            // u = 0.3 * 5
  EXPECT_EQ(nearest(CL_ADDRESS_MIRRORED_REPEAT, true, 1.1f), 4);   // |1.1 - 2| * 5 = 4.5
  EXPECT_EQ(nearest(CL_ADDRESS_MIRRORED_REPEAT, true, -0.3f), 1);  // |-0.3 - 0| * 5 = 1.5
  EXPECT_EQ(nearest(CL_ADDRESS_MIRRORED_REPEAT, true, 1.0f), 4);   // min(5, 4)
  const AxisTaps clamp = axisTaps({false, CL_ADDRESS_CLAMP, CL_FILTER_LINEAR}, 0.25f, 5);
  EXPECT_EQ(clamp.index, (std::array<int64_t, 2>{-1, 0}));
  EXPECT_EQ(clamp.weight, (std::array<double, 2>{0.25, 0.75}));
  const AxisTaps repeat = axisTaps({true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR}, 0.05f, 5);  // u = 0.25
  EXPECT_EQ(repeat.index, (std::array<int64_t, 2>{4, 0}));
  const AxisTaps mirrored = axisTaps({true, CL_ADDRESS_MIRRORED_REPEAT, CL_FILTER_LINEAR}, 0.95f, 5);  // u = 4.75
  EXPECT_EQ(mirrored.index, (std::array<int64_t, 2>{4, 4}));
  EXPECT_EQ(arrayLayer(0.5f, 4), 0u);
  EXPECT_EQ(arrayLayer(1.5f, 4), 2u);
  EXPECT_EQ(arrayLayer(2.5f, 4), 2u);
  EXPECT_EQ(arrayLayer(-3.0f, 4), 0u);
  EXPECT_EQ(arrayLayer(9.0f, 4), 3u);
}

}  // namespace
}  // namespace cl2vk::test::imageref
