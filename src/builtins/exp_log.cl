// exp, exp2, exp10, expm1, log, log2, log10, log1p, sinh, cosh and tanh for double, which
// GLSL.std.450 does not have, within OpenCL's bounds (2-5 ULP), on the kernels of
// exp_log_kernels.h. Results that need more than a double's accuracy in between carry a low part.
#include "exp_log_kernels.h"

double __cl2vk_exp_f64(double x) { return expDouble(x); }

double __cl2vk_exp2_f64(double x) {
  if (isnan(x)) return x;
  if (x >= 1024.0) return INFINITY;
  if (x < -1075.0) return 0.0;
  double k = rint(x);
  double r = (x - k) * LN2;  // x - k is exact; the product's rounding is 2^-55 of exp2 at most
  return scaleByPowerOf2(1.0 + expm1Kernel(r), (int)k);
}

double __cl2vk_exp10_f64(double x) {
  if (isnan(x)) return x;
  if (x > 0x1.34413509f79ffp+8) return INFINITY;  // log10 of DBL_MAX
  if (x < -0x1.439b746e36b52p+8) return 0.0;      // log10 of 2^-1075
  double k = rint(x * LOG2_10);
  // x - k log10(2), the first product exact, then scaled to natural units.
  double r = ((x - k * LOG10_2_HI) - k * LOG10_2_LO) * LN10;
  return scaleByPowerOf2(1.0 + expm1Kernel(r), (int)k);
}

double __cl2vk_expm1_f64(double x) { return expm1Double(x); }

double __cl2vk_log_f64(double x) { return logDouble(x); }

// hi + lo times a constant in two parts (chi with 32 bits) plus an exact offset, with the low
// parts added last.
static double scaledLog(double offset, double offsetLo, double f, double lo, double chi, double clo) {
  // f with its low 32 bits cleared has 21 significant bits, so its product with chi is exact.
  double fHi = as_double(as_ulong(f) & 0xffffffff00000000ul);
  double rest = (f - fHi) + lo;
  double product = fHi * chi;
  double sum = offset + product;
  double error = (offset - sum) + product;  // exact: |offset| >= |product| or offset is 0
  if (fabs(offset) < fabs(product)) error = (product - sum) + offset;
  return sum + (error + offsetLo + rest * chi + (fHi + rest) * clo);
}

double __cl2vk_log2_f64(double x) {
  double special;
  if (logSpecial(x, &special)) return special;
  int k;
  double f = splitExponent(x, &k);
  double hi;
  double lo = log1pKernel(f, 0.0, &hi);
  return scaledLog((double)k, 0.0, hi, lo, LOG2E_HI, LOG2E_LO);
}

double __cl2vk_log10_f64(double x) {
  double special;
  if (logSpecial(x, &special)) return special;
  int k;
  double f = splitExponent(x, &k);
  double hi;
  double lo = log1pKernel(f, 0.0, &hi);
  double dk = (double)k;
  return scaledLog(dk * LOG10_2_HI, dk * LOG10_2_LO, hi, lo, LOG10E_HI, LOG10E_LO);
}

double __cl2vk_log1p_f64(double x) { return log1pDouble(x); }

// Hyperbolic functions through expm1, which keeps small arguments accurate; past 709 (where exp
// overflows before sinh and cosh do) through exp(x/2)^2 / 2.
double __cl2vk_sinh_f64(double x) {
  double a = fabs(x);
  double r;
  if (a < 22.0) {
    double e = expm1Double(a);
    r = 0.5 * (e + e / (e + 1.0));  // (e^a - e^-a) / 2 without cancellation
  } else if (a < EXP_OVERFLOW) {
    r = 0.5 * expDouble(a);
  } else {
    double w = expDouble(0.5 * a);
    r = (0.5 * w) * w;
  }
  return copysign(r, x);  // NaN stays NaN
}

double __cl2vk_cosh_f64(double x) {
  double a = fabs(x);
  if (isnan(x)) return x;
  if (a < 0.5 * LN2) {
    double e = expm1Double(a);
    return 1.0 + (e * e) / (2.0 * (1.0 + e));
  }
  if (a < 22.0) {
    double t = expDouble(a);
    return 0.5 * t + 0.5 / t;
  }
  if (a < EXP_OVERFLOW) return 0.5 * expDouble(a);
  double w = expDouble(0.5 * a);
  return (0.5 * w) * w;
}

double __cl2vk_tanh_f64(double x) {
  double a = fabs(x);
  double r;
  if (a >= 22.0) {
    r = 1.0;  // 1 - 2e^-44 rounds to 1
  } else if (a >= 1.0) {
    r = 1.0 - 2.0 / (expm1Double(2.0 * a) + 2.0);
  } else {
    double t = expm1Double(-2.0 * a);
    r = -t / (t + 2.0);
  }
  if (isnan(x)) return x;
  return copysign(r, x);
}
