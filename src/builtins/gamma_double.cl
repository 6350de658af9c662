// tgamma, lgamma and lgamma_r for double, which GLSL.std.450 does not have; tgamma within
// OpenCL's bound (16 ULP). OpenCL sets none for lgamma: it is within 16 ULP but near its zeros at
// 1 and 2, where its absolute error stays below 2^-53. Everything goes through log |Gamma| as a
// double-double: Stirling's series from 10 up, and below it the recurrence
// Gamma(y) = Gamma(y + n) / (y (y + 1) ... (y + n - 1)) with the product as a double-double;
// negative x by the reflection Gamma(x) Gamma(1 - x) = pi / sin(pi x), sin(pi x) from sinpi's
// exact reduction. tgamma is exp of that sum, so its only rounding of note is exp's.
#include "exp_log_kernels.h"
#include "sin_cos_kernels_double.h"

#define HALF_LOG_2PI_HI 0x1.d67f1c864beb5p-1
#define HALF_LOG_2PI_LO -0x1.65b5a1b7ff5dfp-55
#define LOG_PI_HI 0x1.250d048e7a1bdp+0
#define LOG_PI_LO 0x1.7abf2ad8d5088p-57

// log Gamma(y) for y >= 10 by Stirling's series, as *lo plus the result.
static double stirling(double y, double* lo) {
  double logLo;
  double logHi = logDoubleDouble(y, &logLo);
  if (y > 0x1p990) {  // (y - 1/2) log y would overflow the exact product's split
    *lo = 0.0;
    return y * (logHi - 1.0);
  }
  double shifted = y - 0.5;  // exact below 2^52, where OpenCL sets no bound anyway
  double productError;
  double product = twoProduct(shifted, logHi, &productError);
  productError += shifted * logLo;
  double sumError;
  double sum = twoSum(product, -y, &sumError);
  double constantError;
  sum = twoSum(sum, HALF_LOG_2PI_HI, &constantError);
  // The series' terms B2k / (2k (2k - 1) y^(2k - 1)), to k = 8 (below 2^-56 of the result at 10).
  double w = 1.0 / y, w2 = w * w;
  double series = -3617.0 / 122400.0;
  series = series * w2 + 1.0 / 156.0;
  series = series * w2 - 691.0 / 360360.0;
  series = series * w2 + 1.0 / 1188.0;
  series = series * w2 - 1.0 / 1680.0;
  series = series * w2 + 1.0 / 1260.0;
  series = series * w2 - 1.0 / 360.0;
  series = series * w2 + 1.0 / 12.0;
  double rest = productError + sumError + constantError + HALF_LOG_2PI_LO + series * w;
  double result = sum + rest;
  *lo = rest - (result - sum);
  return result;
}

// log Gamma(y + yLo) for y > 0, |yLo| below y's last place, as *lo plus the result.
static double logGamma(double y, double yLo, double* lo) {
  double shiftedLo = yLo;
  double productHi = 1.0, productLo = 0.0;
  double shifted = y;
  if (y < 10.0) {
    int n = (int)ceil(10.0 - y);
    for (int i = 0; i < n; ++i) {
      // (y + i + yLo) exactly as a pair, times the product so far.
      double factorLo;
      double factor = twoSum(y, (double)i, &factorLo);
      factorLo += yLo;
      double error;
      double hi = twoProduct(productHi, factor, &error);
      error += productHi * factorLo + productLo * factor;
      productHi = hi + error;
      productLo = error - (productHi - hi);
    }
    shifted = twoSum(y, (double)n, &shiftedLo);
    shiftedLo += yLo;
  }
  double stirlingLo;
  double result = stirling(shifted, &stirlingLo);
  // The low part of the argument moves log Gamma by about its derivative, log y - 1/(2y).
  double logShifted = logDouble(shifted);
  stirlingLo += shiftedLo * (logShifted - 0.5 / shifted);
  if (y < 10.0) {
    double productLogLo;
    double productLog = logDoubleDouble(productHi, &productLogLo);
    productLogLo += productLo / productHi;
    double error;
    result = twoSum(result, -productLog, &error);
    stirlingLo += error - productLogLo;
  }
  double sum = result + stirlingLo;
  *lo = stirlingLo - (sum - result);
  return sum;
}

// log |Gamma(x)| for finite x that is not a non-positive integer, as *lo plus the result, and the
// sign of Gamma(x) in *sign.
static double logAbsGamma(double x, double* lo, int* sign) {
  *sign = 1;
  if (x > 0.0) return logGamma(x, 0.0, lo);
  // log pi - log |sin(pi x)| - log Gamma(1 - x).
  double s = sinCosPi(x, false);
  *sign = s < 0.0 ? -1 : 1;
  double reflectedLo;
  double reflected = twoSum(1.0, -x, &reflectedLo);
  double gammaLo;
  double gamma = logGamma(reflected, reflectedLo, &gammaLo);
  double sineLo;
  double sine = logDoubleDouble(fabs(s), &sineLo);
  double error1, error2;
  double sum = twoSum(LOG_PI_HI, -sine, &error1);
  sum = twoSum(sum, -gamma, &error2);
  double rest = error1 + error2 + LOG_PI_LO - sineLo - gammaLo;
  double result = sum + rest;
  *lo = rest - (result - sum);
  return result;
}

double __cl2vk_tgamma_f64(double x) {
  if (isnan(x)) return x;
  if (isinf(x)) return x > 0.0 ? x : as_double(0x7ff8000000000000ul);
  if (x == 0.0) return copysign((double)INFINITY, x);
  if (x < 0.0 && rint(x) == x) return as_double(0x7ff8000000000000ul);
  if (x > 171.7) return INFINITY;
  if (x < -190.0) return copysign(0.0, sinCosPi(x, false));  // below half the smallest subnormal
  double lo;
  int sign;
  double hi = logAbsGamma(x, &lo, &sign);
  double magnitude = expDoubleDouble(hi, lo);
  return sign < 0 ? -magnitude : magnitude;
}

// lgamma_r's sign for x: that of Gamma(x); +1 at the poles, where Gamma has none.
static double lgammaWithSign(double x, int* sign) {
  *sign = 1;
  if (isnan(x)) return x;
  if (isinf(x)) return INFINITY;
  if (x <= 0.0 && rint(x) == x) return INFINITY;
  if (x == 1.0 || x == 2.0) return 0.0;
  if (fabs(x) < 0x1p-60) {  // Gamma(x) = 1/x - 0.577... rounds to 1/x; sin(pi x) would underflow
    *sign = x < 0.0 ? -1 : 1;
    return -logDouble(fabs(x));
  }
  double lo;
  double hi = logAbsGamma(x, &lo, sign);
  return isinf(hi) ? hi : hi + lo;
}

double __cl2vk_lgamma_f64(double x) {
  int sign;
  return lgammaWithSign(x, &sign);
}
double __cl2vk_lgamma_r_f64(double x) { return __cl2vk_lgamma_f64(x); }
int __cl2vk_lgamma_r_sign_f64(double x) {
  int sign;
  lgammaWithSign(x, &sign);
  return sign;
}

// ---- The forms built on fma (Target::fusedLibraryForms: a correctly rounded fma, the driver's)
//
// gamma_float.cl's fused forms in double: Gamma(2 + t) = 1 + t P(t) for |t| <= 1/2 with P of
// degree 18, the recurrence below 10 (at most 8 exact factors), Stirling's series (8 terms) from
// 10 up with its exponent as a double-double, and the reflection through
// Gamma(x) Gamma(-x) = -pi / (x sin(pi x)), lgamma's below 10 as log1p(R - 1) from pairs. The
// limits: tgamma overflows past 171.7 and its reflection's divisor would past -160; beyond, as for
// tiny, NaN and infinite x, poles, and lgamma's reflections from 10 up that cancel (near the
// poles), the exact forms above.
#define C_HI 0x1.acfe390c97d69p-2  // log(2 pi) / 2 - 1/2
#define C_LO 0x1.3494bc9001442p-56

// P(t) = (Gamma(2 + t) - 1) / t for |t| <= 1/2 as *lo plus the result (gamma_float.cl's
// gammaPolynomial: P(0) as a pair plus t Q(t)), within 2^-56 of P.
#define GAMMA_P0_HI 0x1.b0ee6072093cep-2
#define GAMMA_P0_LO 0x1.6cb90701fbfabp-58
static double gammaPolynomial(double t, double* lo) {
  double q = fma(-0x1.7e0093902cd42p-20, t, 0x1.597fd15f2dd4bp-19);
  q = fma(q, t, -0x1.d4009c8c00c01p-19);
  q = fma(q, t, 0x1.e828ab5b51691p-18);
  q = fma(q, t, -0x1.0194dbcdfaf59p-16);
  q = fma(q, t, 0x1.00447dbeb4b5ap-15);
  q = fma(q, t, -0x1.fdc19457f0beap-15);
  q = fma(q, t, 0x1.fe45a136725e4p-14);
  q = fma(q, t, -0x1.f94c3486be6fep-13);
  q = fma(q, t, 0x1.011b06298274dp-11);
  q = fma(q, t, -0x1.e21f13c4cf6c1p-11);
  q = fma(q, t, 0x1.13c44910cd510p-9);
  q = fma(q, t, -0x1.75e6e91d1bccep-9);
  q = fma(q, t, 0x1.6d7eeacb47388p-7);
  q = fma(q, t, -0x1.17f3740ba998ap-12);
  q = fma(q, t, 0x1.301fbb0f2517ep-4);
  q = fma(q, t, 0x1.4e2399846502bp-4);
  q = fma(q, t, 0x1.a5b978b96bec1p-2);
  double p = fma(q, t, GAMMA_P0_HI);
  *lo = fma(q, t, GAMMA_P0_HI - p) + GAMMA_P0_LO;  // GAMMA_P0_HI - p is exact
  return p;
}

// sin(pi r) for 0 <= r <= 1/2 (gamma_float.cl's sinPiPair and sinPi), c = -pi^3/6.
#define SIN_PI_C_HI -0x1.4abbce625be53p+2
#define SIN_PI_C_LO 0x1.05511c68476a8p-52
static double sinPiG(double z) {
  double g = fma(-0x1.817772d47772cp-26, z, 0x1.aad367609aaf0p-21);
  g = fma(g, z, -0x1.6fad9f7ab89d1p-16);
  g = fma(g, z, 0x1.e8f434e5aa7c8p-12);
  g = fma(g, z, -0x1.e3074fdf5dbf8p-8);
  g = fma(g, z, 0x1.50783487f00c4p-4);
  g = fma(g, z, -0x1.32d2cce62bdaep-1);
  return fma(g, z, 0x1.466bc6775aae2p+1);
}
static double sinPiPair(double r, double* lo) {
  double z = r * r;
  double zLo = fma(r, r, -z);
  double g = sinPiG(z);
  double cube = r * z;
  double cubeLo = fma(r, z, -cube) + r * zLo;
  double head = PI_HI * r;
  double headLo = fma(PI_HI, r, -head);
  double tail = cube * SIN_PI_C_HI;
  double tailLo = fma(cube, SIN_PI_C_HI, -tail);
  double sum = head + tail;  // |tail| < |head|
  double rest =
      ((head - sum) + tail) + (headLo + tailLo) + (PI_LO * r + fma(cube, fma(g, z, SIN_PI_C_LO), cubeLo * SIN_PI_C_HI));
  double result = sum + rest;
  *lo = rest - (result - sum);
  return result;
}
static double sinPi(double r) {
  double z = r * r;
  return r * fma(z, fma(z, sinPiG(z), SIN_PI_C_HI), PI_HI);
}

// |x - rint(x)| for |x| below 2^53, and whether sin(pi x) < 0 in *negative.
static double reduceHalfTurn(double x, bool* negative) {
  double n = rint(x);
  double r = x - n;  // exact
  *negative = (((long)n & 1) != 0) != (r < 0.0);
  return fabs(r);
}

// The Stirling sum's exponent (y - 1/2)(log y - 1) + C + S(1/y) for y >= 10 as *lo plus the
// result, log y as logY + logLo.
static double stirlingExponent(double y, double logY, double logLo, double* lo) {
  double a = y - 0.5;     // exact
  double b = logY - 1.0;  // exact: log y is above 2.3
  double product = a * b;
  double productLo = fma(a, b, -product) + a * logLo;
  // S(1/y) = sum of B2k / (2k (2k - 1) y^(2k - 1)) to k = 8 (below 2^-56 of the result at 10).
  double w = reciprocalFused(y), w2 = w * w;
  double series = fma(-3617.0 / 122400.0, w2, 1.0 / 156.0);
  series = fma(series, w2, -691.0 / 360360.0);
  series = fma(series, w2, 1.0 / 1188.0);
  series = fma(series, w2, -1.0 / 1680.0);
  series = fma(series, w2, 1.0 / 1260.0);
  series = fma(series, w2, -1.0 / 360.0);
  series = fma(series, w2, 1.0 / 12.0) * w;
  double c = C_HI + series;
  double cLo = (C_HI - c) + series;
  double sum = product + c;  // product > 12 > c
  *lo = (((product - sum) + c) + cLo) + (productLo + C_LO);
  return sum;
}

// Gamma(y) for y in [2^-60, 10) as (the result + *lo) / *denominator, with n = rint(y),
// t = y - n and P(t) in *n, *t, *p (gamma_float.cl's gammaQuotient).
static double gammaQuotient(double y, double* lo, double* denominator, double* n, double* t, double* p) {
  *n = rint(y);
  *t = y - *n;
  double pLo;
  *p = gammaPolynomial(*t, &pLo);
  double numerator = fma(*t, *p, 1.0);
  *lo = fma(*t, *p, 1.0 - numerator) + *t * pLo;  // 1 - numerator is exact
  for (double k = 1.0; k <= *n - 2.0; k += 1.0) {
    double product = numerator * (y - k);
    *lo = fma(numerator, y - k, -product) + *lo * (y - k);
    numerator = product;
  }
  *denominator = *n < 1.0 ? y * (y + 1.0) : *n < 2.0 ? y : 1.0;
  return numerator;
}

double __cl2vk_tgamma_f64_fused(double x) {
  double y = fabs(x);
  if (!(y >= 0x1p-60 && x > -160.0 && x <= 171.7) || (x < 0.0 && rint(x) == x)) return __cl2vk_tgamma_f64(x);
  double numerator, denominator = 1.0;
  if (y < 10.0) {
    double lo, n, t, p;
    numerator = gammaQuotient(y, &lo, &denominator, &n, &t, &p);
  } else {
    double logLo;
    double logHi = logDoubleDoubleFused(y, &logLo);
    double lo;
    double hi = stirlingExponent(y, logHi, logLo, &lo);
    numerator = expDoubleDouble(hi, lo);
  }
  if (x > 0.0) {
    if (denominator == 1.0) return numerator;  // from 1.5 up: no division
    return numerator / denominator;
  }
  // pi / (|x sin(pi x)| Gamma(-x)) with the sign of sin(pi x); the divisor is at most
  // 160 Gamma(160) < 2^950 and at least 2^-120.
  bool negative;
  double sine = sinPi(reduceHalfTurn(x, &negative));
  double magnitude = fma(PI_HI, denominator, PI_LO * denominator) / ((y * sine) * numerator);
  return negative ? -magnitude : magnitude;
}

// a / b for b in [2^-120, 2^120] without a double division: b's reciprocalFused (within an ulp)
// times a, corrected by the residual a - q b, exact by fma: within an ulp of the quotient.
static double quotientFused(double a, double b) {
  double r = reciprocalFused(b);
  double q = a * r;
  return fma(r, fma(-q, b, a), q);
}

// lgamma(x) for 2^-60 <= |x| < 2^50, x not a pole, and whether it is reliable: false where a
// negative x's reflection cancels (gamma_float.cl's lgammaFused). No double division and no
// whole log: the quotients by quotientFused, the logarithms by logOfPairFused.
static double lgammaFused(double x, bool* reliable) {
  double y = fabs(x);
  bool negative;
  double sine = 0.0, sineLo = 0.0;
  if (x < 0.0) sine = sinPiPair(reduceHalfTurn(x, &negative), &sineLo);
  *reliable = true;
  // The logarithm of a pair: log1p(argument) below 10, log y from there up.
  double w = y, c = 0.0;
  bool flip = false;
  if (y < 10.0) {
    double numeratorLo, denominator, n, t, p;
    double numerator = gammaQuotient(y, &numeratorLo, &denominator, &n, &t, &p);
    double argument;
    if (x > 0.0) {
      double excess = n == 1.0 ? t * (p - 1.0) : n == 2.0 ? t * p : numerator - denominator;
      argument = quotientFused(excess, denominator);
    } else {
      double q1 = y * sine;
      double q1Lo = fma(y, sine, -q1) + y * sineLo;
      double q = q1 * numerator;
      double qLo = fma(q1, numerator, -q) + (q1Lo * numerator + q1 * numeratorLo);
      double difference = fma(PI_HI, denominator, -q) + fma(PI_LO, denominator, -qLo);
      flip = 2.0 * difference + q < 0.0;
      argument = quotientFused(difference, flip ? -PI_HI * denominator : q);
    }
    // log1p(argument) as the log of the pair 1 + argument (rounded) and its rounding (TwoSum);
    // argument is above -1/2 (Gamma is above 0.88 for x > 0, and flip sees to the reflection's).
    w = 1.0 + argument;
    double v = w - 1.0;
    c = (1.0 - (w - v)) + (argument - v);
  }
  double l = logOfPairFused(w, c);
  if (y < 10.0) return flip ? -l : l;
  double lo;
  double positive = stirlingExponent(y, l, 0.0, &lo) + lo;
  if (x > 0.0) return positive;
  // log(pi / (y sin(pi |x|))) from the pair y sin(pi |x|), between 2^-44 and 2^50.
  double q1 = y * sine;
  double q1Lo = fma(y, sine, -q1) + y * sineLo;
  double result = (LOG_PI_HI - logOfPairFused(q1, q1Lo)) - positive;
  *reliable = fabs(result) >= 0.25 * positive;
  return result;
}

double __cl2vk_lgamma_f64_fused(double x) {
  bool reliable = false;
  double result = 0.0;
  if (fabs(x) >= 0x1p-60 && fabs(x) < 0x1p50 && !(x < 0.0 && rint(x) == x)) result = lgammaFused(x, &reliable);
  return reliable ? result : __cl2vk_lgamma_f64(x);  // one call: the exact form is inlined once
}
double __cl2vk_lgamma_r_f64_fused(double x) { return __cl2vk_lgamma_f64_fused(x); }

// lgamma_r's sign without the exact form's logarithm: +1 for x >= 0, NaN and the poles (every
// double beyond 2^53 is one), else that of sin(pi x), as the reflection
// Gamma(x) Gamma(-x) = -pi / (x sin(pi x)) gives it.
int __cl2vk_lgamma_r_sign_f64_fused(double x) {
  if (!(x < 0.0) || rint(x) == x) return 1;
  bool negative;
  reduceHalfTurn(x, &negative);
  return negative ? -1 : 1;
}
