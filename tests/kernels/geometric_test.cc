// length, distance and normalize on the device against exact references: vectors of 1 to 4
// components spread over every exponent, the CTS's case (2^64, 0), both ends of the range, and
// infinities and NaN. OpenCL computes these without overflow or underflow in the sum of squares
// (GLSL.std.450's Length gave inf for (2^64, 0) on lavapipe); the tolerances are the OpenCL CTS's
// (3 ULP for sqrt, plus the multiplications' and additions' half ULPs per component).

#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <random>
#include <sstream>

#include "ir/types.h"
#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

// A storage format: float, double, or half (as its bits).
struct FloatFormat {
  const char* name;
  int digits, minExponent;  // significand bits with the hidden one; the smallest normal's exponent
};
constexpr FloatFormat kHalf{"half", 11, -14}, kFloat{"float", 24, -126}, kDouble{"double", 53, -1022};

long double halfValue(uint16_t h) {
  int exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  long double magnitude = exponent == 31  ? (mantissa ? NAN : INFINITY)
                          : exponent == 0 ? std::ldexp(static_cast<long double>(mantissa), -24)
                                          : std::ldexp(static_cast<long double>(mantissa + 1024), exponent - 25);
  return (h & 0x8000) ? -magnitude : magnitude;
}

// |actual - exact| in units of the last place of the format at the exact value (its smallest
// subnormal spacing below the normal range); NaN and infinities must match.
double ulps(const FloatFormat& f, long double actual, long double exact) {
  if (std::isnan(exact) || std::isnan(actual)) return std::isnan(exact) && std::isnan(actual) ? 0 : INFINITY;
  long double largest = std::ldexp(2.0L - std::ldexp(1.0L, 1 - f.digits), -f.minExponent + 1);
  long double halfUlpAtLargest = std::ldexp(1.0L, -f.minExponent + 1 - f.digits);
  if (std::isinf(exact) || std::fabs(exact) >= largest + halfUlpAtLargest)  // rounds to infinity
    return std::isinf(actual) && std::signbit(actual) == std::signbit(exact) ? 0 : INFINITY;
  if (std::isinf(actual)) return INFINITY;
  int exponent = exact == 0 ? f.minExponent : std::max(std::ilogb(exact), f.minExponent);
  return double(std::fabs(actual - exact) / std::ldexp(1.0L, exponent - f.digits + 1));
}

long double exactLength(const std::vector<long double>& v) {
  long double sum = 0;
  for (long double x : v) sum += x * x;
  return std::sqrt(sum);
}

// OpenCL's normalize: v for the zero vector, NaN for any NaN component, and with infinite
// components the unit vector of their signs.
std::vector<long double> exactNormalize(std::vector<long double> v) {
  bool anyNan = false, anyInf = false;
  for (long double x : v) anyNan |= std::isnan(x), anyInf |= std::isinf(x);
  if (anyNan) return std::vector<long double>(v.size(), NAN);
  if (anyInf) {
    for (long double& x : v) x = std::isinf(x) ? std::copysign(1.0L, x) : std::copysign(0.0L, x);
  }
  long double length = exactLength(v);
  if (length == 0) return v;
  for (long double& x : v) x /= length;
  return v;
}

class Geometric : public KernelTest {
 protected:
  // Runs geometric_<format> over `in` (count vectors of four, and one more for distance's second
  // operand) and checks every result. `value` reads element i of a result or input buffer.
  template <typename Storage>
  void check(const FloatFormat& f, const std::vector<Storage>& in, long double (*value)(Storage)) {
    size_t count = in.size() / 4 - 1;
    std::string name = std::string("geometric_") + f.name;
    auto k = kernel(name, name);
    ASSERT_TRUE(k);
    auto din = buffer(in), dlengths = buffer(std::vector<Storage>(8 * count)),
         dunits = buffer(std::vector<Storage>(10 * count));
    run(*k, range1d(count), {KernelArg::buffer(din), KernelArg::buffer(dlengths), KernelArg::buffer(dunits)});
    std::vector<Storage> lengths = read<Storage>(dlengths, 8 * count), units = read<Storage>(dunits, 10 * count);
    bool mayFlush = std::string(f.name) == "float" && !target().denormPreserveFloat32;
    long double smallestNormal = std::ldexp(1.0L, f.minExponent);
    auto denormal = [&](long double x) { return x != 0 && std::fabs(x) < smallestNormal; };
    double worst[3] = {0, 0, 0};
    std::string worstAt[3];
    size_t failures = 0, flushed = 0;
    for (size_t i = 0; i < count; ++i) {
      std::vector<long double> v(4), w(4), difference(4);
      for (int c = 0; c < 4; ++c) {
        v[c] = value(in[4 * i + c]);
        w[c] = value(in[4 * i + 4 + c]);
        difference[c] = v[c] - w[c];
      }
      bool denormalInput = false;
      for (int c = 0; c < 4; ++c) denormalInput |= denormal(v[c]) || denormal(w[c]);
      size_t unit = 0;
      for (int n = 1; n <= 4; ++n) {
        std::vector<long double> vn(v.begin(), v.begin() + n), dn(difference.begin(), difference.begin() + n);
        // The CTS's allowances: sqrt's 3 ULP (rsqrt and a multiply: 2.5 for normalize) and half an
        // ULP per multiplication and addition (and per subtraction for distance).
        double bounds[3] = {3 + 0.5 * (0.5 * n + 0.5 * (n - 1)), 3 + 1.5 * n + 0.5 * (n - 1),
                            2.5 + 0.5 * n + 0.5 * (n - 1)};
        std::vector<long double> normalized = exactNormalize(vn);
        std::vector<std::pair<long double, long double>> results = {{value(lengths[8 * i + n - 1]), exactLength(vn)},
                                                                    {value(lengths[8 * i + 3 + n]), exactLength(dn)}};
        for (int c = 0; c < n; ++c) results.push_back({value(units[10 * i + unit + c]), normalized[c]});
        unit += n;
        for (size_t r = 0; r < results.size(); ++r) {
          int kind = r < 2 ? int(r) : 2;
          auto [actual, exact] = results[r];
          double error = ulps(f, actual, exact);
          if (error > bounds[kind] && mayFlush && (denormalInput || denormal(exact))) {
            ++flushed;  // OpenCL's flush-to-zero rules allow it; not compared
            continue;
          }
          const char* what[] = {"length", "distance", "normalize"};
          std::ostringstream description;
          description << what[kind] << " of " << n << " components of (" << std::hexfloat << double(v[0]) << ", "
                      << double(v[1]) << ", " << double(v[2]) << ", " << double(v[3]) << ")";
          if (kind == 1) description << " and the next vector";
          description << " = " << double(actual) << ", exact " << double(exact) << std::defaultfloat << " (" << error
                      << " ULP, bound " << bounds[kind] << ")";
          if (error > worst[kind]) worst[kind] = error, worstAt[kind] = description.str();
          if (error > bounds[kind] && failures++ < 10) ADD_FAILURE() << description.str();
        }
      }
    }
    std::printf("%s: %zu vectors, largest error length %.3g, distance %.3g, normalize %.3g ULP", f.name, count,
                worst[0], worst[1], worst[2]);
    if (flushed) std::printf("; %zu results with denormals flushed", flushed);
    std::printf("\n");
    for (const std::string& at : worstAt) {
      if (!at.empty()) std::printf("  largest: %s\n", at.c_str());
    }
  }

  // Components over every exponent of T, and the edge cases, four to a vector.
  template <typename T>
  static std::vector<T> inputs(uint64_t seed) {
    using L = std::numeric_limits<T>;
    std::vector<T> edges = {T(0x1p64),
                            T(0),
                            T(0),
                            T(0),  // the CTS's failure
                            L::max(),
                            L::max(),
                            -L::max(),
                            L::max(),  // overflowing squares
                            L::min(),
                            L::min(),
                            L::denorm_min(),
                            T(0),  // underflowing ones
                            T(0),
                            T(-0.0),
                            T(0),
                            T(-0.0),  // zero vectors
                            T(3),
                            L::infinity(),
                            T(-2),
                            -L::infinity(),  // infinities
                            T(1),
                            L::quiet_NaN(),
                            L::infinity(),
                            T(0),  // NaN
                            T(0x1p40),
                            T(0x1p-40),
                            T(-0x1p-99),
                            T(7)};  // far apart
    std::vector<T> values = edges;
    std::mt19937_64 random(seed);
    using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, uint64_t>;
    while (values.size() < 4 * 4096 + 4) {
      T v = std::bit_cast<T>(static_cast<Bits>(random()));
      if (!std::isfinite(v)) continue;
      // One vector in four holds components of one magnitude band (the usual case), the others
      // any exponent.
      if (values.size() % 16 < 4) v = std::ldexp(T(1) + T(random() % 1024) / T(1024), int(random() % 64) - 32);
      values.push_back(v);
    }
    return values;
  }
};

TEST_P(Geometric, FloatVectorsNeitherOverflowNorUnderflow) {
  check<float>(kFloat, inputs<float>(31), [](float x) { return static_cast<long double>(x); });
}

TEST_P(Geometric, DoubleVectorsNeitherOverflowNorUnderflow) {
  if (!sharedDevice().info().features.shaderFloat64)
    GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  check<double>(kDouble, inputs<double>(32), [](double x) { return static_cast<long double>(x); });
}

TEST_P(Geometric, HalfVectorsNeitherOverflowNorUnderflow) {
  const vulkan::DeviceFeatures& features = sharedDevice().info().features;
  if (!features.shaderFloat16 || !features.storageBuffer16BitAccess)
    GTEST_SKIP() << "the device has no shaderFloat16 or storageBuffer16BitAccess: half kernels cannot run on it";
  // Every half but NaN and infinity in turn, with the edge cases of float narrowed.
  std::vector<uint16_t> in;
  for (float x : inputs<float>(33)) in.push_back(ir::floatToHalfBits(x));
  for (uint32_t bits = 0; bits < 0x10000; ++bits) {
    if (((bits >> 10) & 0x1f) != 0x1f) in.push_back(static_cast<uint16_t>(bits));
  }
  in.resize(in.size() / 4 * 4 + 4);
  check<uint16_t>(kHalf, in, [](uint16_t h) { return halfValue(h); });
}

CL2VK_KERNEL_TEST_SUITE(Geometric, "O0", "O2");

}  // namespace
}  // namespace cl2vk::test
