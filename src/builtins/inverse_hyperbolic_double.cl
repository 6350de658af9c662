// asinh, acosh and atanh for double, which GLSL.std.450 does not have, within OpenCL's bounds
// (4, 4 and 5 ULP), through log and log1p of arguments rewritten so that nothing cancels.
#include "exp_log_kernels.h"

double __cl2vk_asinh_f64(double x) {
  double a = fabs(x);
  double r;
  if (a < 0x1p-28 || isinf(a) || isnan(a)) {
    r = a;  // asinh(a) = a - a^3/6 rounds to a
  } else if (a > 0x1p28) {
    r = logDouble(a) + LN2;  // sqrt(a^2 + 1) rounds to a
  } else if (a > 2.0) {
    r = logDouble(2.0 * a + 1.0 / (sqrt(a * a + 1.0) + a));
  } else {
    double t = a * a;
    r = log1pDouble(a + t / (1.0 + sqrt(1.0 + t)));
  }
  return copysign(r, x);
}

double __cl2vk_acosh_f64(double x) {
  if (isnan(x)) return x;
  if (x < 1.0) return nanDouble();
  if (x > 0x1p28) return isinf(x) ? x : logDouble(x) + LN2;
  if (x > 2.0) return logDouble(2.0 * x - 1.0 / (x + sqrt(x * x - 1.0)));
  double t = x - 1.0;  // exact
  return log1pDouble(t + sqrt(2.0 * t + t * t));
}

double __cl2vk_atanh_f64(double x) {
  double a = fabs(x);
  if (isnan(x)) return x;
  if (a > 1.0) return nanDouble();
  if (a == 1.0) return copysign((double)INFINITY, x);
  double r = a < 0.5 ? 0.5 * log1pDouble(2.0 * a + 2.0 * a * a / (1.0 - a)) : 0.5 * log1pDouble(2.0 * a / (1.0 - a));
  return copysign(r, x);
}
