// sin and cos of a double-double on [-pi/4, pi/4], and sin(pi x), cos(pi x) built on them, shared
// by trig_double.cl and gamma_double.cl. The polynomials come from tools/builtins/fit-polynomials.py.
#pragma once
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "double_double.h"

// sin(r + rr) and cos(r + rr) for |r| <= pi/4 and |rr| below r's last place.
static double sinKernel(double r, double rr) {
  double z = r * r;
  double g = 0x1.9242a97f1788ep-49;
  g = g * z - 0x1.ae7c53a6d817ep-41;
  g = g * z + 0x1.61245fb4e98bbp-33;
  g = g * z - 0x1.ae64567e730a8p-26;
  g = g * z + 0x1.71de3a556c2c8p-19;
  g = g * z - 0x1.a01a01a01a019p-13;
  g = g * z + 0x1.1111111111111p-7;
  g = g * z - 0x1.5555555555555p-3;
  // sin(r + rr) = sin r + rr cos r, cos r about 1 - z/2 at rr's scale.
  return r + (r * z * g + rr * (1.0 - 0.5 * z));
}

static double cosKernel(double r, double rr) {
  double z = r * r;
  double g = -0x1.65d2b1695ab9bp-53;
  g = g * z + 0x1.ae7ce8c282ac6p-45;
  g = g * z - 0x1.9397495431234p-37;
  g = g * z + 0x1.1eed8eff3362ep-29;
  g = g * z - 0x1.27e4fb7789d98p-22;
  g = g * z + 0x1.a01a01a01a019p-16;
  g = g * z - 0x1.6c16c16c16c17p-10;
  g = g * z + 0x1.5555555555555p-5;
  double halfZ = 0.5 * z;
  double w = 1.0 - halfZ;
  // 1 - z/2 rounded to w, its rounding error recovered; cos(r + rr) = cos r - rr sin r.
  return w + (((1.0 - w) - halfZ) + (z * z * g - r * rr));
}

// sinpi, cospi and tanpi: x = n/2 + r exactly (n = rint(2x), |r| <= 1/4), then the kernels at
// pi r as a double-double. Zeros get IEEE 754's signs: sinpi(+-n) = +-0, cospi(n + 1/2) = +0.
#define PI_HI 0x1.921fb54442d18p+1
#define PI_LO 0x1.1a62633145c07p-53

static double sinCosPi(double x, bool cosine) {
  if (fabs(x) >= 0x1p53) return cosine ? 1.0 : copysign(0.0, x);  // an even integer
  double n = rint(2.0 * x);
  double r = x - 0.5 * n;  // exact
  double error;
  double hi = twoProduct(PI_HI, r, &error);
  double lo = error + PI_LO * r;
  double t = hi + lo;
  lo -= t - hi;
  int quadrant = (int)(((long)n + (cosine ? 1 : 0)) & 3);
  double result = (quadrant & 1) ? cosKernel(t, lo) : sinKernel(t, lo);
  result = (quadrant & 2) ? -result : result;
  if (result == 0.0) result = cosine ? 0.0 : copysign(0.0, x);
  return result;
}
