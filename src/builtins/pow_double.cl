// pow, pown, powr, rootn and cbrt for double, which GLSL.std.450 does not have, within OpenCL's
// bounds (16 ULP; 2 for cbrt). x^y is exp(y log|x|) with log|x| and the product carried as
// double-doubles, so that the exponent is right to about 2^-60 before exp amplifies its error by
// up to 745; the sign and the special cases follow C99 (and OpenCL's for powr and rootn).
#include "double_double.h"
#include "exp_log_kernels.h"

// |x|^y for finite x != 0 and finite y, by exp(y log|x|).
static double powMagnitude(double x, double y) {
  double logLo;
  double logHi = logDoubleDouble(x, &logLo);
  double estimate = y * logHi;
  if (estimate > 710.0) return INFINITY;
  if (estimate < -746.0) return 0.0;
  double error;
  double product = twoProduct(y, logHi, &error);  // no overflow: |y log|x|| <= 746 here
  return expDoubleDouble(product, error + y * logLo);
}

double __cl2vk_pow_f64(double x, double y) {
  if (y == 0.0 || x == 1.0) return 1.0;
  if (isnan(x) || isnan(y)) return x + y;
  double ax = fabs(x);
  if (isinf(y)) {
    if (ax == 1.0) return 1.0;  // (-1)^(+-inf)
    return (ax < 1.0) == (y < 0.0) ? INFINITY : 0.0;
  }
  bool yInteger = rint(y) == y;
  bool yOdd = yInteger && fabs(y) < 0x1p53 && rint(0.5 * y) != 0.5 * y;
  double sign = signbit(x) && yOdd ? -1.0 : 1.0;
  if (ax == 0.0) return copysign(y < 0.0 ? (double)INFINITY : 0.0, sign);
  if (isinf(x)) return copysign(y < 0.0 ? 0.0 : (double)INFINITY, sign);
  if (x < 0.0 && !yInteger) return nanDouble();
  if (ax == 1.0) return sign;  // (-1)^y for an integer y, however large
  return copysign(powMagnitude(ax, y), sign);
}

double __cl2vk_pown_f64(double x, int n) { return __cl2vk_pow_f64(x, (double)n); }  // n is exact

double __cl2vk_powr_f64(double x, double y) {
  if (isnan(x) || isnan(y) || x < 0.0) return nanDouble();
  if (x == 0.0) return y == 0.0 ? nanDouble() : y < 0.0 ? INFINITY : 0.0;
  if (isinf(x)) return y == 0.0 ? nanDouble() : y < 0.0 ? 0.0 : INFINITY;
  if (x == 1.0) return isinf(y) ? nanDouble() : 1.0;
  if (y == 0.0) return 1.0;
  if (isinf(y)) return (x < 1.0) == (y < 0.0) ? INFINITY : 0.0;
  return powMagnitude(x, y);
}

// x^(1/n) with log|x| / n as a double-double (1/n itself would round).
double __cl2vk_rootn_f64(double x, int n) {
  if (n == 0 || isnan(x)) return nanDouble();
  bool odd = (n & 1) != 0;
  if (x < 0.0 && !odd) return nanDouble();
  if (x == 0.0) return n > 0 ? (odd ? x : 0.0) : (odd ? copysign((double)INFINITY, x) : INFINITY);
  if (isinf(x)) return n > 0 ? x : copysign(0.0, x);
  double logLo;
  double logHi = logDoubleDouble(x, &logLo);
  double dn = (double)n;
  double quotient = logHi / dn;
  double error;
  double product = twoProduct(quotient, dn, &error);
  double quotientLo = (((logHi - product) - error) + logLo) / dn;
  return copysign(expDoubleDouble(quotient, quotientLo), x);
}

double __cl2vk_cbrt_f64(double x) {
  if (x == 0.0 || isnan(x) || isinf(x)) return x;
  return __cl2vk_rootn_f64(x, 3);
}
