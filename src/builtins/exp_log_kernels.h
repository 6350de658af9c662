// The double exponential and logarithm kernels that exp_log.cl, pow_double.cl and
// inverse_hyperbolic_double.cl share (each library module keeps its own static copy): constants,
// the reductions, the polynomials, and exp, expm1, log and log1p themselves. exp-like functions
// reduce x to r = x - n ln2 with |r| <= ln2/2 (n ln2 in two parts, the first exact in n's range)
// and evaluate expm1(r) by a polynomial; log-like functions split x = 2^k m with m in
// [sqrt(2)/2, sqrt(2)) and evaluate log(m) = 2 atanh(s), s = (m - 1) / (m + 1), keeping m - 1
// exact. The polynomials come from tools/builtins/fit-polynomials.py.
#pragma once
// Each operation rounds as written (no fused multiply-add): the algorithms count on it.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "double_double.h"

// Constants: ln 2, log10 2 and log10 e as 32 significant bits and the double nearest the rest, so
// that n times the first is exact for |n| < 2^21; log2 e likewise.
#define LN2 0x1.62e42fefa39efp-1
#define LN2_HI 0x1.62e42fee00000p-1
#define LN2_LO 0x1.a39ef35793c76p-33
#define LOG2E 0x1.71547652b82fep+0
#define LOG2E_HI 0x1.7154765200000p+0
#define LOG2E_LO 0x1.705fc2eefa200p-33
#define LOG10_2_HI 0x1.3441350800000p-2
#define LOG10_2_LO 0x1.f79fef311f12bp-34
#define LOG2_10 0x1.a934f0979a371p+1
#define LN10 0x1.26bb1bbb55516p+1
#define LOG10E_HI 0x1.bcb7b15200000p-2
#define LOG10E_LO 0x1.b9438ca9aadd5p-36
#define SQRT2 0x1.6a09e667f3bcdp+0
// Beyond these, exp overflows or rounds to 0 (ln of DBL_MAX and of 2^-1075).
#define EXP_OVERFLOW 0x1.62e42fefa39efp+9
#define EXP_UNDERFLOW -0x1.74910d52d3052p+9

static double nanDouble(void) { return as_double(0x7ff8000000000000ul); }

// 2^n for n in [-1022, 1023].
static double powerOf2(int n) { return as_double((ulong)(n + 1023) << 52); }

// y 2^n for n in [-2100, 2100], with one rounding when the result is subnormal.
static double scaleByPowerOf2(double y, int n) {
  if (n > 1000) return y * 0x1p1000 * powerOf2(min(n - 1000, 1023));
  if (n < -1000) return y * 0x1p-1000 * powerOf2(max(n + 1000, -1022));
  return y * powerOf2(n);
}

// expm1(r) for |r| <= ln2/2: r + r^2/2 + r^3 g(r).
static double expm1Kernel(double r) {
  double g = 0x1.61b2c5219ae0ep-33;
  g = g * r + 0x1.1f73102e57f8bp-29;
  g = g * r + 0x1.ae643443626c1p-26;
  g = g * r + 0x1.27e4db5e389d2p-22;
  g = g * r + 0x1.71de3a59062b8p-19;
  g = g * r + 0x1.a01a01a6da7e2p-16;
  g = g * r + 0x1.a01a01a019b28p-13;
  g = g * r + 0x1.6c16c16c162d1p-10;
  g = g * r + 0x1.1111111111111p-7;
  g = g * r + 0x1.5555555555556p-5;
  g = g * r + 0x1.5555555555555p-3;
  double r2 = r * r;
  return r + (0.5 * r2 + r2 * r * g);
}

// x - n ln2 for n = rint(x / ln2), exact but for the last part's rounding.
static double reduceByLn2(double x, int* n) {
  double k = rint(x * LOG2E);
  *n = (int)k;
  return (x - k * LN2_HI) - k * LN2_LO;
}

static double expDouble(double x) {
  if (isnan(x)) return x;
  if (x > EXP_OVERFLOW) return INFINITY;
  if (x < EXP_UNDERFLOW) return 0.0;
  int n;
  double r = reduceByLn2(x, &n);
  return scaleByPowerOf2(1.0 + expm1Kernel(r), n);
}

static double expm1Double(double x) {
  if (isnan(x)) return x;
  if (x > EXP_OVERFLOW) return INFINITY;
  if (x < -38.0) return -1.0;  // e^-38 is below half an ulp of 1
  if (fabs(x) <= 0.5 * LN2) return expm1Kernel(x);
  int n;
  double r = reduceByLn2(x, &n);
  double e = expm1Kernel(r);
  // 2^n (1 + e) - 1: (2^n - 1) + 2^n e where 2^n - 1 is exact, else with the -1 last.
  if (n >= -1 && n <= 52) {
    double t = powerOf2(n);
    return (t - 1.0) + t * e;
  }
  return scaleByPowerOf2(1.0 + e, n) - 1.0;
}

// (2 atanh(s) - 2 s) / (s z) as a function of z = s^2, for z <= (3 - 2 sqrt(2))^2.
static double logPolynomial(double z) {
  double g = 0x1.0c04595972ab8p-3;
  g = g * z + 0x1.0fbe83c2cbcf3p-3;
  g = g * z + 0x1.3b1c360763b8ap-3;
  g = g * z + 0x1.745cf901605f7p-3;
  g = g * z + 0x1.c71c720160b47p-3;
  g = g * z + 0x1.2492492476c87p-2;
  g = g * z + 0x1.9999999999a38p-2;
  g = g * z + 0x1.5555555555555p-1;
  return g;
}

// log(1 + f) + c for f in [sqrt(2)/2 - 1, sqrt(2) - 1] and a small correction c, in two parts:
// *hi = f exactly, and the rest returned.
static double log1pKernel(double f, double c, double* hi) {
  double s = f / (2.0 + f);
  double z = s * s;
  double g = logPolynomial(z);
  double halfSquare = 0.5 * f * f;
  // log(1 + f) = 2 s + s z g = f - halfSquare + s (halfSquare + z g).
  *hi = f;
  return (s * (halfSquare + z * g) + c) - halfSquare;
}

// x = 2^k m with m in [sqrt(2)/2, sqrt(2)), for finite x > 0; returns m - 1 (exact).
static double splitExponent(double x, int* k) {
  int bias = 1023;
  if (x < 0x1p-1022) {  // subnormal: scale up first
    x *= 0x1p54;
    bias += 54;
  }
  ulong bits = as_ulong(x);
  int e = (int)(bits >> 52) - bias;
  double m = as_double((bits & 0xffffffffffffful) | 0x3ff0000000000000ul);
  if (m > SQRT2) {
    m *= 0.5;
    e += 1;
  }
  *k = e;
  return m - 1.0;
}

// log's special cases: NaN for NaN and x < 0, -inf for zeros, inf for inf; 0 when x is ordinary.
static bool logSpecial(double x, double* result) {
  if (x > 0.0 && !isinf(x)) return false;
  *result = x == 0.0 ? -INFINITY : x > 0.0 ? x : nanDouble();
  return true;
}

static double logDouble(double x) {
  double special;
  if (logSpecial(x, &special)) return special;
  int k;
  double f = splitExponent(x, &k);
  double hi;
  double lo = log1pKernel(f, 0.0, &hi);
  double dk = (double)k;
  return dk * LN2_HI + ((lo + dk * LN2_LO) + hi);
}

static double log1pDouble(double x) {
  if (isnan(x) || x == INFINITY) return x;
  if (x <= -1.0) return x == -1.0 ? -INFINITY : nanDouble();
  double hi, lo;
  if (x > SQRT2 / 2.0 - 1.0 && x < SQRT2 - 1.0) {
    lo = log1pKernel(x, 0.0, &hi);
    return hi + lo;
  }
  // 1 + x rounds; c = (1 + x) - u, over u, puts the lost part back.
  double u = 1.0 + x;
  int k;
  double f = splitExponent(u, &k);
  double c = k > 0 ? (1.0 - (u - x)) / u : (x - (u - 1.0)) / u;
  lo = log1pKernel(f, c, &hi);
  double dk = (double)k;
  return dk * LN2_HI + ((lo + dk * LN2_LO) + hi);
}

// log(2^k (1 + f)) from s + sLo = f / (2 + f): *lo plus the result.
static double logFromQuotient(int k, double s, double sLo, double* lo) {
  double z = s * s;
  // log(1 + f) = 2 atanh(s) = 2 s + s z g(z); 2 s is exact.
  double logMLo = 2.0 * sLo + s * z * logPolynomial(z);
  double dk = (double)k;
  double sumError;
  double sum = twoSum(dk * LN2_HI, 2.0 * s, &sumError);
  double rest = sumError + (logMLo + dk * LN2_LO);
  double result = sum + rest;
  *lo = rest - (result - sum);
  return result;
}

// log|x| as *lo plus the result, relative error below 2^-60, for finite x != 0.
static double logDoubleDouble(double x, double* lo) {
  int k;
  double f = splitExponent(fabs(x), &k);
  // s = f / (2 + f) with its remainder: 2 + f as t + tLo exactly, then one correction step.
  double t = 2.0 + f;
  double tLo = f - (t - 2.0);
  double s = f / t;
  double error;
  double product = twoProduct(s, t, &error);
  double sLo = (((f - product) - error) - s * tLo) / t;
  return logFromQuotient(k, s, sLo, lo);
}

// The same with fma (the fused forms): one division, t's reciprocal, whose product with f is s
// (a few ulps from the quotient), and the remainder f - s t from one fma, whose rounding is an ulp
// of a term itself a few ulps of s: far below the bound above.
static double logDoubleDoubleFused(double x, double* lo) {
  int k;
  double f = splitExponent(fabs(x), &k);
  double t = 2.0 + f;
  double tLo = f - (t - 2.0);
  double reciprocal = 1.0 / t;
  double s = f * reciprocal;
  double sLo = (fma(-s, t, f) - s * tLo) * reciprocal;
  return logFromQuotient(k, s, sLo, lo);
}

// exp(hi + lo) for |lo| below hi's last place.
static double expDoubleDouble(double hi, double lo) {
  if (hi > 710.0) return INFINITY;
  if (hi < -746.0) return 0.0;
  double k = rint(hi * LOG2E);
  double r = ((hi - k * LN2_HI) - k * LN2_LO) + lo;
  return scaleByPowerOf2(1.0 + expm1Kernel(r), (int)k);
}

// ---- The forms built on fma (Target::fusedLibraryForms: a correctly rounded fma, the driver's)
//
// x - n ln2 by fma: n LN2_HI is exact and so is its difference with x (as in reduceByLn2); the
// second fma rounds once, at 2^-53 of r.
static double reduceByLn2Fused(double x, int* n) {
  double k = rint(x * LOG2E);
  *n = (int)k;
  return fma(-k, LN2_LO, fma(-k, LN2_HI, x));
}

// (expm1(r) - r) / r^2 = 1/2 + r g(r) for |r| <= ln2/2 (expm1Kernel's g) by fma.
static double expm1TailFused(double r) {
  double g = fma(0x1.61b2c5219ae0ep-33, r, 0x1.1f73102e57f8bp-29);
  g = fma(g, r, 0x1.ae643443626c1p-26);
  g = fma(g, r, 0x1.27e4db5e389d2p-22);
  g = fma(g, r, 0x1.71de3a59062b8p-19);
  g = fma(g, r, 0x1.a01a01a6da7e2p-16);
  g = fma(g, r, 0x1.a01a01a019b28p-13);
  g = fma(g, r, 0x1.6c16c16c162d1p-10);
  g = fma(g, r, 0x1.1111111111111p-7);
  g = fma(g, r, 0x1.5555555555556p-5);
  g = fma(g, r, 0x1.5555555555555p-3);
  return fma(r, g, 0.5);
}

// expm1(r) = r + r^2 (1/2 + r g(r)), the sum rounded once.
static double expm1KernelFused(double r) { return fma(r * r, expm1TailFused(r), r); }

// t e^r - 1 for t = 2^n: (t - 1) + t r by one fma, then t r^2 (1/2 + r g(r)) by another, so that
// no rounded expm1(r) is scaled by t (near n = 1, where t e^r - 1 cancels, that rounding, doubled,
// was a whole ULP of the result). t - 1 is exact for n in [-53, 53]; beyond, its rounding is at
// most half an ULP of the result.
static double expm1ScaledFused(double r, double t) { return fma(t * (r * r), expm1TailFused(r), fma(t, r, t - 1.0)); }

// 1 / y for y in float's normal range without a double division (a long subroutine on GPUs): the
// float reciprocal (within 2^-22: y's rounding to float and Vulkan's 2.5 ULP) and two Newton steps
// by fma, each squaring the relative error (2^-44, then below the last rounding, half an ULP).
static double reciprocalFused(double y) {
  double r = (double)(1.0f / (float)y);
  r = fma(r, fma(-y, r, 1.0), r);
  return fma(r, fma(-y, r, 1.0), r);
}

// logPolynomial by fma.
static double logPolynomialFused(double z) {
  double g = fma(0x1.0c04595972ab8p-3, z, 0x1.0fbe83c2cbcf3p-3);
  g = fma(g, z, 0x1.3b1c360763b8ap-3);
  g = fma(g, z, 0x1.745cf901605f7p-3);
  g = fma(g, z, 0x1.c71c720160b47p-3);
  g = fma(g, z, 0x1.2492492476c87p-2);
  g = fma(g, z, 0x1.9999999999a38p-2);
  return fma(g, z, 0x1.5555555555555p-1);
}

// splitExponent for a normal x > 0, without branches: k = floor of x's bits less those of
// SQRT2 / 2, over 2^52 (an arithmetic shift), and m = x / 2^k by taking k from x's exponent field,
// so that m lies in [SQRT2 / 2, SQRT2).
static double splitNormalExponent(double x, int* k) {
  int e = (int)(((long)as_ulong(x) - (long)as_ulong(SQRT2 / 2.0)) >> 52);
  *k = e;
  return as_double(as_ulong(x) - ((ulong)(long)e << 52)) - 1.0;
}

// log(w + c) for w in [2^-60, 2^1000] and |c| below 2^-40 w: w = 2^k (1 + f)
// (splitNormalExponent), f / (2 + f) as s + sLo from reciprocalFused and the remainder by fma
// (logDoubleDoubleFused's), and c / w by the float reciprocal of w and one Newton step (2^-43, on
// a term already below 2^-40 of w).
static double logOfPairFused(double w, double c) {
  int k;
  double f = splitNormalExponent(w, &k);
  double t = 2.0 + f;
  double tLo = f - (t - 2.0);
  double reciprocal = reciprocalFused(t);
  double s = f * reciprocal;
  double sLo = (fma(-s, t, f) - s * tLo) * reciprocal;
  double inverse = (double)(1.0f / (float)w);
  inverse = fma(inverse, fma(-w, inverse, 1.0), inverse);
  double z = s * s;
  // log(1 + f) = 2 s + 2 sLo + s z g(z), and k ln2 with its first part exact.
  double rest = fma(s * z, logPolynomialFused(z), fma(c, inverse, 2.0 * sLo));
  double dk = (double)k;
  double kHi = dk * LN2_HI;
  double sum = kHi + 2.0 * s;
  double sumError = (kHi - sum) + 2.0 * s;  // exact (Fast2Sum): |k ln2| > |2 s| unless k is 0
  return sum + (sumError + fma(dk, LN2_LO, rest));
}

// sqrt(q + qLo) as the result plus *lo, for q in [2^-120, 2^120] and |qLo| at most half its ULP,
// without a double square root: the float rsqrt of q (2^-21.5) and one Newton step by fma (2^-42),
// s = q y within 2^-42, and its correction from the residual q + qLo - s^2, exact by fma up to
// its own rounding (2^-53 of a term 2^-41 of q): *lo holds the rest to 2^-84.
static double sqrtWithLowFused(double q, double qLo, double* lo) {
  double y = (double)rsqrt((float)q);
  y = fma(0.5 * y, fma(-q * y, y, 1.0), y);
  double s = q * y;
  *lo = (fma(-s, s, q) + qLo) * (0.5 * y);
  return s;
}
