// char and short kernels (spirv/kernels/narrow_integers.cl) translated for a device without
// shaderInt8, shaderInt16 and 8/16-bit storage, so that lower-narrow-integers computes them in
// 32 bits and reaches buffers through words, on the shared device (lavapipe has them all, which
// is why the suite takes them away); every result compared exactly with the CPU.

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class NarrowIntegers : public KernelTest {
 public:
  void adjustTarget(Target& target) const override {
    target.int8 = target.int16 = target.storage8 = target.storage16 = false;
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
}

TEST_P(NarrowIntegers, CharOperatorsOverAllPairs) { checkOperators<int8_t>(*this, "char"); }
TEST_P(NarrowIntegers, UcharOperatorsOverAllPairs) { checkOperators<uint8_t>(*this, "uchar"); }
TEST_P(NarrowIntegers, ShortOperatorsOverEdgesAndRandomPairs) { checkOperators<int16_t>(*this, "short"); }
TEST_P(NarrowIntegers, UshortOperatorsOverEdgesAndRandomPairs) { checkOperators<uint16_t>(*this, "ushort"); }

CL2VK_KERNEL_TEST_SUITE(NarrowIntegers, "O0", "O2");

}  // namespace
}  // namespace cl2vk::test
