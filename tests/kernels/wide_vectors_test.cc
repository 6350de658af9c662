// Kernels on vectors of 8 and 16 components (spirv/kernels/wide_vectors.cl), which lower-wide-vectors
// splits into 4-component parts, each compared with the same computation on the CPU.

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <random>

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class WideVectors : public KernelTest {};

template <typename T>
std::vector<T> randomValues(size_t n, uint32_t seed, T low, T high) {
  std::mt19937_64 random(seed);
  std::vector<T> values(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> dist(low, high);
    for (T& v : values) v = dist(random);
  } else {
    std::uniform_int_distribution<int64_t> dist(low, high);
    for (T& v : values) v = static_cast<T>(dist(random));
  }
  return values;
}

// Integer arithmetic as the device does it: wrapping, on the 32-bit pattern.
int32_t wrap(int64_t value) { return static_cast<int32_t>(static_cast<uint32_t>(value)); }

TEST_P(WideVectors, Float16ArithmeticSwizzlesAndAByValueArgument) {
  auto k = kernel("wide_vectors", "wide_float16");
  ASSERT_TRUE(k);
  const size_t n = 50;
  auto a = randomValues<float>(16 * n, 1, -10.0f, 10.0f), b = randomValues<float>(16 * n, 2, -10.0f, 10.0f);
  std::array<float, 16> scale;
  for (int c = 0; c < 16; ++c) scale[c] = 0.5f + 0.25f * static_cast<float>(c);
  auto da = buffer(a), db = buffer(b), dout = buffer(std::vector<float>(16 * n, 0.0f));
  run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::value(scale), KernelArg::buffer(dout)});
  auto out = read<float>(dout, 16 * n);
  for (size_t i = 0; i < n; ++i) {
    const float* x = &a[16 * i];
    const float* y = &b[16 * i];
    std::array<float, 16> r, expected;
    for (int c = 0; c < 16; ++c) r[c] = x[c] * scale[c] + y[c];
    expected = r;
    for (int c = 0; c < 4; ++c) expected[c] = r[3 - c] - y[c];
    for (int c = 8; c < 16; ++c) expected[c] = r[c] * 2.0f;
    for (int c = 0; c < 16; ++c) {
      // x * scale + y may be contracted into one fused multiply-add: allow its rounding.
      float bound = 4e-7f * (std::fabs(x[c] * scale[c]) + std::fabs(y[c]) + 1.0f) * 4.0f;
      ASSERT_NEAR(out[16 * i + c], expected[c], bound) << i << "." << c;
    }
  }
}

TEST_P(WideVectors, Float8MathThroughVload8AndVstore8) {
  auto k = kernel("wide_vectors", "wide_float8_math");
  ASSERT_TRUE(k);
  const size_t n = 40;
  auto a = randomValues<float>(8 * n, 3, -5.0f, 5.0f);
  auto da = buffer(a), dout = buffer(std::vector<float>(24 * n, 0.0f));
  run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout)});
  auto out = read<float>(dout, 24 * n);
  for (size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 8; ++c) {
      float x = a[8 * i + c];
      ASSERT_EQ(out[24 * i + c], std::fmax(std::fabs(x), 1.5f) + (std::floor(x) + std::fmin(x, 3.0f))) << i << "." << c;
      ASSERT_EQ(out[24 * i + 8 + c], std::clamp(x, -2.0f, 2.0f)) << i << "." << c;
      ASSERT_EQ(out[24 * i + 16 + c], x < 0 ? -x : x) << i << "." << c;
    }
  }
}

TEST_P(WideVectors, Int16ShuffledSwizzlesIntegerFunctionsAndAnyAll) {
  auto k = kernel("wide_vectors", "wide_int16");
  ASSERT_TRUE(k);
  const size_t n = 33;
  const int shift = 3;
  auto a = randomValues<int32_t>(16 * n, 4, -1000, 1000);
  for (size_t c = 0; c < 16; ++c) a[16 * 5 + c] = static_cast<int32_t>(c) + 1;  // a row without negatives
  auto da = buffer(a), dout = buffer(std::vector<int32_t>(32 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout), KernelArg::value(shift)});
  auto out = read<int32_t>(dout, 32 * n);
  for (size_t i = 0; i < n; ++i) {
    const int32_t* x = &a[16 * i];
    std::array<int32_t, 16> y, z, w;
    for (int c = 0; c < 16; ++c) y[c] = wrap(int64_t{x[c]} * (1 << shift)) ^ x[15 - c];
    for (int c = 0; c < 16; ++c) {
      int d = (c + 8) % 16;
      uint32_t absDiff = static_cast<uint32_t>(std::llabs(int64_t{x[d]} - y[d]));
      z[c] = wrap(int64_t{std::max(y[c], x[c])} + static_cast<int32_t>(absDiff));
    }
    for (int m = 0; m < 8; ++m) z[2 * m + 1] = wrap(int64_t{z[2 * m]} - x[m]);
    bool anyNegative = std::any_of(x, x + 16, [](int32_t v) { return v < 0; });
    for (int c = 0; c < 16; ++c) w[c] = std::clamp(x[c], -100, 100) + (x[c] > y[c] ? 7 : -7);
    w[7] = anyNegative ? 11 : 13;
    w[8] = 17;  // all of x.lo > -1000000
    for (int c = 0; c < 16; ++c) {
      ASSERT_EQ(out[32 * i + c], z[c]) << i << ".z" << c;
      ASSERT_EQ(out[32 * i + 16 + c], w[c]) << i << ".w" << c;
    }
  }
}

TEST_P(WideVectors, Int8EvenOddDynamicIndexAndConversionToFloat8) {
  auto k = kernel("wide_vectors", "wide_int8");
  ASSERT_TRUE(k);
  const size_t n = 45;
  const int factor = -7;
  auto a = randomValues<int32_t>(8 * n, 5, -100000, 100000);
  auto da = buffer(a), dout = buffer(std::vector<int32_t>(8 * n, 0)), dconv = buffer(std::vector<float>(8 * n, 0.0f));
  run(*k, range1d(n),
      {KernelArg::buffer(da), KernelArg::buffer(dout), KernelArg::buffer(dconv), KernelArg::value(factor)});
  auto out = read<int32_t>(dout, 8 * n);
  auto conv = read<float>(dconv, 8 * n);
  const int oddOrder[8] = {7, 7, 5, 5, 3, 3, 1, 1};
  for (size_t i = 0; i < n; ++i) {
    const int32_t* x = &a[8 * i];
    for (int c = 0; c < 8; ++c) {
      int32_t y = c == 5 ? x[i % 8] : x[2 * (c % 4)] * factor - x[oddOrder[c]] / 3;
      ASSERT_EQ(out[8 * i + c], y) << i << "." << c;
      ASSERT_EQ(conv[8 * i + c], static_cast<float>(y) * 0.5f) << i << "." << c;
    }
  }
}

TEST_P(WideVectors, Uchar16SaturationRotationAndBitsAsUint4) {
  auto k = kernel("wide_vectors", "wide_uchar16");
  ASSERT_TRUE(k);
  const size_t n = 30;
  auto a = randomValues<uint8_t>(16 * n, 6, 0, 255);
  auto da = buffer(a), dout = buffer(std::vector<uint8_t>(16 * n, 0)), dbits = buffer(std::vector<uint32_t>(4 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout), KernelArg::buffer(dbits)});
  auto out = read<uint8_t>(dout, 16 * n);
  auto bits = read<uint32_t>(dbits, 4 * n);
  for (size_t i = 0; i < n; ++i) {
    std::array<uint8_t, 16> y;
    for (int c = 0; c < 16; ++c) {
      uint32_t x = a[16 * i + c];
      uint32_t saturated = std::min(x + 200u, 255u);
      uint32_t rotated = ((x << 3) | (x >> 5)) & 0xff;
      y[c] = static_cast<uint8_t>(saturated + rotated);
      ASSERT_EQ(out[16 * i + c], y[c]) << i << "." << c;
    }
    for (int w = 0; w < 4; ++w) {
      uint32_t word;
      std::memcpy(&word, &y[4 * w], 4);
      ASSERT_EQ(bits[4 * i + w], word + 1) << i << "." << w;
    }
  }
}

// Byte loads at constant offsets from an address that is not a multiple of 4: on devices without
// 8-bit storage or 64-bit integers each is address arithmetic on a word, which fold-integer-constants
// and lower-int64 make constant offsets.
TEST_P(WideVectors, Char16FromVloadsAtOddConstantOffsets) {
  auto k = kernel("wide_vectors", "char16_from_vloads");
  ASSERT_TRUE(k);
  const size_t n = 37;
  auto src = randomValues<int8_t>(19 * n, 11, -128, 127);
  auto dsrc = buffer(src), dout = buffer(std::vector<int8_t>(16 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(dsrc), KernelArg::buffer(dout)});
  auto out = read<int8_t>(dout, 16 * n);
  const std::array<size_t, 16> offsets = {3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 1};
  for (size_t i = 0; i < n; ++i) {
    for (size_t c = 0; c < 16; ++c) ASSERT_EQ(out[16 * i + c], src[19 * i + offsets[c]]) << i << "." << c;
  }
}

TEST_P(WideVectors, Ushort8ShiftsMadSatAndPopcount) {
  auto k = kernel("wide_vectors", "wide_ushort8");
  ASSERT_TRUE(k);
  const size_t n = 30;
  auto a = randomValues<uint16_t>(8 * n, 7, 0, 65535);
  auto da = buffer(a), dout = buffer(std::vector<uint16_t>(8 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout)});
  auto out = read<uint16_t>(dout, 8 * n);
  for (size_t i = 0; i < 8 * n; ++i) {
    uint32_t x = a[i];
    uint32_t y = (x >> 2) | 0x8001;
    uint32_t madSat = std::min(x * 3 + y, 65535u);
    ASSERT_EQ(out[i], static_cast<uint16_t>(madSat + static_cast<uint32_t>(std::popcount(x)))) << i;
  }
}

TEST_P(WideVectors, Long8ArithmeticAndHalves) {
  auto k = kernel("wide_vectors", "wide_long8");
  ASSERT_TRUE(k);
  const size_t n = 30;
  auto a = randomValues<int64_t>(8 * n, 8, -(int64_t{1} << 50), int64_t{1} << 50);
  auto da = buffer(a), dout = buffer(std::vector<int64_t>(8 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout)});
  auto out = read<int64_t>(dout, 8 * n);
  const int64_t factors[8] = {3, -5, 7, -9, 11, -13, 15, -17};
  for (size_t i = 0; i < n; ++i) {
    const int64_t* x = &a[8 * i];
    int64_t y[8];
    for (int c = 0; c < 8; ++c) y[c] = x[c] * factors[c] + (x[c] >> 3);
    for (int c = 0; c < 4; ++c) {
      ASSERT_EQ(out[8 * i + c], y[c]) << i << "." << c;
      ASSERT_EQ(out[8 * i + 4 + c], std::min(y[4 + c], x[c])) << i << "." << (4 + c);
    }
  }
}

TEST_P(WideVectors, Double8FmaFloorCopysignSqrt) {
  if (!sharedDevice().info().features.shaderFloat64)
    GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  auto k = kernel("wide_vectors_double", "wide_double8");
  ASSERT_TRUE(k);
  const size_t n = 30;
  auto a = randomValues<double>(8 * n, 9, -50.0, 50.0);
  auto da = buffer(a), dout = buffer(std::vector<double>(8 * n, 0.0));
  run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout)});
  auto out = read<double>(dout, 8 * n);
  for (size_t i = 0; i < 8 * n; ++i) {
    double x = a[i];
    double expected = std::fma(x, x, 0.25) - std::copysign(std::floor(x), -x) + std::sqrt(std::fabs(x));
    // fma may be unfused and sqrt is not correctly rounded on Vulkan (docs/precision.md).
    ASSERT_NEAR(out[i], expected, 1e-12 * (x * x + 100.0)) << i;
  }
}

TEST_P(WideVectors, ConvertInt8FromFloat8PlainAndSaturatedAndShort16) {
  auto k = kernel("wide_vectors", "wide_convert");
  ASSERT_TRUE(k);
  const size_t n = 30;
  auto a = randomValues<float>(8 * n, 10, -3000.0f, 3000.0f);
  a[3] = 5e6f;    // x * 1000 saturates to INT_MAX
  a[12] = -7e6f;  // and to INT_MIN
  a[17] = 2.5e-3f;
  auto da = buffer(a), dout = buffer(std::vector<int32_t>(8 * n, 0)), dnarrow = buffer(std::vector<int16_t>(16 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout), KernelArg::buffer(dnarrow)});
  auto out = read<int32_t>(dout, 8 * n);
  auto narrow = read<int16_t>(dnarrow, 16 * n);
  for (size_t i = 0; i < n; ++i) {
    int32_t truncated[8];
    for (int c = 0; c < 8; ++c) {
      float x = a[8 * i + c];
      truncated[c] = static_cast<int32_t>(x);
      float scaled = x * 1000.0f;
      int64_t saturated = scaled >= 2147483647.0f    ? std::numeric_limits<int32_t>::max()
                          : scaled <= -2147483648.0f ? std::numeric_limits<int32_t>::min()
                                                     : static_cast<int64_t>(std::nearbyint(scaled));
      ASSERT_EQ(out[8 * i + c], wrap(int64_t{truncated[c]} + saturated)) << i << "." << c;
    }
    for (int c = 0; c < 8; ++c) {
      ASSERT_EQ(narrow[16 * i + c], static_cast<int16_t>(truncated[c])) << i << "." << c;
      ASSERT_EQ(narrow[16 * i + 8 + c], static_cast<int16_t>(truncated[7 - c] + 1)) << i << "." << (8 + c);
    }
  }
}

TEST_P(WideVectors, LocalFloat16ArrayAndArgumentAcrossABarrier) {
  auto k = kernel("wide_vectors", "wide_local");
  ASSERT_TRUE(k);
  const size_t n = 64;
  const uint32_t local = 8;
  auto a = randomValues<float>(16 * n, 11, -100.0f, 100.0f);
  auto da = buffer(a), dout = buffer(std::vector<float>(16 * n, 0.0f));
  run(*k, range1d(n, local), {KernelArg::buffer(da), KernelArg::buffer(dout), KernelArg::local(64 * local)});
  auto out = read<float>(dout, 16 * n);
  for (size_t i = 0; i < n; ++i) {
    size_t other = i / local * local + (i % local + 1) % local;
    for (int c = 0; c < 16; ++c) {
      float x = a[16 * other + c];
      ASSERT_EQ(out[16 * i + c], x * 2.0f + (x + 1.0f)) << i << "." << c;  // the doubling is exact
    }
  }
}

// The host's layout of wide_in_structs' structs: each wide vector aligned to its size.
struct alignas(8) CharsAfterAChar {
  int8_t c;
  alignas(8) std::array<int8_t, 8> v;
  int16_t s;
};
static_assert(sizeof(CharsAfterAChar) == 24 && offsetof(CharsAfterAChar, v) == 8 && offsetof(CharsAfterAChar, s) == 16);
struct alignas(64) IntsAfterAShort3 {
  std::array<int16_t, 4> t;
  alignas(64) std::array<int32_t, 16> v;
  int8_t tail;
};
static_assert(sizeof(IntsAfterAShort3) == 192 && offsetof(IntsAfterAShort3, v) == 64 &&
              offsetof(IntsAfterAShort3, tail) == 128);

TEST_P(WideVectors, VectorsInStructsKeepOpenclCLayout) {
  auto k = kernel("wide_vectors", "wide_in_structs");
  ASSERT_TRUE(k);
  const size_t n = 32;
  std::vector<CharsAfterAChar> a(n);
  std::vector<IntsAfterAShort3> b(n);
  std::mt19937 random(23);
  for (size_t i = 0; i < n; ++i) {
    a[i].c = static_cast<int8_t>(random() % 50);
    for (auto& x : a[i].v) x = static_cast<int8_t>(random() % 60 - 30);
    a[i].s = static_cast<int16_t>(random() % 1000);
    for (auto& x : b[i].t) x = static_cast<int16_t>(random());
    for (auto& x : b[i].v) x = static_cast<int32_t>(random() % 100000);
    b[i].tail = static_cast<int8_t>(random() % 100);
  }
  auto da = buffer(a), db = buffer(b), dwhere = buffer(std::vector<uint32_t>(4 * n, 99));
  run(*k, range1d(n, 4), {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dwhere)});
  auto outA = read<CharsAfterAChar>(da, n);
  auto outB = read<IntsAfterAShort3>(db, n);
  auto where = read<uint32_t>(dwhere, 4 * n);
  for (size_t i = 0; i < n; ++i) {
    CharsAfterAChar p = a[i];
    for (auto& x : p.v) x = static_cast<int8_t>(x * 2 + p.c);
    p.s = static_cast<int16_t>(p.s + p.v[7]);
    EXPECT_EQ(outA[i].c, p.c) << i;
    EXPECT_EQ(outA[i].v, p.v) << i;
    EXPECT_EQ(outA[i].s, p.s) << i;
    const IntsAfterAShort3& from = b[i / 4 * 4 + (i % 4 + 1) % 4];
    std::array<int32_t, 16> v = from.v;
    for (auto& x : v) x += from.tail;
    for (int c = 0; c < 3; ++c) EXPECT_EQ(outB[i].t[c], from.t[c]) << i;  // t[3] is short3's padding
    EXPECT_EQ(outB[i].v, v) << i;
    EXPECT_EQ(outB[i].tail, static_cast<int8_t>(from.tail + 1)) << i;
    EXPECT_EQ(where[4 * i + 0], 8u) << "private member offset, item " << i;
    EXPECT_EQ(where[4 * i + 1], 0u) << "private member alignment, item " << i;
    EXPECT_EQ(where[4 * i + 2], 192 * (i % 4) + 64) << "local member offset, item " << i;
    EXPECT_EQ(where[4 * i + 3], 0u) << "local member alignment, item " << i;
  }
}

CL2VK_KERNEL_TEST_SUITE(WideVectors, "O0", "O2", "CL12", "CL30");

}  // namespace
}  // namespace cl2vk::test
