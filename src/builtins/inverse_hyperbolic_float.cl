// asinh, acosh and atanh for float within OpenCL's bounds (4, 4 and 5 ULP), where lavapipe's
// GLSL.std.450 forms were not: inverse_hyperbolic_double.cl in float, through log and log1p of
// arguments rewritten so that nothing cancels.
#include "exp_log_float_kernels.h"

float __cl2vk_asinh_f32(float x) {
  float a = fabs(x);
  float r;
  if (a < 0x1p-12f || isinf(a) || isnan(a)) {
    r = a;  // asinh(a) = a - a^3/6 rounds to a
  } else if (a > 0x1p12f) {
    r = logFloat(a) + LN2;  // sqrt(a^2 + 1) rounds to a
  } else if (a > 2.0f) {
    r = logFloat(2.0f * a + 1.0f / (sqrt(a * a + 1.0f) + a));
  } else {
    float t = a * a;
    r = log1pFloat(a + t / (1.0f + sqrt(1.0f + t)));
  }
  return copysign(r, x);
}

float __cl2vk_acosh_f32(float x) {
  if (isnan(x)) return x;
  if (x < 1.0f) return nanFloat();
  if (x > 0x1p12f) return isinf(x) ? x : logFloat(x) + LN2;
  if (x > 2.0f) return logFloat(2.0f * x - 1.0f / (x + sqrt(x * x - 1.0f)));
  float t = x - 1.0f;  // exact
  return log1pFloat(t + sqrt(2.0f * t + t * t));
}

float __cl2vk_atanh_f32(float x) {
  float a = fabs(x);
  if (isnan(x)) return x;
  if (a > 1.0f) return nanFloat();
  if (a == 1.0f) return copysign(INFINITY, x);
  float r = a < 0.5f ? 0.5f * log1pFloat(2.0f * a + 2.0f * a * a / (1.0f - a)) : 0.5f * log1pFloat(2.0f * a / (1.0f - a));
  return copysign(r, x);
}

// ---- The forms built on fma (Target::fusedLibraryForms)
//
// Each function is log(w + c) of an argument formed as a pair, exactly but for a term 2^-42 of it
// (logOfPairFused, one division of its own): asinh and acosh as log(|x| + sqrt(x^2 +- 1)), the
// root by sqrtWithLowFused and the sum by Fast2Sum; atanh as log((1 + |x|) / (1 - |x|)) / 2,
// numerator and denominator exact pairs and the quotient from one reciprocal with its residual.
// Nothing cancels: the result is within an ULP or so of the logarithm of the exact argument.
// Outside [2^-12, 2^12) (and 1 for acosh) the exact forms.
float __cl2vk_asinh_f32_fused(float x) {
  float a = fabs(x);
  if (!(a >= 0x1p-12f && a < 0x1p12f)) return __cl2vk_asinh_f32(x);
  float q = fma(a, a, 1.0f);
  float qLo = fma(a, a, 1.0f - q);  // 1 - q is exact below 2^24
  float rootLo;
  float root = sqrtWithLowFused(q, qLo, &rootLo);
  float w = root + a;
  return copysign(logOfPairFused(w, ((root - w) + a) + rootLo), x);
}

// x^2 - 1 by one fma rounds once, within 2^-24: the root within 2^-25 and the logarithm, which
// near 1 is about the root, within 2^-25 of itself.
float __cl2vk_acosh_f32_fused(float x) {
  if (!(x > 1.0f && x < 0x1p12f)) return __cl2vk_acosh_f32(x);
  float rootLo;
  float root = sqrtWithLowFused(fma(x, x, -1.0f), 0.0f, &rootLo);
  float w = x + root;
  return logOfPairFused(w, ((x - w) + root) + rootLo);
}

float __cl2vk_atanh_f32_fused(float x) {
  float a = fabs(x);
  if (!(a >= 0x1p-12f && a < 1.0f)) return __cl2vk_atanh_f32(x);
  float n = 1.0f + a;
  float nLo = (1.0f - n) + a;
  float d = 1.0f - a;
  float dLo = (1.0f - d) - a;
  float reciprocal = 1.0f / d;
  float quotient = n * reciprocal;
  float correction = ((fma(-quotient, d, n) + nLo) - quotient * dLo) * reciprocal;
  float w = quotient + correction;  // renormalized (Fast2Sum)
  return copysign(0.5f * logOfPairFused(w, correction - (w - quotient)), x);
}
