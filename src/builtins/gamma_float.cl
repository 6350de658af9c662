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
