// The float exponential and logarithm kernels that exp_log_float.cl, pow_float.cl and
// inverse_hyperbolic_float.cl share: exp_log_kernels.h's method in float (no double or 64-bit
// integer is needed). exp-like functions reduce x to r = x - n ln2, |r| <= ln2/2, with n ln2 in two
// parts (the first 16 bits long, exact for |n| < 2^8) and evaluate expm1(r); log-like functions
// split x = 2^k m, m in [sqrt(2)/2, sqrt(2)), and evaluate log(m) = 2 atanh((m - 1) / (m + 1)).
#pragma once
// Each operation rounds as written (no fused multiply-add): the algorithms count on it.
#pragma OPENCL FP_CONTRACT OFF
#include "float_float.h"

// ln 2 and log10 2 as 16 significant bits and the float nearest the rest; log2 e and log10 e as
// 12 bits and the rest (so that a 12-bit part of m - 1 times them is exact).
#define LN2 0x1.62e430p-1f
#define LN2_HI 0x1.62e4p-1f
#define LN2_LO 0x1.7f7d1cp-20f
#define LOG2E 0x1.715476p+0f
#define LOG2E_HI 0x1.714p+0f
#define LOG2E_LO 0x1.47652cp-12f
#define LOG10_2_HI 0x1.344p-2f
#define LOG10_2_LO 0x1.3509f8p-18f
#define LOG2_10 0x1.a934f0p+1f
#define LN10 0x1.26bb1cp+1f
#define LOG10E_HI 0x1.bcap-2f
#define LOG10E_LO 0x1.7b1526p-14f
#define SQRT2 0x1.6a09e6p+0f
// Beyond these exp certainly overflows or rounds to 0; in between the scaling rounds.
#define EXP_OVERFLOW 89.0f
#define EXP_UNDERFLOW -104.0f

static float nanFloat(void) { return as_float(0x7fc00000u); }

// 2^n for n in [-126, 127].
static float powerOf2(int n) { return as_float((uint)(n + 127) << 23); }

// y 2^n for n in [-300, 300], with one rounding when the result is subnormal.
static float scaleByPowerOf2(float y, int n) {
  if (n > 100) return y * 0x1p100f * powerOf2(min(n - 100, 127));
  if (n < -100) return y * 0x1p-100f * powerOf2(max(n + 100, -126));
  return y * powerOf2(n);
}

// expm1(r) for |r| <= ln2/2: r + r^2/2 + r^3 g(r).
static float expm1Kernel(float r) {
  float g = 0x1.a0f882p-13f;
  g = g * r + 0x1.6d1122p-10f;
  g = g * r + 0x1.1110f6p-7f;
  g = g * r + 0x1.55551ap-5f;
  g = g * r + 0x1.555556p-3f;
  float r2 = r * r;
  return r + (0.5f * r2 + r2 * r * g);
}

static float reduceByLn2(float x, int* n) {
  float k = rint(x * LOG2E);
  *n = (int)k;
  return (x - k * LN2_HI) - k * LN2_LO;
}

static float expFloat(float x) {
  if (isnan(x)) return x;
  if (x > EXP_OVERFLOW) return INFINITY;
  if (x < EXP_UNDERFLOW) return 0.0f;
  int n;
  float r = reduceByLn2(x, &n);
  return scaleByPowerOf2(1.0f + expm1Kernel(r), n);
}

static float expm1Float(float x) {
  if (isnan(x)) return x;
  if (x > EXP_OVERFLOW) return INFINITY;
  if (x < -17.0f) return -1.0f;  // e^-17 is below half an ulp of 1
  if (fabs(x) <= 0.5f * LN2) return expm1Kernel(x);
  int n;
  float r = reduceByLn2(x, &n);
  float e = expm1Kernel(r);
  if (n >= -1 && n <= 23) {
    float t = powerOf2(n);
    return (t - 1.0f) + t * e;  // 2^n - 1 is exact
  }
  return scaleByPowerOf2(1.0f + e, n) - 1.0f;
}

// (2 atanh(s) - 2 s) / (s z) as a function of z = s^2, for z <= (3 - 2 sqrt(2))^2.
static float logPolynomial(float z) {
  float g = 0x1.ddcf72p-3f;
  g = g * z + 0x1.245c40p-2f;
  g = g * z + 0x1.9999ecp-2f;
  return g * z + 0x1.555554p-1f;
}

// log(1 + f) + c for f in [sqrt(2)/2 - 1, sqrt(2) - 1] and a small c: *hi = f, the rest returned.
static float log1pKernel(float f, float c, float* hi) {
  float s = f / (2.0f + f);
  float z = s * s;
  float halfSquare = 0.5f * f * f;
  *hi = f;
  return (s * (halfSquare + z * logPolynomial(z)) + c) - halfSquare;
}

// x = 2^k m with m in [sqrt(2)/2, sqrt(2)), for finite x > 0; returns m - 1 (exact).
static float splitExponent(float x, int* k) {
  int bias = 127;
  if (x < 0x1p-126f) {  // subnormal: scale up first
    x *= 0x1p24f;
    bias += 24;
  }
  uint bits = as_uint(x);
  int e = (int)(bits >> 23) - bias;
  float m = as_float((bits & 0x7fffffu) | 0x3f800000u);
  if (m > SQRT2) {
    m *= 0.5f;
    e += 1;
  }
  *k = e;
  return m - 1.0f;
}

static bool logSpecial(float x, float* result) {
  if (x > 0.0f && !isinf(x)) return false;
  *result = x == 0.0f ? -INFINITY : x > 0.0f ? x : nanFloat();
  return true;
}

static float logFloat(float x) {
  float special;
  if (logSpecial(x, &special)) return special;
  int k;
  float f = splitExponent(x, &k);
  float hi;
  float lo = log1pKernel(f, 0.0f, &hi);
  float fk = (float)k;
  return fk * LN2_HI + ((lo + fk * LN2_LO) + hi);
}

static float log1pFloat(float x) {
  if (isnan(x) || x == INFINITY) return x;
  if (x <= -1.0f) return x == -1.0f ? -INFINITY : nanFloat();
  float hi, lo;
  if (x > SQRT2 / 2.0f - 1.0f && x < SQRT2 - 1.0f) {
    lo = log1pKernel(x, 0.0f, &hi);
    return hi + lo;
  }
  float u = 1.0f + x;
  int k;
  float f = splitExponent(u, &k);
  float c = k > 0 ? (1.0f - (u - x)) / u : (x - (u - 1.0f)) / u;
  lo = log1pKernel(f, c, &hi);
  float fk = (float)k;
  return fk * LN2_HI + ((lo + fk * LN2_LO) + hi);
}

// log(2^k (1 + f)) from s + sLo = f / (2 + f): *lo plus the result.
static float logFromQuotient(int k, float s, float sLo, float* lo) {
  float z = s * s;
  // log(1 + f) = 2 atanh(s) = 2 s + s z g(z); 2 s is exact.
  float logMLo = 2.0f * sLo + s * z * logPolynomial(z);
  float dk = (float)k;
  float sumError;
  float sum = twoSumF(dk * LN2_HI, 2.0f * s, &sumError);
  float rest = sumError + (logMLo + dk * LN2_LO);
  float result = sum + rest;
  *lo = rest - (result - sum);
  return result;
}

// log|x| as *lo plus the result, relative error below 2^-30, for finite x != 0.
static float logFloatFloat(float x, float* lo) {
  int k;
  float f = splitExponent(fabs(x), &k);
  // s = f / (2 + f) with its remainder: 2 + f as t + tLo exactly, then one correction step.
  float t = 2.0f + f;
  float tLo = f - (t - 2.0f);
  float s = f / t;
  float error;
  float product = twoProductF(s, t, &error);
  float sLo = (((f - product) - error) - s * tLo) / t;
  return logFromQuotient(k, s, sLo, lo);
}

// The same with fma (the fused forms): one division, t's reciprocal, whose product with f is s
// (a few ulps from the quotient), and the remainder f - s t from one fma, whose rounding is an ulp
// of a term itself a few ulps of s: far below the bound above.
static float logFloatFloatFused(float x, float* lo) {
  int k;
  float f = splitExponent(fabs(x), &k);
  float t = 2.0f + f;
  float tLo = f - (t - 2.0f);
  float reciprocal = 1.0f / t;
  float s = f * reciprocal;
  float sLo = (fma(-s, t, f) - s * tLo) * reciprocal;
  return logFromQuotient(k, s, sLo, lo);
}

// exp(hi + lo) for |lo| below hi's last place.
static float expFloatFloat(float hi, float lo) {
  if (hi > 89.0f) return INFINITY;
  if (hi < -104.0f) return 0.0f;
  float k = rint(hi * LOG2E);
  float r = ((hi - k * LN2_HI) - k * LN2_LO) + lo;
  return scaleByPowerOf2(1.0f + expm1Kernel(r), (int)k);
}

// ---- The forms built on fma (Target::fusedLibraryForms: a correctly rounded fma, the driver's)
//
// x - n ln2 by fma: n LN2_HI is exact and so is its difference with x (as in reduceByLn2); the
// second fma rounds once, at 2^-24 of r.
static float reduceByLn2Fused(float x, int* n) {
  float k = rint(x * LOG2E);
  *n = (int)k;
  return fma(-k, LN2_LO, fma(-k, LN2_HI, x));
}

// (expm1(r) - r) / r^2 = 1/2 + r g(r) for |r| <= ln2/2 (expm1Kernel's g) by fma.
static float expm1TailFused(float r) {
  float g =
      fma(fma(fma(fma(0x1.a0f882p-13f, r, 0x1.6d1122p-10f), r, 0x1.1110f6p-7f), r, 0x1.55551ap-5f), r, 0x1.555556p-3f);
  return fma(r, g, 0.5f);
}

// expm1(r) = r + r^2 (1/2 + r g(r)), the sum rounded once.
static float expm1KernelFused(float r) { return fma(r * r, expm1TailFused(r), r); }

// t e^r - 1 for t = 2^n: (t - 1) + t r by one fma, then t r^2 (1/2 + r g(r)) by another, so that
// no rounded expm1(r) is scaled by t (near n = 1, where t e^r - 1 cancels, that rounding, doubled,
// was a whole ULP of the result). t - 1 is exact for n in [-24, 24]; beyond, its rounding is at
// most half an ULP of the result.
static float expm1ScaledFused(float r, float t) { return fma(t * (r * r), expm1TailFused(r), fma(t, r, t - 1.0f)); }

// e^x / 2 for x in [0, 88): 2^(n-1) (1 + expm1(r)) with one rounding of the sum, the fma's.
static float halfExpFused(float x) {
  int n;
  float r = reduceByLn2Fused(x, &n);
  float t = powerOf2(n - 1);
  return fma(t, expm1KernelFused(r), t);
}

// logPolynomial by fma.
static float logPolynomialFused(float z) {
  return fma(fma(fma(0x1.ddcf72p-3f, z, 0x1.245c40p-2f), z, 0x1.9999ecp-2f), z, 0x1.555554p-1f);
}

// splitExponent for a normal x > 0, without branches: k = floor of x's bits less those of
// SQRT2 / 2, over 2^23 (an arithmetic shift), and m = x / 2^k by taking k from x's exponent field,
// so that m lies in [SQRT2 / 2, SQRT2).
static float splitNormalExponent(float x, int* k) {
  int e = ((int)as_uint(x) - (int)as_uint(SQRT2 / 2.0f)) >> 23;
  *k = e;
  return as_float(as_uint(x) - ((uint)e << 23)) - 1.0f;
}

// log(w + c) for w in [2^-100, 2^100] and |c| at most half w's ULP, with one division: w = 2^k
// (1 + f) (splitNormalExponent), c / 2^k added to f's pair (1 + f + c / 2^k is exact), and
// s + sLo = that over 2 + f from t's reciprocal, the remainder by fma (logFloatFloatFused's).
static float logOfPairFused(float w, float c) {
  int k;
  float f = splitNormalExponent(w, &k);
  float cScaled = c * powerOf2(-k);
  float t = 2.0f + f;
  float tLo = (f - (t - 2.0f)) + cScaled;
  float reciprocal = 1.0f / t;
  float s = f * reciprocal;
  float sLo = ((fma(-s, t, f) + cScaled) - s * tLo) * reciprocal;
  float z = s * s;
  // log(1 + f) = 2 s + 2 sLo + s z g(z), and k ln2 with its first part exact.
  float rest = fma(s * z, logPolynomialFused(z), 2.0f * sLo);
  float fk = (float)k;
  float kHi = fk * LN2_HI;
  float sum = kHi + 2.0f * s;
  float sumError = (kHi - sum) + 2.0f * s;  // exact (Fast2Sum): |k ln2| > |2 s| unless k is 0
  return sum + (sumError + fma(fk, LN2_LO, rest));
}

// sqrt(q + qLo) as the result plus *lo (at most half its ULP) for q in [2^-120, 2^120] and |qLo|
// at most half q's ULP: s = q rsqrt(q) (within 2^-21.5: Vulkan's InverseSqrt is within 2 ULP),
// its correction from the residual q + qLo - s^2 (exact by fma up to its own rounding) times
// rsqrt / 2, to 2^-42, then the pair renormalized (Fast2Sum).
static float sqrtWithLowFused(float q, float qLo, float* lo) {
  float y = rsqrt(q);
  float s = q * y;
  float correction = (fma(-s, s, q) + qLo) * (0.5f * y);
  float root = s + correction;
  *lo = correction - (root - s);
  return root;
}
