// long and ulong on a device without shaderInt64 (lower-int64): the kernels of
// spirv/kernels/int64_emulation.cl translated for the shared device with Target::int64 off, so
// that every 64-bit integer runs as a pair of 32-bit words even on lavapipe (which has
// shaderInt64), and every result compared exactly with the CPU's over all pairs of edge values.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "kernel_test_util.h"
#include "test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;
__extension__ typedef __int128 i128;
__extension__ typedef unsigned __int128 u128;

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

// Carries and borrows between the halves, the signed edges of both widths, and float rounding ties
// (2^40 + 2^16 is halfway between two floats).
std::vector<int64_t> edgeValues() {
  std::vector<int64_t> values = {0,
                                 1,
                                 -1,
                                 2,
                                 -2,
                                 7,
                                 INT32_MAX,
                                 int64_t{INT32_MAX} + 1,
                                 INT32_MIN,
                                 int64_t{INT32_MIN} - 1,
                                 0xffffffffll,
                                 0x100000000ll,
                                 0x100000001ll,
                                 kMax,
                                 kMin,
                                 kMin + 1,
                                 kMax - 1,
                                 0x7fffffff00000000ll,
                                 (1ll << 40) + (1ll << 16),
                                 (1ll << 40) + (1ll << 16) + 1,
                                 (1ll << 40) + 3 * (1ll << 16),
                                 (1ll << 53) + 1,
                                 -((1ll << 40) + (1ll << 16))};
  std::mt19937_64 random(64);
  for (int i = 0; i < 5; ++i) values.push_back(static_cast<int64_t>(random()));
  return values;
}

uint64_t u(int64_t x) { return static_cast<uint64_t>(x); }
int64_t s(uint64_t x) { return static_cast<int64_t>(x); }
int64_t clamp128(i128 x) { return x > kMax ? kMax : x < kMin ? kMin : static_cast<int64_t>(x); }

// What long_binary writes for one pair (spirv/kernels/int64_emulation.cl, in its order).
std::vector<int64_t> binaryReference(int64_t x, int64_t y) {
  uint64_t ux = u(x), uy = u(y);
  int shift = static_cast<int>(y & 63);
  int64_t lo = std::min<int64_t>(y, 5), hi = std::max<int64_t>(y, 5);
  int64_t compares = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
                     (ux < uy) << 6 | (ux <= uy) << 7 | (ux > uy) << 8 | (ux >= uy) << 9;
  int64_t mulHi = static_cast<int64_t>((static_cast<i128>(x) * y) >> 64);
  uint64_t umulHi = static_cast<uint64_t>((static_cast<u128>(ux) * uy) >> 64);
  u128 umad = static_cast<u128>(ux) * uy + ux;
  return {
      s(ux + uy),
      s(ux - uy),
      s(ux * uy),
      s(ux + 3 * uy),
      s(ux - uy * 5),
      s(ux * 7),
      s(ux - 1),
      x & y,
      x | y,
      x ^ y,
      ~x,
      s(0 - ux),
      s(ux << shift),
      x >> shift,
      s(ux >> shift),
      compares,
      mulHi,
      s(umulHi),
      std::min(x, y),
      std::max(x, y),
      s(std::min(ux, uy)),
      s(std::max(ux, uy)),
      s(x < 0 ? 0 - ux : ux),
      s(x > y ? ux - uy : uy - ux),
      clamp128(static_cast<i128>(x) + y),
      clamp128(static_cast<i128>(x) - y),
      s(ux + uy < ux ? ~0ull : ux + uy),
      s(ux > uy ? ux - uy : 0),
      static_cast<int64_t>((static_cast<i128>(x) + y) >> 1),
      static_cast<int64_t>((static_cast<i128>(x) + y + 1) >> 1),
      s(std::rotl(ux, shift)),
      std::popcount(ux),
      std::countl_zero(ux),
      std::countr_zero(ux),
      s(u(mulHi) + ux),
      clamp128(static_cast<i128>(x) * y + x),
      s(umad > ~0ull ? ~0ull : static_cast<uint64_t>(umad)),
      std::min(std::max(x, lo), hi),
      s(static_cast<uint64_t>((static_cast<u128>(ux) + uy) >> 1)),
      x < y ? s(ux * 3) : s(uy - 1),
  };
}

class Int64Emulation : public KernelTest {
 public:
  // The kernel translated as for a device without shaderInt64.
  std::unique_ptr<launch::LaunchableKernel> emulated(const std::string& name,
                                                     const std::string& file = "int64_emulation") {
    std::filesystem::path path = corpusDir() / "kernels" / (file + "." + std::string(GetParam()) + ".spv");
    Target target = launch::targetFor(sharedDevice().info());
    target.int64 = false;
    Expected<Translation> translation = cl2vk::translate(readWords(path), target);
    EXPECT_TRUE(translation.ok()) << path << ": " << translation.error().message();
    if (!translation) return nullptr;
    EXPECT_FALSE(translation->reflection.requirements.int64) << "the translation still needs shaderInt64";
    auto shared = std::make_shared<const Translation>(std::move(*translation));
    auto kernel = launch::LaunchableKernel::create(sharedDevice(), shared, name);
    EXPECT_TRUE(kernel.ok()) << kernel.error().message();
    return kernel ? std::move(*kernel) : nullptr;
  }
};

TEST_P(Int64Emulation, EveryOperatorOnAllPairsOfEdgeValues) {
  auto k = emulated("long_binary");
  ASSERT_TRUE(k);
  std::vector<int64_t> edges = edgeValues(), a, b;
  for (int64_t x : edges) {
    for (int64_t y : edges) a.push_back(x), b.push_back(y);
  }
  const size_t n = a.size(), results = 40;
  auto da = buffer(a), db = buffer(b), dout = buffer(std::vector<int64_t>(results * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dout)});
  auto out = read<int64_t>(dout, results * n);
  for (size_t i = 0; i < n; ++i) {
    std::vector<int64_t> expected = binaryReference(a[i], b[i]);
    ASSERT_EQ(expected.size(), results);
    for (size_t r = 0; r < results; ++r)
      ASSERT_EQ(out[results * i + r], expected[r]) << "result " << r << " of x = " << a[i] << ", y = " << b[i];
  }
}

TEST_P(Int64Emulation, DivisionAndRemainderOnAllPairsOfEdgeValues) {
  auto k = emulated("long_division");
  ASSERT_TRUE(k);
  std::vector<int64_t> edges = edgeValues(), a, b;
  for (int64_t x : edges) {
    for (int64_t y : edges) {
      // OpenCL leaves x / 0 and LONG_MIN / -1 undefined: those pairs divide by 3 instead.
      a.push_back(x), b.push_back(y == 0 || (x == kMin && y == -1) ? 3 : y);
    }
  }
  const size_t n = a.size();
  for (int remainder : {0, 1}) {
    auto da = buffer(a), db = buffer(b), dout = buffer(std::vector<int64_t>(2 * n, 0));
    run(*k, range1d(n),
        {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dout), KernelArg::value(remainder)});
    auto out = read<int64_t>(dout, 2 * n);
    for (size_t i = 0; i < n; ++i) {
      int64_t x = a[i], y = b[i];
      int64_t expectedSigned = remainder ? x % y : x / y;
      uint64_t expectedUnsigned = remainder ? u(x) % u(y) : u(x) / u(y);
      ASSERT_EQ(out[2 * i], expectedSigned) << (remainder ? "%" : "/") << " of " << x << " by " << y;
      ASSERT_EQ(u(out[2 * i + 1]), expectedUnsigned) << (remainder ? "%" : "/") << " of " << u(x) << " by " << u(y);
    }
  }
}

TEST_P(Int64Emulation, ShiftsByEveryAmount) {
  auto k = emulated("long_shifts");
  ASSERT_TRUE(k);
  std::vector<int64_t> a = edgeValues();
  const size_t n = a.size() * 64;
  auto da = buffer(a), dout = buffer(std::vector<int64_t>(3 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout)});
  auto out = read<int64_t>(dout, 3 * n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = a[i / 64];
    int amount = static_cast<int>(i % 64);
    ASSERT_EQ(out[3 * i], s(u(x) << amount)) << x << " << " << amount;
    ASSERT_EQ(out[3 * i + 1], x >> amount) << x << " >> " << amount;
    ASSERT_EQ(u(out[3 * i + 2]), u(x) >> amount) << u(x) << " >> " << amount;
  }
}

// What a float converts to under the translation's rules: truncated; out of range, saturated (and
// NaN 0), which OpenCL leaves to the implementation for the plain conversions and requires of the
// _sat ones.
int64_t saturatedSigned(float g) {
  if (std::isnan(g)) return 0;
  if (g >= 0x1p63f) return kMax;
  if (g < -0x1p63f) return kMin;
  return static_cast<int64_t>(g);
}
uint64_t saturatedUnsigned(float g) {
  if (std::isnan(g) || g <= 0.0f) return 0;
  if (g >= 0x1p64f) return ~0ull;
  return static_cast<uint64_t>(g);
}

TEST_P(Int64Emulation, ConversionsToAndFromEveryWidthAndFloat) {
  auto k = emulated("long_conversions");
  ASSERT_TRUE(k);
  std::vector<int64_t> a = edgeValues();
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> floats = {
      0.0f,          0.5f,    -0.5f,          1.0f,         -1.0f,       1.5f,    0x1p31f, 0x1p32f,
      0x1p32f + 512, 0x1p52f, 0x1.fffffep62f, 0x1p63f,      -0x1p63f,    0x1p64f, 1e30f,   -1e30f,
      nan,           inf,     -inf,           123456789.0f, -987654.25f, 3e9f,    -3e9f,   0x1.fffffep63f};
  floats.resize(a.size(), 42.75f);
  a.resize(std::max(a.size(), floats.size()), 5);
  const size_t n = a.size(), results = 12;
  auto da = buffer(a), df = buffer(floats), dout = buffer(std::vector<int64_t>(results * n, 0)),
       dfout = buffer(std::vector<float>(2 * n, 0.0f));
  run(*k, range1d(n),
      {KernelArg::buffer(da), KernelArg::buffer(df), KernelArg::buffer(dout), KernelArg::buffer(dfout)});
  auto out = read<int64_t>(dout, results * n);
  auto fout = read<float>(dfout, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = a[i];
    float g = floats[i];
    uint32_t low = static_cast<uint32_t>(x), high = static_cast<uint32_t>(u(x) >> 32);
    int64_t pairPlus = s((u(high + 2u) << 32) | (low + 1u));
    std::vector<int64_t> expected = {static_cast<int32_t>(x),
                                     static_cast<uint32_t>(x),
                                     static_cast<int32_t>(x >> 16),
                                     static_cast<uint32_t>(u(x) >> 40),
                                     static_cast<int32_t>(x),
                                     static_cast<uint32_t>(x),
                                     saturatedSigned(g),
                                     s(saturatedUnsigned(g)),
                                     s(u(x) - 5),
                                     s(u(x) >> 3),
                                     pairPlus,
                                     static_cast<uint32_t>(x) * 3u};
    for (size_t r = 0; r < results; ++r)
      ASSERT_EQ(out[results * i + r], expected[r]) << "result " << r << " of x = " << x << ", g = " << g;
    ASSERT_EQ(fout[2 * i], static_cast<float>(x)) << "(float)" << x;
    ASSERT_EQ(fout[2 * i + 1], static_cast<float>(u(x))) << "(float)" << u(x);
  }
  auto saturating = emulated("long_saturating_conversions");
  ASSERT_TRUE(saturating);
  auto dsat = buffer(std::vector<int64_t>(2 * n, 0));
  run(*saturating, range1d(n), {KernelArg::buffer(df), KernelArg::buffer(dsat)});
  auto sat = read<int64_t>(dsat, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(sat[2 * i], saturatedSigned(floats[i])) << "convert_long_sat(" << floats[i] << ")";
    ASSERT_EQ(u(sat[2 * i + 1]), saturatedUnsigned(floats[i])) << "convert_ulong_sat(" << floats[i] << ")";
  }
}

TEST_P(Int64Emulation, ConversionsWithCharAndShort) {
  const auto& features = sharedDevice().info().features;
  if (!features.shaderInt8 || !features.shaderInt16) {
    std::cout << "skipped: the device has no shaderInt8 or shaderInt16\n";
    return;
  }
  auto k = emulated("long_narrow_conversions", "int64_emulation_narrow");
  ASSERT_TRUE(k);
  std::vector<int64_t> a = edgeValues();
  const size_t n = a.size();
  auto da = buffer(a), dout = buffer(std::vector<int64_t>(4 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(da), KernelArg::buffer(dout)});
  auto out = read<int64_t>(dout, 4 * n);
  for (size_t i = 0; i < n; ++i) {
    int64_t x = a[i];
    ASSERT_EQ(out[4 * i], static_cast<int16_t>(x)) << "(short)" << x;
    ASSERT_EQ(out[4 * i + 1], static_cast<uint8_t>(x)) << "(uchar)" << x;
    ASSERT_EQ(out[4 * i + 2], static_cast<int8_t>(x)) << "(char)" << x;
    ASSERT_EQ(out[4 * i + 3], static_cast<uint16_t>(x)) << "(ushort)" << x;
  }
}

TEST_P(Int64Emulation, ConversionsWithDouble) {
  if (!launch::targetFor(sharedDevice().info()).float64) {
    std::cout << "skipped: the device has no shaderFloat64\n";
    return;
  }
  auto k = emulated("long_double_conversions", "int64_emulation_double");
  ASSERT_TRUE(k);
  std::vector<int64_t> a = edgeValues();
  std::vector<double> doubles = {
      0.0,  -0.75, 1.5, 0x1p32, 0x1p52 + 1, 0x1p53, 0x1.fffffffffffffp62, -0x1p63, 9007199254740993.0, -123456789012.5,
      4e18, -4e18};
  doubles.resize(a.size(), 1e15);
  const size_t n = a.size();
  auto da = buffer(a), dd = buffer(doubles), dout = buffer(std::vector<int64_t>(3 * n, 0)),
       ddout = buffer(std::vector<double>(3 * n, 0.0));
  run(*k, range1d(n),
      {KernelArg::buffer(da), KernelArg::buffer(dd), KernelArg::buffer(dout), KernelArg::buffer(ddout)});
  auto out = read<int64_t>(dout, 3 * n);
  auto dout64 = read<double>(ddout, 3 * n);
  for (size_t i = 0; i < n; ++i) {
    double g = doubles[i];
    int64_t x = a[i];
    ASSERT_EQ(out[3 * i], static_cast<int64_t>(g)) << "(long)" << g;
    ASSERT_EQ(out[3 * i + 1], g < 0 ? 0 : s(static_cast<uint64_t>(g))) << "(ulong)" << g;
    ASSERT_EQ(out[3 * i + 2], std::bit_cast<int64_t>(g)) << "as_long(" << g << ")";
    ASSERT_EQ(dout64[3 * i], static_cast<double>(x)) << "(double)" << x;
    ASSERT_EQ(dout64[3 * i + 1], static_cast<double>(u(x))) << "(double)" << u(x);
    ASSERT_EQ(std::bit_cast<int64_t>(dout64[3 * i + 2]), x) << "as_double(" << x << ")";
  }
}

TEST_P(Int64Emulation, Long4Vectors) {
  auto k = emulated("long_vectors");
  ASSERT_TRUE(k);
  std::vector<int64_t> edges = edgeValues(), a, b;
  for (size_t i = 0; i < edges.size(); ++i) {
    for (size_t j = 0; j < edges.size(); j += 4) {
      for (size_t c = 0; c < 4; ++c)
        a.push_back(edges[(i + c) % edges.size()]), b.push_back(edges[(j + c) % edges.size()]);
    }
  }
  const size_t n = a.size() / 4;
  auto da = buffer(a), db = buffer(b), dout = buffer(std::vector<int64_t>(16 * n, 0)),
       dnarrow = buffer(std::vector<int32_t>(4 * n, 0));
  run(*k, range1d(n),
      {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dout), KernelArg::buffer(dnarrow)});
  auto out = read<int64_t>(dout, 16 * n);
  auto narrow = read<int32_t>(dnarrow, 4 * n);
  for (size_t i = 0; i < n; ++i) {
    const int64_t* x = &a[4 * i];
    const int64_t* y = &b[4 * i];
    for (size_t c = 0; c < 4; ++c) {
      ASSERT_EQ(out[16 * i + c], s(u(x[c]) * u(y[c]) + u(x[c] >> 3))) << i << "." << c;
      ASSERT_EQ(out[16 * i + 4 + c], x[c] < y[c] ? -1 : 0) << i << "." << c;
      ASSERT_EQ(out[16 * i + 8 + c], (x[c] > y[c] ? y[c] : x[c]) ^ static_cast<int64_t>(c + 1)) << i << "." << c;
      ASSERT_EQ(narrow[4 * i + c], static_cast<int32_t>(x[c] ^ y[c])) << i << "." << c;
    }
    int64_t mixed[4] = {s(u(x[1]) + u(y[3])), x[2], y[1], y[0]};
    for (size_t c = 0; c < 4; ++c) ASSERT_EQ(out[16 * i + 12 + c], mixed[c]) << i << ".mixed." << c;
  }
}

TEST_P(Int64Emulation, Long4ConversionsWithFloat4) {
  auto k = emulated("long_vector_conversions");
  ASSERT_TRUE(k);
  std::vector<int64_t> a = edgeValues();
  const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
  std::vector<float> floats = {0.5f, -1.5f, 0x1p40f,        -0x1p40f, 0x1p63f, -0x1p63f,  0x1p64f, nan,
                               inf,  -inf,  0x1.fffffep62f, 3e9f,     -3e9f,   12345.75f, 1e30f,   -0.25f};
  a.resize((a.size() + 3) / 4 * 4, 9);
  floats.resize(a.size(), 7.5f);
  const size_t n = a.size() / 4;
  auto da = buffer(a), df = buffer(floats), dfout = buffer(std::vector<float>(8 * n, 0.0f)),
       dout = buffer(std::vector<int64_t>(8 * n, 0));
  run(*k, range1d(n),
      {KernelArg::buffer(da), KernelArg::buffer(df), KernelArg::buffer(dfout), KernelArg::buffer(dout)});
  auto fout = read<float>(dfout, 8 * n);
  auto out = read<int64_t>(dout, 8 * n);
  for (size_t i = 0; i < n; ++i) {
    for (size_t c = 0; c < 4; ++c) {
      int64_t x = a[4 * i + c];
      float g = floats[4 * i + c];
      ASSERT_EQ(fout[8 * i + c], static_cast<float>(x)) << "convert_float4 of " << x;
      ASSERT_EQ(fout[8 * i + 4 + c], static_cast<float>(u(x))) << "convert_float4 of " << u(x);
      ASSERT_EQ(out[8 * i + c], saturatedSigned(g)) << "convert_long4_sat of " << g;
      ASSERT_EQ(u(out[8 * i + 4 + c]), saturatedUnsigned(g)) << "convert_ulong4_sat of " << g;
    }
  }
}

TEST_P(Int64Emulation, SizeTIndexingAndPointerSteps) {
  auto k = emulated("long_indexing");
  ASSERT_TRUE(k);
  const size_t n = 1000;
  std::vector<int32_t> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<int32_t>(i * 2654435761u);
  const uint64_t stride = 7919;
  const int64_t bias = -(1ll << 40) + 12345;
  auto din = buffer(in), dout = buffer(std::vector<int64_t>(n, 0));
  run(*k, range1d(n),
      {KernelArg::buffer(din), KernelArg::buffer(dout), KernelArg::value(stride), KernelArg::value(bias)});
  auto out = read<int64_t>(dout, n);
  for (size_t i = 0; i < n; ++i) {
    size_t j = i * stride % n;
    ASSERT_EQ(out[n - 1 - i], bias + int64_t{in[j]} * 10 + 4 * static_cast<int64_t>(j)) << i;
  }
}

TEST_P(Int64Emulation, PointerStepsByNegativeAndPositiveInts) {
  auto k = emulated("int_indexing");
  ASSERT_TRUE(k);
  const int n = 400, offset = 50;
  std::vector<int32_t> in(1000);
  for (int i = 0; i < 1000; ++i) in[i] = static_cast<int32_t>(i * 2654435761u);
  auto din = buffer(in), dout = buffer(std::vector<int32_t>(n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout), KernelArg::value(int32_t{offset})});
  auto out = read<int32_t>(dout, n);
  for (int i = 0; i < n; ++i) {
    uint32_t expected = static_cast<uint32_t>(in[i + offset]) * 3u + static_cast<uint32_t>(in[493]) +
                        static_cast<uint32_t>(in[(i & 1) ? 500 - i : 500 + i]);
    ASSERT_EQ(out[i], static_cast<int32_t>(expected)) << i;
  }
}

TEST_P(Int64Emulation, LocalMemoryReductionOfLongs) {
  auto k = emulated("long_reduce");
  ASSERT_TRUE(k);
  const size_t local = 64, groups = 16, n = local * groups;
  std::vector<int64_t> a(n);
  std::mt19937_64 random(7);
  for (int64_t& v : a) v = static_cast<int64_t>(random());
  auto da = buffer(a), dout = buffer(std::vector<int64_t>(groups, 0));
  run(*k, range1d(n, local), {KernelArg::buffer(da), KernelArg::buffer(dout), KernelArg::local(local * 8)});
  auto out = read<int64_t>(dout, groups);
  for (size_t g = 0; g < groups; ++g) {
    uint64_t sum = 0;
    for (size_t i = 0; i < local; ++i) sum += u(a[g * local + i]);
    ASSERT_EQ(u(out[g]), sum) << "group " << g;
  }
}

CL2VK_KERNEL_TEST_SUITE(Int64Emulation, "O0", "O2");

}  // namespace
}  // namespace cl2vk::test
