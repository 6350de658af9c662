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
