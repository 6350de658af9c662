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

// The same with fma (the fused forms, Target::fusedLibraryForms).
static double powMagnitudeFused(double x, double y) {
  double logLo;
  double logHi = logDoubleDoubleFused(x, &logLo);
  double estimate = y * logHi;
  if (estimate > 710.0) return INFINITY;
  if (estimate < -746.0) return 0.0;
  double error;
  double product = twoProductFused(y, logHi, &error);
  return expDoubleDouble(product, fma(y, logLo, error));
}

// The common case, tested first: finite x > 0 other than 1 and finite y, where pow and powr are
// |x|^y and no special case applies (x = 1 is one: y's split could overflow).
static bool isOrdinaryPower(double x, double y) { return x > 0.0 && x < INFINITY && x != 1.0 && fabs(y) < INFINITY; }

// pow's special cases: true with *result set, else false with *sign the sign of x^y, which is
// then |x|^y for finite x != 0 and finite y.
static bool powSpecial(double x, double y, double* result, double* sign) {
  double ax = fabs(x);
  bool yInteger = rint(y) == y;
  bool yOdd = yInteger && fabs(y) < 0x1p53 && rint(0.5 * y) != 0.5 * y;
  *sign = signbit(x) && yOdd ? -1.0 : 1.0;
  if (y == 0.0 || x == 1.0)
    *result = 1.0;
  else if (isnan(x) || isnan(y))
    *result = x + y;
  else if (isinf(y))  // (-1)^(+-inf) is 1
    *result = ax == 1.0 ? 1.0 : (ax < 1.0) == (y < 0.0) ? INFINITY : 0.0;
  else if (ax == 0.0)
    *result = copysign(y < 0.0 ? (double)INFINITY : 0.0, *sign);
  else if (isinf(x))
    *result = copysign(y < 0.0 ? 0.0 : (double)INFINITY, *sign);
  else if (x < 0.0 && !yInteger)
    *result = nanDouble();
  else if (ax == 1.0)  // (-1)^y for an integer y, however large
    *result = *sign;
  else
    return false;
  return true;
}

double __cl2vk_pow_f64(double x, double y) {
  if (isOrdinaryPower(x, y)) return powMagnitude(x, y);
  double result, sign;
  return powSpecial(x, y, &result, &sign) ? result : copysign(powMagnitude(fabs(x), y), sign);
}

double __cl2vk_pow_f64_fused(double x, double y) {
  if (isOrdinaryPower(x, y)) return powMagnitudeFused(x, y);
  double result, sign;
  return powSpecial(x, y, &result, &sign) ? result : copysign(powMagnitudeFused(fabs(x), y), sign);
}

double __cl2vk_pown_f64(double x, int n) { return __cl2vk_pow_f64(x, (double)n); }  // n is exact

double __cl2vk_pown_f64_fused(double x, int n) { return __cl2vk_pow_f64_fused(x, (double)n); }

// powr's special cases (OpenCL's): true with *result set, else false, x^y then being finite and
// positive x's and finite y's.
static bool powrSpecial(double x, double y, double* result) {
  if (isnan(x) || isnan(y) || x < 0.0)
    *result = nanDouble();
  else if (x == 0.0)
    *result = y == 0.0 ? nanDouble() : y < 0.0 ? INFINITY : 0.0;
  else if (isinf(x))
    *result = y == 0.0 ? nanDouble() : y < 0.0 ? 0.0 : INFINITY;
  else if (x == 1.0)
    *result = isinf(y) ? nanDouble() : 1.0;
  else if (y == 0.0)
    *result = 1.0;
  else if (isinf(y))
    *result = (x < 1.0) == (y < 0.0) ? INFINITY : 0.0;
  else
    return false;
  return true;
}

double __cl2vk_powr_f64(double x, double y) {
  if (isOrdinaryPower(x, y)) return powMagnitude(x, y);
  double result;
  return powrSpecial(x, y, &result) ? result : powMagnitude(x, y);
}

double __cl2vk_powr_f64_fused(double x, double y) {
  if (isOrdinaryPower(x, y)) return powMagnitudeFused(x, y);
  double result;
  return powrSpecial(x, y, &result) ? result : powMagnitudeFused(x, y);
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

// cbrt with fma (the fused forms, Target::fusedLibraryForms): pow_float.cl's method, m^(-1/3)
// started in float (two float Newton steps, 2^-16.4) and taken one step further in double
// (2^-31.8) before cbrt(m) = m z^2 and its Newton step with an exact residual. Within 0.51 ULP over
// 2 * 10^7 random doubles (a C transcription against cbrtl; MPFR-checked in MathPrecisionFusedForms).
double __cl2vk_cbrt_f64_fused(double x) {
  if (x == 0.0 || isnan(x) || isinf(x)) return x;
  ulong bits = as_ulong(x) & 0x7ffffffffffffffful;
  int biased = (int)(bits >> 52);
  ulong fraction = bits & 0xffffffffffffful;
  if (biased == 0) {
    int shift = (int)clz(fraction) - 11;
    fraction = (fraction << shift) & 0xffffffffffffful;
    biased = 1 - shift;
  }
  int e = biased - 1023;
  int k = (e + 1077) / 3 - 359;  // floor(e / 3), e >= -1074
  double m = as_double((ulong)(e - 3 * k + 1023) << 52 | fraction);
  float mf = (float)m;
  float zf = as_float(0x54a232a3u - as_uint(mf) / 3);
  for (int step = 0; step < 2; ++step) zf = fma(zf * fma(-mf, zf * zf * zf, 1.0f), 0x1.555556p-2f, zf);
  double z = (double)zf;
  z = fma(z * fma(-m, z * z * z, 1.0), 0x1.5555555555555p-2, z);
  double zz = z * z;
  double y = m * zz;
  double squareLo;
  double square = twoProductFused(y, y, &squareLo);
  double cubeLo;
  double cube = twoProductFused(square, y, &cubeLo);
  double residual = (m - cube) - (cubeLo + squareLo * y);
  return copysign(fma(residual * zz, 0x1.5555555555555p-2, y) * powerOf2(k), x);
}
