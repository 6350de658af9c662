// Builtins, types and conversions on the Vulkan device against CPU references: exact for
// integers and for float operations that round once; stated tolerances elsewhere (Vulkan's
// precision, docs/precision.md).

#include <bit>
#include <cfenv>
#include <climits>
#include <cmath>
#include <limits>
#include <random>
#include <set>
#include <type_traits>

#include "ir/types.h"
#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class BuiltinKernels : public KernelTest {
 protected:
  const vulkan::DeviceFeatures& features() { return sharedDevice().info().features; }
};

std::vector<float> floatsIn(size_t n, uint32_t seed, float low, float high) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> dist(low, high);
  std::vector<float> values(n);
  for (float& v : values) v = dist(random);
  return values;
}

std::vector<int32_t> intsIn(size_t n, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<int32_t> values(n);
  for (int32_t& v : values) v = static_cast<int32_t>(random());
  const int32_t edges[] = {0, 1, -1, INT32_MIN, INT32_MAX, INT32_MIN + 1, 0x7fff, -0x8000};
  for (size_t i = 0; i < std::size(edges) && i < n; ++i) values[i] = edges[i];
  return values;
}

// |actual - expected| within `relative` of the larger magnitude, or within `absolute`.
::testing::AssertionResult near(double actual, double expected, double relative, double absolute = 0) {
  if (std::isnan(expected) && std::isnan(actual)) return ::testing::AssertionSuccess();
  double error = std::fabs(actual - expected);
  if (error <= absolute || error <= relative * std::max(std::fabs(actual), std::fabs(expected)))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << actual << " vs " << expected << " (error " << error << ")";
}

TEST_P(BuiltinKernels, SaxpyWithAScalarArgument) {
  auto k = kernel("saxpy", "saxpy");
  ASSERT_TRUE(k);
  const uint32_t n = 1000;
  auto x = floatsIn(n, 1, -10, 10), y = floatsIn(n, 2, -10, 10);
  auto dx = buffer(x), dy = buffer(y);
  run(*k, range1d(1024, 64),
      {KernelArg::value(2.5f), KernelArg::buffer(dx), KernelArg::buffer(dy), KernelArg::value(n)});
  auto out = read<float>(dy, n);
  // a * x + y may be fused (OpenCL allows contraction here): one rounding either way.
  for (uint32_t i = 0; i < n; ++i) ASSERT_TRUE(near(out[i], 2.5 * x[i] + y[i], 1e-6, 1e-6)) << i;
}

TEST_P(BuiltinKernels, FloatMathBuiltins) {
  auto k = kernel("math_builtins", "math_builtins");
  ASSERT_TRUE(k);
  const size_t n = 256;
  auto in = floatsIn(n, 3, -20, 20);
  in[0] = 2.5f, in[1] = -2.5f, in[2] = 0.5f, in[3] = -0.0f;
  auto din = buffer(in), dout = buffer(std::vector<float>(16 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<float>(dout, 16 * n);
  for (size_t i = 0; i < n; ++i) {
    float x = in[i], y = in[(i + 1) % n];
    const float* o = &out[16 * i];
    EXPECT_TRUE(near(o[0], std::sqrt(std::fabs(x)), 3e-7)) << "sqrt " << x;
    EXPECT_EQ(o[1], std::fabs(x));
    EXPECT_EQ(o[2], std::floor(x));
    EXPECT_EQ(o[3], std::ceil(x));
    EXPECT_EQ(o[4], std::fmin(x, y));
    EXPECT_EQ(o[5], std::fmax(x, y));
    EXPECT_EQ(o[6], std::clamp(x, -1.0f, 1.0f));
    EXPECT_TRUE(near(o[7], static_cast<double>(x) * y + 1.0, 1e-6, 1e-6)) << "mad";
    EXPECT_TRUE(near(o[8], std::exp(x * 0.01), 1e-5)) << "exp " << x;
    EXPECT_TRUE(near(o[9], std::log(std::fabs(x) + 1.0), 1e-5, 1e-6)) << "log " << x;
    EXPECT_TRUE(near(o[10], std::sin(x), 1e-4, 1e-3)) << "sin " << x;  // Vulkan: absolute 2^-11 in [-pi, pi]
    EXPECT_TRUE(near(o[11], std::cos(x), 1e-4, 1e-3)) << "cos " << x;
    EXPECT_TRUE(near(o[12], std::pow(std::fabs(x) + 0.5, 1.5), 1e-4)) << "pow " << x;
    EXPECT_EQ(o[13], std::trunc(x));
    EXPECT_EQ(o[14], std::round(x)) << "round(" << x << ") rounds halfway cases away from zero";
    EXPECT_TRUE(near(o[15], x + (y - x) * 0.25, 1e-6, 1e-6)) << "mix";
  }
}

TEST_P(BuiltinKernels, IntegerBuiltinsAreExact) {
  auto k = kernel("integer_builtins", "integer_builtins");
  ASSERT_TRUE(k);
  const size_t n = 512;
  auto in = intsIn(n, 4);
  auto din = buffer(in), dout = buffer(std::vector<int32_t>(16 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int32_t>(dout, 16 * n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = in[i], y = in[(i + 7) % n];
    uint32_t ux = static_cast<uint32_t>(x), uy = static_cast<uint32_t>(y);
    const int32_t* o = &out[16 * i];
    auto sat = [](int64_t v) { return static_cast<int32_t>(std::clamp<int64_t>(v, INT32_MIN, INT32_MAX)); };
    EXPECT_EQ(o[0], static_cast<int32_t>(static_cast<uint32_t>(std::llabs(x)))) << "abs " << x;
    EXPECT_EQ(o[1], static_cast<int32_t>(static_cast<uint32_t>(std::llabs(x - y)))) << "abs_diff";
    EXPECT_EQ(o[2], sat(x + y)) << "add_sat " << x << " " << y;
    EXPECT_EQ(o[3], sat(x - y)) << "sub_sat";
    EXPECT_EQ(o[4], static_cast<int32_t>((x + y) >> 1)) << "hadd";
    EXPECT_EQ(o[5], static_cast<int32_t>((x + y + 1) >> 1)) << "rhadd";
    EXPECT_EQ(o[6], static_cast<int32_t>((x * y) >> 32)) << "mul_hi";
    EXPECT_EQ(o[7], static_cast<int32_t>((uint64_t{ux} * uy) >> 32)) << "mul_hi (uint)";
    EXPECT_EQ(o[8], static_cast<int32_t>((x & 0x7fff) * (y & 0x7fff) + 3)) << "mad24";
    EXPECT_EQ(o[9], std::countl_zero(ux)) << "clz";
    EXPECT_EQ(o[10], std::popcount(ux)) << "popcount";
    EXPECT_EQ(o[11], static_cast<int32_t>(std::rotl(ux, static_cast<int>(uy % 32)))) << "rotate";
    EXPECT_EQ(o[12], static_cast<int32_t>(std::min(x, y) ^ std::max(x, y)));
    EXPECT_EQ(o[13], static_cast<int32_t>(std::clamp<int64_t>(x, -1000, 1000)));
    EXPECT_EQ(o[14], static_cast<int32_t>(static_cast<uint32_t>(std::min<uint64_t>(uint64_t{ux} + uy, UINT32_MAX))));
    EXPECT_EQ(o[15], static_cast<int32_t>(x < y ? y : x)) << "select";
  }
}

int32_t saturate(double value, double low, double high) {
  if (std::isnan(value)) return 0;
  return static_cast<int32_t>(static_cast<int64_t>(std::clamp(value, low, high)));
}

TEST_P(BuiltinKernels, FloatToIntRoundingModes) {
  auto k = kernel("conversions", "float_to_int_rounding");
  ASSERT_TRUE(k);
  std::vector<float> in = {0.5f,        1.5f,   2.5f,        -0.5f,      -1.5f, -2.5f,
                           1.49999994f, -7.75f, 1e6f + 0.5f, -123456.5f, 0.0f,  -0.0f};
  auto more = floatsIn(100, 5, -1e6f, 1e6f);
  in.insert(in.end(), more.begin(), more.end());
  auto din = buffer(in), dout = buffer(std::vector<int32_t>(5 * in.size(), 0));
  run(*k, range1d(in.size()), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int32_t>(dout, 5 * in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    double x = in[i];
    EXPECT_EQ(out[5 * i + 0], static_cast<int32_t>(std::trunc(x))) << "convert_int " << x;
    EXPECT_EQ(out[5 * i + 1], static_cast<int32_t>(std::nearbyint(x))) << "rte " << x;
    EXPECT_EQ(out[5 * i + 2], static_cast<int32_t>(std::ceil(x))) << "rtp " << x;
    EXPECT_EQ(out[5 * i + 3], static_cast<int32_t>(std::floor(x))) << "rtn " << x;
    EXPECT_EQ(out[5 * i + 4], static_cast<int32_t>(std::trunc(x))) << "rtz " << x;
  }
}

TEST_P(BuiltinKernels, SaturatingFloatToIntConversions) {
  auto k = kernel("conversions", "float_to_int_saturating");
  ASSERT_TRUE(k);
  const float inf = std::numeric_limits<float>::infinity();
  std::vector<float> in = {std::nanf(""), inf,       -inf,     3e9f,          -3e9f,   2147483520.0f, -2147483648.0f,
                           255.5f,        256.0f,    -0.5f,    -128.5f,       -129.0f, 127.9f,        65535.9f,
                           70000.0f,      -32768.5f, 32767.2f, 4294967040.0f, 5e9f,    0.0f};
  auto more = floatsIn(60, 6, -1e5f, 1e5f);
  in.insert(in.end(), more.begin(), more.end());
  auto din = buffer(in), dout = buffer(std::vector<int32_t>(7 * in.size(), 0));
  run(*k, range1d(in.size()), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int32_t>(dout, 7 * in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    double x = in[i];
    const int32_t* o = &out[7 * i];
    EXPECT_EQ(o[0], saturate(std::trunc(x), INT32_MIN, INT32_MAX)) << "convert_int_sat " << x;
    EXPECT_EQ(o[1], saturate(std::nearbyint(x), INT32_MIN, INT32_MAX)) << "convert_int_sat_rte " << x;
    EXPECT_EQ(o[2], saturate(std::trunc(x), 0, 255)) << "convert_uchar_sat " << x;
    EXPECT_EQ(o[3], saturate(std::floor(x), -128, 127)) << "convert_char_sat_rtn " << x;
    EXPECT_EQ(o[4], saturate(std::trunc(x), 0, 65535)) << "convert_ushort_sat " << x;
    EXPECT_EQ(o[5], saturate(std::ceil(x), -32768, 32767)) << "convert_short_sat_rtp " << x;
    uint32_t u = std::isnan(x) ? 0 : static_cast<uint32_t>(std::clamp(std::trunc(x), 0.0, 4294967295.0));
    EXPECT_EQ(static_cast<uint32_t>(o[6]), u) << "convert_uint_sat " << x;
  }
}

// The float `value` rounds to, in the given direction (`direction` < 0: down, > 0: up, 0:
// toward zero).
float roundedToFloat(double value, int direction) {
  float nearest = static_cast<float>(value);
  if (direction == 0) direction = value < 0 ? 1 : -1;
  if (direction < 0 && nearest > value) return std::nextafter(nearest, -std::numeric_limits<float>::infinity());
  if (direction > 0 && nearest < value) return std::nextafter(nearest, std::numeric_limits<float>::infinity());
  return nearest;
}

TEST_P(BuiltinKernels, IntToFloatRoundingModes) {
  auto k = kernel("conversions", "int_to_float_rounding");
  ASSERT_TRUE(k);
  auto in = intsIn(200, 7);
  in.push_back(16777217);  // 2^24 + 1: halfway
  in.push_back(16777219);  // 2^24 + 3: halfway, rounds up to even
  in.push_back(-16777217);
  auto din = buffer(in), dout = buffer(std::vector<float>(4 * in.size(), 0));
  run(*k, range1d(in.size()), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<float>(dout, 4 * in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    double x = in[i];
    EXPECT_EQ(out[4 * i + 0], static_cast<float>(x)) << "rte " << in[i];
    EXPECT_EQ(out[4 * i + 1], roundedToFloat(x, 0)) << "rtz " << in[i];
    EXPECT_EQ(out[4 * i + 2], roundedToFloat(x, 1)) << "rtp " << in[i];
    EXPECT_EQ(out[4 * i + 3], roundedToFloat(x, -1)) << "rtn " << in[i];
  }
}

// convert_float of uint rounds once, to nearest even, across the whole range: the values around
// each power of two from 2^24 up and just below 2^32 (0xFFFFFF7F is 127 above 0x1.fffffep+31 and
// 129 below 2^32), and random ones.
TEST_P(BuiltinKernels, UnsignedToFloatRoundsOnce) {
  auto k = kernel("conversions", "uint_to_float");
  ASSERT_TRUE(k);
  std::vector<uint32_t> in = {0u,          1u,          0x7FFFFFFFu, 0x80000000u, 0x80000080u, 0x80000081u,
                              0x800000C0u, 0xFFFFFF7Fu, 0xFFFFFF80u, 0xFFFFFF81u, 0xFFFFFFFFu};
  for (int bit = 24; bit < 32; ++bit) {
    for (int64_t delta = -3; delta <= 3; ++delta) in.push_back(static_cast<uint32_t>((int64_t{1} << bit) + delta));
  }
  for (int i : intsIn(64, 11)) in.push_back(static_cast<uint32_t>(i) * 2654435761u);
  while (in.size() % 4 != 0) in.push_back(0xFFFFFF7Fu);
  auto din = buffer(in), dout = buffer(std::vector<float>(2 * in.size(), -1.0f));
  run(*k, range1d(in.size()), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<float>(dout, 2 * in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    float want = static_cast<float>(in[i]);  // the host's conversion rounds to nearest even
    EXPECT_EQ(out[i], want) << "convert_float(" << in[i] << ")";
    EXPECT_EQ(out[in.size() + i], want) << "convert_float4 component of " << in[i];
  }
}

TEST_P(BuiltinKernels, SaturatingIntegerNarrowing) {
  auto k = kernel("conversions", "int_narrowing_saturating");
  ASSERT_TRUE(k);
  std::vector<int64_t> in = {0,          -1,
                             255,        256,
                             -129,       32767,
                             32768,      -32769,
                             INT32_MAX,  int64_t{INT32_MAX} + 1,
                             INT32_MIN,  int64_t{INT32_MIN} - 1,
                             INT64_MAX,  INT64_MIN,
                             4294967295, 4294967296};
  auto din = buffer(in), dout = buffer(std::vector<int32_t>(4 * in.size(), 0));
  run(*k, range1d(in.size()), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int32_t>(dout, 4 * in.size());
  for (size_t i = 0; i < in.size(); ++i) {
    int64_t x = in[i];
    EXPECT_EQ(out[4 * i + 0], static_cast<int32_t>(std::clamp<int64_t>(x, INT32_MIN, INT32_MAX))) << x;
    EXPECT_EQ(out[4 * i + 1], static_cast<int32_t>(std::clamp<int64_t>(x, 0, 255))) << x;
    EXPECT_EQ(out[4 * i + 2], static_cast<int32_t>(std::clamp<int64_t>(x, -32768, 32767))) << x;
    EXPECT_EQ(static_cast<uint32_t>(out[4 * i + 3]), static_cast<uint32_t>(std::clamp<int64_t>(x, 0, 4294967295))) << x;
  }
}

// Each integer type's kernel computes (x + y) ^ (x * 3) ^ (x >> 1) ^ x / (y | 1) ^ (x < y).
template <typename T>
void checkIntegerType(KernelTest& fixture, const std::string& name) {
  auto k = fixture.kernel("integer_types", "integers_" + name);
  ASSERT_TRUE(k);
  const size_t n = 300;
  std::mt19937_64 random(8);
  std::vector<T> a(n), b(n);
  for (size_t i = 0; i < n; ++i) {
    a[i] = static_cast<T>(random());
    b[i] = static_cast<T>(random());
  }
  a[0] = std::numeric_limits<T>::min(), b[0] = static_cast<T>(-1);
  a[1] = std::numeric_limits<T>::max(), b[1] = 1;
  auto da = fixture.buffer(a), db = fixture.buffer(b), dout = fixture.buffer(std::vector<T>(n, 0));
  fixture.run(*k, KernelTest::range1d(n), {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dout)});
  auto out = fixture.read<T>(dout, n);
  for (size_t i = 0; i < n; ++i) {
    // OpenCL C promotes char and short to int, like C, before the arithmetic.
    using Wide = std::conditional_t<(sizeof(T) < 4), int32_t, T>;
    Wide x = a[i], y = b[i];
    Wide divisor = static_cast<T>(y | 1);
    bool overflows = false;
    if constexpr (std::is_signed_v<T> && sizeof(T) >= 4)
      overflows = x == std::numeric_limits<T>::min() && divisor == -1;
    if (overflows) continue;  // INT_MIN / -1 is undefined in OpenCL C
    // The sum and product wrap, as the device's do: computed unsigned, since signed overflow is
    // undefined in C++ (UBSan caught INT_MAX + 1 here).
    using Unsigned = std::make_unsigned_t<Wide>;
    T sum = static_cast<T>(static_cast<Unsigned>(x) + static_cast<Unsigned>(y));
    T product = static_cast<T>(static_cast<Unsigned>(x) * Unsigned{3});
    T expected =
        static_cast<T>(sum ^ product ^ static_cast<T>(x >> 1) ^ static_cast<T>(x / divisor) ^ static_cast<T>(x < y));
    ASSERT_EQ(out[i], expected) << name << " " << +a[i] << " " << +b[i];
  }
}

class IntegerTypes : public BuiltinKernels {};

TEST_P(IntegerTypes, EveryIntegerTypeComputesLikeTheCpu) {
  checkIntegerType<int8_t>(*this, "char");
  checkIntegerType<uint8_t>(*this, "uchar");
  checkIntegerType<int16_t>(*this, "short");
  checkIntegerType<uint16_t>(*this, "ushort");
  checkIntegerType<int32_t>(*this, "int");
  checkIntegerType<uint32_t>(*this, "uint");
  checkIntegerType<int64_t>(*this, "long");
  checkIntegerType<uint64_t>(*this, "ulong");
}

TEST_P(BuiltinKernels, VectorsOfTwoThreeAndFourComponents) {
  const size_t n = 64;
  std::mt19937 random(9);
  {
    auto k = kernel("vectors", "vectors_int4");
    ASSERT_TRUE(k);
    std::vector<int32_t> a(4 * n);
    for (auto& v : a) v = static_cast<int32_t>(random() % 2000) - 1000;
    auto da = buffer(a), dout = buffer(std::vector<int32_t>(4 * n, 0));
    run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout)});
    auto out = read<int32_t>(dout, 4 * n);
    for (size_t i = 0; i < n; ++i)
      for (int c = 0; c < 4; ++c)
        ASSERT_EQ(out[4 * i + c], a[4 * i + 3 - c] + a[4 * i] * a[4 * i + c]) << i << "." << c;
  }
  {
    auto k = kernel("vectors", "vectors_float2");
    ASSERT_TRUE(k);
    auto a = floatsIn(2 * n, 10, -5, 5);
    auto da = buffer(a), dout = buffer(std::vector<float>(2 * n, 0));
    run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout)});
    auto out = read<float>(dout, 2 * n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(out[2 * i], a[2 * i + 1] - a[2 * i]);
      ASSERT_EQ(out[2 * i + 1], a[2 * i] - a[2 * i + 1]);
    }
  }
  {
    auto k = kernel("vectors", "vectors_uint3");
    ASSERT_TRUE(k);
    std::vector<uint32_t> a(3 * n);
    for (auto& v : a) v = static_cast<uint32_t>(random());
    auto da = buffer(a), dout = buffer(std::vector<uint32_t>(3 * n, 0));
    run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout)});
    auto out = read<uint32_t>(dout, 3 * n);
    for (size_t i = 0; i < n; ++i) {
      uint32_t x = a[3 * i], y = a[3 * i + 1], z = a[3 * i + 2];
      ASSERT_EQ(out[3 * i], z ^ (x << 1));
      ASSERT_EQ(out[3 * i + 1], x ^ (y << 1));
      ASSERT_EQ(out[3 * i + 2], y ^ (z << 1));
    }
  }
  {
    auto k = kernel("vectors", "vectors_uchar4");
    ASSERT_TRUE(k);
    std::vector<uint8_t> a(4 * n);
    for (auto& v : a) v = static_cast<uint8_t>(random());
    auto da = buffer(a), dout = buffer(std::vector<uint8_t>(4 * n, 0));
    run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout)});
    auto out = read<uint8_t>(dout, 4 * n);
    for (size_t i = 0; i < 4 * n; ++i) ASSERT_EQ(out[i], static_cast<uint8_t>(a[i] + 1 + i % 4)) << i;
  }
}

TEST_P(BuiltinKernels, DoublePrecision) {
  if (!features().shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  auto k = kernel("doubles", "doubles");
  ASSERT_TRUE(k);
  const size_t n = 128;
  std::mt19937_64 random(11);
  std::uniform_real_distribution<double> dist(-1e6, 1e6);
  std::vector<double> in(n);
  for (double& v : in) v = dist(random);
  auto din = buffer(in), dout = buffer(std::vector<double>(4 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<double>(dout, 4 * n);
  for (size_t i = 0; i < n; ++i) {
    double x = in[i];
    EXPECT_TRUE(near(out[4 * i], x * 3.0 + 0.5, 1e-15)) << x;
    EXPECT_TRUE(near(out[4 * i + 1], std::sqrt(std::fabs(x)), 1e-15)) << x;
    EXPECT_EQ(out[4 * i + 2], std::floor(x) - std::ceil(x)) << x;
    EXPECT_EQ(out[4 * i + 3], static_cast<double>(static_cast<int64_t>(x))) << x;
  }
}

TEST_P(BuiltinKernels, HalfStorageAndArithmetic) {
  if (!features().shaderFloat16 || !features().storageBuffer16BitAccess)
    GTEST_SKIP() << "the device has no shaderFloat16 or storageBuffer16BitAccess: half kernels cannot run on it";
  const size_t n = 100;
  auto floats = floatsIn(n, 12, -100, 100);
  std::vector<uint16_t> halves(n);
  for (size_t i = 0; i < n; ++i) halves[i] = ir::floatToHalfBits(floats[i]);
  auto halfToFloat = [](uint16_t h) {
    uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
    double value =
        exponent == 0 ? std::ldexp(mantissa, -24) : std::ldexp(mantissa + 1024, static_cast<int>(exponent) - 25);
    return static_cast<float>(sign ? -value : value);
  };
  {
    auto k = kernel("halves", "half_storage");
    ASSERT_TRUE(k);
    auto din = buffer(halves), dwide = buffer(std::vector<float>(n, 0)), dnarrow = buffer(std::vector<uint16_t>(n, 0));
    run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dwide), KernelArg::buffer(dnarrow)});
    auto wide = read<float>(dwide, n);
    auto narrow = read<uint16_t>(dnarrow, n);
    for (size_t i = 0; i < n; ++i) {
      ASSERT_EQ(wide[i], halfToFloat(halves[i])) << i;
      ASSERT_EQ(narrow[i], ir::floatToHalfBits(halfToFloat(halves[i]) * 2.0f)) << i;
    }
  }
  {
    auto k = kernel("halves", "half_arithmetic");
    ASSERT_TRUE(k);
    std::vector<uint16_t> other(n);
    for (size_t i = 0; i < n; ++i) other[i] = ir::floatToHalfBits(0.25f + static_cast<float>(i % 7));
    auto da = buffer(halves), db = buffer(other), dout = buffer(std::vector<uint16_t>(n, 0));
    run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dout)});
    auto out = read<uint16_t>(dout, n);
    for (size_t i = 0; i < n; ++i) {
      double expected = static_cast<double>(halfToFloat(halves[i])) * halfToFloat(other[i]) + halfToFloat(halves[i]);
      // Two half roundings (or one, fused): within 2^-10 relative.
      EXPECT_TRUE(near(halfToFloat(out[i]), expected, 1.0 / 512, 1e-3)) << i;
    }
  }
}

// x / y within OpenCL's 2.5 ULP for divisors of every exponent, those above 2^126 (where NVIDIA's
// OpFDiv returned 0) among them; a quotient in the denormal range may also be flushed to zero.
TEST_P(BuiltinKernels, DivisionOverEveryDivisor) {
  auto k = kernel("divide", "divide");
  ASSERT_TRUE(k);
  std::mt19937 random(5);
  std::vector<float> xs, ys;
  for (int exponent = -126; exponent <= 127; ++exponent) {
    for (int j = 0; j < 16; ++j) {
      float y = std::ldexp(1.0f + float(random() % 8388608) / 8388608.0f, exponent) * (j % 2 ? -1.0f : 1.0f);
      float x = std::ldexp(1.0f + float(random() % 8388608) / 8388608.0f, int(random() % 254) - 126);
      xs.push_back(x), ys.push_back(y);
    }
  }
  const size_t n = xs.size();
  auto dx = buffer(xs), dy = buffer(ys), dq = buffer(std::vector<float>(n, -1.0f));
  run(*k, range1d(n), {KernelArg::buffer(dx), KernelArg::buffer(dy), KernelArg::buffer(dq)});
  auto q = read<float>(dq, n);
  size_t failures = 0;
  for (size_t i = 0; i < n; ++i) {
    float exact = xs[i] / ys[i];  // the host's division is correctly rounded
    if (q[i] == exact || (std::fpclassify(exact) == FP_SUBNORMAL && q[i] == 0.0f)) continue;
    double ulp = std::ldexp(1.0, std::max(std::ilogb(exact), -126) - 23);
    double error = std::fabs(double(q[i]) - double(exact)) / ulp;
    if (!(error <= 2.5) && failures++ < 10)
      ADD_FAILURE() << std::hexfloat << xs[i] << " / " << ys[i] << " = " << q[i] << ", exact " << exact;
  }
  EXPECT_EQ(failures, 0u);
}

class GenericPointers : public KernelTest {
 protected:
  // A run of `name`(int* g, const int* path, int* out) over 96 work-items in groups of 32, each
  // with a random path among three spaces (0, 1, 2) and `outPerItem` results.
  struct PathRun {
    std::vector<int32_t> g, path, out, gAfter;
  };
  PathRun runOnPaths(const char* name, uint32_t seed, size_t outPerItem) {
    PathRun r;
    auto k = kernel("generic_pointers", name);
    EXPECT_TRUE(k);
    if (!k) return r;
    r.g = intsIn(kItems, seed);
    for (auto& v : r.g) v %= 100000;
    r.path.resize(kItems);
    std::mt19937 random(seed);
    for (int32_t& p : r.path) p = static_cast<int32_t>(random() % 3);
    auto dg = buffer(r.g), dpath = buffer(r.path), dout = buffer(std::vector<int32_t>(outPerItem * kItems, -1));
    run(*k, range1d(kItems, kGroup), {KernelArg::buffer(dg), KernelArg::buffer(dpath), KernelArg::buffer(dout)});
    r.out = read<int32_t>(dout, outPerItem * kItems);
    r.gAfter = read<int32_t>(dg, kItems);
    return r;
  }
  static constexpr size_t kItems = 96, kGroup = 32;
};

TEST_P(GenericPointers, ToGlobalLocalAndPrivateMemory) {
  auto k = kernel("generic_pointers", "generic_pointers");
  ASSERT_TRUE(k);
  const size_t n = 96;
  auto in = intsIn(n + 2, 13);
  for (auto& v : in) v %= 1000;
  auto din = buffer(in), dout = buffer(std::vector<int32_t>(n, 0));
  run(*k, range1d(n, 48), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int32_t>(dout, n);
  for (size_t i = 0; i < n; ++i) {
    int lid = static_cast<int>(i % 48);
    int base = lid & ~3;
    int expected = in[i] + in[i + 1] + in[i + 2] + 10 * (base + base + 1 + base + 2) + 1 + 2 + lid;
    ASSERT_EQ(out[i], expected) << i;
  }
}

// get_fence names the memory a generic pointer points into (OpenCL's fence flags: global 2,
// local 1, private none), also where a select picks the space at run time.
TEST_P(GenericPointers, FencesFollowTheAddressSpace) {
  auto k = kernel("generic_pointers", "generic_fences");
  ASSERT_TRUE(k);
  const size_t n = 32;
  auto din = buffer(std::vector<int32_t>(n, 0)), dout = buffer(std::vector<uint32_t>(4 * n, 99));
  run(*k, range1d(n, 16), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<uint32_t>(dout, 4 * n);
  constexpr uint32_t kGlobal = 2, kLocal = 1;
  for (size_t i = 0; i < n; ++i) {
    EXPECT_EQ(out[4 * i + 0], kGlobal) << i;
    EXPECT_EQ(out[4 * i + 1], kLocal) << i;
    EXPECT_EQ(out[4 * i + 2], 0u) << i;
    EXPECT_EQ(out[4 * i + 3], (i & 1) ? kGlobal : kLocal) << i;
  }
}

// Generic pointers whose space the path decides are tagged pointers (docs/decisions.md): each
// work-item reaches a __global, a __local or a __private int as `path` says, reads and writes it
// through the one pointer, and asks it its space three ways (CTS generic_address_space
// conditional_casting).
TEST_P(GenericPointers, ChosenByThePathAmongThreeSpaces) {
  auto [g, path, out, gAfter] = runOnPaths("generic_by_path", 21, 4);
  ASSERT_EQ(out.size(), 4 * kItems);
  const size_t n = kItems, local = kGroup;
  constexpr int32_t kGlobalFence = 2, kLocalFence = 1;
  for (size_t i = 0; i < n; ++i) {
    int32_t lid = static_cast<int32_t>(i % local);
    int32_t before = path[i] == 0 ? g[i] : path[i] == 1 ? lid * 3 : static_cast<int32_t>(i) * 10 + 1;
    SCOPED_TRACE("work-item " + std::to_string(i) + ", path " + std::to_string(path[i]));
    EXPECT_EQ(out[4 * i], before);
    EXPECT_EQ(out[4 * i + 1], before + 1000 + (path[i] == 1 ? 10000 : 0));
    EXPECT_EQ(out[4 * i + 2], 1 << path[i]);  // to_global, to_local, to_private
    EXPECT_EQ(out[4 * i + 3], path[i] == 0 ? kGlobalFence : path[i] == 1 ? kLocalFence : 0);
    EXPECT_EQ(gAfter[i], path[i] == 0 ? g[i] + 1000 : g[i]);
  }
}

// A ternary of a __global and a __local array, moved, read and compared after the choice (CTS
// ternary_operator_casting).
TEST_P(GenericPointers, ChosenByASelectThenMovedAndCompared) {
  auto k = kernel("generic_pointers", "generic_by_select");
  ASSERT_TRUE(k);
  const size_t n = 64, local = 32;
  auto g = intsIn(n, 22);
  for (auto& v : g) v %= 100000;
  auto dg = buffer(g), dout = buffer(std::vector<int32_t>(2 * n, -1));
  run(*k, range1d(n, local), {KernelArg::buffer(dg), KernelArg::buffer(dout)});
  auto out = read<int32_t>(dout, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    int32_t lid = static_cast<int32_t>(i % local);
    bool global = i & 1;
    int32_t value = global ? g[i] : -lid;
    ASSERT_EQ(out[2 * i], 3 * value) << i;
    ASSERT_EQ(out[2 * i + 1], global ? static_cast<int32_t>(i) : lid + 1000) << i;
  }
}

// Atomics through one generic pointer into a __global or a __local counter (CTS
// generic_atomics_variant): every old value is taken once, and the totals are exact.
TEST_P(GenericPointers, AtomicsIntoTheSpaceThePathChose) {
  auto k = kernel("generic_pointers", "generic_atomics");
  ASSERT_TRUE(k);
  const size_t n = 128, local = 32;
  auto dcounter = buffer(std::vector<int32_t>{0}), dout = buffer(std::vector<int32_t>(2 * n, -1));
  run(*k, range1d(n, local), {KernelArg::buffer(dcounter), KernelArg::buffer(dout)});
  auto out = read<int32_t>(dout, 2 * n);
  EXPECT_EQ(read<int32_t>(dcounter, 1)[0], static_cast<int32_t>(n / 2));
  std::set<int32_t> globalOld;
  for (size_t group = 0; group < n / local; ++group) {
    std::set<int32_t> localOld;
    for (size_t lid = 0; lid < local; ++lid) {
      size_t i = group * local + lid;
      EXPECT_EQ(out[2 * i + 1], static_cast<int32_t>(local / 2)) << i;
      (lid & 1 ? globalOld : localOld).insert(out[2 * i]);
    }
    EXPECT_EQ(localOld.size(), local / 2) << "group " << group;
    EXPECT_EQ(*localOld.rbegin(), static_cast<int32_t>(local / 2 - 1)) << "group " << group;
  }
  EXPECT_EQ(globalOld.size(), n / 2);
  EXPECT_EQ(*globalOld.rbegin(), static_cast<int32_t>(n / 2 - 1));
}

// Generic pointers stored in a private array of structs and in a __local array, loaded back
// (the one chosen at run time, and the neighbour's) and followed (CTS language_struct).
TEST_P(GenericPointers, StoredInMemoryAndLoadedBack) {
  auto [g, path, out, gAfter] = runOnPaths("generic_in_memory", 23, 3);
  ASSERT_EQ(out.size(), 3 * kItems);
  const size_t n = kItems, local = kGroup;
  for (size_t i = 0; i < n; ++i) {
    size_t lid = i % local, neighbour = lid ^ 1;
    int32_t chosen = path[i] == 0   ? g[i]
                     : path[i] == 1 ? 2 * (static_cast<int32_t>(lid) + 100)
                                    : 3 * 7 * static_cast<int32_t>(i);
    int32_t neighbours = neighbour & 1 ? g[i - lid + neighbour] : static_cast<int32_t>(neighbour) + 100;
    SCOPED_TRACE("work-item " + std::to_string(i) + ", path " + std::to_string(path[i]));
    EXPECT_EQ(out[3 * i], chosen);
    EXPECT_EQ(out[3 * i + 1], neighbours);
    EXPECT_EQ(out[3 * i + 2], (neighbour & 1 ? 0 : 1) | (path[i] == 2 ? 2 : 0));
  }
}

CL2VK_KERNEL_TEST_SUITE(BuiltinKernels, "O0", "O2", "CL12", "CL30");
CL2VK_KERNEL_TEST_SUITE(IntegerTypes, "O0", "O2", "CL12", "CL30");
CL2VK_KERNEL_TEST_SUITE(GenericPointers, "O0", "O2", "CL30");  // needs OpenCL C 2.0

}  // namespace
}  // namespace cl2vk::test
