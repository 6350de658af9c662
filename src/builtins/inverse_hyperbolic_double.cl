// asinh, acosh and atanh for double, which GLSL.std.450 does not have, within OpenCL's bounds
// (4, 4 and 5 ULP), through log and log1p of arguments rewritten so that nothing cancels.
#include "exp_log_kernels.h"

double __cl2vk_asinh_f64(double x) {
  double a = fabs(x);
  double r;
  if (a < 0x1p-28 || isinf(a) || isnan(a)) {
    r = a;  // asinh(a) = a - a^3/6 rounds to a
  } else if (a > 0x1p28) {
    r = logDouble(a) + LN2;  // sqrt(a^2 + 1) rounds to a
  } else if (a > 2.0) {
    r = logDouble(2.0 * a + 1.0 / (sqrt(a * a + 1.0) + a));
  } else {
    double t = a * a;
    r = log1pDouble(a + t / (1.0 + sqrt(1.0 + t)));
  }
  return copysign(r, x);
}

double __cl2vk_acosh_f64(double x) {
  if (isnan(x)) return x;
  if (x < 1.0) return nanDouble();
  if (x > 0x1p28) return isinf(x) ? x : logDouble(x) + LN2;
  if (x > 2.0) return logDouble(2.0 * x - 1.0 / (x + sqrt(x * x - 1.0)));
  double t = x - 1.0;  // exact
  return log1pDouble(t + sqrt(2.0 * t + t * t));
}

double __cl2vk_atanh_f64(double x) {
  double a = fabs(x);
  if (isnan(x)) return x;
  if (a > 1.0) return nanDouble();
  if (a == 1.0) return copysign((double)INFINITY, x);
  double r = a < 0.5 ? 0.5 * log1pDouble(2.0 * a + 2.0 * a * a / (1.0 - a)) : 0.5 * log1pDouble(2.0 * a / (1.0 - a));
  return copysign(r, x);
}

// ---- The forms built on fma (Target::fusedLibraryForms)
//
// No double division or square root (long subroutines on GPUs): each function is log(w + c) of
// an argument formed as a pair, exactly but for a term 2^-84 of it (logOfPairFused): asinh and
// acosh as log(|x| + sqrt(x^2 +- 1)), the root by sqrtWithLowFused and the sum by Fast2Sum; atanh
// as log((1 + |x|) / (1 - |x|)) / 2, numerator and denominator exact pairs and the quotient from
// reciprocalFused with its residual. Nothing cancels: the result is within an ULP or so of the
// logarithm of the exact argument. Outside [2^-28, 2^26) (and 1 for acosh) the exact forms.
double __cl2vk_asinh_f64_fused(double x) {
  double a = fabs(x);
  if (!(a >= 0x1p-28 && a < 0x1p26)) return __cl2vk_asinh_f64(x);
  double q = fma(a, a, 1.0);
  double qLo = fma(a, a, 1.0 - q);  // 1 - q is exact below 2^53
  double rootLo;
  double root = sqrtWithLowFused(q, qLo, &rootLo);
  double w = root + a;
  return copysign(logOfPairFused(w, ((root - w) + a) + rootLo), x);
}

// x^2 - 1 by one fma rounds once, within 2^-53: the root within 2^-54 and the logarithm, which
// near 1 is about the root, within 2^-54 of itself.
double __cl2vk_acosh_f64_fused(double x) {
  if (!(x > 1.0 && x < 0x1p26)) return __cl2vk_acosh_f64(x);
  double rootLo;
  double root = sqrtWithLowFused(fma(x, x, -1.0), 0.0, &rootLo);
  double w = x + root;
  return logOfPairFused(w, ((x - w) + root) + rootLo);
}

double __cl2vk_atanh_f64_fused(double x) {
  double a = fabs(x);
  if (!(a >= 0x1p-28 && a < 1.0)) return __cl2vk_atanh_f64(x);
  double n = 1.0 + a;
  double nLo = (1.0 - n) + a;
  double d = 1.0 - a;
  double dLo = (1.0 - d) - a;
  double reciprocal = reciprocalFused(d);
  double w = n * reciprocal;
  double c = ((fma(-w, d, n) + nLo) - w * dLo) * reciprocal;
  return copysign(0.5 * logOfPairFused(w, c), x);
}
