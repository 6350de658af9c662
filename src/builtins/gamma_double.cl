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
