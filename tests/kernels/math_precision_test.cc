// OpenCL.std math on the Vulkan device against MPFR (correctly rounded, 256-bit references): each
// function over random inputs and edge cases (zeros, infinities, NaN, subnormals, the ends of the
// domain), asserting the OpenCL C full-profile bound in ULP ("Relative Error as ULPs"). The largest
// error found is printed; docs/precision.md lists them.

#include <mpfr.h>

#include <algorithm>
#include <bit>
#include <climits>
#include <cmath>
#include <cstdio>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <sstream>

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

constexpr mpfr_prec_t kReferencePrecision = 256;

using MpfrUnary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t);
using MpfrBinary = int (*)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t);

struct MathFunction {
  const char* name;  // the OpenCL C name; the kernel is <name>_f32 or <name>_f64
  MpfrUnary unary;
  MpfrBinary binary;
  double bound;         // OpenCL's bound in ULP (0: exact)
  double low, high;     // where a third of the random inputs lie (the rest: every exponent, and [-1, 1])
  double absolute = 0;  // an error this small passes whatever its ULP (lgamma near its zeros)
};

// pown and rootn take the kernel's integer: y clamped to [-2000, 2000] and truncated (NaN clamps
// to -2000).
long integerArgument(mpfr_srcptr y) {
  if (mpfr_nan_p(y)) return -2000;
  return std::clamp(mpfr_get_si(y, MPFR_RNDZ), -2000l, 2000l);
}
int pownReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rounding) {
  return mpfr_pow_si(r, x, integerArgument(y), rounding);
}
// OpenCL's powr is NaN when either operand is (MPFR's powr(1, NaN) is 1).
int powrReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rounding) {
  if (mpfr_nan_p(x) || mpfr_nan_p(y)) {
    mpfr_set_nan(r);
    return 0;
  }
  return mpfr_powr(r, x, y, rounding);
}
int rootnReference(mpfr_ptr r, mpfr_srcptr x, mpfr_srcptr y, mpfr_rnd_t rounding) {
  return mpfr_rootn_si(r, x, integerArgument(y), rounding);
}

// logb: the exponent of x, -inf for zeros, inf for infinities.
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

// lgamma: log |Gamma(x)|.
int lgammaReference(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rounding) {
  int sign;
  return mpfr_lgamma(r, &sign, x, rounding);
}

// rsqrt as 1 / sqrt(x): OpenCL's rsqrt(-0) is -inf (MPFR's rec_sqrt gives +inf).
int rsqrtReference(mpfr_ptr r, mpfr_srcptr x, mpfr_rnd_t rounding) {
  mpfr_sqrt(r, x, rounding);
  return mpfr_ui_div(r, 1, r, rounding);
}

// The functions the builtin library computes (and sqrt, rsqrt, hypot, which GLSL.std.450 computes), with OpenCL's
// bounds for each type. MPFR's fmod is the exact remainder with the dividend's sign, as OpenCL's.
const MathFunction kFloatFunctions[] = {
    {"fmod", nullptr, mpfr_fmod, 0, -1e3, 1e3},     {"remainder", nullptr, mpfr_remainder, 0, -1e3, 1e3},
    {"asin", mpfr_asin, nullptr, 4, -1, 1},         {"acos", mpfr_acos, nullptr, 4, -1, 1},
    {"atan", mpfr_atan, nullptr, 5, -20, 20},       {"atan2", nullptr, mpfr_atan2, 6, -10, 10},
    {"asinpi", mpfr_asinpi, nullptr, 5, -1, 1},     {"acospi", mpfr_acospi, nullptr, 5, -1, 1},
    {"atanpi", mpfr_atanpi, nullptr, 5, -20, 20},   {"atan2pi", nullptr, mpfr_atan2pi, 6, -10, 10},
    {"sin", mpfr_sin, nullptr, 4, -1e4, 1e4},       {"cos", mpfr_cos, nullptr, 4, -1e4, 1e4},
    {"tan", mpfr_tan, nullptr, 5, -1e4, 1e4},       {"sinpi", mpfr_sinpi, nullptr, 4, -100, 100},
    {"cospi", mpfr_cospi, nullptr, 4, -100, 100},   {"tanpi", mpfr_tanpi, nullptr, 6, -100, 100},
    {"logb", logbReference, nullptr, 0, -1e3, 1e3}, {"erf", mpfr_erf, nullptr, 16, -7, 7},
    {"erfc", mpfr_erfc, nullptr, 16, -7, 30},       {"exp", mpfr_exp, nullptr, 3, -104, 89},
    {"exp2", mpfr_exp2, nullptr, 3, -150, 129},     {"exp10", mpfr_exp10, nullptr, 3, -46, 39},
    {"expm1", mpfr_expm1, nullptr, 3, -20, 89},     {"log", mpfr_log, nullptr, 3, 0, 4},
    {"log2", mpfr_log2, nullptr, 3, 0, 4},          {"log10", mpfr_log10, nullptr, 3, 0, 4},
    {"log1p", mpfr_log1p, nullptr, 2, -1, 4},       {"pow", nullptr, mpfr_pow, 16, -8, 8},
    {"powr", nullptr, powrReference, 16, -8, 8},    {"cbrt", mpfr_cbrt, nullptr, 2, -1e3, 1e3},
    {"sinh", mpfr_sinh, nullptr, 4, -89, 89},       {"cosh", mpfr_cosh, nullptr, 4, -89, 89},
    {"tanh", mpfr_tanh, nullptr, 5, -10, 10},       {"asinh", mpfr_asinh, nullptr, 4, -30, 30},
    {"acosh", mpfr_acosh, nullptr, 4, 0, 30},       {"atanh", mpfr_atanh, nullptr, 5, -1, 1},
    {"pown", nullptr, pownReference, 16, -40, 40},  {"rootn", nullptr, rootnReference, 16, -9, 9},
    {"tgamma", mpfr_gamma, nullptr, 16, -30, 36},   {"lgamma", lgammaReference, nullptr, 16, -30, 30, 0x1p-24},
    {"sqrt", mpfr_sqrt, nullptr, 3, 0, 1e6},        {"rsqrt", rsqrtReference, nullptr, 2, 0, 1e6},
    {"hypot", nullptr, mpfr_hypot, 4, -1e3, 1e3},
};
const MathFunction kDoubleFunctions[] = {
    {"fmod", nullptr, mpfr_fmod, 0, -1e3, 1e3},
    {"remainder", nullptr, mpfr_remainder, 0, -1e3, 1e3},
    {"exp", mpfr_exp, nullptr, 3, -746, 710},
    {"exp2", mpfr_exp2, nullptr, 3, -1076, 1025},
    {"exp10", mpfr_exp10, nullptr, 3, -324, 309},
    {"expm1", mpfr_expm1, nullptr, 3, -40, 710},
    {"log", mpfr_log, nullptr, 3, 0, 4},
    {"log2", mpfr_log2, nullptr, 3, 0, 4},
    {"log10", mpfr_log10, nullptr, 3, 0, 4},
    {"log1p", mpfr_log1p, nullptr, 2, -1, 4},
    {"sinh", mpfr_sinh, nullptr, 4, -711, 711},
    {"cosh", mpfr_cosh, nullptr, 4, -711, 711},
    {"tanh", mpfr_tanh, nullptr, 5, -25, 25},
    {"asin", mpfr_asin, nullptr, 4, -1, 1},
    {"acos", mpfr_acos, nullptr, 4, -1, 1},
    {"atan", mpfr_atan, nullptr, 5, -20, 20},
    {"atan2", nullptr, mpfr_atan2, 6, -10, 10},
    {"asinpi", mpfr_asinpi, nullptr, 5, -1, 1},
    {"acospi", mpfr_acospi, nullptr, 5, -1, 1},
    {"atanpi", mpfr_atanpi, nullptr, 5, -20, 20},
    {"atan2pi", nullptr, mpfr_atan2pi, 6, -10, 10},
    {"sin", mpfr_sin, nullptr, 4, -1e6, 1e6},
    {"cos", mpfr_cos, nullptr, 4, -1e6, 1e6},
    {"tan", mpfr_tan, nullptr, 5, -1e6, 1e6},
    {"pow", nullptr, mpfr_pow, 16, -8, 8},
    {"pown", nullptr, pownReference, 16, -40, 40},
    {"powr", nullptr, powrReference, 16, -8, 8},
    {"rootn", nullptr, rootnReference, 16, -9, 9},
    {"cbrt", mpfr_cbrt, nullptr, 2, -1e3, 1e3},
    {"asinh", mpfr_asinh, nullptr, 4, -30, 30},
    {"acosh", mpfr_acosh, nullptr, 4, 0, 30},
    {"atanh", mpfr_atanh, nullptr, 5, -1, 1},
    {"sinpi", mpfr_sinpi, nullptr, 4, -100, 100},
    {"cospi", mpfr_cospi, nullptr, 4, -100, 100},
    {"tanpi", mpfr_tanpi, nullptr, 6, -100, 100},
    {"logb", logbReference, nullptr, 0, -1e3, 1e3},
    {"erf", mpfr_erf, nullptr, 16, -7, 7},
    {"erfc", mpfr_erfc, nullptr, 16, -7, 30},
    {"tgamma", mpfr_gamma, nullptr, 16, -30, 180},
    {"lgamma", lgammaReference, nullptr, 16, -30, 30, 0x1p-53},
    {"sqrt", mpfr_sqrt, nullptr, 3, 0, 1e6},
    {"rsqrt", rsqrtReference, nullptr, 2, 0, 1e6},
    {"hypot", nullptr, mpfr_hypot, 4, -1e3, 1e3},
};

template <typename T>
struct Format;
template <>
struct Format<float> {
  static constexpr int kFractionBits = 23, kMinExponent = -126;
  using Bits = uint32_t;
  static constexpr const char* kSuffix = "_f32";
};
template <>
struct Format<double> {
  static constexpr int kFractionBits = 52, kMinExponent = -1022;
  using Bits = uint64_t;
  static constexpr const char* kSuffix = "_f64";
};

// Error of `actual` against the exact value `exact`, in units of the last place of the type at
// the exact value's magnitude. NaN and infinity must match exactly (anything else is infinitely
// wrong).
template <typename T>
double ulpError(T actual, mpfr_srcptr exact) {
  if (mpfr_nan_p(exact)) return std::isnan(actual) ? 0 : INFINITY;
  if (std::isnan(actual)) return INFINITY;
  // A value beyond the type's range (MPFR's is far wider) rounds to infinity.
  T rounded = std::is_same_v<T, float> ? static_cast<T>(mpfr_get_flt(exact, MPFR_RNDN))
                                       : static_cast<T>(mpfr_get_d(exact, MPFR_RNDN));
  if (std::isinf(rounded)) return std::isinf(actual) && (actual < 0) == (rounded < 0) ? 0 : INFINITY;
  if (std::isinf(actual)) return INFINITY;
  mpfr_t difference;
  mpfr_init2(difference, kReferencePrecision + 64);
  mpfr_set_d(difference, static_cast<double>(actual), MPFR_RNDN);  // exact: float and double fit
  mpfr_sub(difference, difference, exact, MPFR_RNDN);
  long exponent = mpfr_zero_p(exact) ? Format<T>::kMinExponent : mpfr_get_exp(exact) - 1;
  exponent = std::max<long>(exponent, Format<T>::kMinExponent);
  mpfr_mul_2si(difference, difference, Format<T>::kFractionBits - exponent, MPFR_RNDN);
  double error = std::fabs(mpfr_get_d(difference, MPFR_RNDN));
  mpfr_clear(difference);
  return error;
}

// Doubles closest to a multiple of pi/2 (the hardest arguments to reduce), with their
// neighbours, and the edges of the reductions' ranges.
std::vector<double> hardTrigArguments() {
  std::vector<double> values;
  for (double v : {0x1.6ac5b262ca1ffp+849, 0x1.2b17b56a677bap+551, 0x1p20, 0x1.921fb54442d18p-1, 0x1.921fb54442d18p+0,
                   0x1.921fb54442d18p+1, 1e22, 0x1.fffffffffffffp+1023}) {
    for (double w : {v, std::nextafter(v, 0.0), std::nextafter(v, INFINITY)}) values.push_back(w), values.push_back(-w);
  }
  return values;
}

template <typename T>
std::vector<T> edgeCases() {
  using L = std::numeric_limits<T>;
  return {T(0),
          -T(0),
          L::infinity(),
          -L::infinity(),
          L::quiet_NaN(),
          L::denorm_min(),
          -L::denorm_min(),
          L::min() - L::denorm_min(),
          L::min(),
          -L::min(),
          L::max(),
          -L::max(),
          T(1),
          T(-1),
          T(0.5),
          T(-0.5),
          std::nextafter(T(1), T(0)),
          std::nextafter(T(-1), T(0)),
          std::nextafter(T(0.5), T(1)),
          T(2),
          T(-3),
          T(1e-4),
          T(3.5),
          T(1e10),
          T(-1e-30)};
}

// Values spread over every exponent (random bits of finite numbers), over [-1, 1] and over
// [low, high].
template <typename T>
std::vector<T> randomValues(size_t count, uint64_t seed, double low = -1, double high = 1) {
  using Bits = typename Format<T>::Bits;
  std::mt19937_64 random(seed);
  std::uniform_real_distribution<T> unit(T(-1), T(1));
  std::uniform_real_distribution<T> range(static_cast<T>(low), static_cast<T>(high));
  std::vector<T> values;
  while (values.size() < count) {
    if (values.size() % 3 == 0) {
      values.push_back(unit(random));
      continue;
    }
    if (values.size() % 3 == 1) {
      values.push_back(range(random));
      continue;
    }
    T v = std::bit_cast<T>(static_cast<Bits>(random()));
    if (std::isfinite(v)) values.push_back(v);
  }
  return values;
}

// Floats far from 1, where FTZ devices lose intermediates: random bits with the exponent in
// [-149, -100] (below FLT_MIN the values are denormals) or [100, 127].
std::vector<float> extremeFloats(size_t count, uint64_t seed) {
  std::mt19937_64 random(seed);
  std::uniform_int_distribution<int> tinyExponent(-149, -100), hugeExponent(100, 127);
  std::uniform_real_distribution<float> significand(1, 2);
  std::vector<float> values;
  for (size_t i = 0; i < count; ++i) {
    float value = std::ldexp(significand(random), i % 2 ? hugeExponent(random) : tinyExponent(random));
    values.push_back(random() % 2 ? -value : value);
  }
  return values;
}

bool denormalFloat(double v) { return v != 0 && std::fabs(v) < std::numeric_limits<float>::min(); }
double flushedFloat(double v) { return denormalFloat(v) ? std::copysign(0.0, v) : v; }

// Whether OpenCL C's flush-to-zero rules may apply: a float operation on a device that may flush
// (cl2vk reports no CL_FP_DENORM for float) with a denormal operand or result.
template <typename T>
bool flushesFloatDenormals(bool mayFlush, double x, double y, double result) {
  return std::is_same_v<T, float> && mayFlush && (denormalFloat(x) || denormalFloat(y) || denormalFloat(result));
}

class MathPrecision : public KernelTest {
 public:
  // Whether the device may flush float denormals: cl2vk then reports no CL_FP_DENORM for float.
  bool mayFlushFloatDenormals() const { return !target().denormPreserveFloat32; }

 protected:
  // Each module holds dozens of kernels; it is translated once (per target) and every kernel
  // launched from it.
  std::unique_ptr<launch::LaunchableKernel> kernel(const std::string& file, const std::string& name) {
    static std::map<std::string, std::shared_ptr<const Translation>> translations;
    std::shared_ptr<const Translation>& translation =
        translations[file + (target().emulateFloat32DenormalFlush ? " flushing" : "") +
                     (target().fusedLibraryForms ? " fused forms" : "")];
    if (!translation) translation = translate(file);
    if (!translation) return nullptr;
    auto created = launch::LaunchableKernel::create(sharedDevice(), translation, name);
    EXPECT_TRUE(created.ok()) << created.error().message();
    return created ? std::move(*created) : nullptr;
  }

  // C99's Annex F, which OpenCL's math follows: an odd function of a zero is that zero (sin(-0) is
  // -0), a sign an argument reduction is apt to lose.
  template <typename T>
  void expectOddFunctionsKeepTheSignOfZero(const std::string& file) {
    const std::string suffix = std::is_same_v<T, float> ? "_f32" : "_f64";
    const std::vector<T> zeros{T(-0.0), T(0.0)};
    for (const char* name : {"sin", "tan", "asin", "atan", "sinpi", "tanpi", "asinpi", "atanpi", "sinh", "tanh",
                             "asinh", "atanh", "expm1", "log1p", "erf", "cbrt"}) {
      auto k = kernel(file, name + suffix);
      ASSERT_TRUE(k) << name;
      auto dx = buffer(zeros), dr = buffer(std::vector<T>(2, T(1)));
      run(*k, range1d(2), {KernelArg::buffer(dx), KernelArg::buffer(dx), KernelArg::buffer(dr)});
      std::vector<T> r = read<T>(dr, 2);
      EXPECT_TRUE(r[0] == 0 && std::signbit(r[0])) << name << suffix << "(-0) = " << r[0];
      EXPECT_TRUE(r[1] == 0 && !std::signbit(r[1])) << name << suffix << "(+0) = " << r[1];
    }
  }

  // Where cl2vk reports no CL_FP_DENORM for float (a device that cannot be told to keep float
  // denormals), OpenCL C's flush-to-zero rules apply to float results: besides a result within the
  // bound, a device may return the result for any of the operands' denormals flushed to zero of
  // the same sign, and zero of the right sign wherever that result is a denormal.
  template <typename T>
  bool flushedToZero(const MathFunction& function, T x, T y, T result) const {
    if constexpr (!std::is_same_v<T, float>) {
      return false;
    } else {
      if (!mayFlushFloatDenormals()) return false;
      auto denormal = denormalFloat;
      mpfr_t fx, fy, exact;
      mpfr_inits2(kReferencePrecision, fx, fy, exact, static_cast<mpfr_ptr>(nullptr));
      bool allowed = false;
      for (int flush = 0; flush < 4 && !allowed; ++flush) {
        bool flushX = flush & 1, flushY = flush & 2;
        if ((flushX && !denormal(x)) || (flushY && (!function.binary || !denormal(y)))) continue;
        mpfr_set_d(fx, flushX ? std::copysign(0.0, x) : double(x), MPFR_RNDN);
        mpfr_set_d(fy, flushY ? std::copysign(0.0, y) : double(y), MPFR_RNDN);
        if (function.unary)
          function.unary(exact, fx, MPFR_RNDN);
        else
          function.binary(exact, fx, fy, MPFR_RNDN);
        double value = mpfr_get_d(exact, MPFR_RNDN);
        allowed = ulpError(result, exact) <= function.bound || (result == 0 && (denormal(value) || value == 0));
      }
      mpfr_clears(fx, fy, exact, static_cast<mpfr_ptr>(nullptr));
      return allowed;
    }
  }

  // `randomCount` random inputs (pairs) besides the edge cases and the extreme values.
  template <typename T>
  void measure(const MathFunction& function, const std::string& file, size_t randomCount = 1 << 14,
               const std::vector<T>& hard = {}) {
    const double bound = function.bound;
    std::vector<T> edges = edgeCases<T>();
    std::vector<T> xs, ys;
    // Every pair of edge cases, then random pairs; for fmod, pairs of close magnitude too, and
    // the case the issue measured.
    for (T x : edges) {
      for (T y : edges) xs.push_back(x), ys.push_back(y);
    }
    for (T x : hard) xs.push_back(x), ys.push_back(T(1));
    std::vector<T> rx = randomValues<T>(randomCount, 1, function.low, function.high);
    std::vector<T> ry = randomValues<T>(randomCount, 2, function.low, function.high);
    xs.insert(xs.end(), rx.begin(), rx.end());
    ys.insert(ys.end(), ry.begin(), ry.end());
    if constexpr (std::is_same_v<T, double>) {
      for (double v : hardTrigArguments()) xs.push_back(v), ys.push_back(1.0);
    } else {
      std::vector<float> ex = extremeFloats(512, 4), ey = extremeFloats(512, 5);
      xs.insert(xs.end(), ex.begin(), ex.end());
      ys.insert(ys.end(), ey.begin(), ey.end());
      // Both operands huge, or both tiny (atan2, hypot, remainder).
      for (size_t i = 0; i < ex.size(); ++i) xs.push_back(ex[i]), ys.push_back(ex[(i + 2) % ex.size()]);
    }
    if (function.binary) {
      std::mt19937_64 random(3);
      std::uniform_real_distribution<T> scale(T(0.5), T(64));
      for (size_t i = 0; i < std::min<size_t>(4096, rx.size()); ++i)
        xs.push_back(rx[i] * scale(random)), ys.push_back(rx[i]);
      xs.push_back(T(0.9)), ys.push_back(T(0.29911503));
    }

    auto k = kernel(file, std::string(function.name) + Format<T>::kSuffix);
    ASSERT_TRUE(k);
    auto dx = buffer(xs), dy = buffer(ys), dr = buffer(std::vector<T>(xs.size(), T(0)));
    run(*k, range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dy), KernelArg::buffer(dr)});
    std::vector<T> results = read<T>(dr, xs.size());

    mpfr_t x, y, exact;
    mpfr_inits2(kReferencePrecision, x, y, exact, static_cast<mpfr_ptr>(nullptr));
    double worst = 0;
    size_t worstAt = 0, failures = 0, withinAbsolute = 0, flushed = 0;
    std::ostringstream firstFailures;
    for (size_t i = 0; i < xs.size(); ++i) {
      mpfr_set_d(x, static_cast<double>(xs[i]), MPFR_RNDN);
      mpfr_set_d(y, static_cast<double>(ys[i]), MPFR_RNDN);
      if (function.unary)
        function.unary(exact, x, MPFR_RNDN);
      else
        function.binary(exact, x, y, MPFR_RNDN);
      double error = ulpError(results[i], exact);
      if (error > bound && function.absolute > 0 && std::isfinite(error) &&
          std::fabs(static_cast<double>(results[i]) - mpfr_get_d(exact, MPFR_RNDN)) <= function.absolute) {
        ++withinAbsolute;  // passes by the absolute tolerance; not counted in the largest ULP error
        continue;
      }
      // A result OpenCL allows a device that flushes float denormals. Where the device is known to
      // flush (emulated) and a denormal operand or result is involved, it counts here even within
      // the bound, so that the largest error is that of the normal range (a flushed denormal
      // operand is several of its ULP off).
      bool denormalFlushed =
          target().emulateFloat32DenormalFlush && error > 0 &&
          flushesFloatDenormals<T>(true, xs[i], function.binary ? double(ys[i]) : 1.0, mpfr_get_d(exact, MPFR_RNDN));
      if ((error > bound || denormalFlushed) && flushedToZero(function, xs[i], ys[i], results[i])) {
        ++flushed;
        continue;
      }
      if (error > worst) worst = error, worstAt = i;
      if (error > bound && failures++ < 5) {
        firstFailures << "\n  " << function.name << "(" << std::hexfloat << xs[i];
        if (function.binary) firstFailures << ", " << ys[i];
        firstFailures << ") = " << results[i] << ", exact " << mpfr_get_d(exact, MPFR_RNDN) << std::defaultfloat << " ("
                      << error << " ULP)";
      }
    }
    mpfr_clears(x, y, exact, static_cast<mpfr_ptr>(nullptr));
    std::printf("%s%s: %zu inputs, largest error %.3g ULP at x = %a, y = %a (bound %g)", function.name,
                Format<T>::kSuffix, xs.size(), worst, double(xs[worstAt]), double(ys[worstAt]), bound);
    if (withinAbsolute > 0) std::printf("; %zu more within %a absolute", withinAbsolute, function.absolute);
    if (flushed > 0) std::printf("; %zu more with denormals flushed to zero", flushed);
    std::printf("\n");
    EXPECT_EQ(failures, 0u) << failures << " results beyond " << bound << " ULP:" << firstFailures.str();
  }
};

TEST_P(MathPrecision, FloatFunctionsWithinOpenclBounds) {
  for (const MathFunction& function : kFloatFunctions) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision");
  }
}

TEST_P(MathPrecision, DoubleFunctionsWithinOpenclBounds) {
  if (!sharedDevice().info().features.shaderFloat64)
    GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  for (const MathFunction& function : kDoubleFunctions) {
    SCOPED_TRACE(function.name);
    measure<double>(function, "math_precision_double");
  }
}

TEST_P(MathPrecision, OddFunctionsKeepTheSignOfZero) {
  expectOddFunctionsKeepTheSignOfZero<float>("math_precision");
  if (sharedDevice().info().features.shaderFloat64)
    expectOddFunctionsKeepTheSignOfZero<double>("math_precision_double");
}

TEST_P(MathPrecision, DoubleSincosGivesSinAndCos) {
  if (!sharedDevice().info().features.shaderFloat64)
    GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  auto k = kernel("math_precision_double", "sincos_f64");
  ASSERT_TRUE(k);
  std::vector<double> x = randomValues<double>(4096, 7, -1e4, 1e4), hard = hardTrigArguments();
  x.insert(x.end(), hard.begin(), hard.end());
  auto dx = buffer(x), dc = buffer(std::vector<double>(x.size(), 0)), ds = buffer(std::vector<double>(x.size(), 0));
  run(*k, range1d(x.size()), {KernelArg::buffer(dx), KernelArg::buffer(dc), KernelArg::buffer(ds)});
  std::vector<double> s = read<double>(ds, x.size()), c = read<double>(dc, x.size());
  mpfr_t value, exact;
  mpfr_inits2(kReferencePrecision, value, exact, static_cast<mpfr_ptr>(nullptr));
  for (size_t i = 0; i < x.size(); ++i) {
    mpfr_set_d(value, x[i], MPFR_RNDN);
    mpfr_sin(exact, value, MPFR_RNDN);
    EXPECT_LE(ulpError(s[i], exact), 4) << "sin of " << std::hexfloat << x[i] << " = " << s[i];
    mpfr_cos(exact, value, MPFR_RNDN);
    EXPECT_LE(ulpError(c[i], exact), 4) << "cos of " << std::hexfloat << x[i] << " = " << c[i];
  }
  mpfr_clears(value, exact, static_cast<mpfr_ptr>(nullptr));
}

// ilogb against the bits' own exponent: INT_MIN for zeros, INT_MAX for infinities and NaN.
template <typename T>
int32_t ilogbReference(T x) {
  if (std::isnan(x) || std::isinf(x)) return INT32_MAX;
  if (x == 0) return INT32_MIN;
  return std::ilogb(x);
}

TEST_P(MathPrecision, IlogbIsExact) {
  std::vector<float> fx = edgeCases<float>(), frandom = randomValues<float>(4096, 8, -1e3, 1e3);
  fx.insert(fx.end(), frandom.begin(), frandom.end());
  auto kf = kernel("math_precision", "ilogb_f32");
  ASSERT_TRUE(kf);
  auto dx = buffer(fx), dr = buffer(std::vector<int32_t>(fx.size(), 0));
  run(*kf, range1d(fx.size()), {KernelArg::buffer(dx), KernelArg::buffer(dx), KernelArg::buffer(dr)});
  std::vector<int32_t> fr = read<int32_t>(dr, fx.size());
  for (size_t i = 0; i < fx.size(); ++i) ASSERT_EQ(fr[i], ilogbReference(fx[i])) << std::hexfloat << fx[i];

  if (!sharedDevice().info().features.shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64";
  std::vector<double> dxs = edgeCases<double>(), drandom = randomValues<double>(4096, 9, -1e3, 1e3);
  dxs.insert(dxs.end(), drandom.begin(), drandom.end());
  auto kd = kernel("math_precision_double", "ilogb_f64");
  ASSERT_TRUE(kd);
  auto ddx = buffer(dxs), ddr = buffer(std::vector<int32_t>(dxs.size(), 0));
  run(*kd, range1d(dxs.size()), {KernelArg::buffer(ddx), KernelArg::buffer(ddx), KernelArg::buffer(ddr)});
  std::vector<int32_t> dr64 = read<int32_t>(ddr, dxs.size());
  for (size_t i = 0; i < dxs.size(); ++i) ASSERT_EQ(dr64[i], ilogbReference(dxs[i])) << std::hexfloat << dxs[i];
}

// remquo: the exact remainder, and the quotient's sign and low bits (OpenCL asks for 3 or more;
// the library gives 7, compared mod 8 here).
template <typename T>
void checkRemquo(MathPrecision& test, std::unique_ptr<launch::LaunchableKernel> k) {
  ASSERT_TRUE(k);
  std::vector<T> x = randomValues<T>(4096, 10, -1e3, 1e3), y = randomValues<T>(4096, 11, -1e3, 1e3);
  if constexpr (std::is_same_v<T, float>) {
    std::vector<float> ex = extremeFloats(512, 14);
    for (size_t i = 0; i < ex.size(); ++i) x.push_back(ex[i]), y.push_back(ex[(i + 2) % ex.size()]);
  }
  std::mt19937_64 random(12);
  std::uniform_real_distribution<T> scale(T(0.5), T(300));
  for (size_t i = 0; i < 4096; ++i) x.push_back(y[i] * scale(random)), y.push_back(y[i]);
  for (T a : edgeCases<T>()) {
    for (T b : edgeCases<T>()) x.push_back(a), y.push_back(b);
  }
  auto dx = test.buffer(x), dy = test.buffer(y), dr = test.buffer(std::vector<T>(x.size(), T(0)));
  auto dq = test.buffer(std::vector<int32_t>(x.size(), 0));
  test.run(*k, KernelTest::range1d(x.size()),
           {KernelArg::buffer(dx), KernelArg::buffer(dy), KernelArg::buffer(dr), KernelArg::buffer(dq)});
  std::vector<T> r = test.template read<T>(dr, x.size());
  std::vector<int32_t> q = test.template read<int32_t>(dq, x.size());
  mpfr_t mx, my, exact;
  mpfr_inits2(kReferencePrecision, mx, my, exact, static_cast<mpfr_ptr>(nullptr));
  for (size_t i = 0; i < x.size(); ++i) {
    mpfr_set_d(mx, static_cast<double>(x[i]), MPFR_RNDN);
    mpfr_set_d(my, static_cast<double>(y[i]), MPFR_RNDN);
    long quotient = 0;
    mpfr_remquo(exact, &quotient, mx, my, MPFR_RNDN);
    if (ulpError(r[i], exact) != 0 &&
        flushesFloatDenormals<T>(test.mayFlushFloatDenormals(), x[i], y[i], mpfr_get_d(exact, MPFR_RNDN))) {
      // The same with the denormal operands flushed to zero, or zero for a denormal remainder.
      if (r[i] == 0 && denormalFloat(mpfr_get_d(exact, MPFR_RNDN))) continue;
      mpfr_set_d(mx, flushedFloat(x[i]), MPFR_RNDN);
      mpfr_set_d(my, flushedFloat(y[i]), MPFR_RNDN);
      mpfr_remquo(exact, &quotient, mx, my, MPFR_RNDN);
    }
    ASSERT_EQ(ulpError(r[i], exact), 0) << "remquo(" << std::hexfloat << x[i] << ", " << y[i] << ") = " << r[i];
    if (mpfr_nan_p(exact)) continue;  // the quotient is unspecified
    long expected = quotient < 0 ? -((-quotient) & 7) : quotient & 7;
    long actual = q[i] < 0 ? -((-q[i]) & 7) : q[i] & 7;
    ASSERT_EQ(actual, expected) << "quotient of remquo(" << std::hexfloat << x[i] << ", " << y[i] << ")";
  }
  mpfr_clears(mx, my, exact, static_cast<mpfr_ptr>(nullptr));
}

TEST_P(MathPrecision, RemquoGivesTheRemainderAndTheQuotientBits) {
  checkRemquo<float>(*this, kernel("math_precision", "remquo_f32"));
  if (!sharedDevice().info().features.shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64";
  checkRemquo<double>(*this, kernel("math_precision_double", "remquo_f64"));
}

// lgamma_r: log |Gamma| as lgamma's row asks, and the sign of Gamma against MPFR's.
template <typename T>
void checkLgammaR(MathPrecision& test, std::unique_ptr<launch::LaunchableKernel> k, double absolute) {
  ASSERT_TRUE(k);
  std::vector<T> x = randomValues<T>(4096, 13, -40, 40);
  auto dx = test.buffer(x), ds = test.buffer(std::vector<int32_t>(x.size(), 0));
  auto dr = test.buffer(std::vector<T>(x.size(), T(0)));
  test.run(*k, KernelTest::range1d(x.size()), {KernelArg::buffer(dx), KernelArg::buffer(ds), KernelArg::buffer(dr)});
  std::vector<int32_t> sign = test.template read<int32_t>(ds, x.size());
  std::vector<T> r = test.template read<T>(dr, x.size());
  mpfr_t value, exact;
  mpfr_inits2(kReferencePrecision, value, exact, static_cast<mpfr_ptr>(nullptr));
  for (size_t i = 0; i < x.size(); ++i) {
    mpfr_set_d(value, static_cast<double>(x[i]), MPFR_RNDN);
    int expectedSign = 0;
    mpfr_lgamma(exact, &expectedSign, value, MPFR_RNDN);
    bool close =
        ulpError(r[i], exact) <= 16 || std::fabs(static_cast<double>(r[i]) - mpfr_get_d(exact, MPFR_RNDN)) <= absolute;
    if (flushesFloatDenormals<T>(test.mayFlushFloatDenormals(), x[i], 1, 1)) {
      // A float denormal flushed to zero: lgamma(±0) is +inf, and Gamma's sign is that of the
      // zero the device made of it.
      EXPECT_TRUE(close || r[i] == std::numeric_limits<T>::infinity()) << "lgamma_r(" << std::hexfloat << x[i] << ")";
      continue;
    }
    EXPECT_TRUE(close) << "lgamma_r(" << std::hexfloat << x[i] << ") = " << r[i];
    if (x[i] > 0 || x[i] != std::rint(x[i])) {  // Gamma has no sign at its poles
      EXPECT_EQ(sign[i], expectedSign) << std::hexfloat << x[i];
    }
  }
  mpfr_clears(value, exact, static_cast<mpfr_ptr>(nullptr));
}

TEST_P(MathPrecision, LgammaRGivesTheSignOfGamma) {
  checkLgammaR<float>(*this, kernel("math_precision", "lgamma_r_f32"), 0x1p-24);
  if (!sharedDevice().info().features.shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64";
  checkLgammaR<double>(*this, kernel("math_precision_double", "lgamma_r_f64"), 0x1p-53);
}

// pown, rootn and pow(x, (T)n) for every kind of int, INT_MIN and INT_MAX, odd and even past 2^24
// (pown's float used to take (float)n, whose parity is lost there: pown(-1, INT_MAX) was +1),
// over bases at OpenCL's special cases and near 1, against MPFR (bound 16 ULP); zeros and
// infinities must have the right sign.
template <typename T>
void checkIntPowers(MathPrecision& test, std::unique_ptr<launch::LaunchableKernel> k) {
  ASSERT_TRUE(k);
  using L = std::numeric_limits<T>;
  std::vector<T> bases = {T(0),
                          -T(0),
                          T(1),
                          T(-1),
                          L::infinity(),
                          -L::infinity(),
                          L::quiet_NaN(),
                          T(2),
                          T(-2),
                          T(0.5),
                          T(-0.5),
                          std::nextafter(T(1), T(2)),
                          std::nextafter(T(-1), T(-2)),
                          std::nextafter(T(1), T(0)),
                          std::nextafter(T(-1), T(0)),
                          T(3),
                          T(-1e-3),
                          L::denorm_min(),
                          -L::max(),
                          T(1) + std::ldexp(T(1), -20),
                          T(-1) - std::ldexp(T(1), -30)};
  std::vector<int32_t> exponents = {0, 1, -1, 2, -2, 3, -3, 1000001, -999999};
  for (int32_t e : {INT32_MAX, INT32_MAX - 1, INT32_MIN, INT32_MIN + 1}) exponents.push_back(e);
  for (int32_t e : {(1 << 24) + 1, (1 << 24) + 3, -(1 << 24) - 1, (1 << 25) - 1}) exponents.push_back(e);
  std::mt19937_64 random(15);
  for (int i = 0; i < 16; ++i) exponents.push_back(static_cast<int32_t>(random()));
  std::vector<T> x;
  std::vector<int32_t> n;
  for (T b : bases) {
    for (int32_t e : exponents) x.push_back(b), n.push_back(e);
  }
  auto dx = test.buffer(x), dn = test.buffer(n), dr = test.buffer(std::vector<T>(3 * x.size(), T(0)));
  test.run(*k, KernelTest::range1d(x.size()), {KernelArg::buffer(dx), KernelArg::buffer(dn), KernelArg::buffer(dr)});
  std::vector<T> r = test.template read<T>(dr, 3 * x.size());
  mpfr_t base, y, exact;
  mpfr_inits2(kReferencePrecision, base, y, exact, static_cast<mpfr_ptr>(nullptr));
  const char* names[] = {"pown", "rootn", "pow"};
  // Whether `actual` is function `which` of (b, e) within 16 ULP, zeros and infinities signed right.
  auto right = [&](int which, T b, int32_t e, T actual) {
    mpfr_set_d(base, static_cast<double>(b), MPFR_RNDN);
    if (which == 0) {
      mpfr_pow_si(exact, base, e, MPFR_RNDN);
    } else if (which == 1) {
      mpfr_rootn_si(exact, base, e, MPFR_RNDN);
    } else {
      mpfr_set_d(y, static_cast<double>(static_cast<T>(e)), MPFR_RNDN);  // convert_T_rte(e)
      mpfr_pow(exact, base, y, MPFR_RNDN);
    }
    double value = mpfr_get_d(exact, MPFR_RNDN);
    bool signed_ =
        std::isnan(actual) || !(value == 0 || std::isinf(value)) || std::signbit(actual) == std::signbit(value);
    return ulpError(actual, exact) <= 16 && signed_;
  };
  for (size_t i = 0; i < x.size(); ++i) {
    for (int which = 0; which < 3; ++which) {
      T actual = r[3 * i + which];
      if (right(which, x[i], n[i], actual)) continue;
      double value = mpfr_get_d(exact, MPFR_RNDN);
      // OpenCL C's flush-to-zero rules on a device that may flush float denormals: the result for
      // a denormal base flushed to zero, or zero of the sign for a denormal result.
      if (flushesFloatDenormals<T>(test.mayFlushFloatDenormals(), x[i], 1, value) &&
          ((denormalFloat(x[i]) && right(which, std::copysign(T(0), x[i]), n[i], actual)) ||
           (denormalFloat(value) && actual == 0 && std::signbit(actual) == std::signbit(value))))
        continue;
      ADD_FAILURE() << names[which] << "(" << std::hexfloat << x[i] << ", " << std::dec << n[i]
                    << ") = " << std::hexfloat << actual << ", exact " << value;
    }
  }
  mpfr_clears(base, y, exact, static_cast<mpfr_ptr>(nullptr));
}

TEST_P(MathPrecision, PownRootnAndPowTakeEveryInt) {
  checkIntPowers<float>(*this, kernel("math_precision", "int_powers_f32"));
  if (!sharedDevice().info().features.shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64";
  checkIntPowers<double>(*this, kernel("math_precision_double", "int_powers_f64"));
}

TEST_P(MathPrecision, VectorFmodIsExactPerComponent) {
  auto k = kernel("math_precision", "fmod_float4");
  ASSERT_TRUE(k);
  std::vector<float> x = randomValues<float>(4096, 5), y = randomValues<float>(4096, 6);
  auto dx = buffer(x), dy = buffer(y), dr = buffer(std::vector<float>(x.size(), 0));
  run(*k, range1d(x.size() / 4), {KernelArg::buffer(dx), KernelArg::buffer(dy), KernelArg::buffer(dr)});
  std::vector<float> r = read<float>(dr, x.size());
  for (size_t i = 0; i < x.size(); ++i) {
    ASSERT_EQ(std::bit_cast<uint32_t>(r[i]), std::bit_cast<uint32_t>(std::fmod(x[i], y[i])))
        << "fmod(" << std::hexfloat << x[i] << ", " << y[i] << ")";
  }
}

CL2VK_KERNEL_TEST_SUITE(MathPrecision, "O2");

// The float functions on a device that flushes float denormals (as NVIDIA's does, without
// shaderDenormPreserveFloat32), emulated on one that keeps them (the emulate-denormal-flush pass):
// OpenCL C's flush-to-zero rules allow a flushed denormal operand or result, nothing else. Fewer
// random inputs than above, for time; the edge cases and extreme values all the same.
class MathPrecisionFlushingDenormals : public MathPrecision {
 public:
  Target target() const override {
    Target flushing = MathPrecision::target();
    flushing.denormPreserveFloat32 = false;
    flushing.emulateFloat32DenormalFlush = true;
    return flushing;
  }
};

TEST_P(MathPrecisionFlushingDenormals, FloatFunctionsWithinOpenclBounds) {
  for (const MathFunction& function : kFloatFunctions) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision", 1 << 11);
  }
}

TEST_P(MathPrecisionFlushingDenormals, RemquoGivesTheRemainderAndTheQuotientBits) {
  checkRemquo<float>(*this, kernel("math_precision", "remquo_f32"));
}

TEST_P(MathPrecisionFlushingDenormals, LgammaRGivesTheSignOfGamma) {
  checkLgammaR<float>(*this, kernel("math_precision", "lgamma_r_f32"), 0x1p-24);
}

TEST_P(MathPrecisionFlushingDenormals, PownRootnAndPowTakeEveryInt) {
  checkIntPowers<float>(*this, kernel("math_precision", "int_powers_f32"));
}

CL2VK_KERNEL_TEST_SUITE(MathPrecisionFlushingDenormals, "O2");

// The library's forms built on fma (Target::fusedLibraryForms: sin, cos and tan reduce their
// argument with three fused multiply-adds, pow and powr form exact products by fma, cbrt takes
// Newton steps, fmod one fma, and every other function a polynomial or rational form by fma with
// at most one reciprocal), which the runtime takes where the driver's Fma is fused (GPUs). On a CPU
// driver, whose Fma rounds twice, the library's exact fma stands in for it, so these forms are
// checked on every machine; each test puts a share of its inputs where the forms apply and at the
// edges of their ranges.
class MathPrecisionFusedForms : public MathPrecision {
 public:
  Target target() const override {
    Target fused = MathPrecision::target();
    fused.fusedLibraryForms = true;
    return fused;
  }
};

TEST_P(MathPrecisionFusedForms, FloatSinCosAndTanWithinOpenclBounds) {
  // The float below 2^12 closest to a multiple of pi/2 (0x1.f9cbe2p+7, 2^-27.8 from 161 pi/2, found
  // by trying every float from 1 to 2^12), where the reduction cancels most, and its neighbours.
  std::vector<float> hard;
  float x = 0x1.f9cbe2p+7f;
  for (int step = 0; step < 5; ++step, x = std::nextafter(x, 0.0f)) hard.push_back(x), hard.push_back(-x);
  for (const MathFunction& function :
       {MathFunction{"sin", mpfr_sin, nullptr, 4, -0x1p12, 0x1p12},
        MathFunction{"cos", mpfr_cos, nullptr, 4, -0x1p12, 0x1p12},
        MathFunction{"tan", mpfr_tan, nullptr, 5, -0x1p12, 0x1p12},
        MathFunction{"sin", mpfr_sin, nullptr, 4, -1e4, 1e4}, MathFunction{"cos", mpfr_cos, nullptr, 4, -1e4, 1e4}}) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision", 1 << 14, hard);
  }
}

// The doubles closest to multiples of pi/2 (hardTrigArguments) are among measure's inputs.
TEST_P(MathPrecisionFusedForms, DoubleSinCosAndTanWithinOpenclBounds) {
  if (!sharedDevice().info().features.shaderFloat64)
    GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  for (const MathFunction& function : {MathFunction{"sin", mpfr_sin, nullptr, 4, -0x1p20, 0x1p20},
                                       MathFunction{"cos", mpfr_cos, nullptr, 4, -0x1p20, 0x1p20},
                                       MathFunction{"tan", mpfr_tan, nullptr, 5, -0x1p20, 0x1p20}}) {
    SCOPED_TRACE(function.name);
    measure<double>(function, "math_precision_double");
  }
}

// sinpi, cospi and tanpi's fma forms (below 2^23): at the multiples of 1/4, where r is +-1/4 or
// 0 (the exact path) and cot's divisor is smallest, their neighbours, the edge of the range, and
// the largest errors of sinpi and tanpi over every r (0x1.ff3c28p-3, 0x1.fef758p-3).
TEST_P(MathPrecisionFusedForms, FloatSinpiCospiAndTanpiWithinOpenclBounds) {
  std::vector<float> hard;
  for (float x : {0.25f, 0.5f, 0.75f, 1.5f, 2.25f, 99.5f, 1000.75f, 0x1.fffffep+21f, 0x1p22f, 0x1p23f, 0x1.ff3c28p-3f,
                  0x1.fef758p-3f}) {
    float below = std::nextafter(x, 0.0f), above = std::nextafter(x, INFINITY);
    for (float v : {x, below, std::nextafter(below, 0.0f), above, std::nextafter(above, INFINITY)})
      hard.push_back(v), hard.push_back(-v);
  }
  for (const MathFunction& function : {MathFunction{"sinpi", mpfr_sinpi, nullptr, 4, -100, 100},
                                       MathFunction{"cospi", mpfr_cospi, nullptr, 4, -100, 100},
                                       MathFunction{"tanpi", mpfr_tanpi, nullptr, 6, -100, 100},
                                       MathFunction{"sinpi", mpfr_sinpi, nullptr, 4, -0x1p23, 0x1p23},
                                       MathFunction{"tanpi", mpfr_tanpi, nullptr, 6, -0x1p23, 0x1p23}}) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision", 1 << 14, hard);
  }
}

// The double forms (below 2^29), likewise at the multiples of 1/4, their neighbours and the edge,
// and the largest errors of 3e6 random inputs against MPFR. Just below 2^30, rint(2x) is 2^31, which
// NVIDIA converts to INT_MAX (x86 to INT_MIN, whose quadrant happens to be right): the form with
// its edge at 2^30 failed there on the H200 only.
TEST_P(MathPrecisionFusedForms, DoubleSinpiCospiAndTanpiWithinOpenclBounds) {
  if (!sharedDevice().info().features.shaderFloat64)
    GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  std::vector<double> hard;
  for (double x : {0.25, 0.5, 0.75, 1.5, 2.25, 99.5, 1000.75, 0x1p29, 0x1p30, -0x1.4affeb85842eep+6,
                   0x1.8c48239af6638p+4, 0x1.833c7b0d7d16p-1}) {
    double below = std::nextafter(x, 0.0), above = std::nextafter(x, INFINITY);
    for (double v : {x, below, std::nextafter(below, 0.0), above, std::nextafter(above, INFINITY)})
      hard.push_back(v), hard.push_back(-v);
  }
  for (const MathFunction& function : {MathFunction{"sinpi", mpfr_sinpi, nullptr, 4, -100, 100},
                                       MathFunction{"cospi", mpfr_cospi, nullptr, 4, -100, 100},
                                       MathFunction{"tanpi", mpfr_tanpi, nullptr, 6, -100, 100},
                                       MathFunction{"tanpi", mpfr_tanpi, nullptr, 6, -0x1p30, 0x1p30}}) {
    SCOPED_TRACE(function.name);
    measure<double>(function, "math_precision_double", 1 << 14, hard);
  }
}

// atan, atanpi, atan2 and atan2pi's fma forms: around 1 (where the reciprocal starts), at the
// edge of their range (2^60; 2^126 and 2^-126 for atan2's operands), y = +-x, and the benchmark's
// ranges.
TEST_P(MathPrecisionFusedForms, FloatAtanAndAtan2WithinOpenclBounds) {
  std::vector<float> hard;
  for (float x : {1.0f, 0x1.04749p+0f, 0x1.f8e398p-1f, 0x1p60f, 0x1p126f, 0x1p-126f}) {
    float below = std::nextafter(x, 0.0f), above = std::nextafter(x, INFINITY);
    for (float v : {x, below, std::nextafter(below, 0.0f), above, std::nextafter(above, INFINITY)})
      hard.push_back(v), hard.push_back(-v);
  }
  for (const MathFunction& function :
       {MathFunction{"atan", mpfr_atan, nullptr, 5, -20, 20}, MathFunction{"atanpi", mpfr_atanpi, nullptr, 5, -20, 20},
        MathFunction{"atan", mpfr_atan, nullptr, 5, -2, 2}, MathFunction{"atanpi", mpfr_atanpi, nullptr, 5, -2, 2}}) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision", 1 << 14, hard);
  }
  // measure pairs the hard values with y = 1, and every x with a scaled copy of itself.
  for (const MathFunction& function : {MathFunction{"atan2", nullptr, mpfr_atan2, 6, -20, 20},
                                       MathFunction{"atan2pi", nullptr, mpfr_atan2pi, 6, -20, 20}}) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision", 1 << 15, hard);
  }
}

TEST_P(MathPrecisionFusedForms, PowAndPowrWithinOpenclBounds) {
  for (const MathFunction& function :
       {MathFunction{"pow", nullptr, mpfr_pow, 16, -8, 8}, MathFunction{"powr", nullptr, powrReference, 16, -8, 8},
        MathFunction{"pow", nullptr, mpfr_pow, 16, -100, 100}}) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision", 1 << 14);
    if (sharedDevice().info().features.shaderFloat64) measure<double>(function, "math_precision_double");
  }
  checkIntPowers<float>(*this, kernel("math_precision", "int_powers_f32"));
  if (sharedDevice().info().features.shaderFloat64)
    checkIntPowers<double>(*this, kernel("math_precision_double", "int_powers_f64"));
}

TEST_P(MathPrecisionFusedForms, CbrtWithinOpenclBounds) {
  MathFunction cbrt{"cbrt", mpfr_cbrt, nullptr, 2, -1e3, 1e3};
  measure<float>(cbrt, "math_precision", 1 << 15);
  if (!sharedDevice().info().features.shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64";
  measure<double>(cbrt, "math_precision_double", 1 << 15);
}

// The double inverse trigonometric functions' fma forms at the edges of their pieces, each value
// and its neighbours on both sides with both signs (atan2 and atan2pi take them as y, with x = 1):
// |x| = 1/2 (asin's polynomial or its square root) and 1 (the exact form), the ratios 7/16 and 16/7
// where atan's reduction changes, 1 (t = 0), 2^100 (the exact form beyond), and 2^-900 and tiny
// values (atan2's bound on the smaller operand).
std::vector<double> hardInverseTrigArguments() {
  std::vector<double> hard;
  for (double edge : {0.5, 1.0, 0.4375, 16.0 / 7.0, 0x1p100, 0x1p-900, 0x1p-1000, 0x1p-30}) {
    double x = edge;
    for (int step = 0; step < 4; ++step) x = std::nextafter(x, 0.0);
    for (int step = 0; step < 9; ++step, x = std::nextafter(x, INFINITY)) hard.push_back(x), hard.push_back(-x);
  }
  return hard;
}

TEST_P(MathPrecisionFusedForms, DoubleInverseTrigWithinOpenclBounds) {
  if (!sharedDevice().info().features.shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64";
  for (const MathFunction& function :
       {MathFunction{"asin", mpfr_asin, nullptr, 4, -1, 1}, MathFunction{"acos", mpfr_acos, nullptr, 4, -1, 1},
        MathFunction{"asinpi", mpfr_asinpi, nullptr, 5, -1, 1}, MathFunction{"acospi", mpfr_acospi, nullptr, 5, -1, 1},
        MathFunction{"atan", mpfr_atan, nullptr, 5, -20, 20}, MathFunction{"atanpi", mpfr_atanpi, nullptr, 5, -20, 20},
        MathFunction{"atan2", nullptr, mpfr_atan2, 6, -20, 20},
        MathFunction{"atan2pi", nullptr, mpfr_atan2pi, 6, -20, 20}}) {
    SCOPED_TRACE(function.name);
    measure<double>(function, "math_precision_double", 1 << 14, hardInverseTrigArguments());
  }
}

// The float asin family's fma forms at |x| = 1/2 (the polynomial or the square root), 1 (the exact
// form) and near 0, each value and its neighbours with both signs.
std::vector<float> hardFloatInverseSineArguments() {
  std::vector<float> hard;
  for (float edge : {0.5f, 1.0f, 0x1p-12f, 0x1p-126f}) {
    float x = edge;
    for (int step = 0; step < 4; ++step) x = std::nextafter(x, 0.0f);
    for (int step = 0; step < 9; ++step, x = std::nextafter(x, INFINITY)) hard.push_back(x), hard.push_back(-x);
  }
  return hard;
}

TEST_P(MathPrecisionFusedForms, FloatInverseSineWithinOpenclBounds) {
  for (const MathFunction& function :
       {MathFunction{"asin", mpfr_asin, nullptr, 4, -1, 1}, MathFunction{"acos", mpfr_acos, nullptr, 4, -1, 1},
        MathFunction{"asinpi", mpfr_asinpi, nullptr, 5, -1, 1},
        MathFunction{"acospi", mpfr_acospi, nullptr, 5, -1, 1}}) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision", 1 << 15, hardFloatInverseSineArguments());
  }
}

// The float exp, exp2 and exp10 fma forms where the result leaves the normal range, at the
// overflow and underflow thresholds and the ends of their clamp, and where n changes (x log2(b)
// near a half-integer), each value and its neighbours.
std::vector<float> hardFloatExpArguments(float scale, std::initializer_list<float> ends) {
  std::vector<float> hard;
  std::vector<float> edges(ends);
  for (float half : {0.5f, 1.5f, 63.5f, 125.5f}) edges.push_back(half / scale), edges.push_back(-half / scale);
  for (float edge : edges) {
    float x = edge;
    for (int step = 0; step < 4; ++step) x = std::nextafter(x, -INFINITY);
    for (int step = 0; step < 9; ++step, x = std::nextafter(x, INFINITY)) hard.push_back(x);
  }
  return hard;
}

TEST_P(MathPrecisionFusedForms, FloatExpWithinOpenclBounds) {
  measure<float>(
      MathFunction{"exp", mpfr_exp, nullptr, 3, -104, 89}, "math_precision", 1 << 15,
      hardFloatExpArguments(0x1.715476p+0f, {-87.0f, 88.0f, 88.7228f, -87.3365f, -103.97f, -104.0f, 89.0f, 0.0f}));
  measure<float>(MathFunction{"exp2", mpfr_exp2, nullptr, 3, -150, 129}, "math_precision", 1 << 15,
                 hardFloatExpArguments(1.0f, {-126.0f, 127.0f, 128.0f, -149.0f, -150.0f, -151.0f, 129.0f, 0.0f}));
  measure<float>(
      MathFunction{"exp10", mpfr_exp10, nullptr, 3, -46, 39}, "math_precision", 1 << 15,
      hardFloatExpArguments(0x1.a934f0p+1f, {-37.0f, 38.0f, 38.5318f, -37.9297f, -44.85f, -46.0f, 39.0f, 0.0f}));
}

// erf's and erfc's fused forms at the switches between their polynomials (0.84375, 2, 4, 8), where
// erf rounds to 1 (4, 6) and erfc to 0 or 2 (10.5 and 27.3; -4 and -6), and erf's tiny arguments.
template <typename T>
std::vector<T> erfHardInputs() {
  std::vector<T> values;
  for (double v : {0x1p-64, 0.84375, 2.0, 4.0, 6.0, 8.0, 10.5, 27.3}) {
    T up = static_cast<T>(v), down = up;
    for (int step = 0; step < 3; ++step) {
      for (T w : {up, down}) values.push_back(w), values.push_back(-w);
      up = std::nextafter(up, std::numeric_limits<T>::infinity());
      down = std::nextafter(down, T(0));
    }
  }
  return values;
}

TEST_P(MathPrecisionFusedForms, ErfAndErfcWithinOpenclBounds) {
  MathFunction erf{"erf", mpfr_erf, nullptr, 16, -7, 7}, erfc{"erfc", mpfr_erfc, nullptr, 16, -7, 30};
  for (const MathFunction& function : {erf, erfc}) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision", 1 << 15, erfHardInputs<float>());
    if (sharedDevice().info().features.shaderFloat64)
      measure<double>(function, "math_precision_double", 1 << 15, erfHardInputs<double>());
  }
}

// tgamma's and lgamma's fused forms at the edges of their ranges (the smallest argument, the
// switches between the polynomial, the recurrence and Stirling's series, the overflow and the
// reflection's limits), near lgamma's zeros (1, 2 and the negative ones, where the reflection
// cancels and the exact form takes over) and next to the poles: each with its neighbours.
template <typename T>
std::vector<T> gammaHardInputs() {
  std::vector<T> values;
  for (double v :
       {0x1p-30,    0x1p-60, 0.5,     1.0,     1.5,   2.0,   2.5,   5.5,        6.0,        10.0,       35.04,
        35.1,       171.6,   171.7,   -0.5,    -1.0,  -1.5,  -2.0,  -2.4570247, -2.7476826, -3.1435473, -3.9552428,
        -4.0395719, -4.9917, -5.0082, -6.0014, -20.0, -32.5, -33.0, -159.5,     -160.0}) {
    T up = static_cast<T>(v), down = up;
    for (int step = 0; step < 3; ++step) {
      values.push_back(up), values.push_back(down);
      up = std::nextafter(up, std::numeric_limits<T>::infinity());
      down = std::nextafter(down, -std::numeric_limits<T>::infinity());
    }
  }
  return values;
}

TEST_P(MathPrecisionFusedForms, GammaWithinOpenclBounds) {
  MathFunction floatTgamma{"tgamma", mpfr_gamma, nullptr, 16, -30, 36};
  MathFunction floatLgamma{"lgamma", lgammaReference, nullptr, 16, -30, 30, 0x1p-24};
  measure<float>(floatTgamma, "math_precision", 1 << 15, gammaHardInputs<float>());
  measure<float>(floatLgamma, "math_precision", 1 << 15, gammaHardInputs<float>());
  checkLgammaR<float>(*this, kernel("math_precision", "lgamma_r_f32"), 0x1p-24);
  if (!sharedDevice().info().features.shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64";
  MathFunction doubleTgamma{"tgamma", mpfr_gamma, nullptr, 16, -30, 180};
  MathFunction doubleLgamma{"lgamma", lgammaReference, nullptr, 16, -30, 30, 0x1p-53};
  measure<double>(doubleTgamma, "math_precision_double", 1 << 15, gammaHardInputs<double>());
  measure<double>(doubleLgamma, "math_precision_double", 1 << 15, gammaHardInputs<double>());
  checkLgammaR<double>(*this, kernel("math_precision_double", "lgamma_r_f64"), 0x1p-53);
}

// lgamma's fused forms where their logarithms of pairs (logOfPairFused) are weakest: next to its
// zeros at 1 and 2 (log1p of a tiny quotient), and the reflection from 6 (float) or 10 (double)
// down to -30 near the poles, where log(pi / |x sin(pi x)|) nearly cancels lgamma(-x) and the
// switch to the exact form lies.
template <typename T>
std::vector<T> lgammaHardInputs() {
  std::vector<T> values;
  for (int k = 4; k < (std::is_same_v<T, float> ? 24 : 52); k += 3) {
    for (double v : {1.0, 2.0}) {
      for (double offset : {std::ldexp(1.0, -k), -std::ldexp(1.0, -k)}) values.push_back(static_cast<T>(v + offset));
    }
  }
  for (int n = 6; n <= 30; ++n) {
    for (double d : {1e-6, 1e-4, 1e-3, 1e-2, 0.05, 0.1, 0.25, 0.5}) {
      for (double offset : {-d, d}) values.push_back(static_cast<T>(offset - n));
    }
  }
  return values;
}

TEST_P(MathPrecisionFusedForms, LgammaNearItsZerosAndPolesWithinOpenclBounds) {
  MathFunction floatLgamma{"lgamma", lgammaReference, nullptr, 16, -30, 30, 0x1p-24};
  measure<float>(floatLgamma, "math_precision", 1 << 14, lgammaHardInputs<float>());
  if (!sharedDevice().info().features.shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64";
  MathFunction doubleLgamma{"lgamma", lgammaReference, nullptr, 16, -30, 30, 0x1p-53};
  measure<double>(doubleLgamma, "math_precision_double", 1 << 14, lgammaHardInputs<double>());
}

// fmod's fma form (below a quotient of 2^18) at the multiples of y and their neighbours, where
// the quotient's integer part is easiest to get wrong, and at the edges of the form's range.
template <typename T>
void checkFmodNearMultiples(MathPrecision& test, std::unique_ptr<launch::LaunchableKernel> k) {
  ASSERT_TRUE(k);
  std::mt19937_64 random(7);
  std::uniform_real_distribution<T> significand(T(1), T(2));
  std::uniform_int_distribution<int> quotient(1, (1 << 18) + 8);
  std::vector<T> xs, ys;
  // The smallest y of the float form's range (a double's reaches 2^-126), the largest and beyond.
  std::vector<T> divisors{T(1), T(3), T(0.1), T(0x1p-103), std::nextafter(T(0x1p126), T(0)), T(0x1p126)};
  if constexpr (std::is_same_v<T, double>) divisors.push_back(0x1p-126);
  for (T y : divisors) {
    for (int i = 0; i < 1024; ++i) {
      T scaled = y * significand(random);
      T multiple = static_cast<T>(quotient(random)) * scaled;
      for (T x : {multiple, std::nextafter(multiple, T(0)), std::nextafter(multiple, T(INFINITY))}) {
        if (!std::isfinite(x)) continue;
        xs.push_back(i % 2 ? -x : x), ys.push_back(i % 4 < 2 ? scaled : -scaled);
      }
    }
  }
  auto dx = test.buffer(xs), dy = test.buffer(ys), dr = test.buffer(std::vector<T>(xs.size(), T(0)));
  test.run(*k, KernelTest::range1d(xs.size()), {KernelArg::buffer(dx), KernelArg::buffer(dy), KernelArg::buffer(dr)});
  std::vector<T> results = test.template read<T>(dr, xs.size());
  for (size_t i = 0; i < xs.size(); ++i) {
    ASSERT_EQ(std::bit_cast<typename Format<T>::Bits>(results[i]),
              std::bit_cast<typename Format<T>::Bits>(std::fmod(xs[i], ys[i])))
        << "fmod(" << std::hexfloat << xs[i] << ", " << ys[i] << ")";
  }
}

TEST_P(MathPrecisionFusedForms, FmodIsExact) {
  measure<float>({"fmod", nullptr, mpfr_fmod, 0, -1e3, 1e3}, "math_precision");
  checkFmodNearMultiples<float>(*this, kernel("math_precision", "fmod_f32"));
  if (!sharedDevice().info().features.shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64";
  measure<double>({"fmod", nullptr, mpfr_fmod, 0, -1e3, 1e3}, "math_precision_double");
  checkFmodNearMultiples<double>(*this, kernel("math_precision_double", "fmod_f64"));
}

// Each of `points` and its neighbours a few ULP either side, both signs: where a fused form
// switches between its series, its main form and the exact form.
template <typename T>
std::vector<T> aroundSwitches(std::initializer_list<T> points) {
  std::vector<T> values;
  for (T point : points) {
    T below = point, above = point;
    for (int step = 0; step < 4; ++step) {
      for (T v : {below, above}) values.push_back(v), values.push_back(-v);
      below = std::nextafter(below, T(0)), above = std::nextafter(above, T(INFINITY));
    }
  }
  return values;
}

// sinh and cosh by their series below 1 and from one exponential up to 88 (double 708), tanh by
// its series below 0.55 (float) and from one exponential up to where it rounds to 1.
TEST_P(MathPrecisionFusedForms, HyperbolicWithinOpenclBounds) {
  std::vector<float> hardFloat = aroundSwitches<float>({1.0f, 0.55f, 10.0f, 9.1f, 88.0f, 0x1.62e42ep+6f, 89.4f});
  std::vector<double> hardDouble = aroundSwitches<double>({1.0, 22.0, 19.1, 708.0, 709.78, 710.47});
  for (const MathFunction& function :
       {MathFunction{"sinh", mpfr_sinh, nullptr, 4, -89, 89}, MathFunction{"cosh", mpfr_cosh, nullptr, 4, -89, 89},
        MathFunction{"tanh", mpfr_tanh, nullptr, 5, -10, 10}, MathFunction{"sinh", mpfr_sinh, nullptr, 4, -2, 2},
        MathFunction{"cosh", mpfr_cosh, nullptr, 4, -2, 2}, MathFunction{"tanh", mpfr_tanh, nullptr, 5, -1, 1}}) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision", 1 << 14, hardFloat);
  }
  if (!sharedDevice().info().features.shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64";
  for (const MathFunction& function :
       {MathFunction{"sinh", mpfr_sinh, nullptr, 4, -711, 711}, MathFunction{"cosh", mpfr_cosh, nullptr, 4, -711, 711},
        MathFunction{"tanh", mpfr_tanh, nullptr, 5, -25, 25}, MathFunction{"sinh", mpfr_sinh, nullptr, 4, -2, 2},
        MathFunction{"tanh", mpfr_tanh, nullptr, 5, -1, 1}}) {
    SCOPED_TRACE(function.name);
    measure<double>(function, "math_precision_double", 1 << 14, hardDouble);
  }
}

// asinh, acosh and atanh as the logarithm of a pair, from 2^-12 (double 2^-28) to 2^12 (2^26): the
// ends of that range, acosh just above 1 and atanh just below 1 (the root and the denominator
// smallest).
TEST_P(MathPrecisionFusedForms, InverseHyperbolicWithinOpenclBounds) {
  std::vector<float> hardFloat = aroundSwitches<float>({0x1p-12f, 0x1p12f, 1.0f, 0.5f, 2.0f, 0.99999f, 1.00001f});
  std::vector<double> hardDouble = aroundSwitches<double>({0x1p-28, 0x1p26, 1.0, 0.5, 2.0, 1 - 1e-12, 1 + 1e-12});
  for (const MathFunction& function :
       {MathFunction{"asinh", mpfr_asinh, nullptr, 4, -30, 30}, MathFunction{"acosh", mpfr_acosh, nullptr, 4, 1, 30},
        MathFunction{"atanh", mpfr_atanh, nullptr, 5, -1, 1}, MathFunction{"asinh", mpfr_asinh, nullptr, 4, -1, 1},
        MathFunction{"acosh", mpfr_acosh, nullptr, 4, 1, 1.01}}) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision", 1 << 14, hardFloat);
    if (sharedDevice().info().features.shaderFloat64)
      measure<double>(function, "math_precision_double", 1 << 14, hardDouble);
  }
}

// expm1 from one reduction (its ends: ln2/2, where the reduction starts, -17 / -38 and 88 / 709,
// where the exact form takes over) and log1p as the logarithm of the pair 1 + x (from 2^-24 /
// 2^-54, and near -1, where 1 + x is smallest).
TEST_P(MathPrecisionFusedForms, Expm1AndLog1pWithinOpenclBounds) {
  std::vector<float> hardFloat = aroundSwitches<float>({0x1.62e43p-2f, 17.0f, 88.0f, 0x1p-24f, 0x1p-25f, 1.0f, 0.41f});
  std::vector<double> hardDouble =
      aroundSwitches<double>({0x1.62e42fefa39efp-2, 38.0, 709.0, 0x1p-54, 0x1p-53, 1.0, 0.41});
  for (double v : {-0.999, -0.9999999}) hardFloat.push_back(float(v)), hardDouble.push_back(v);
  for (const MathFunction& function :
       {MathFunction{"expm1", mpfr_expm1, nullptr, 3, -20, 89}, MathFunction{"expm1", mpfr_expm1, nullptr, 3, -1, 1},
        MathFunction{"log1p", mpfr_log1p, nullptr, 2, -1, 4}}) {
    SCOPED_TRACE(function.name);
    measure<float>(function, "math_precision", 1 << 14, hardFloat);
    if (sharedDevice().info().features.shaderFloat64)
      measure<double>(function, "math_precision_double", 1 << 14, hardDouble);
  }
}

TEST_P(MathPrecisionFusedForms, OddFunctionsKeepTheSignOfZero) {
  expectOddFunctionsKeepTheSignOfZero<float>("math_precision");
  if (sharedDevice().info().features.shaderFloat64)
    expectOddFunctionsKeepTheSignOfZero<double>("math_precision_double");
}

CL2VK_KERNEL_TEST_SUITE(MathPrecisionFusedForms, "O2");

}  // namespace
}  // namespace cl2vk::test
