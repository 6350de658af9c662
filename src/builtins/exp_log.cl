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

double __cl2vk_expm1_f64(double x) { return x == 0.0 ? x : expm1Double(x); }  // expm1(-0) is -0

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

double __cl2vk_log1p_f64(double x) { return x == 0.0 ? x : log1pDouble(x); }  // log1p(-0) is -0

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

// ---- The forms built on fma (Target::fusedLibraryForms)
//
// expm1 below ln2/2 by expm1KernelFused alone; from -38 to 709 from one reduction as
// 2^n e^r - 1 (expm1ScaledFused). Elsewhere, NaN and infinities, the exact form.
double __cl2vk_expm1_f64_fused(double x) {
  double a = fabs(x);
  if (a < 0.5 * LN2) return a < 0x1p-54 ? x : expm1KernelFused(x);  // zeros keep their sign
  if (!(x > -38.0 && x < 709.0)) return __cl2vk_expm1_f64(x);
  int n;
  double r = reduceByLn2Fused(x, &n);
  return expm1ScaledFused(r, powerOf2(n));
}

// log1p as the logarithm of 1 + x as an exact pair (Fast2Sum, the larger operand first):
// logOfPairFused, no double division. Below 2^-54, x itself (log1p rounds to it; zeros keep their
// sign); at -1 and below, past 2^100, NaN and infinities, the exact form.
double __cl2vk_log1p_f64_fused(double x) {
  double a = fabs(x);
  if (!(a >= 0x1p-54 && x > -1.0 && x < 0x1p100)) return a < 0x1p-54 ? x : __cl2vk_log1p_f64(x);
  double u = 1.0 + x;
  return logOfPairFused(u, x < 1.0 ? (1.0 - u) + x : (x - u) + 1.0);
}

// sinh and cosh below 1 by their series (odd and even minimax polynomials fitted to the relative
// error, below 2^-53.9 and 2^-55 for the part beyond x and 1, at most a seventh and a third of the
// result); from 1 to 708 from one reduction, e^|x| = 2^n (1 + p), as h -+ 1/(4h) with
// h = 2^(n-1) (1 + p) rounded once (fma) and 1/(4h) = 2^(-n-1) / (1 + p) by reciprocalFused: the
// second term is at most a sixth of sinh, and the cancellation magnifies h's error (about an ULP)
// by coth 1 = 1.31 at most. Past 22 the second term is below 2^-63 of the first and is left out.
// Past 708 (where e^|x| nears overflow), NaN and infinities, the exact forms.
#define HYPERBOLIC_FUSED_END 708.0

// e^a / 2 and, below 22, 1 / (2 e^a) as *inverse (0 above), for a in [1, 708).
static double halfExpAndInverse(double a, double* inverse) {
  int n;
  double r = reduceByLn2Fused(a, &n);
  double p = expm1KernelFused(r);
  double t = powerOf2(n - 1);
  *inverse = a < 22.0 ? reciprocalFused(1.0 + p) * powerOf2(-n - 1) : 0.0;
  return fma(t, p, t);
}

double __cl2vk_sinh_f64_fused(double x) {
  double a = fabs(x);
  if (a < 1.0) {
    double z = x * x;
    double p = fma(0x1.b40fca04db187p-41, z, 0x1.611cba6942d86p-33);
    p = fma(p, z, 0x1.ae6460eaa9751p-26);
    p = fma(p, z, 0x1.71de3a4e25c13p-19);
    p = fma(p, z, 0x1.a01a01a01ed75p-13);
    p = fma(p, z, 0x1.11111111110fep-7);
    p = fma(p, z, 0x1.5555555555555p-3);
    return fma(x * z, p, x);  // x itself for tiny x, its zero's sign kept
  }
  if (!(a < HYPERBOLIC_FUSED_END)) return __cl2vk_sinh_f64(x);
  double inverse;
  double h = halfExpAndInverse(a, &inverse);
  return copysign(h - inverse, x);
}

double __cl2vk_cosh_f64_fused(double x) {
  double a = fabs(x);
  if (a < 1.0) {
    double z = x * x;
    double p = fma(0x1.9980366cd9d30p-37, z, 0x1.1ee57105324ebp-29);
    p = fma(p, z, 0x1.27e50680cbf6ap-22);
    p = fma(p, z, 0x1.a01a0190b7bd0p-16);
    p = fma(p, z, 0x1.6c16c16c20f3bp-10);
    p = fma(p, z, 0x1.5555555555504p-5);
    p = fma(p, z, 0.5);
    return fma(z, p, 1.0);
  }
  if (!(a < HYPERBOLIC_FUSED_END)) return __cl2vk_cosh_f64(x);
  double inverse;
  double h = halfExpAndInverse(a, &inverse);
  return h + inverse;
}

// tanh = e / (e + 2) with e = expm1(2|x|) from one reduction (expm1ScaledFused), which cancels
// nowhere; the quotient from reciprocalFused, corrected by its residual against the exact
// denominator (e + 2 as a pair), so that only e's rounding remains. Past 19.1, 2e^(-2|x|) is below
// 2^-54 and tanh rounds to +-1.
double __cl2vk_tanh_f64_fused(double x) {
  double a = fabs(x);
  if (!(a < 19.1)) return isnan(x) ? x : copysign(1.0, x);
  int n;
  double r = reduceByLn2Fused(2.0 * a, &n);
  double e = expm1ScaledFused(r, powerOf2(n));
  double d = e + 2.0;
  double dLo = e < 2.0 ? e - (d - 2.0) : 2.0 - (d - e);  // d + dLo = e + 2 exactly (Fast2Sum)
  double reciprocal = reciprocalFused(d);
  double q = e * reciprocal;
  return copysign(fma(fma(-q, dLo, fma(-q, d, e)), reciprocal, q), x);
}
