// sin and cos of a float-float on [-pi/4, pi/4], and sin(pi x), cos(pi x) built on them, shared
// by trig_float.cl and gamma_float.cl. The polynomials come from tools/builtins/fit-polynomials.py.
#pragma once
#pragma OPENCL FP_CONTRACT OFF
#include "float_float.h"

static float sinKernel(float r, float rr) {
  float z = r * r;
  float g = 0x1.6dbdeep-19f;
  g = g * z - 0x1.a013a8p-13f;
  g = g * z + 0x1.11110ep-7f;
  g = g * z - 0x1.555556p-3f;
  return r + (r * z * g + rr * (1.0f - 0.5f * z));
}

static float cosKernel(float r, float rr) {
  float z = r * r;
  float g = -0x1.25243cp-22f;
  g = g * z + 0x1.a015c4p-16f;
  g = g * z - 0x1.6c16c0p-10f;
  g = g * z + 0x1.555556p-5f;
  float halfZ = 0.5f * z;
  float w = 1.0f - halfZ;
  return w + (((1.0f - w) - halfZ) + (z * z * g - r * rr));
}

// sinpi, cospi and tanpi: x = n/2 + r exactly (n = rint(2x), |r| <= 1/4), then the kernels at
// pi r as a float-float. Zeros get IEEE 754's signs: sinpi(+-n) = +-0, cospi(n + 1/2) = +0.
#define PI_HI 0x1.921fb6p+1f
#define PI_LO -0x1.777a5cp-24f

// sin(pi x) (or cos(pi x) when `cosine`) for finite x.
static float sinCosPi(float x, bool cosine) {
  if (fabs(x) >= 0x1p24f) return cosine ? 1.0f : copysign(0.0f, x);  // an even integer
  if (!cosine && fabs(x) < 0x1p-64f) {
    // sin(pi x) = pi x to within 2^-128, scaled up so that pi's low part times x is not a
    // denormal (which a device that flushes them would lose).
    float scaled = x * 0x1p64f, error;
    float hi = twoProductF(PI_HI, scaled, &error);
    float result = (hi + (error + PI_LO * scaled)) * 0x1p-64f;
    return result == 0.0f ? copysign(0.0f, x) : result;
  }
  float n = rint(2.0f * x);
  float r = x - 0.5f * n;  // exact
  float error;
  float hi = twoProductF(PI_HI, r, &error);
  float lo = error + PI_LO * r;
  float t = hi + lo;
  lo -= t - hi;
  int quadrant = ((int)n + (cosine ? 1 : 0)) & 3;
  float result = (quadrant & 1) ? cosKernel(t, lo) : sinKernel(t, lo);
  result = (quadrant & 2) ? -result : result;
  if (result == 0.0f) result = cosine ? 0.0f : copysign(0.0f, x);
  return result;
}
