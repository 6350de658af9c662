// Half math functions, which link-builtins computes with the builtin library's float functions
// on widened operands (GLSL.std.450's half forms missed OpenCL's bounds on NVIDIA), run on the
// Vulkan device over every half (the binary ones over every pair of the edge cases and random
// pairs) against MPFR. The bounds are OpenCL's for half (cl_khr_fp16): 0 for fmod, remainder,
// logb and ilogb, 2 ULP for the trigonometric, hyperbolic, exponential and logarithmic functions
// and cbrt, 4 for pow, erf, erfc and tgamma; OpenCL sets none for lgamma, held here to 4 ULP or
// 2^-11 absolute near its zeros.

#include <mpfr.h>

#include <climits>
#include <cmath>
#include <cstdio>
#include <random>
#include <sstream>

#include "ir/types.h"
#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

constexpr mpfr_prec_t kReferencePrecision = 64;  // far beyond half's 11 bits

// |actual - exact| in units of half's last place at the exact value's magnitude (2^-24 below the
// smallest normal); NaN and infinity must match exactly.
double halfUlpError(double actual, mpfr_srcptr exact) {
  if (mpfr_nan_p(exact)) return std::isnan(actual) ? 0 : INFINITY;
  if (std::isnan(actual)) return INFINITY;
  double rounded = halfValue(ir::floatToHalfBits(mpfr_get_d(exact, MPFR_RNDN)));
  if (std::isinf(rounded)) return std::isinf(actual) && (actual < 0) == (rounded < 0) ? 0 : INFINITY;
  if (std::isinf(actual)) return INFINITY;
  mpfr_t difference;
  mpfr_init2(difference, kReferencePrecision + 64);
  mpfr_set_d(difference, actual, MPFR_RNDN);
  mpfr_sub(difference, difference, exact, MPFR_RNDN);
  long exponent = mpfr_zero_p(exact) ? -14 : std::max<long>(mpfr_get_exp(exact) - 1, -14);
  mpfr_mul_2si(difference, difference, 10 - exponent, MPFR_RNDN);
  double error = std::fabs(mpfr_get_d(difference, MPFR_RNDN));
  mpfr_clear(difference);
  return error;
}

int logbReference(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t) {
  if (mpfr_nan_p(x))
    mpfr_set_nan(r);
  else if (mpfr_inf_p(x))
    mpfr_set_inf(r, 1);
  else if (mpfr_zero_p(x))
    mpfr_set_inf(r, -1);
  else
    mpfr_set_si(r, mpfr_get_exp(x) - 1, MPFR_RNDN);
  return 0;
}

int lgammaReference(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rounding) {
  int sign;
  return mpfr_lgamma(r, &sign, x, rounding);
}

struct HalfFunction {
  const char* name;
  int (*unary)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
  int (*binary)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);
  double bound;
  double absolute = 0;
};

const HalfFunction kFunctions[] = {
    {"erf", mpfr_erf, nullptr, 4},
    {"erfc", mpfr_erfc, nullptr, 4},
    {"tgamma", mpfr_gamma, nullptr, 4},
    {"lgamma", lgammaReference, nullptr, 4, 0x1p-11},
    {"sinpi", mpfr_sinpi, nullptr, 2},
    {"cospi", mpfr_cospi, nullptr, 2},
    {"tanpi", mpfr_tanpi, nullptr, 2},
    {"logb", logbReference, nullptr, 0},
    {"remainder", nullptr, mpfr_remainder, 0},
    {"sin", mpfr_sin, nullptr, 2},
    {"cos", mpfr_cos, nullptr, 2},
    {"tan", mpfr_tan, nullptr, 2},
    {"asin", mpfr_asin, nullptr, 2},
    {"acos", mpfr_acos, nullptr, 2},
    {"atan", mpfr_atan, nullptr, 2},
    {"sinh", mpfr_sinh, nullptr, 2},
    {"cosh", mpfr_cosh, nullptr, 2},
    {"tanh", mpfr_tanh, nullptr, 2},
    {"cbrt", mpfr_cbrt, nullptr, 2},
    {"exp", mpfr_exp, nullptr, 2},
    {"exp2", mpfr_exp2, nullptr, 2},
    {"exp10", mpfr_exp10, nullptr, 2},
    {"expm1", mpfr_expm1, nullptr, 2},
    {"log", mpfr_log, nullptr, 2},
    {"log2", mpfr_log2, nullptr, 2},
    {"log10", mpfr_log10, nullptr, 2},
    {"log1p", mpfr_log1p, nullptr, 2},
    {"fmod", nullptr, mpfr_fmod, 0},
    {"pow", nullptr, mpfr_pow, 4},
    {"atan2", nullptr, mpfr_atan2, 2},
    {"hypot", nullptr, mpfr_hypot, 2},
};

class MathHalf : public KernelTest {
 protected:
  void SetUp() override {
    const auto& features = sharedDevice().info().features;
    if (!features.shaderFloat16 || !features.storageBuffer16BitAccess)
      GTEST_SKIP() << "the device has no shaderFloat16 or 16-bit storage: half kernels cannot run on it";
  }
};

// Every half, and for two operands every pair of 20 edge cases plus random pairs.
void inputs(bool binary, std::vector<uint16_t>& xs, std::vector<uint16_t>& ys) {
  if (!binary) {
    for (uint32_t bits = 0; bits < 0x10000; ++bits) xs.push_back(uint16_t(bits)), ys.push_back(0);
    return;
  }
  const uint16_t edges[] = {0x0000, 0x8000, 0x7c00, 0xfc00, 0x7e00, 0x0001, 0x8001, 0x03ff, 0x0400, 0x7bff,
                            0xfbff, 0x3c00, 0xbc00, 0x3800, 0x3bff, 0x4000, 0xc200, 0x1234, 0x5640, 0xd5a0};
  for (uint16_t x : edges) {
    for (uint16_t y : edges) xs.push_back(x), ys.push_back(y);
  }
  std::mt19937 random(17);
  for (int i = 0; i < 1 << 16; ++i) xs.push_back(uint16_t(random())), ys.push_back(uint16_t(random()));
}

TEST_P(MathHalf, FunctionsWithinOpenclBounds) {
  auto translation = translate("math_half");
  ASSERT_TRUE(translation);
  for (const HalfFunction& function : kFunctions) {
    SCOPED_TRACE(function.name);
    std::vector<uint16_t> xs, ys;
    inputs(function.binary != nullptr, xs, ys);
    auto k = launch::LaunchableKernel::create(sharedDevice(), translation, std::string(function.name) + "_f16");
    ASSERT_TRUE(k.ok()) << k.error().message();
    auto dx = buffer(xs), dy = buffer(ys), dr = buffer(std::vector<uint16_t>(xs.size(), 0));
    run(**k, range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dy), KernelArg::buffer(dr)});
    std::vector<uint16_t> results = read<uint16_t>(dr, xs.size());
    mpfr_t x, y, exact;
    mpfr_inits2(kReferencePrecision, x, y, exact, static_cast<mpfr_ptr>(nullptr));
    double worst = 0;
    size_t failures = 0, withinAbsolute = 0;
    std::ostringstream firstFailures;
    for (size_t i = 0; i < xs.size(); ++i) {
      mpfr_set_d(x, halfValue(xs[i]), MPFR_RNDN);
      mpfr_set_d(y, halfValue(ys[i]), MPFR_RNDN);
      if (function.unary)
        function.unary(exact, x, MPFR_RNDN);
      else
        function.binary(exact, x, y, MPFR_RNDN);
      double result = halfValue(results[i]);
      double error = halfUlpError(result, exact);
      if (error > function.bound && function.absolute > 0 && std::isfinite(error) &&
          std::fabs(result - mpfr_get_d(exact, MPFR_RNDN)) <= function.absolute) {
        ++withinAbsolute;
        continue;
      }
      worst = std::max(worst, error);
      if (error > function.bound && failures++ < 5) {
        firstFailures << "\n  " << function.name << "(" << std::hexfloat << halfValue(xs[i]);
        if (function.binary) firstFailures << ", " << halfValue(ys[i]);
        firstFailures << ") = " << result << ", exact " << mpfr_get_d(exact, MPFR_RNDN) << std::defaultfloat << " ("
                      << error << " ULP)";
      }
    }
    mpfr_clears(x, y, exact, static_cast<mpfr_ptr>(nullptr));
    std::printf("%s_f16: %zu inputs, largest error %.3g ULP (bound %g)", function.name, xs.size(), worst,
                function.bound);
    if (withinAbsolute > 0) std::printf("; %zu more within %a absolute", withinAbsolute, function.absolute);
    std::printf("\n");
    EXPECT_EQ(failures, 0u) << failures << " results beyond " << function.bound << " ULP:" << firstFailures.str();
  }
}

// ilogb of every half, exactly: INT_MIN for zeros, INT_MAX for infinities and NaN.
TEST_P(MathHalf, IlogbIsExact) {
  std::vector<uint16_t> xs, ys;
  inputs(false, xs, ys);
  auto k = kernel("math_half", "ilogb_f16");
  ASSERT_TRUE(k);
  auto dx = buffer(xs), dr = buffer(std::vector<int32_t>(xs.size(), 0));
  run(*k, range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dx), KernelArg::buffer(dr)});
  std::vector<int32_t> results = read<int32_t>(dr, xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    double value = halfValue(xs[i]);
    int32_t expected = std::isnan(value) || std::isinf(value) ? INT32_MAX : value == 0 ? INT32_MIN : std::ilogb(value);
    ASSERT_EQ(results[i], expected) << "ilogb(" << std::hexfloat << value << ")";
  }
}

// x / y correctly rounded, as OpenCL's reciprocal (`1.0h / x`, the CTS) needs: the quotient of
// every half into 1 and of the binary inputs, bit for bit, scalars and 3- and 16-component vectors. The
// host's double quotient rounded to half is the correctly rounded one (53 bits are more than
// twice half's 11 plus 2, so the two roundings agree).
TEST_P(MathHalf, DivisionIsCorrectlyRounded) {
  std::vector<uint16_t> xs, ys, unused;
  inputs(false, ys, unused);
  xs.assign(ys.size(), 0x3c00);  // 1.0
  inputs(true, xs, ys);
  while (xs.size() % 48 != 0) xs.push_back(0x3c00), ys.push_back(0x4200);
  for (const char* name : {"divide_f16", "divide_f16x3", "divide_f16x16"}) {
    auto k = kernel("math_half", name);
    ASSERT_TRUE(k);
    std::string kernelName = name;
    const size_t width = kernelName.ends_with("x16") ? 16 : kernelName.ends_with("x3") ? 3 : 1;
    const size_t items = xs.size() / width;
    auto dx = buffer(xs), dy = buffer(ys), dr = buffer(std::vector<uint16_t>(xs.size(), 0));
    run(*k, range1d(items), {KernelArg::buffer(dx), KernelArg::buffer(dy), KernelArg::buffer(dr)});
    std::vector<uint16_t> results = read<uint16_t>(dr, xs.size());
    size_t failures = 0;
    for (size_t i = 0; i < xs.size(); ++i) {
      double exact = halfValue(xs[i]) / halfValue(ys[i]);
      bool bothNaN = std::isnan(exact) && std::isnan(halfValue(results[i]));
      if (bothNaN || results[i] == ir::floatToHalfBits(exact)) continue;
      if (failures++ < 5)
        ADD_FAILURE() << name << ": " << std::hexfloat << halfValue(xs[i]) << " / " << halfValue(ys[i]) << " = "
                      << halfValue(results[i]) << ", correctly rounded " << halfValue(ir::floatToHalfBits(exact));
    }
    EXPECT_EQ(failures, 0u) << name << " over " << xs.size() << " quotients";
  }
}

CL2VK_KERNEL_TEST_SUITE(MathHalf, "O2");

}  // namespace
}  // namespace cl2vk::test
