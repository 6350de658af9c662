// tgamma, lgamma and lgamma_r for float: gamma_double.cl in float-floats; tgamma within OpenCL's
// bound (16 ULP). OpenCL sets none for lgamma: it is within 16 ULP but near its zeros at 1 and 2,
// where its absolute error stays below 2^-24. Everything goes through log |Gamma| as a
// float-float: Stirling's series from 10 up, and below it the recurrence
// Gamma(y) = Gamma(y + n) / (y (y + 1) ... (y + n - 1)) with the product as a float-float;
// negative x by the reflection Gamma(x) Gamma(1 - x) = pi / sin(pi x), sin(pi x) from sinpi's
// exact reduction. tgamma is exp of that sum, so its only rounding of note is exp's.
#include "exp_log_float_kernels.h"
#include "sin_cos_kernels_float.h"

#define HALF_LOG_2PI_HI 0x1.d67f1cp-1f
#define HALF_LOG_2PI_LO 0x1.0c97d6p-26f
#define LOG_PI_HI 0x1.250d04p+0f
#define LOG_PI_LO 0x1.1cf438p-25f

// log Gamma(y) for y >= 10 by Stirling's series, as *lo plus the result.
static float stirling(float y, float* lo) {
  float logLo;
  float logHi = logFloatFloat(y, &logLo);
  if (y > 0x1p100f) {  // (y - 1/2) log y would overflow the exact product's split
    *lo = 0.0f;
    return y * (logHi - 1.0f);
  }
  float shifted = y - 0.5f;  // exact below 2^23, where OpenCL sets no bound anyway
  float productError;
  float product = twoProductF(shifted, logHi, &productError);
  productError += shifted * logLo;
  float sumError;
  float sum = twoSumF(product, -y, &sumError);
  float constantError;
  sum = twoSumF(sum, HALF_LOG_2PI_HI, &constantError);
  // The series' terms B2k / (2k (2k - 1) y^(2k - 1)), to k = 4 (below 2^-30 of the result at 10).
  float w = 1.0f / y, w2 = w * w;
  float series = -1.0f / 1680.0f;
  series = series * w2 + 1.0f / 1260.0f;
  series = series * w2 - 1.0f / 360.0f;
  series = series * w2 + 1.0f / 12.0f;
  float rest = productError + sumError + constantError + HALF_LOG_2PI_LO + series * w;
  float result = sum + rest;
  *lo = rest - (result - sum);
  return result;
}

// log Gamma(y + yLo) for y > 0, |yLo| below y's last place, as *lo plus the result.
static float logGamma(float y, float yLo, float* lo) {
  float shiftedLo = yLo;
  float productHi = 1.0f, productLo = 0.0f;
  float shifted = y;
  if (y < 10.0f) {
    int n = (int)ceil(10.0f - y);
    for (int i = 0; i < n; ++i) {
      // (y + i + yLo) exactly as a pair, times the product so far.
      float factorLo;
      float factor = twoSumF(y, (float)i, &factorLo);
      factorLo += yLo;
      float error;
      float hi = twoProductF(productHi, factor, &error);
      error += productHi * factorLo + productLo * factor;
      productHi = hi + error;
      productLo = error - (productHi - hi);
    }
    shifted = twoSumF(y, (float)n, &shiftedLo);
    shiftedLo += yLo;
  }
  float stirlingLo;
  float result = stirling(shifted, &stirlingLo);
  // The low part of the argument moves log Gamma by about its derivative, log y - 1/(2y).
  float logShifted = logFloat(shifted);
  stirlingLo += shiftedLo * (logShifted - 0.5f / shifted);
  if (y < 10.0f) {
    float productLogLo;
    float productLog = logFloatFloat(productHi, &productLogLo);
    productLogLo += productLo / productHi;
    float error;
    result = twoSumF(result, -productLog, &error);
    stirlingLo += error - productLogLo;
  }
  float sum = result + stirlingLo;
  *lo = stirlingLo - (sum - result);
  return sum;
}

// log |Gamma(x)| for finite x that is not a non-positive integer, as *lo plus the result, and the
// sign of Gamma(x) in *sign.
static float logAbsGamma(float x, float* lo, int* sign) {
  *sign = 1;
  if (x > 0.0f) return logGamma(x, 0.0f, lo);
  // log pi - log |sin(pi x)| - log Gamma(1 - x).
  float s = sinCosPi(x, false);
  *sign = s < 0.0f ? -1 : 1;
  float reflectedLo;
  float reflected = twoSumF(1.0f, -x, &reflectedLo);
  float gammaLo;
  float gamma = logGamma(reflected, reflectedLo, &gammaLo);
  float sineLo;
  float sine = logFloatFloat(fabs(s), &sineLo);
  float error1, error2;
  float sum = twoSumF(LOG_PI_HI, -sine, &error1);
  sum = twoSumF(sum, -gamma, &error2);
  float rest = error1 + error2 + LOG_PI_LO - sineLo - gammaLo;
  float result = sum + rest;
  *lo = rest - (result - sum);
  return result;
}

float __cl2vk_tgamma_f32(float x) {
  if (isnan(x)) return x;
  if (isinf(x)) return x > 0.0f ? x : as_float(0x7fc00000u);
  if (x == 0.0f) return copysign(INFINITY, x);
  if (x < 0.0f && rint(x) == x) return as_float(0x7fc00000u);
  if (x > 35.1f) return INFINITY;
  if (x < -50.0f) return copysign(0.0f, sinCosPi(x, false));  // below half the smallest subnormal
  // Gamma(x) = 1/x - 0.577... + O(x) rounds to 1/x (within 2^-30 of it); the recurrence's
  // product would be a denormal, which a device that flushes them loses.
  if (fabs(x) < 0x1p-30f) return 1.0f / x;
  float lo;
  int sign;
  float hi = logAbsGamma(x, &lo, &sign);
  float magnitude = expFloatFloat(hi, lo);
  return sign < 0 ? -magnitude : magnitude;
}

// lgamma_r's sign for x: that of Gamma(x); +1 at the poles, where Gamma has none.
static float lgammaWithSign(float x, int* sign) {
  *sign = 1;
  if (isnan(x)) return x;
  if (isinf(x)) return INFINITY;
  if (x <= 0.0f && rint(x) == x) return INFINITY;
  if (x == 1.0f || x == 2.0f) return 0.0f;
  if (fabs(x) < 0x1p-30f) {  // Gamma(x) = 1/x - 0.577... rounds to 1/x; sin(pi x) would underflow
    *sign = x < 0.0f ? -1 : 1;
    return -logFloat(fabs(x));
  }
  float lo;
  float hi = logAbsGamma(x, &lo, sign);
  return isinf(hi) ? hi : hi + lo;
}

float __cl2vk_lgamma_f32(float x) {
  int sign;
  return lgammaWithSign(x, &sign);
}
float __cl2vk_lgamma_r_f32(float x) { return __cl2vk_lgamma_f32(x); }
int __cl2vk_lgamma_r_sign_f32(float x) {
  int sign;
  lgammaWithSign(x, &sign);
  return sign;
}

// ---- The forms built on fma (Target::fusedLibraryForms: a correctly rounded fma, the driver's)
//
// Gamma(y) for y = |x| in [2^-30, 6) from one polynomial: y = n + t with n = rint(y), |t| <= 1/2
// (t exact), Gamma(2 + t) = 1 + t P(t), and the recurrence for the other n: Gamma(y) is
// Gamma(2 + t) / (y (y + 1)) for n = 0, / y for n = 1, times (y - 1) ... (y - n + 2) for n >= 3,
// factors that are exact (integers below y). From 6 up Stirling's series, Gamma(y) =
// e^((y - 1/2)(log y - 1) + C + S(1/y)) with the exponent as a float-float (log y from
// logFloatFloatFused, its product with y - 1/2 exact by fma): exp's argument, up to 88, keeps
// 2^-30 of its accuracy. Negative x by the reflection Gamma(x) Gamma(-x) = -pi / (x sin(pi x)),
// -x exact, sin(pi x) a polynomial in x - rint(x) (exact). tgamma is then a handful of roundings
// of 2^-24 (at most 6 ULP measured: docs/precision.md). lgamma is log1p(Gamma(y) - 1) below 6,
// the difference formed without cancellation near Gamma's ones at 1 and 2 (t (P(t) - 1) / y and
// t P(t)), so that log1p keeps its relative accuracy at lgamma's zeros; from 6 up Stirling's sum
// with a float log y (no cancellation there). A negative x's lgamma below 6 is log1p(R - 1),
// R = pi / |x sin(pi x) Gamma(-x)|, with sin(pi x), Gamma(-x) and their product as pairs, so that
// R - 1 is exact where it cancels (near lgamma's zeros, where the result is within 2^-24.8
// absolute: the exact form's error there reaches 2^-23). From 6 up it is the difference
// log pi - log |x sin(pi x)| - lgamma(-x), x sin(pi x) as a pair, which near the poles can
// cancel: the exact form takes those, and the rare inputs outside the common range (tiny, huge,
// tgamma below -33, NaN, infinities, poles).
#define C_HI 0x1.acfe3ap-2f  // log(2 pi) / 2 - 1/2
#define C_LO -0x1.e6d052p-27f

// P(t) = (Gamma(2 + t) - 1) / t for |t| <= 1/2 as *lo plus the result: P(0) = 1 - gamma as a pair
// plus t Q(t), Q's float coefficients rounded one at a time (each refit after the last rounding),
// within 2^-28.4 of P.
#define GAMMA_P0_HI 0x1.b0ee60p-2f
#define GAMMA_P0_LO 0x1.c824f4p-28f
static float gammaPolynomial(float t, float* lo) {
  float q = fma(0x1.5f9a70p-11f, t, -0x1.178b76p-10f);
  q = fma(q, t, 0x1.09f8c4p-9f);
  q = fma(q, t, -0x1.72518ap-9f);
  q = fma(q, t, 0x1.6de9a0p-7f);
  q = fma(q, t, -0x1.19cb20p-12f);
  q = fma(q, t, 0x1.301eccp-4f);
  q = fma(q, t, 0x1.4e23a0p-4f);
  q = fma(q, t, 0x1.a5b97ap-2f);
  float p = fma(q, t, GAMMA_P0_HI);
  // p is within [0.54, 1.56] of P(0): GAMMA_P0_HI - p is exact, and the fma gives p's rounding.
  *lo = fma(q, t, GAMMA_P0_HI - p) + GAMMA_P0_LO;
  return p;
}

// sin(pi r) for 0 <= r <= 1/2 as *lo plus the result, within 2^-25.5: pi r + r^3 (c + z G(z)),
// z = r^2, with pi r, r^3 and r^3 c exact as pairs by fma (pi and c = -pi^3/6 as pairs) and the
// sum of the two leading terms exact; what rounds is r^3 z G(z), below 8 % of sin(pi r).
#define SIN_PI_C_HI -0x1.4abbcep+2f
#define SIN_PI_C_LO -0x1.896f94p-24f
static float sinPiG(float z) {
  float g = fma(-0x1.ce668cp-8f, z, 0x1.50274cp-4f);
  g = fma(g, z, -0x1.32d1c2p-1f);
  return fma(g, z, 0x1.466bc4p+1f);
}
static float sinPiPair(float r, float* lo) {
  float z = r * r;
  float zLo = fma(r, r, -z);
  float g = sinPiG(z);
  float cube = r * z;
  float cubeLo = fma(r, z, -cube) + r * zLo;
  float head = PI_HI * r;
  float headLo = fma(PI_HI, r, -head);
  float tail = cube * SIN_PI_C_HI;
  float tailLo = fma(cube, SIN_PI_C_HI, -tail);
  float sum = head + tail;  // |tail| < |head|
  float rest =
      ((head - sum) + tail) + (headLo + tailLo) + (PI_LO * r + fma(cube, fma(g, z, SIN_PI_C_LO), cubeLo * SIN_PI_C_HI));
  float result = sum + rest;
  *lo = rest - (result - sum);
  return result;
}

// The same rounded as it goes (within 1.5 ULP), for tgamma.
static float sinPi(float r) {
  float z = r * r;
  return r * fma(z, fma(z, sinPiG(z), SIN_PI_C_HI), PI_HI);
}

// |x - rint(x)|, and whether sin(pi x) < 0 in *negative.
static float reduceHalfTurn(float x, bool* negative) {
  float n = rint(x);
  float r = x - n;  // exact
  *negative = (((int)n & 1) != 0) != (r < 0.0f);
  return fabs(r);
}

// The Stirling sum's exponent (y - 1/2)(log y - 1) + C + S(1/y) for y >= 6 as *lo plus the result,
// log y as logY + logLo.
static float stirlingExponent(float y, float logY, float logLo, float* lo) {
  float a = y - 0.5f;     // exact
  float b = logY - 1.0f;  // exact: log y is in [1.79, 16.7) below 2^24
  float product = a * b;
  float productLo = fma(a, b, -product) + a * logLo;
  // S(1/y) = 1/(12 y) - 1/(360 y^3) + 1/(1260 y^5) - 1/(1680 y^7), within 2^-33 from 6 up.
  float w = 1.0f / y, w2 = w * w;
  float series = fma(fma(fma(-1.0f / 1680.0f, w2, 1.0f / 1260.0f), w2, -1.0f / 360.0f), w2, 1.0f / 12.0f) * w;
  float c = C_HI + series;
  float cLo = (C_HI - c) + series;
  float sum = product + c;  // product > 4 > c
  *lo = (((product - sum) + c) + cLo) + (productLo + C_LO);
  return sum;
}

// Gamma(y) for y in [2^-30, 6) as (the result + *lo) / *denominator, with n = rint(y), t = y - n
// and P(t) in *n, *t, *p. The numerator is a pair (1 + t P(t) and each product's error by fma) for
// lgamma's reflection, where its rounding would show; tgamma drops *lo.
static float gammaQuotient(float y, float* lo, float* denominator, float* n, float* t, float* p) {
  *n = rint(y);
  *t = y - *n;
  float pLo;
  *p = gammaPolynomial(*t, &pLo);
  float numerator = fma(*t, *p, 1.0f);
  *lo = fma(*t, *p, 1.0f - numerator) + *t * pLo;  // 1 - numerator is exact
  for (float k = 1.0f; k <= *n - 2.0f; k += 1.0f) {
    float product = numerator * (y - k);
    *lo = fma(numerator, y - k, -product) + *lo * (y - k);
    numerator = product;
  }
  *denominator = *n < 1.0f ? y * (y + 1.0f) : *n < 2.0f ? y : 1.0f;
  return numerator;
}

// e^(hi + lo) for hi in [4, 89) and |lo| below hi's last place: 2 2^(n-1) (1 + expm1(r)), r =
// hi - n ln2 + lo (reduceByLn2Fused), the sum rounded once by the fma and the doubling exact (or
// the overflow, past 88.72), with none of expFloatFloat's range tests and scalings: n is in
// [6, 128], so 2^(n-1) is a normal float.
static float expOfPairFused(float hi, float lo) {
  int n;
  float r = reduceByLn2Fused(hi, &n) + lo;
  float t = powerOf2(n - 1);
  return 2.0f * fma(t, expm1KernelFused(r), t);
}

float __cl2vk_tgamma_f32_fused(float x) {
  float y = fabs(x);
  // Beyond 35.1 Gamma overflows; below -33 its reflection would overflow the denominator.
  if (!(y >= 0x1p-30f && x > -33.0f && x <= 35.1f) || (x < 0.0f && rint(x) == x)) return __cl2vk_tgamma_f32(x);
  float numerator, denominator = 1.0f;
  if (y < 6.0f) {
    float lo, n, t, p;
    numerator = gammaQuotient(y, &lo, &denominator, &n, &t, &p);
  } else {
    float logLo;
    float logHi = logFloatFloatFused(y, &logLo);
    float lo;
    float hi = stirlingExponent(y, logHi, logLo, &lo);
    numerator = expOfPairFused(hi, lo);
  }
  if (x > 0.0f) {
    if (denominator == 1.0f) return numerator;  // from 1.5 up: no division
    return numerator / denominator;
  }
  // pi / (|x sin(pi x)| Gamma(-x)) with the sign of sin(pi x); the divisor is at most
  // 33 Gamma(33) < 2^123 and at least 2^-60: within the division's range.
  bool negative;
  float sine = sinPi(reduceHalfTurn(x, &negative));
  float magnitude = fma(PI_HI, denominator, PI_LO * denominator) / ((y * sine) * numerator);
  return negative ? -magnitude : magnitude;
}

// lgamma(x) for 2^-30 <= |x| < 2^20, x not a pole, and whether it is reliable: false where a
// negative x's reflection cancels. The logarithms are logOfPairFused's (one division each).
static float lgammaFused(float x, bool* reliable) {
  float y = fabs(x);
  bool negative;
  float sine = 0.0f, sineLo = 0.0f;
  if (x < 0.0f) sine = sinPiPair(reduceHalfTurn(x, &negative), &sineLo);
  *reliable = true;
  // The logarithm of a pair: log1p(argument) below 6, log y from there up.
  float w = y, c = 0.0f;
  bool flip = false;
  if (y < 6.0f) {
    float numeratorLo, denominator, n, t, p;
    float numerator = gammaQuotient(y, &numeratorLo, &denominator, &n, &t, &p);
    float argument;
    if (x > 0.0f) {
      float excess = n == 1.0f ? t * (p - 1.0f) : n == 2.0f ? t * p : numerator - denominator;
      argument = excess / denominator;
    } else {
      // R = pi / (|x sin(pi x)| Gamma(-x)) = pi d / q, q = y |sin(pi x)| Gamma(-x) d as a pair, and
      // R - 1 = (pi d - q) / q, exact where it cancels (near lgamma's zeros); below R = 1/2, where
      // log1p(R - 1) would lose R's low bits, -log1p(1/R - 1) = -log1p((q - pi d) / (pi d)).
      float q1 = y * sine;
      float q1Lo = fma(y, sine, -q1) + y * sineLo;
      float q = q1 * numerator;
      float qLo = fma(q1, numerator, -q) + (q1Lo * numerator + q1 * numeratorLo);
      float difference = fma(PI_HI, denominator, -q) + fma(PI_LO, denominator, -qLo);
      flip = 2.0f * difference + q < 0.0f;
      argument = difference / (flip ? -PI_HI * denominator : q);
    }
    // log1p(argument) as the log of the pair 1 + argument (rounded) and its rounding (TwoSum);
    // argument is above -1/2 (Gamma is above 0.88 for x > 0, and flip sees to the reflection's).
    w = 1.0f + argument;
    float v = w - 1.0f;
    c = (1.0f - (w - v)) + (argument - v);
  }
  float l = logOfPairFused(w, c);
  if (y < 6.0f) return flip ? -l : l;
  float lo;
  float positive = stirlingExponent(y, l, 0.0f, &lo) + lo;
  if (x > 0.0f) return positive;
  // log(pi / (y |sin(pi x)|)) from the pair y |sin(pi x)| (between 2^-16 and 2^20). Each term
  // within a few ULP: the difference within 8 ULP unless it cancels to below a quarter (near the
  // poles, where log |sin(pi x)| is large).
  float q1 = y * sine;
  float q1Lo = fma(y, sine, -q1) + y * sineLo;
  float result = (LOG_PI_HI - logOfPairFused(q1, q1Lo)) - positive;
  *reliable = fabs(result) >= 0.25f * positive;
  return result;
}

float __cl2vk_lgamma_f32_fused(float x) {
  bool reliable = false;
  float result = 0.0f;
  if (fabs(x) >= 0x1p-30f && fabs(x) < 0x1p20f && !(x < 0.0f && rint(x) == x)) result = lgammaFused(x, &reliable);
  return reliable ? result : __cl2vk_lgamma_f32(x);  // one call: the exact form is inlined once
}
float __cl2vk_lgamma_r_f32_fused(float x) { return __cl2vk_lgamma_f32_fused(x); }

// lgamma_r's sign without the exact form's logarithm: +1 for x >= 0, NaN and the poles (every
// float beyond 2^24 is one), else that of sin(pi x), as the reflection
// Gamma(x) Gamma(-x) = -pi / (x sin(pi x)) gives it.
int __cl2vk_lgamma_r_sign_f32_fused(float x) {
  if (!(x < 0.0f) || rint(x) == x) return 1;
  bool negative;
  reduceHalfTurn(x, &negative);
  return negative ? -1 : 1;
}
