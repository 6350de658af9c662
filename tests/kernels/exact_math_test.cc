// Math functions OpenCL defines exactly (spirv/kernels/exact_math*.cl), checked bit for bit against
// the host on the Vulkan device:
// - fma correctly rounded for float, double and half: GLSL.std.450's Fma rounds the product and
//   the sum separately on llvmpipe and SwiftShader (Vulkan bounds it so), where the translation
//   takes the builtin library's integer form (Target::fusedFma);
// - frexp of denormals, which GLSL's FrexpStruct gave the smallest normal's exponent on llvmpipe;
// - asinpi, acospi, atanpi and atan2pi where their result is a simple fraction (0.5 at infinity,
//   0.75 for atan2pi(y, -y), 1 for acospi(-1)) and signed zeros (the CTS's math_edge_cases);
// - nextafter, minmag and maxmag, also of denormals on a device that flushes them (emulated), where
//   NVIDIA's gave results neither exact nor flushed; rsqrt of NaN (NVIDIA's double InverseSqrt
//   gave 0 for a signalling NaN).
// A device without CL_FP_DENORM may flush denormal operands and results of float arithmetic:
// where the device flushes (measured as the runtime measures it), fma inputs or results that are
// float denormals (before rounding) are left out, and the test prints how many.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ir/types.h"
#include "kernel_test_util.h"
#include "vulkan/float_denormal_probe.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class ExactMath : public KernelTest {
 protected:
  bool has64() const { return sharedDevice().info().features.shaderFloat64; }
  bool has16() const {
    const auto& features = sharedDevice().info().features;
    return features.shaderFloat16 && features.storageBuffer16BitAccess;
  }
  static bool keepsFloatDenormals() {
    static const bool kept = [] {
      Expected<bool> measured = vulkan::measureFloat32DenormalsKept(sharedDevice());
      return measured && *measured;
    }();
    return kept;
  }
};

template <typename T>
bool sameBits(T a, T b) {
  if (std::isnan(a) || std::isnan(b)) return std::isnan(a) && std::isnan(b);
  return a == b && std::signbit(a) == std::signbit(b);
}

template <typename T>
bool isDenormal(T x) {
  return x != 0 && std::fabs(x) < std::numeric_limits<T>::min();
}

// Zeros, infinities, NaN, the extremes, the smallest denormals and normals, and values near 1.
template <typename T>
std::vector<T> edgeValues() {
  using limits = std::numeric_limits<T>;
  return {T(0),
          -T(0),
          limits::infinity(),
          -limits::infinity(),
          limits::quiet_NaN(),
          limits::max(),
          -limits::max(),
          limits::min(),
          -limits::min(),
          limits::denorm_min(),
          -limits::denorm_min(),
          T(1),
          T(-1),
          T(1) + limits::epsilon(),
          T(1) - limits::epsilon() / 2,
          T(1.5),
          T(3)};
}

// Edge values of T (each against each), products that cancel the addend but for their rounding
// error, addends far above and below the product, and random bit patterns.
template <typename T, typename Bits>
void fmaInputs(std::vector<T>& a, std::vector<T>& b, std::vector<T>& c) {
  using limits = std::numeric_limits<T>;
  const std::vector<T> edges = edgeValues<T>();
  for (T x : edges)
    for (T y : edges)
      for (T z : edges) a.push_back(x), b.push_back(y), c.push_back(z);
  std::mt19937_64 random(29);
  std::uniform_real_distribution<T> unit(1, 2);
  for (int i = 0; i < 4096; ++i) {
    T x = unit(random), y = unit(random);
    // The product rounded, negated: the sum is the product's rounding error (or near it).
    T z = -(x * y) * (i % 3 == 0 ? T(1) : T(1) + limits::epsilon());
    a.push_back(x), b.push_back(y), c.push_back(i % 2 ? z : -z);
    // An addend 2^k away from the product, k across the whole significand and beyond it.
    int k = int(random() % (4 * limits::digits)) - 2 * limits::digits;
    a.push_back(x), b.push_back(-y), c.push_back(std::ldexp(unit(random), k));
  }
  for (int i = 0; i < 8192; ++i) {
    Bits bits[3];
    for (Bits& word : bits) word = Bits(random());
    T values[3];
    std::memcpy(values, bits, sizeof values);
    a.push_back(values[0]), b.push_back(values[1]), c.push_back(values[2]);
  }
}

template <typename T, typename Bits>
void checkFma(ExactMath& test, const std::string& file, const std::vector<std::string>& kernels, bool flushes) {
  std::vector<T> a, b, c;
  fmaInputs<T, Bits>(a, b, c);
  while (a.size() % 4 != 0) a.push_back(T(1)), b.push_back(T(1)), c.push_back(T(1));
  for (const std::string& name : kernels) {
    SCOPED_TRACE(name);
    auto k = test.kernel(file, name);
    ASSERT_TRUE(k);
    size_t width = name.ends_with("x4") ? 4 : 1;
    auto da = test.buffer(a), db = test.buffer(b), dc = test.buffer(c), dr = test.buffer(std::vector<T>(a.size()));
    test.run(*k, ExactMath::range1d(a.size() / width),
             {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dc), KernelArg::buffer(dr)});
    std::vector<T> results = test.read<T>(dr, a.size());
    size_t failures = 0, flushed = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      T expected = std::fma(a[i], b[i], c[i]);  // the C library's fma is correctly rounded
      // A result rounded up to the smallest normal was a denormal before rounding (flushed too).
      bool tiny = expected != 0 && std::fabs(expected) <= std::numeric_limits<T>::min();
      if (flushes && (isDenormal(a[i]) || isDenormal(b[i]) || isDenormal(c[i]) || tiny)) {
        ++flushed;
        continue;
      }
      if (sameBits(results[i], expected)) continue;
      if (failures++ < 5)
        ADD_FAILURE() << std::hexfloat << "fma(" << a[i] << ", " << b[i] << ", " << c[i] << ") = " << results[i]
                      << ", correctly rounded " << expected;
    }
    std::printf("%s: %zu inputs, %zu wrong", name.c_str(), a.size(), failures);
    if (flushed) std::printf(" (%zu with float denormals left out: the device flushes them)", flushed);
    std::printf("\n");
    EXPECT_EQ(failures, 0u);
  }
}

TEST_P(ExactMath, FmaIsCorrectlyRounded) {
  checkFma<float, uint32_t>(*this, "exact_math", {"fma_f32", "fma_f32x4"}, !keepsFloatDenormals());
}

TEST_P(ExactMath, DoubleFmaIsCorrectlyRounded) {
  if (!has64()) GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  checkFma<double, uint64_t>(*this, "exact_math_double", {"fma_f64"}, false);
}

// Half operands: their exact product has 22 bits and is a double, and the double fma of halves
// rounded to half is the correctly rounded half fma (a sum that double's rounding moves is at
// least 2^31 times smaller than the larger term, too small to reach a half's rounding midpoint).
TEST_P(ExactMath, HalfFmaIsCorrectlyRounded) {
  if (!has16()) GTEST_SKIP() << "the device has no shaderFloat16 or 16-bit storage: half kernels cannot run on it";
  std::vector<uint16_t> a, b, c;
  const uint16_t edges[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8001, 0x03ff,
                            0x0400, 0x7bff, 0xfbff, 0x3c00, 0xbc00, 0x3c01, 0x3bff, 0x4200};
  for (uint16_t x : edges)
    for (uint16_t y : edges)
      for (uint16_t z : edges) a.push_back(x), b.push_back(y), c.push_back(z);
  std::mt19937 random(31);
  for (int i = 0; i < 1 << 16; ++i) a.push_back(uint16_t(random())), b.push_back(uint16_t(random())), c.push_back(0);
  for (size_t i = a.size() - (1 << 16); i < a.size(); ++i) {
    // Every other addend cancels most of the product: -(a * b) rounded to half, or a random half.
    double product = halfValue(a[i]) * halfValue(b[i]);
    c[i] = i % 2 ? uint16_t(random()) : ir::floatToHalfBits(-product);
  }
  auto k = kernel("exact_math_half", "fma_f16");
  ASSERT_TRUE(k);
  auto da = buffer(a), db = buffer(b), dc = buffer(c), dr = buffer(std::vector<uint16_t>(a.size()));
  run(*k, range1d(a.size()),
      {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dc), KernelArg::buffer(dr)});
  std::vector<uint16_t> results = read<uint16_t>(dr, a.size());
  size_t failures = 0;
  for (size_t i = 0; i < a.size(); ++i) {
    double exact = std::fma(halfValue(a[i]), halfValue(b[i]), halfValue(c[i]));
    uint16_t expected = ir::floatToHalfBits(exact);
    if (std::isnan(exact) ? std::isnan(halfValue(results[i])) : results[i] == expected) continue;
    if (failures++ < 5)
      ADD_FAILURE() << std::hexfloat << "fma(" << halfValue(a[i]) << ", " << halfValue(b[i]) << ", " << halfValue(c[i])
                    << ") = " << halfValue(results[i]) << ", correctly rounded " << halfValue(expected);
  }
  EXPECT_EQ(failures, 0u) << "over " << a.size() << " inputs";
}

template <typename T>
void checkFrexp(ExactMath& test, const std::string& file, const std::string& name, const std::vector<T>& xs) {
  auto k = test.kernel(file, name);
  ASSERT_TRUE(k);
  auto dx = test.buffer(xs), dm = test.buffer(std::vector<T>(xs.size())),
       de = test.buffer(std::vector<int32_t>(xs.size()));
  test.run(*k, ExactMath::range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dm), KernelArg::buffer(de)});
  std::vector<T> mantissas = test.read<T>(dm, xs.size());
  std::vector<int32_t> exponents = test.read<int32_t>(de, xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    int exponent = 0;
    T mantissa = std::frexp(xs[i], &exponent);
    if (std::isinf(xs[i]) || std::isnan(xs[i])) exponent = 0;  // OpenCL's; C leaves it unspecified
    EXPECT_TRUE(sameBits(mantissas[i], mantissa) && exponents[i] == exponent)
        << std::hexfloat << name << "(" << xs[i] << ") = {" << mantissas[i] << ", " << exponents[i] << "}, exactly {"
        << mantissa << ", " << exponent << "}";
  }
}

// Every denormal's leading bit position (both signs), normals, zeros, infinities and NaN. The
// integer lowering takes no float arithmetic, so flushing devices get denormals right too.
template <typename T>
std::vector<T> frexpInputs() {
  using limits = std::numeric_limits<T>;
  std::vector<T> xs = {T(0), -T(0),   limits::infinity(), -limits::infinity(), limits::quiet_NaN(),
                       T(1), T(-3.5), limits::max(),      limits::min(),       -limits::min()};
  for (int bit = 0; bit < limits::digits - 1; ++bit) {
    T denormal = std::ldexp(T(1), limits::min_exponent - limits::digits + bit);
    xs.push_back(denormal);
    xs.push_back(-denormal * T(1.5));
  }
  return xs;
}

TEST_P(ExactMath, FrexpOfDenormalsIsExact) {
  checkFrexp<float>(*this, "exact_math", "frexp_f32", frexpInputs<float>());
  if (has64()) checkFrexp<double>(*this, "exact_math_double", "frexp_f64", frexpInputs<double>());
}

TEST_P(ExactMath, HalfFrexpIsExact) {
  if (!has16()) GTEST_SKIP() << "the device has no shaderFloat16 or 16-bit storage: half kernels cannot run on it";
  std::vector<uint16_t> xs;
  for (uint32_t bits = 0; bits < 0x10000; ++bits) xs.push_back(uint16_t(bits));
  auto k = kernel("exact_math_half", "frexp_f16");
  ASSERT_TRUE(k);
  auto dx = buffer(xs), dm = buffer(std::vector<uint16_t>(xs.size())), de = buffer(std::vector<int32_t>(xs.size()));
  run(*k, range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dm), KernelArg::buffer(de)});
  std::vector<uint16_t> mantissas = read<uint16_t>(dm, xs.size());
  std::vector<int32_t> exponents = read<int32_t>(de, xs.size());
  size_t failures = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    double x = halfValue(xs[i]);
    int exponent = 0;
    double mantissa = std::frexp(x, &exponent);
    if (std::isinf(x) || std::isnan(x)) exponent = 0;
    if (sameBits(halfValue(mantissas[i]), mantissa) && exponents[i] == exponent) continue;
    if (failures++ < 5)
      ADD_FAILURE() << std::hexfloat << "frexp(" << x << ") = {" << halfValue(mantissas[i]) << ", " << exponents[i]
                    << "}, exactly {" << mantissa << ", " << exponent << "}";
  }
  EXPECT_EQ(failures, 0u) << "over every half";
}

// ldexp(x, n) for x among frexp's inputs (every denormal's leading bit, the extremes) and n across
// and far past the exponent range (the CTS's math_brute_force found llvmpipe's GLSL Ldexp finite
// for a denormal x and n = 948564122). Where the device flushes float denormals, a float result
// that is a denormal may be its signed zero.
template <typename T>
void checkLdexp(ExactMath& test, const std::string& file, const std::string& name, bool mayFlush) {
  using limits = std::numeric_limits<T>;
  const int span = limits::max_exponent - limits::min_exponent + limits::digits;
  std::vector<int32_t> exponents = {
      0,        1,     -1,       7,         -7,        limits::max_exponent, -limits::max_exponent,
      span,     -span, span + 1, -span - 1, 948564122, -948564122,           INT32_MAX,
      INT32_MIN};
  for (int n = -2 * span; n <= 2 * span; n += 37) exponents.push_back(n);
  std::vector<T> xs;
  std::vector<int32_t> ns;
  for (T x : frexpInputs<T>()) {
    for (int32_t n : exponents) {
      xs.push_back(x);
      ns.push_back(n);
    }
  }
  auto k = test.kernel(file, name);
  ASSERT_TRUE(k);
  auto dx = test.buffer(xs), dn = test.buffer(ns), dr = test.buffer(std::vector<T>(xs.size()));
  test.run(*k, ExactMath::range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dn), KernelArg::buffer(dr)});
  std::vector<T> results = test.read<T>(dr, xs.size());
  size_t failures = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    T exact = std::ldexp(xs[i], ns[i]);
    if (sameBits(results[i], exact)) continue;
    if (mayFlush && (isDenormal(exact) || isDenormal(xs[i])) && results[i] == 0 &&
        std::signbit(results[i]) == std::signbit(exact))
      continue;
    if (failures++ < 5)
      ADD_FAILURE() << std::hexfloat << name << "(" << xs[i] << ", " << std::dec << ns[i] << ") = " << std::hexfloat
                    << results[i] << ", exactly " << exact;
  }
  EXPECT_EQ(failures, 0u) << "of " << xs.size();
}

TEST_P(ExactMath, LdexpOfEveryExponentIsExact) {
  checkLdexp<float>(*this, "exact_math", "ldexp_f32", !keepsFloatDenormals());
  if (has64()) checkLdexp<double>(*this, "exact_math_double", "ldexp_f64", false);
}

TEST_P(ExactMath, HalfLdexpOfEveryExponentIsExact) {
  if (!has16()) GTEST_SKIP() << "the device has no shaderFloat16 or 16-bit storage: half kernels cannot run on it";
  std::vector<uint16_t> xs;
  std::vector<int32_t> ns;
  for (uint32_t bits = 0; bits < 0x10000; bits += 7) {
    for (int32_t n :
         {0, 1, -1, 10, -10, 15, -15, 24, -24, 30, -30, 41, -41, 64, -64, 65, -65, 1000, -1000, 948564122, INT32_MIN}) {
      xs.push_back(uint16_t(bits));
      ns.push_back(n);
    }
  }
  auto k = kernel("exact_math_half", "ldexp_f16");
  ASSERT_TRUE(k);
  auto dx = buffer(xs), dn = buffer(ns), dr = buffer(std::vector<uint16_t>(xs.size()));
  run(*k, range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dn), KernelArg::buffer(dr)});
  std::vector<uint16_t> results = read<uint16_t>(dr, xs.size());
  size_t failures = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    // The exact product rounded to half: in float, which holds it exactly, then to half by the
    // host's conversion of the double (one rounding: half's bits are a prefix of float's).
    double exact = std::ldexp(halfValue(xs[i]), std::clamp(ns[i], -100, 100));
    double obtained = halfValue(results[i]);
    if (sameBits(obtained, halfValue(ir::floatToHalfBits(exact)))) continue;
    if (failures++ < 5)
      ADD_FAILURE() << std::hexfloat << "ldexp(" << halfValue(xs[i]) << ", " << std::dec << ns[i]
                    << ") = " << std::hexfloat << obtained << ", exactly " << halfValue(ir::floatToHalfBits(exact));
  }
  EXPECT_EQ(failures, 0u) << "of " << xs.size();
}

// (x, y, asinpi(x), acospi(x), atanpi(x), atan2pi(x, y)) where each is exact.
template <typename T>
void checkPiForms(ExactMath& test, const std::string& file, const std::string& name) {
  const T inf = std::numeric_limits<T>::infinity(), m = std::numeric_limits<T>::max();
  struct Case {
    T x, y, asinpi, acospi, atanpi, atan2pi;
  };
  const std::vector<Case> cases = {
      {T(0), T(1), T(0), T(0.5), T(0), T(0)},
      {-T(0), T(1), -T(0), T(0.5), -T(0), -T(0)},
      {T(0), -T(0), T(0), T(0.5), T(0), T(1)},
      {-T(0), -T(0), -T(0), T(0.5), -T(0), T(-1)},
      {-T(0), T(-2), -T(0), T(0.5), -T(0), T(-1)},
      {T(1), T(0), T(0.5), T(0), T(0.25), T(0.5)},
      {T(-1), -T(0), T(-0.5), T(1), T(-0.25), T(-0.5)},
      {T(1), T(1), T(0.5), T(0), T(0.25), T(0.25)},
      {T(1), T(-1), T(0.5), T(0), T(0.25), T(0.75)},
      {T(-1), T(-1), T(-0.5), T(1), T(-0.25), T(-0.75)},
      {inf, inf, NAN, NAN, T(0.5), T(0.25)},
      {inf, -inf, NAN, NAN, T(0.5), T(0.75)},
      {-inf, -inf, NAN, NAN, T(-0.5), T(-0.75)},
      {-inf, T(1), NAN, NAN, T(-0.5), T(-0.5)},
      {T(1), -inf, T(0.5), T(0), T(0.25), T(1)},
      {T(-1), inf, T(-0.5), T(1), T(-0.25), -T(0)},
      {m, m, NAN, NAN, T(0.5), T(0.25)},
      {m, -m, NAN, NAN, T(0.5), T(0.75)},
  };
  std::vector<T> xs, ys;
  for (const Case& c : cases) xs.push_back(c.x), ys.push_back(c.y);
  auto k = test.kernel(file, name);
  ASSERT_TRUE(k);
  auto dx = test.buffer(xs), dy = test.buffer(ys), dr = test.buffer(std::vector<T>(4 * xs.size()));
  test.run(*k, ExactMath::range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dy), KernelArg::buffer(dr)});
  std::vector<T> r = test.read<T>(dr, 4 * xs.size());
  for (size_t i = 0; i < cases.size(); ++i) {
    const Case& c = cases[i];
    const char* names[] = {"asinpi", "acospi", "atanpi", "atan2pi"};
    const T expected[] = {c.asinpi, c.acospi, c.atanpi, c.atan2pi};
    for (int f = 0; f < 4; ++f) {
      EXPECT_TRUE(sameBits(r[4 * i + f], expected[f]))
          << std::hexfloat << name << ": " << names[f] << "(" << c.x << (f == 3 ? ", " : "")
          << (f == 3 ? std::to_string(c.y) : "") << ") = " << r[4 * i + f] << ", exactly " << expected[f];
    }
  }
}

TEST_P(ExactMath, PiFormsAreExactAtTheEndsOfTheirRanges) {
  checkPiForms<float>(*this, "exact_math", "pi_forms_f32");
  if (has64()) checkPiForms<double>(*this, "exact_math_double", "pi_forms_f64");
}

// minmag and maxmag as OpenCL defines them: the operand of smaller (larger) magnitude, else
// fmin (fmax), which gives the other operand for a NaN and, here, -0 (+0) of two zeros.
template <typename T>
T magnitudeSelect(T x, T y, bool max) {
  if (std::isnan(x)) return y;
  if (std::isnan(y)) return x;
  if (std::fabs(x) != std::fabs(y)) return (std::fabs(x) > std::fabs(y)) == max ? x : y;
  return std::signbit(x) == max ? y : x;
}

// Pairs of edge cases, of denormals of both signs, of neighbours, and random bits.
template <typename T, typename Bits>
void neighbourInputs(std::vector<T>& xs, std::vector<T>& ys) {
  using limits = std::numeric_limits<T>;
  const std::vector<T> edges = edgeValues<T>();
  for (T x : edges)
    for (T y : edges) xs.push_back(x), ys.push_back(y);
  std::mt19937_64 random(41);
  const Bits fraction = (Bits(1) << (limits::digits - 1)) - 1, sign = Bits(1) << (sizeof(Bits) * 8 - 1);
  for (int i = 0; i < 2048; ++i) {
    Bits denormals[2] = {Bits(random()) & fraction, Bits(random()) & fraction};
    if (i % 2) denormals[0] |= sign;
    if (i % 3 == 0) denormals[1] |= sign;
    T pair[2];
    std::memcpy(pair, denormals, sizeof pair);
    xs.push_back(pair[0]), ys.push_back(i % 5 == 0 ? -pair[0] : pair[1]);
    Bits any[2] = {Bits(random()), Bits(random())};
    std::memcpy(pair, any, sizeof pair);
    xs.push_back(pair[0]), ys.push_back(pair[1]);
  }
}

// Runs the neighbours kernel; where `flushes`, a result may also be the zero a flushed denormal
// operand or result gives.
template <typename T, typename Bits>
void checkNeighbours(ExactMath& test, const std::string& file, const std::string& name, bool flushes) {
  std::vector<T> xs, ys;
  neighbourInputs<T, Bits>(xs, ys);
  auto k = test.kernel(file, name);
  ASSERT_TRUE(k);
  auto dx = test.buffer(xs), dy = test.buffer(ys), dr = test.buffer(std::vector<T>(3 * xs.size()));
  test.run(*k, ExactMath::range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dy), KernelArg::buffer(dr)});
  std::vector<T> r = test.read<T>(dr, 3 * xs.size());
  size_t failures = 0;
  for (size_t i = 0; i < xs.size(); ++i) {
    const T expected[] = {std::nextafter(xs[i], ys[i]), magnitudeSelect(xs[i], ys[i], false),
                          magnitudeSelect(xs[i], ys[i], true)};
    bool denormal = isDenormal(xs[i]) || isDenormal(ys[i]);
    for (int f = 0; f < 3; ++f) {
      T got = r[3 * i + f];
      if (sameBits(got, expected[f]) || (flushes && (denormal || isDenormal(expected[f])) && got == 0)) continue;
      const char* names[] = {"nextafter", "minmag", "maxmag"};
      if (failures++ < 8)
        ADD_FAILURE() << std::hexfloat << names[f] << "(" << xs[i] << ", " << ys[i] << ") = " << got << ", exactly "
                      << expected[f];
    }
  }
  EXPECT_EQ(failures, 0u) << name << " over " << xs.size() << " pairs";
}

TEST_P(ExactMath, NextafterMinmagAndMaxmagAreExact) {
  checkNeighbours<float, uint32_t>(*this, "exact_math", "neighbours_f32", !keepsFloatDenormals());
  if (has64()) checkNeighbours<double, uint64_t>(*this, "exact_math_double", "neighbours_f64", false);
}

// half_exp, half_exp2 and half_exp10 of a NaN are NaN (SwiftShader's instructions gave +inf), of
// the infinities +inf and 0, of 0 one; elsewhere within half_'s 8192 ULP of the host's function.
TEST_P(ExactMath, HalfExponentialsOfNanAreNan) {
  const std::vector<uint32_t> nans = {0x7fc00000u, 0xff800100u, 0x7f800001u, 0xffffffffu};
  std::vector<float> xs(nans.size());
  std::memcpy(xs.data(), nans.data(), nans.size() * sizeof(float));
  const std::vector<float> ordinary = {INFINITY, -INFINITY, 0.0f, 1.5f, -3.25f, 10.0f};
  xs.insert(xs.end(), ordinary.begin(), ordinary.end());
  auto k = kernel("exact_math", "half_exps_f32");
  ASSERT_TRUE(k);
  auto dx = buffer(xs), dr = buffer(std::vector<float>(3 * xs.size()));
  run(*k, range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dr)});
  std::vector<float> r = read<float>(dr, 3 * xs.size());
  const char* names[] = {"half_exp", "half_exp2", "half_exp10"};
  for (size_t i = 0; i < xs.size(); ++i) {
    for (int f = 0; f < 3; ++f) {
      float got = r[3 * i + f];
      if (i < nans.size()) {
        EXPECT_TRUE(std::isnan(got)) << names[f] << " of 0x" << std::hex << nans[i] << " = " << got;
        continue;
      }
      double x = xs[i];
      double expected = f == 0 ? std::exp(x) : f == 1 ? std::exp2(x) : std::pow(10.0, x);
      if (std::isinf(expected) || expected == 0 || x == 0) {
        EXPECT_EQ(got, static_cast<float>(expected)) << names[f] << "(" << x << ")";
      } else {
        float rounded = static_cast<float>(expected);
        double ulp = std::nextafter(rounded, INFINITY) - rounded;
        EXPECT_NEAR(got, expected, 8192 * ulp) << names[f] << "(" << x << ")";
      }
    }
  }
}

TEST_P(ExactMath, RsqrtOfNanIsNan) {
  if (!has64()) GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  const std::vector<uint64_t> nans = {0x7ff8000000000000u, 0x7ff0000000000200u, 0xfff0000000000001u,
                                      0x7fffffffffffffffu};
  std::vector<double> xs(nans.size());
  std::memcpy(xs.data(), nans.data(), nans.size() * sizeof(double));
  xs.push_back(4.0);
  auto k = kernel("exact_math_double", "rsqrt_f64");
  ASSERT_TRUE(k);
  auto dx = buffer(xs), dr = buffer(std::vector<double>(xs.size()));
  run(*k, range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dr)});
  std::vector<double> r = read<double>(dr, xs.size());
  for (size_t i = 0; i + 1 < xs.size(); ++i)
    EXPECT_TRUE(std::isnan(r[i])) << std::hex << "rsqrt of 0x" << nans[i] << " = " << r[i];
  EXPECT_EQ(r.back(), 0.5);
}

CL2VK_KERNEL_TEST_SUITE(ExactMath, "O0", "O2");

// The same on a device that flushes float denormals, emulated (the emulate-denormal-flush pass):
// a result may be exact or the flushed zero, nothing else.
class ExactMathFlushingDenormals : public ExactMath {
 public:
  Target target() const override {
    Target flushing = ExactMath::target();
    flushing.denormPreserveFloat32 = false;
    flushing.emulateFloat32DenormalFlush = true;
    return flushing;
  }
};

TEST_P(ExactMathFlushingDenormals, NextafterMinmagAndMaxmagAreExactOrFlushed) {
  checkNeighbours<float, uint32_t>(*this, "exact_math", "neighbours_f32", true);
}

CL2VK_KERNEL_TEST_SUITE(ExactMathFlushingDenormals, "O2");

}  // namespace
}  // namespace cl2vk::test
