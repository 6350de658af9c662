// pow, pown, powr, rootn and cbrt for float within OpenCL's bounds (16 ULP; 2 for cbrt), where
// lavapipe's GLSL.std.450 Pow was not: pow_double.cl in float. The logarithm and the product are
// float-floats, so that the exponent is right to about 2^-30 before exp amplifies its error by up
// to 104; the sign and the special cases follow C99 (and OpenCL's for powr and rootn).
#include "float_float.h"
#include "exp_log_float_kernels.h"

// |x|^y for finite x != 0 and finite y, by exp(y log|x|).
static float powMagnitude(float x, float y) {
  float logLo;
  float logHi = logFloatFloat(x, &logLo);
  float estimate = y * logHi;
  if (estimate > 89.0f) return INFINITY;
  if (estimate < -104.0f) return 0.0f;
  float error;
  float product = twoProductF(y, logHi, &error);  // no overflow: |y log|x|| <= 104 here
  return expFloatFloat(product, error + y * logLo);
}

// The same with fma (the fused forms, Target::fusedLibraryForms).
static float powMagnitudeFused(float x, float y) {
  float logLo;
  float logHi = logFloatFloatFused(x, &logLo);
  float estimate = y * logHi;
  if (estimate > 89.0f) return INFINITY;
  if (estimate < -104.0f) return 0.0f;
  float error;
  float product = twoProductFusedF(y, logHi, &error);
  return expFloatFloat(product, fma(y, logLo, error));
}

// The common case, tested first: finite x > 0 other than 1 and finite y, where pow and powr are
// |x|^y and no special case applies (x = 1 is one: y's split could overflow).
static bool isOrdinaryPower(float x, float y) { return x > 0.0f && x < INFINITY && x != 1.0f && fabs(y) < INFINITY; }

// pow's special cases: true with *result set, else false with *sign the sign of x^y, which is
// then |x|^y for finite x != 0 and finite y.
static bool powSpecial(float x, float y, float* result, float* sign) {
  float ax = fabs(x);
  bool yInteger = rint(y) == y;
  bool yOdd = yInteger && fabs(y) < 0x1p24f && rint(0.5f * y) != 0.5f * y;
  *sign = signbit(x) && yOdd ? -1.0f : 1.0f;
  if (y == 0.0f || x == 1.0f)
    *result = 1.0f;
  else if (isnan(x) || isnan(y))
    *result = x + y;
  else if (isinf(y))  // (-1)^(+-inf) is 1
    *result = ax == 1.0f ? 1.0f : (ax < 1.0f) == (y < 0.0f) ? INFINITY : 0.0f;
  else if (ax == 0.0f)
    *result = copysign(y < 0.0f ? INFINITY : 0.0f, *sign);
  else if (isinf(x))
    *result = copysign(y < 0.0f ? 0.0f : INFINITY, *sign);
  else if (x < 0.0f && !yInteger)
    *result = nanFloat();
  else if (ax == 1.0f)  // (-1)^y for an integer y, however large
    *result = *sign;
  else
    return false;
  return true;
}

float __cl2vk_pow_f32(float x, float y) {
  if (isOrdinaryPower(x, y)) return powMagnitude(x, y);
  float result, sign;
  return powSpecial(x, y, &result, &sign) ? result : copysign(powMagnitude(fabs(x), y), sign);
}

float __cl2vk_pow_f32_fused(float x, float y) {
  if (isOrdinaryPower(x, y)) return powMagnitudeFused(x, y);
  float result, sign;
  return powSpecial(x, y, &result, &sign) ? result : copysign(powMagnitudeFused(fabs(x), y), sign);
}

// x^n with n itself, not (float)n, which rounds above 2^24: its parity decides the sign
// (pown(-1, INT_MAX) is -1) and its last bits move the result by up to 45 ULP. |n| is two floats
// that hold it exactly, and n log|x| a float-float made of their products.
float __cl2vk_pown_f32(float x, int n) {
  if (n == 0) return 1.0f;
  if (isnan(x)) return x;
  float sign = signbit(x) && (n & 1) != 0 ? -1.0f : 1.0f;
  float ax = fabs(x);
  if (ax == 0.0f) return copysign(n < 0 ? INFINITY : 0.0f, sign);
  if (isinf(x)) return copysign(n < 0 ? 0.0f : INFINITY, sign);
  if (ax == 1.0f) return sign;
  uint m = n < 0 ? -(uint)n : (uint)n;  // 2^31 for INT_MIN
  float high = (float)(m & ~0xfffu), low = (float)(m & 0xfffu);
  float logLo;
  float logHi = logFloatFloat(ax, &logLo);
  // |high log|x|| <= 2^31 * 104: the products are exact pairs; both have the sign of log|x|.
  float highError, lowError, sumError;
  float highProduct = twoProductF(high, logHi, &highError);
  float lowProduct = twoProductF(low, logHi, &lowError);
  float product = twoSumF(highProduct, lowProduct, &sumError);
  float error = ((highError + lowError) + sumError) + (float)m * logLo;
  if (n < 0) product = -product, error = -error;
  return copysign(expFloatFloat(product, error), sign);
}

// powr's special cases (OpenCL's): true with *result set, else false, x^y then being finite and
// positive x's and finite y's.
static bool powrSpecial(float x, float y, float* result) {
  if (isnan(x) || isnan(y) || x < 0.0f)
    *result = nanFloat();
  else if (x == 0.0f)
    *result = y == 0.0f ? nanFloat() : y < 0.0f ? INFINITY : 0.0f;
  else if (isinf(x))
    *result = y == 0.0f ? nanFloat() : y < 0.0f ? 0.0f : INFINITY;
  else if (x == 1.0f)
    *result = isinf(y) ? nanFloat() : 1.0f;
  else if (y == 0.0f)
    *result = 1.0f;
  else if (isinf(y))
    *result = (x < 1.0f) == (y < 0.0f) ? INFINITY : 0.0f;
  else
    return false;
  return true;
}

float __cl2vk_powr_f32(float x, float y) {
  if (isOrdinaryPower(x, y)) return powMagnitude(x, y);
  float result;
  return powrSpecial(x, y, &result) ? result : powMagnitude(x, y);
}

float __cl2vk_powr_f32_fused(float x, float y) {
  if (isOrdinaryPower(x, y)) return powMagnitudeFused(x, y);
  float result;
  return powrSpecial(x, y, &result) ? result : powMagnitudeFused(x, y);
}

// x^(1/n) with log|x| / n as a float-float (1/n itself would round).
float __cl2vk_rootn_f32(float x, int n) {
  if (n == 0 || isnan(x)) return nanFloat();
  bool odd = (n & 1) != 0;
  if (x < 0.0f && !odd) return nanFloat();
  // A denormal x that a device flushes compares equal to zero: zero of its sign, not x, follows.
  if (x == 0.0f) return n > 0 ? (odd ? copysign(0.0f, x) : 0.0f) : (odd ? copysign(INFINITY, x) : INFINITY);
  if (isinf(x)) return n > 0 ? x : copysign(0.0f, x);
  float logLo;
  float logHi = logFloatFloat(x, &logLo);
  float dn = (float)n;
  float quotient = logHi / dn;
  float error;
  float product = twoProductF(quotient, dn, &error);
  float quotientLo = (((logHi - product) - error) + logLo) / dn;
  return copysign(expFloatFloat(quotient, quotientLo), x);
}

float __cl2vk_cbrt_f32(float x) {
  if (isnan(x) || isinf(x)) return x;
  if (x == 0.0f) return copysign(0.0f, x);  // a flushed denormal too, which x itself is not
  return __cl2vk_rootn_f32(x, 3);
}

// cbrt with fma (the fused forms, Target::fusedLibraryForms): x = m 2^(3k) with m in [1, 8) (a
// denormal's significand normalized in integers); m^(-1/3) from the bits (the constant chosen for
// the least relative error over [1, 8), 3.4%) and two division-free Newton steps (2^-16.4), then
// cbrt(m) = m z^2 and one Newton step on it whose residual m - y^3 is exact (y^3 as a pair by fma).
// Within 0.52 ULP over every 7th float (a C transcription; MPFR-checked in MathPrecisionFusedForms).
float __cl2vk_cbrt_f32_fused(float x) {
  if (isnan(x) || isinf(x)) return x;
  if (x == 0.0f) return copysign(0.0f, x);  // a flushed denormal too, which x itself is not
  uint bits = as_uint(x) & 0x7fffffffu;
  int biased = (int)(bits >> 23);
  uint fraction = bits & 0x7fffffu;
  if (biased == 0) {
    int shift = (int)clz(fraction) - 8;
    fraction = (fraction << shift) & 0x7fffffu;
    biased = 1 - shift;
  }
  int e = biased - 127;
  int k = (e + 150) / 3 - 50;  // floor(e / 3), e >= -149
  float m = as_float((uint)(e - 3 * k + 127) << 23 | fraction);
  float z = as_float(0x54a232a3u - as_uint(m) / 3);
  for (int step = 0; step < 2; ++step) z = fma(z * fma(-m, z * z * z, 1.0f), 0x1.555556p-2f, z);
  float zz = z * z;
  float y = m * zz;
  float squareLo;
  float square = twoProductFusedF(y, y, &squareLo);
  float cubeLo;
  float cube = twoProductFusedF(square, y, &cubeLo);
  float residual = (m - cube) - (cubeLo + squareLo * y);  // m - cube is exact (Sterbenz)
  return copysign(fma(residual * zz, 0x1.555556p-2f, y) * powerOf2(k), x);
}
