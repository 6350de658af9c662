// char and short kernels (spirv/kernels/narrow_integers.cl) translated for a device without
// shaderInt8, shaderInt16 and 8/16-bit storage, so that lower-narrow-integers computes them in
// 32 bits and reaches buffers through words, on the shared device (lavapipe has them all, which
// is why the suite takes them away); every result compared exactly with the CPU.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <map>
#include <random>

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class NarrowIntegers : public KernelTest {
 public:
  Target target() const override {
    Target target = KernelTest::target();
    target.int8 = target.int16 = target.storage8 = target.storage16 = false;
    return target;
  }
};

template <typename T>
T clampTo(int64_t value) {
  return static_cast<T>(std::clamp<int64_t>(value, std::numeric_limits<T>::min(), std::numeric_limits<T>::max()));
}

// What OpenCL C computes for each of ops_<T>'s 28 results (the kernel's order), with C's
// promotion to int and the conversion back to T on the store.
template <typename T>
std::array<T, 28> reference(T x, T y) {
  using U = std::make_unsigned_t<T>;
  constexpr int kBits = 8 * sizeof(T);
  int64_t X = x, Y = y;
  int64_t D = y ? Y : 1, D2 = x ? X : 1;
  auto t = [](int64_t v) { return static_cast<T>(static_cast<U>(static_cast<uint64_t>(v))); };
  U ux = static_cast<U>(x);
  int shift = static_cast<int>(Y & (kBits - 1));
  int rotation = static_cast<int>(static_cast<U>(y) % kBits);
  std::array<T, 28> r{};
  r[0] = t(X + Y);
  r[1] = t(X - Y);
  r[2] = t(X * Y);
  r[3] = t(X / D);
  r[4] = t(Y % D2);
  r[5] = t(static_cast<int64_t>(static_cast<uint64_t>(X) << shift));
  r[6] = t(X >> shift);
  r[7] = t(X & Y);
  r[8] = t(X | Y);
  r[9] = t(X ^ Y);
  r[10] = t(~X);
  r[11] = t(-X);
  r[12] = X < Y;
  r[13] = X >= Y;
  r[14] = X == Y;
  r[15] = std::min(x, y);
  r[16] = std::max(x, y);
  r[17] = t(X < 0 ? -X : X);
  r[18] = clampTo<T>(X + Y);
  r[19] = clampTo<T>(X - Y);
  r[20] = t((X + Y) >> 1);
  r[21] = t((X + Y + 1) >> 1);
  r[22] = t((X * Y) >> kBits);
  r[23] = static_cast<T>(std::countl_zero(ux));
  r[24] = static_cast<T>(std::popcount(ux));
  r[25] = static_cast<T>(std::rotl(ux, rotation));
  r[26] = t(X > Y ? X - Y : Y - X);
  r[27] = clampTo<T>(X * Y + X);
  return r;
}

const char* const kOpNames[28] = {
    "+",    "-",     "*",      "/",   "%",        "<<",     ">>",       "&",      "|",       "^",
    "~",    "neg",   "<",      ">=",  "==",       "min",    "max",      "abs",    "add_sat", "sub_sat",
    "hadd", "rhadd", "mul_hi", "clz", "popcount", "rotate", "abs_diff", "mad_sat"};

// Every pair for 8-bit types; for 16-bit ones, every pair of edge values and random pairs.
template <typename T>
void pairsOf(std::vector<T>& a, std::vector<T>& b) {
  if constexpr (sizeof(T) == 1) {
    for (int i = 0; i < 256; ++i)
      for (int j = 0; j < 256; ++j) a.push_back(static_cast<T>(i)), b.push_back(static_cast<T>(j));
    return;
  }
  std::vector<uint16_t> edges = {0,      1,      2,      3,      7,      8,      15,     16,     17,
                                 127,    128,    255,    256,    1000,   12345,  0x5555, 0x7ffe, 0x7fff,
                                 0x8000, 0x8001, 0xaaaa, 0xfffe, 0xffff, 0xff00, 0x00ff};
  for (uint16_t i : edges)
    for (uint16_t j : edges) a.push_back(static_cast<T>(i)), b.push_back(static_cast<T>(j));
  std::mt19937 random(15);
  for (int k = 0; k < 30000; ++k) a.push_back(static_cast<T>(random())), b.push_back(static_cast<T>(random()));
}

template <typename T>
void checkOperators(NarrowIntegers& fixture, const std::string& name) {
  auto k = fixture.kernel("narrow_integers", "ops_" + name);
  ASSERT_TRUE(k);
  std::vector<T> a, b;
  pairsOf(a, b);
  size_t n = a.size();
  auto da = fixture.buffer(a), db = fixture.buffer(b), dout = fixture.buffer(std::vector<T>(28 * n, 0));
  fixture.run(*k, KernelTest::range1d(n, 64), {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dout)});
  auto out = fixture.template read<T>(dout, 28 * n);
  int failures = 0;
  for (size_t i = 0; i < n && failures < 20; ++i) {
    std::array<T, 28> expected = reference(a[i], b[i]);
    for (int op = 0; op < 28; ++op) {
      if (out[28 * i + op] == expected[op]) continue;
      ADD_FAILURE() << name << " " << kOpNames[op] << " of " << +a[i] << " and " << +b[i] << ": got "
                    << +out[28 * i + op] << ", expected " << +expected[op];
      ++failures;
    }
  }
}

TEST_P(NarrowIntegers, TheTranslationHasNoEightOrSixteenBitTypes) {
  auto translation = translate("narrow_integers");
  ASSERT_TRUE(translation);
  EXPECT_FALSE(translation->reflection.requirements.int8);
  EXPECT_FALSE(translation->reflection.requirements.int16);
  EXPECT_FALSE(translation->reflection.requirements.storageBuffer8BitAccess);
  EXPECT_FALSE(translation->reflection.requirements.storageBuffer16BitAccess);
  EXPECT_FALSE(translation->reflection.requirements.float16) << "half_round_trip keeps no 16-bit float";
}

TEST_P(NarrowIntegers, CharOperatorsOverAllPairs) { checkOperators<int8_t>(*this, "char"); }
TEST_P(NarrowIntegers, UcharOperatorsOverAllPairs) { checkOperators<uint8_t>(*this, "uchar"); }
TEST_P(NarrowIntegers, ShortOperatorsOverEdgesAndRandomPairs) { checkOperators<int16_t>(*this, "short"); }
TEST_P(NarrowIntegers, UshortOperatorsOverEdgesAndRandomPairs) { checkOperators<uint16_t>(*this, "ushort"); }

// Round half to even, as convert_*_rte does (the test's inputs are far from overflow).
int64_t roundHalfEven(float f) { return static_cast<int64_t>(std::nearbyint(static_cast<double>(f))); }

TEST_P(NarrowIntegers, ConversionsToAndFromEveryWidth) {
  auto k = kernel("narrow_integers", "narrow_conversions");
  ASSERT_TRUE(k);
  const size_t n = 1024;
  std::vector<int8_t> c(n);
  std::vector<int16_t> s(n);
  std::vector<int32_t> ints(n);
  std::vector<float> f(n);
  std::mt19937 random(7);
  const int32_t intEdges[] = {0,
                              1,
                              -1,
                              127,
                              128,
                              -128,
                              -129,
                              255,
                              256,
                              32767,
                              32768,
                              -32768,
                              -32769,
                              65535,
                              std::numeric_limits<int32_t>::min(),
                              std::numeric_limits<int32_t>::max()};
  const float floatEdges[] = {0.0f,   -0.0f,   0.5f,    1.5f,   2.5f,   -0.5f,  -1.5f,   -2.5f, 126.5f,
                              127.5f, -127.5f, -128.5f, 254.5f, 255.5f, 300.0f, -300.0f, 1e10f, -1e10f};
  for (size_t i = 0; i < n; ++i) {
    c[i] = static_cast<int8_t>(i);
    s[i] = static_cast<int16_t>(i < 256 ? (i << 8) | i : random());
    ints[i] = i < std::size(intEdges) ? intEdges[i] : static_cast<int32_t>(random()) >> (i % 24);
    f[i] = i < std::size(floatEdges) ? floatEdges[i]
                                     : static_cast<float>(static_cast<int32_t>(random() % 80000) - 40000) / 128.0f;
  }
  auto dc = buffer(c), ds = buffer(s), dn = buffer(ints), df = buffer(f);
  auto wide = buffer(std::vector<int32_t>(2 * n)), real = buffer(std::vector<float>(2 * n));
  auto lng = buffer(std::vector<int64_t>(2 * n)), toChar = buffer(std::vector<int8_t>(3 * n));
  auto toShort = buffer(std::vector<int16_t>(3 * n)), toUchar = buffer(std::vector<uint8_t>(2 * n));
  run(*k, range1d(n, 64),
      {KernelArg::buffer(dc), KernelArg::buffer(ds), KernelArg::buffer(dn), KernelArg::buffer(df),
       KernelArg::buffer(wide), KernelArg::buffer(real), KernelArg::buffer(lng), KernelArg::buffer(toChar),
       KernelArg::buffer(toShort), KernelArg::buffer(toUchar)});
  auto w = read<int32_t>(wide, 2 * n);
  auto r = read<float>(real, 2 * n);
  auto l = read<int64_t>(lng, 2 * n);
  auto tc = read<int8_t>(toChar, 3 * n);
  auto ts = read<int16_t>(toShort, 3 * n);
  auto tu = read<uint8_t>(toUchar, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    int8_t x = c[i];
    int16_t y = s[i];
    SCOPED_TRACE("item " + std::to_string(i) + ": char " + std::to_string(x) + ", short " + std::to_string(y) +
                 ", int " + std::to_string(ints[i]) + ", float " + std::to_string(f[i]));
    ASSERT_EQ(w[2 * i], x);
    ASSERT_EQ(w[2 * i + 1], static_cast<uint8_t>(x) + static_cast<uint16_t>(y));
    ASSERT_EQ(r[2 * i], static_cast<float>(x));
    ASSERT_EQ(r[2 * i + 1], static_cast<float>(static_cast<uint16_t>(y)));
    ASSERT_EQ(l[2 * i], y);
    ASSERT_EQ(l[2 * i + 1], static_cast<uint8_t>(x));
    ASSERT_EQ(tc[3 * i], static_cast<int8_t>(ints[i]));
    ASSERT_EQ(tc[3 * i + 1], clampTo<int8_t>(ints[i]));
    ASSERT_EQ(tc[3 * i + 2], clampTo<int8_t>(roundHalfEven(f[i])));
    ASSERT_EQ(ts[3 * i], x);
    ASSERT_EQ(ts[3 * i + 1], clampTo<int16_t>(ints[i]));
    ASSERT_EQ(ts[3 * i + 2], static_cast<uint8_t>(x));
    ASSERT_EQ(tu[2 * i], clampTo<uint8_t>(y));
    ASSERT_EQ(tu[2 * i + 1], clampTo<uint8_t>(static_cast<int64_t>(std::trunc(std::clamp(f[i], -1e9f, 1e9f)))));
  }
}

TEST_P(NarrowIntegers, VectorsSwizzlesAndBitCasts) {
  auto k = kernel("narrow_integers", "narrow_vectors");
  ASSERT_TRUE(k);
  const size_t n = 512;
  std::mt19937 random(3);
  std::vector<int8_t> a(4 * n), w(16 * n);
  std::vector<int16_t> b(2 * n);
  for (auto& v : a) v = static_cast<int8_t>(random());
  for (auto& v : w) v = static_cast<int8_t>(random());
  for (auto& v : b) v = static_cast<int16_t>(random());
  auto da = buffer(a), db = buffer(b), dw = buffer(w), bits = buffer(std::vector<int32_t>(2 * n));
  auto sum = buffer(std::vector<int8_t>(4 * n)), prod = buffer(std::vector<int16_t>(2 * n));
  auto wide = buffer(std::vector<int8_t>(16 * n)), asLong = buffer(std::vector<int64_t>(n));
  run(*k, range1d(n, 32),
      {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dw), KernelArg::buffer(bits),
       KernelArg::buffer(sum), KernelArg::buffer(prod), KernelArg::buffer(wide), KernelArg::buffer(asLong)});
  auto gotBits = read<int32_t>(bits, 2 * n);
  auto gotSum = read<int8_t>(sum, 4 * n);
  auto gotProd = read<int16_t>(prod, 2 * n);
  auto gotWide = read<int8_t>(wide, 16 * n);
  auto gotLong = read<int64_t>(asLong, n);
  auto c8 = [](int v) { return static_cast<int8_t>(static_cast<uint8_t>(v)); };
  for (size_t i = 0; i < n; ++i) {
    SCOPED_TRACE("item " + std::to_string(i));
    const int8_t* x = &a[4 * i];
    const int16_t* y = &b[2 * i];
    const int scale[4] = {3, -1, 5, 7};
    for (int j = 0; j < 4; ++j) ASSERT_EQ(gotSum[4 * i + j], c8(x[j] + x[3 - j] * scale[j])) << j;
    ASSERT_EQ(gotProd[2 * i], static_cast<int16_t>(y[0] * y[1] - 1));
    ASSERT_EQ(gotProd[2 * i + 1], static_cast<int16_t>(y[1] * y[0] - 2));
    int8_t plusOne[4];
    for (int j = 0; j < 4; ++j) plusOne[j] = c8(x[j] + 1);
    int32_t first, shortBits, shifted;
    std::memcpy(&first, plusOne, 4);
    ASSERT_EQ(gotBits[2 * i], first);
    int8_t halves[4];
    for (int j = 0; j < 4; ++j) halves[j] = static_cast<int8_t>(plusOne[j] >> 1);
    std::memcpy(&shortBits, y, 4);
    std::memcpy(&shifted, halves, 4);
    ASSERT_EQ(gotBits[2 * i + 1], shortBits ^ shifted);
    const int8_t* v = &w[16 * i];
    for (int j = 0; j < 16; ++j) ASSERT_EQ(gotWide[16 * i + j], c8(v[j] * 3 + v[(j + 15) % 16])) << j;
    uint64_t lo, hi;
    std::memcpy(&lo, v, 8);
    std::memcpy(&hi, v + 8, 8);
    ASSERT_EQ(static_cast<uint64_t>(gotLong[i]), lo + hi);
  }
}

// Without 8/16-bit storage a byte store is a read-modify-write of its word: done plainly, the
// neighbours' stores in between would be lost.
TEST_P(NarrowIntegers, NeighboursStoringBytesOfOneWordDoNotRace) {
  auto k = kernel("narrow_integers", "byte_stores");
  ASSERT_TRUE(k);
  const size_t n = 8192;
  const int32_t repeats = 64;
  auto bytes = buffer(std::vector<uint8_t>(n, 0xee)), shorts = buffer(std::vector<int16_t>(n, 0x5555));
  run(*k, range1d(n, 64), {KernelArg::buffer(bytes), KernelArg::buffer(shorts), KernelArg::value(repeats)});
  auto gotBytes = read<uint8_t>(bytes, n);
  auto gotShorts = read<int16_t>(shorts, n);
  for (size_t i = 0; i < n; ++i) {
    ASSERT_EQ(gotBytes[i], static_cast<uint8_t>(i * 7 + repeats - 1)) << i;
    ASSERT_EQ(gotShorts[i], static_cast<int16_t>(static_cast<uint16_t>(i * 1001 - (repeats - 1)))) << i;
  }
}

TEST_P(NarrowIntegers, StoresOfOneValueNeverShowAnother) {
  auto k = kernel("narrow_integers", "same_value_stores");
  ASSERT_TRUE(k);
  const size_t n = 32768;
  auto flags = buffer(std::vector<uint8_t>(8, 0)), marks = buffer(std::vector<int16_t>(8, 0));
  auto otherwise = buffer(std::vector<uint32_t>(8 * n, 99));
  run(*k, range1d(n, 64), {KernelArg::buffer(flags), KernelArg::buffer(marks), KernelArg::buffer(otherwise)});
  auto seen = read<uint32_t>(otherwise, 8 * n);
  EXPECT_EQ(std::count(seen.begin(), seen.end(), 0u), static_cast<std::ptrdiff_t>(8 * n))
      << "reads of a stored byte or short as another value; the first by work-item "
      << std::distance(seen.begin(), std::find_if(seen.begin(), seen.end(), [](uint32_t v) { return v != 0; })) / 8;
}

struct Mixed {
  int8_t c;
  int16_t s;
  int32_t n;
  uint8_t v[4];
  int8_t tail[3];
};
static_assert(sizeof(Mixed) == 16 && offsetof(Mixed, n) == 4 && offsetof(Mixed, tail) == 12);

TEST_P(NarrowIntegers, StructOfMixedSizesInABuffer) {
  auto k = kernel("narrow_integers", "mixed_struct");
  ASSERT_TRUE(k);
  const size_t n = 300;
  std::mt19937 random(11);
  std::vector<Mixed> m(n);
  for (Mixed& x : m) {
    x.c = static_cast<int8_t>(random());
    x.s = static_cast<int16_t>(random());
    x.n = static_cast<int32_t>(random());
    for (auto& b : x.v) b = static_cast<uint8_t>(random());
    for (auto& b : x.tail) b = static_cast<int8_t>(random());
  }
  auto dm = buffer(m);
  run(*k, range1d(n, 30), {KernelArg::buffer(dm)});
  auto got = read<Mixed>(dm, n);
  for (size_t i = 0; i < n; ++i) {
    Mixed x = m[i];
    x.c = static_cast<int8_t>(x.c * 2 + 1);
    x.s = static_cast<int16_t>(x.s - x.c);
    x.n = static_cast<int32_t>(static_cast<uint32_t>(x.n) + static_cast<uint32_t>(static_cast<int32_t>(x.s)));
    uint8_t v[4] = {static_cast<uint8_t>(x.v[1] + 1), static_cast<uint8_t>(x.v[2] + 2),
                    static_cast<uint8_t>(x.v[3] + 3), static_cast<uint8_t>(x.v[0] + 4)};
    std::memcpy(x.v, v, 4);
    x.tail[i % 3] = static_cast<int8_t>(x.tail[0] ^ static_cast<int8_t>(i));
    Mixed g = got[i];
    ASSERT_EQ(g.c, x.c) << i;
    ASSERT_EQ(g.s, x.s) << i;
    ASSERT_EQ(g.n, x.n) << i;
    for (int j = 0; j < 4; ++j) ASSERT_EQ(g.v[j], x.v[j]) << i << "." << j;
    for (int j = 0; j < 3; ++j) ASSERT_EQ(g.tail[j], x.tail[j]) << i << "." << j;
  }
}

TEST_P(NarrowIntegers, LocalAndPrivateArrays) {
  auto k = kernel("narrow_integers", "narrow_local_private");
  ASSERT_TRUE(k);
  const size_t n = 512, local = 64;
  std::vector<uint8_t> in(n);
  std::mt19937 random(5);
  for (auto& v : in) v = static_cast<uint8_t>(random());
  auto din = buffer(in), dout = buffer(std::vector<uint16_t>(n));
  run(*k, range1d(n, local), {KernelArg::buffer(din), KernelArg::buffer(dout), KernelArg::local(local)});
  auto out = read<uint16_t>(dout, n);
  for (size_t g = 0; g < n; ++g) {
    size_t base = g - g % local, l = g % local;
    int scratch = in[base + local - 1 - l];
    int table = static_cast<int16_t>(in[base + (l + 1) % local] * -3);
    int priv = static_cast<uint8_t>(in[g] + (in[g] & 7) * 40);
    ASSERT_EQ(out[g], static_cast<uint16_t>(scratch + table + priv)) << g;
  }
}

TEST_P(NarrowIntegers, Char16ElementsAtRunTimeIndices) {
  auto k = kernel("narrow_integers", "char16_dynamic");
  ASSERT_TRUE(k);
  const size_t n = 64;
  std::vector<int8_t> in(16 * n);
  std::vector<int32_t> index(n);
  std::mt19937 random(16);
  for (auto& v : in) v = static_cast<int8_t>(random());
  for (auto& v : index) v = static_cast<int32_t>(random() % 40);
  auto din = buffer(in), dindex = buffer(index), dpicked = buffer(std::vector<int8_t>(n)),
       dout = buffer(std::vector<int8_t>(16 * n));
  run(*k, range1d(n, 16),
      {KernelArg::buffer(din), KernelArg::buffer(dindex), KernelArg::buffer(dpicked), KernelArg::buffer(dout)});
  auto picked = read<int8_t>(dpicked, n);
  auto out = read<int8_t>(dout, 16 * n);
  for (size_t i = 0; i < n; ++i) {
    size_t element = index[i] & 15;
    ASSERT_EQ(picked[i], in[16 * i + element]) << i;
    for (size_t c = 0; c < 16; ++c) {
      int8_t expected = c == ((element + 3) & 15) ? static_cast<int8_t>(i * 7) : in[16 * i + c];
      ASSERT_EQ(out[16 * i + c], expected) << i << "." << c;
    }
  }
}

float halfToFloat(uint16_t h) {
  int exponent = (h >> 10) & 31, fraction = h & 0x3ff;
  float magnitude = exponent == 0 ? std::ldexp(static_cast<float>(fraction), -24)
                    : exponent == 31
                        ? (fraction ? std::numeric_limits<float>::quiet_NaN() : std::numeric_limits<float>::infinity())
                        : std::ldexp(static_cast<float>(fraction | 0x400), exponent - 25);
  return h & 0x8000 ? -magnitude : magnitude;
}

// IEEE binary16 bits of `f`, rounded to nearest even or toward zero.
uint16_t floatToHalf(float f, bool nearestEven) {
  uint16_t sign = std::signbit(f) ? 0x8000 : 0;
  double a = std::fabs(static_cast<double>(f));
  if (std::isnan(f)) return sign | 0x7e00;
  if (std::isinf(f)) return sign | 0x7c00;
  if (!nearestEven && a >= 65536.0) return sign | 0x7bff;  // toward zero: the largest finite half
  int e;
  std::frexp(a, &e);
  double quantum = a < 0x1p-14 ? 0x1p-24 : std::ldexp(1.0, e - 11);
  double units = a / quantum;  // exact
  double v = (nearestEven ? std::nearbyint(units) : std::trunc(units)) * quantum;
  if (v < 0x1p-14) return sign | static_cast<uint16_t>(v / 0x1p-24);
  std::frexp(v, &e);
  int exponent = e - 1 + 15;
  if (exponent >= 31) return sign | 0x7c00;
  return sign | static_cast<uint16_t>(exponent << 10) |
         static_cast<uint16_t>(std::ldexp(v, -(e - 1)) * 1024.0 - 1024.0);
}

// Every half bit pattern through vload_half, and float results stored with vstore_half (nearest
// even), vstore_half_rtz and vstorea_half4, without 16-bit storage or shaderFloat16.
TEST_P(NarrowIntegers, HalfStorageRoundTripsEveryBitPattern) {
  auto k = kernel("narrow_integers", "half_round_trip");
  ASSERT_TRUE(k);
  const size_t n = 65536;
  std::vector<uint16_t> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<uint16_t>(i);
  auto din = buffer(in), widened = buffer(std::vector<float>(n));
  auto nearest = buffer(std::vector<uint16_t>(n)), towardZero = buffer(std::vector<uint16_t>(n));
  auto quarters = buffer(std::vector<uint16_t>(n));
  run(*k, range1d(n, 64),
      {KernelArg::buffer(din), KernelArg::buffer(widened), KernelArg::buffer(nearest), KernelArg::buffer(towardZero),
       KernelArg::buffer(quarters)});
  auto gotWide = read<float>(widened, n);
  auto gotNearest = read<uint16_t>(nearest, n);
  auto gotZero = read<uint16_t>(towardZero, n);
  auto gotQuarters = read<uint16_t>(quarters, n);
  auto sameHalf = [](uint16_t got, uint16_t expected) {
    bool gotNan = (got & 0x7c00) == 0x7c00 && (got & 0x3ff),
         expectedNan = (expected & 0x7c00) == 0x7c00 && (expected & 0x3ff);
    return gotNan || expectedNan ? gotNan == expectedNan : got == expected;
  };
  int failures = 0;
  for (size_t i = 0; i < n && failures < 20; ++i) {
    float x = halfToFloat(in[i]);
    std::string what = "half 0x" + std::to_string(in[i]) + " (" + std::to_string(x) + ")";
    if (std::isnan(x) ? !std::isnan(gotWide[i]) : std::bit_cast<uint32_t>(gotWide[i]) != std::bit_cast<uint32_t>(x))
      ADD_FAILURE() << "vload_half of " << what << ": " << gotWide[i], ++failures;
    float tripled = x * 3.0f;
    if (!sameHalf(gotNearest[i], floatToHalf(tripled, true)))
      ADD_FAILURE() << "vstore_half of 3 * " << what << ": " << gotNearest[i] << ", expected "
                    << floatToHalf(tripled, true),
          ++failures;
    if (!sameHalf(gotZero[i], floatToHalf(tripled, false)))
      ADD_FAILURE() << "vstore_half_rtz of 3 * " << what << ": " << gotZero[i] << ", expected "
                    << floatToHalf(tripled, false),
          ++failures;
    if (!sameHalf(gotQuarters[i], floatToHalf(x * 0.25f, true)))
      ADD_FAILURE() << "vstorea_half4 of " << what << " / 4: " << gotQuarters[i] << ", expected "
                    << floatToHalf(x * 0.25f, true),
          ++failures;
  }
}

// Each sub-group's items, found from the sub-group and lane the kernel reports for each item.
TEST_P(NarrowIntegers, SubGroupCollectivesOnCharAndShort) {
  auto k = kernel("narrow_integers", "narrow_sub_groups");
  ASSERT_TRUE(k);
  const size_t n = 1024;
  std::mt19937 random(9);
  std::vector<int8_t> a(n);
  std::vector<int16_t> b(n);
  for (auto& v : a) v = static_cast<int8_t>(random());
  for (auto& v : b) v = static_cast<int16_t>(random());
  auto da = buffer(a), db = buffer(b), chars = buffer(std::vector<int8_t>(5 * n));
  auto shorts = buffer(std::vector<int16_t>(2 * n)), where = buffer(std::vector<int32_t>(2 * n));
  run(*k, range1d(n, 64),
      {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(chars), KernelArg::buffer(shorts),
       KernelArg::buffer(where)});
  auto gotChars = read<int8_t>(chars, 5 * n);
  auto gotShorts = read<int16_t>(shorts, 2 * n);
  auto at = read<int32_t>(where, 2 * n);
  std::map<int32_t, std::vector<size_t>> subGroups;  // items by lane
  for (size_t i = 0; i < n; ++i) {
    auto& lanes = subGroups[at[2 * i]];
    size_t lane = static_cast<size_t>(at[2 * i + 1]);
    if (lanes.size() <= lane) lanes.resize(lane + 1, n);
    lanes[lane] = i;
  }
  for (const auto& [key, lanes] : subGroups) {
    ASSERT_GE(lanes.size(), 2u) << "sub-group " << key;
    int sum = 0, maximum = -128, umaximum = 0, minimum16 = 32767;
    for (size_t item : lanes) {
      ASSERT_LT(item, n) << "sub-group " << key << " has a lane no item reported";
      sum += a[item];
      maximum = std::max<int>(maximum, a[item]);
      umaximum = std::max<int>(umaximum, static_cast<uint8_t>(a[item]));
      minimum16 = std::min<int>(minimum16, b[item]);
    }
    int scanMin = 127, scanSum = 0;
    for (size_t lane = 0; lane < lanes.size(); ++lane) {
      size_t i = lanes[lane];
      scanMin = std::min<int>(scanMin, a[i]);
      SCOPED_TRACE("sub-group " + std::to_string(key) + ", lane " + std::to_string(lane));
      ASSERT_EQ(gotChars[5 * i], static_cast<int8_t>(sum));
      ASSERT_EQ(gotChars[5 * i + 1], maximum);
      ASSERT_EQ(gotChars[5 * i + 2], scanMin);
      ASSERT_EQ(gotChars[5 * i + 3], a[lanes[1]]);
      ASSERT_EQ(gotChars[5 * i + 4], static_cast<int8_t>(umaximum));
      ASSERT_EQ(gotShorts[2 * i], minimum16);
      ASSERT_EQ(gotShorts[2 * i + 1], static_cast<int16_t>(scanSum));
      scanSum += b[i];
    }
  }
}

struct NarrowArgument {
  uint8_t x;
  int16_t y;
  int8_t z[4];  // char3: sized and aligned like char4
};
static_assert(sizeof(NarrowArgument) == 8 && offsetof(NarrowArgument, z) == 4);

TEST_P(NarrowIntegers, PointersWalkedByteByByteArgumentsAndChar3) {
  auto k = kernel("narrow_integers", "narrow_pointers_and_arguments");
  ASSERT_TRUE(k);
  const size_t n = 256;
  std::mt19937 random(13);
  std::vector<int8_t> even(2 * n + 4), odd(2 * n + 4), bytes(3 * n), triples(4 * n);
  for (auto* values : {&even, &odd, &bytes, &triples})
    for (auto& v : *values) v = static_cast<int8_t>(random());
  const int8_t step = -3;
  NarrowArgument argument{200, -1234, {9, 8, 7, 0}};
  auto dEven = buffer(even), dOdd = buffer(odd), dBytes = buffer(bytes), dTriples = buffer(triples);
  auto dPacked = buffer(std::vector<uint8_t>(3 * n));
  run(*k, range1d(n, 64),
      {KernelArg::buffer(dEven), KernelArg::buffer(dOdd), KernelArg::value(step), KernelArg::value(argument),
       KernelArg::buffer(dBytes), KernelArg::buffer(dPacked), KernelArg::buffer(dTriples)});
  auto gotEven = read<int8_t>(dEven, even.size());
  auto gotOdd = read<int8_t>(dOdd, odd.size());
  auto gotTriples = read<int8_t>(dTriples, triples.size());
  auto gotPacked = read<uint8_t>(dPacked, 3 * n);
  // Even items walk even[2i .. 2i+2], odd ones odd[2i-2 .. 2i]: disjoint bytes, shared words.
  std::vector<int8_t> expectedEven = even, expectedOdd = odd;
  for (size_t i = 0; i < n; ++i) {
    for (int k = 0; k < 3; ++k) {
      int8_t& byte = i & 1 ? expectedOdd[(i - 1) * 2 + k] : expectedEven[i * 2 + k];
      byte = static_cast<int8_t>(byte + step + argument.x + k);
    }
  }
  EXPECT_EQ(gotEven, expectedEven);
  EXPECT_EQ(gotOdd, expectedOdd);
  for (size_t i = 0; i < n; ++i) {
    const int8_t* t = &bytes[3 * i];
    int8_t add[3] = {argument.z[0], static_cast<int8_t>(argument.y), 3};
    for (int c = 0; c < 3; ++c)
      ASSERT_EQ(static_cast<int8_t>(gotPacked[3 * i + c]), static_cast<int8_t>(t[c] + add[c])) << i << "." << c;
    for (int c = 0; c < 3; ++c) ASSERT_EQ(gotTriples[4 * i + c], triples[4 * i + 2 - c]) << i << "." << c;
  }
}

TEST_P(NarrowIntegers, MoreCharBuiltinsOverAllPairs) {
  auto k = kernel("narrow_integers", "more_char_builtins");
  ASSERT_TRUE(k);
  std::vector<int8_t> a, b;
  pairsOf(a, b);
  size_t n = a.size();
  auto da = buffer(a), db = buffer(b), dout = buffer(std::vector<int8_t>(6 * n)),
       dwide = buffer(std::vector<int16_t>(n));
  run(*k, range1d(n, 64),
      {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dout), KernelArg::buffer(dwide)});
  auto out = read<int8_t>(dout, 6 * n);
  auto wide = read<int16_t>(dwide, n);
  auto rotl = [](int8_t v, int8_t by) {
    return static_cast<int8_t>(std::rotl(static_cast<uint8_t>(v), static_cast<uint8_t>(by) % 8));
  };
  for (size_t i = 0; i < n; ++i) {
    int8_t x = a[i], y = b[i];
    uint8_t ux = static_cast<uint8_t>(x), uy = static_cast<uint8_t>(y);
    int8_t expected[6] = {
        static_cast<int8_t>(ux ? std::countr_zero(ux) : 8),
        static_cast<int8_t>((ux & ~0x5a) | (uy & 0x5a)),
        y ? y : x,  // a scalar select tests for non-zero (a vector one, the sign bit)
        static_cast<int8_t>(((x * y) >> 8) + x),
        static_cast<int8_t>(std::min(x, y) + rotl(x, y)),
        static_cast<int8_t>(std::min(x, y) + rotl(y, 3)),
    };
    SCOPED_TRACE("x " + std::to_string(x) + ", y " + std::to_string(y));
    for (int op = 0; op < 6; ++op) ASSERT_EQ(out[6 * i + op], expected[op]) << "result " << op;
    ASSERT_EQ(wide[i], static_cast<int16_t>(static_cast<uint16_t>(ux << 8 | uy)));
  }
}

#pragma pack(push, 1)
struct PackedNarrow {
  int8_t c;
  int32_t n;
  int16_t s;
};
#pragma pack(pop)
static_assert(sizeof(PackedNarrow) == 7);

// Neighbouring structs share words and their members straddle them.
TEST_P(NarrowIntegers, PackedStructMembersStraddlingWords) {
  auto k = kernel("narrow_integers", "packed_narrow_struct");
  ASSERT_TRUE(k);
  const size_t n = 500;
  std::mt19937 random(17);
  std::vector<PackedNarrow> p(n);
  for (PackedNarrow& x : p)
    x = {static_cast<int8_t>(random()), static_cast<int32_t>(random()), static_cast<int16_t>(random())};
  auto dp = buffer(p);
  run(*k, range1d(n, 50), {KernelArg::buffer(dp)});
  auto got = read<PackedNarrow>(dp, n);
  for (size_t i = 0; i < n; ++i) {
    PackedNarrow x = p[i], g = got[i];
    int32_t expectedN = static_cast<int32_t>(static_cast<uint32_t>(x.n) + static_cast<uint32_t>(x.c * x.s));
    int8_t expectedC = static_cast<int8_t>(x.c ^ 0x55);
    int16_t expectedS = static_cast<int16_t>(x.s - 7);
    int8_t gc = g.c;
    int32_t gn = g.n;
    int16_t gs = g.s;
    ASSERT_EQ(gc, expectedC) << i;
    ASSERT_EQ(gn, expectedN) << i;
    ASSERT_EQ(gs, expectedS) << i;
  }
}

// A switch on a char and on a short (at O2), over every short and every char.
TEST_P(NarrowIntegers, SwitchOnCharAndShort) {
  auto k = kernel("narrow_integers", "narrow_switch");
  ASSERT_TRUE(k);
  const size_t n = 65536;
  std::vector<int8_t> c(n);
  std::vector<int16_t> s(n);
  for (size_t i = 0; i < n; ++i) {
    s[i] = static_cast<int16_t>(static_cast<uint16_t>(i));
    c[i] = static_cast<int8_t>(static_cast<uint8_t>(i * 7));
  }
  auto dc = buffer(c), ds = buffer(s), dout = buffer(std::vector<int32_t>(n));
  run(*k, range1d(n, 64), {KernelArg::buffer(dc), KernelArg::buffer(ds), KernelArg::buffer(dout)});
  auto out = read<int32_t>(dout, n);
  const std::map<int, int> charCases = {{-128, 1}, {-1, 2}, {0, 3}, {5, 4}, {'a', 5}, {127, 6}};
  const std::map<int, int> shortCases = {{-32768, 1}, {-129, 2}, {-1, 3}, {128, 4}, {255, 5}, {32767, 6}};
  auto caseOf = [](const std::map<int, int>& cases, int value) {
    auto found = cases.find(value);
    return found == cases.end() ? 0 : found->second;
  };
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], caseOf(charCases, c[i]) + 10 * caseOf(shortCases, s[i]))
        << "char " << int{c[i]} << ", short " << s[i];
}

CL2VK_KERNEL_TEST_SUITE(NarrowIntegers, "O0", "O2");

}  // namespace
}  // namespace cl2vk::test
