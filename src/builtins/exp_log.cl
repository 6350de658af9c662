// exp, exp2, exp10, expm1, log, log2, log10, log1p, sinh, cosh and tanh for double, which
// GLSL.std.450 does not have, within OpenCL's bounds (2-5 ULP). exp-like functions reduce x to
// r = x - n ln2 with |r| <= ln2/2 (n ln2 in two parts, the first exact in n's range) and evaluate
// expm1(r) by a polynomial; log-like functions split x = 2^k m with m in [sqrt(2)/2, sqrt(2)) and
// evaluate log(m) = 2 atanh(s), s = (m - 1) / (m + 1), keeping m - 1 exact. Results that need more
// than a double's accuracy in between carry a low part. The polynomials come from
// tools/builtins/fit-polynomials.py.
// Each operation rounds as written (no fused multiply-add): the algorithms count on it.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// Constants: ln 2, log10 2 and log10 e as 32 significant bits and the double nearest the rest, so
// that n times the first is exact for |n| < 2^21; log2 e likewise.
#define LN2 0x1.62e42fefa39efp-1
#define LN2_HI 0x1.62e42fee00000p-1
#define LN2_LO 0x1.a39ef35793c76p-33
#define LOG2E 0x1.71547652b82fep+0
#define LOG2E_HI 0x1.7154765200000p+0
#define LOG2E_LO 0x1.705fc2eefa200p-33
#define LOG10_2_HI 0x1.3441350800000p-2
#define LOG10_2_LO 0x1.f79fef311f12bp-34
#define LOG2_10 0x1.a934f0979a371p+1
#define LN10 0x1.26bb1bbb55516p+1
#define LOG10E_HI 0x1.bcb7b15200000p-2
#define LOG10E_LO 0x1.b9438ca9aadd5p-36
#define SQRT2 0x1.6a09e667f3bcdp+0
// Beyond these, exp overflows or rounds to 0 (ln of DBL_MAX and of 2^-1075).
#define EXP_OVERFLOW 0x1.62e42fefa39efp+9
#define EXP_UNDERFLOW -0x1.74910d52d3052p+9

static double nanDouble(void) { return as_double(0x7ff8000000000000ul); }

// 2^n for n in [-1022, 1023].
static double powerOf2(int n) { return as_double((ulong)(n + 1023) << 52); }

// y 2^n for n in [-2100, 2100], with one rounding when the result is subnormal.
static double scaleByPowerOf2(double y, int n) {
  if (n > 1000) return y * 0x1p1000 * powerOf2(min(n - 1000, 1023));
  if (n < -1000) return y * 0x1p-1000 * powerOf2(max(n + 1000, -1022));
  return y * powerOf2(n);
}

// expm1(r) for |r| <= ln2/2: r + r^2/2 + r^3 g(r).
static double expm1Kernel(double r) {
  double g = 0x1.61b2c5219ae0ep-33;
  g = g * r + 0x1.1f73102e57f8bp-29;
  g = g * r + 0x1.ae643443626c1p-26;
  g = g * r + 0x1.27e4db5e389d2p-22;
  g = g * r + 0x1.71de3a59062b8p-19;
  g = g * r + 0x1.a01a01a6da7e2p-16;
  g = g * r + 0x1.a01a01a019b28p-13;
  g = g * r + 0x1.6c16c16c162d1p-10;
  g = g * r + 0x1.1111111111111p-7;
  g = g * r + 0x1.5555555555556p-5;
  g = g * r + 0x1.5555555555555p-3;
  double r2 = r * r;
  return r + (0.5 * r2 + r2 * r * g);
}

// x - n ln2 for n = rint(x / ln2), exact but for the last part's rounding.
static double reduceByLn2(double x, int* n) {
  double k = rint(x * LOG2E);
  *n = (int)k;
  return (x - k * LN2_HI) - k * LN2_LO;
}

double __cl2vk_exp_f64(double x) {
  if (isnan(x)) return x;
  if (x > EXP_OVERFLOW) return INFINITY;
  if (x < EXP_UNDERFLOW) return 0.0;
  int n;
  double r = reduceByLn2(x, &n);
  return scaleByPowerOf2(1.0 + expm1Kernel(r), n);
}

double __cl2vk_exp2_f64(double x) {
  if (isnan(x)) return x;
  if (x >= 1024.0) return INFINITY;
  if (x < -1075.0) return 0.0;
  double k = rint(x);
  double r = (x - k) * LN2;  // x - k is exact; the product's rounding is 2^-55 of exp2 at most
  return scaleByPowerOf2(1.0 + expm1Kernel(r), (int)k);
}

double __cl2vk_exp10_f64(double x) {
  if (isnan(x)) return x;
  if (x > 0x1.34413509f79ffp+8) return INFINITY;  // log10 of DBL_MAX
  if (x < -0x1.439b746e36b52p+8) return 0.0;      // log10 of 2^-1075
  double k = rint(x * LOG2_10);
  // x - k log10(2), the first product exact, then scaled to natural units.
  double r = ((x - k * LOG10_2_HI) - k * LOG10_2_LO) * LN10;
  return scaleByPowerOf2(1.0 + expm1Kernel(r), (int)k);
}

double __cl2vk_expm1_f64(double x) {
  if (isnan(x)) return x;
  if (x > EXP_OVERFLOW) return INFINITY;
  if (x < -38.0) return -1.0;  // e^-38 is below half an ulp of 1
  if (fabs(x) <= 0.5 * LN2) return expm1Kernel(x);
  int n;
  double r = reduceByLn2(x, &n);
  double e = expm1Kernel(r);
  // 2^n (1 + e) - 1: (2^n - 1) + 2^n e where 2^n - 1 is exact, else with the -1 last.
  if (n >= -1 && n <= 52) {
    double t = powerOf2(n);
    return (t - 1.0) + t * e;
  }
  return scaleByPowerOf2(1.0 + e, n) - 1.0;
}

// log(1 + f) + c for f in [sqrt(2)/2 - 1, sqrt(2) - 1] and a small correction c, in two parts:
// *hi = f exactly, and the rest returned.
static double log1pKernel(double f, double c, double* hi) {
  double s = f / (2.0 + f);
  double z = s * s;
  double g = 0x1.0c04595972ab8p-3;
  g = g * z + 0x1.0fbe83c2cbcf3p-3;
  g = g * z + 0x1.3b1c360763b8ap-3;
  g = g * z + 0x1.745cf901605f7p-3;
  g = g * z + 0x1.c71c720160b47p-3;
  g = g * z + 0x1.2492492476c87p-2;
  g = g * z + 0x1.9999999999a38p-2;
  g = g * z + 0x1.5555555555555p-1;
  double halfSquare = 0.5 * f * f;
  // log(1 + f) = 2 s + s z g = f - halfSquare + s (halfSquare + z g).
  *hi = f;
  return (s * (halfSquare + z * g) + c) - halfSquare;
}

// x = 2^k m with m in [sqrt(2)/2, sqrt(2)), for finite x > 0; returns m - 1 (exact).
static double splitExponent(double x, int* k) {
  int bias = 1023;
  if (x < 0x1p-1022) {  // subnormal: scale up first
    x *= 0x1p54;
    bias += 54;
  }
  ulong bits = as_ulong(x);
  int e = (int)(bits >> 52) - bias;
  double m = as_double((bits & 0xffffffffffffful) | 0x3ff0000000000000ul);
  if (m > SQRT2) {
    m *= 0.5;
    e += 1;
  }
  *k = e;
  return m - 1.0;
}

// log's special cases: NaN for NaN and x < 0, -inf for zeros, inf for inf; 0 when x is ordinary.
static bool logSpecial(double x, double* result) {
  if (x > 0.0 && !isinf(x)) return false;
  *result = x == 0.0 ? -INFINITY : x > 0.0 ? x : nanDouble();
  return true;
}

double __cl2vk_log_f64(double x) {
  double special;
  if (logSpecial(x, &special)) return special;
  int k;
  double f = splitExponent(x, &k);
  double hi;
  double lo = log1pKernel(f, 0.0, &hi);
  double dk = (double)k;
  return dk * LN2_HI + ((lo + dk * LN2_LO) + hi);
}

// hi + lo times a constant in two parts (chi with 32 bits) plus an exact offset, with the low
// parts added last.
static double scaledLog(double offset, double offsetLo, double f, double lo, double chi, double clo) {
  // f with its low 32 bits cleared has 21 significant bits, so its product with chi is exact.
  double fHi = as_double(as_ulong(f) & 0xffffffff00000000ul);
  double rest = (f - fHi) + lo;
  double product = fHi * chi;
  double sum = offset + product;
  double error = (offset - sum) + product;  // exact: |offset| >= |product| or offset is 0
  if (fabs(offset) < fabs(product)) error = (product - sum) + offset;
  return sum + (error + offsetLo + rest * chi + (fHi + rest) * clo);
}

double __cl2vk_log2_f64(double x) {
  double special;
  if (logSpecial(x, &special)) return special;
  int k;
  double f = splitExponent(x, &k);
  double hi;
  double lo = log1pKernel(f, 0.0, &hi);
  return scaledLog((double)k, 0.0, hi, lo, LOG2E_HI, LOG2E_LO);
}

double __cl2vk_log10_f64(double x) {
  double special;
  if (logSpecial(x, &special)) return special;
  int k;
  double f = splitExponent(x, &k);
  double hi;
  double lo = log1pKernel(f, 0.0, &hi);
  double dk = (double)k;
  return scaledLog(dk * LOG10_2_HI, dk * LOG10_2_LO, hi, lo, LOG10E_HI, LOG10E_LO);
}

double __cl2vk_log1p_f64(double x) {
  if (isnan(x) || x == INFINITY) return x;
  if (x <= -1.0) return x == -1.0 ? -INFINITY : nanDouble();
  double hi, lo;
  if (x > SQRT2 / 2.0 - 1.0 && x < SQRT2 - 1.0) {
    lo = log1pKernel(x, 0.0, &hi);
    return hi + lo;
  }
  // 1 + x rounds; c = (1 + x) - u, over u, puts the lost part back.
  double u = 1.0 + x;
  int k;
  double f = splitExponent(u, &k);
  double c = k > 0 ? (1.0 - (u - x)) / u : (x - (u - 1.0)) / u;
  lo = log1pKernel(f, c, &hi);
  double dk = (double)k;
  return dk * LN2_HI + ((lo + dk * LN2_LO) + hi);
}

// Hyperbolic functions through expm1, which keeps small arguments accurate; past 709 (where exp
// overflows before sinh and cosh do) through exp(x/2)^2 / 2.
double __cl2vk_sinh_f64(double x) {
  double a = fabs(x);
  double r;
  if (a < 22.0) {
    double e = __cl2vk_expm1_f64(a);
    r = 0.5 * (e + e / (e + 1.0));  // (e^a - e^-a) / 2 without cancellation
  } else if (a < EXP_OVERFLOW) {
    r = 0.5 * __cl2vk_exp_f64(a);
  } else {
    double w = __cl2vk_exp_f64(0.5 * a);
    r = (0.5 * w) * w;
  }
  return copysign(r, x);  // NaN stays NaN
}

double __cl2vk_cosh_f64(double x) {
  double a = fabs(x);
  if (isnan(x)) return x;
  if (a < 0.5 * LN2) {
    double e = __cl2vk_expm1_f64(a);
    return 1.0 + (e * e) / (2.0 * (1.0 + e));
  }
  if (a < 22.0) {
    double t = __cl2vk_exp_f64(a);
    return 0.5 * t + 0.5 / t;
  }
  if (a < EXP_OVERFLOW) return 0.5 * __cl2vk_exp_f64(a);
  double w = __cl2vk_exp_f64(0.5 * a);
  return (0.5 * w) * w;
}

double __cl2vk_tanh_f64(double x) {
  double a = fabs(x);
  double r;
  if (a >= 22.0) {
    r = 1.0;  // 1 - 2e^-44 rounds to 1
  } else if (a >= 1.0) {
    r = 1.0 - 2.0 / (__cl2vk_expm1_f64(2.0 * a) + 2.0);
  } else {
    double t = __cl2vk_expm1_f64(-2.0 * a);
    r = -t / (t + 2.0);
  }
  if (isnan(x)) return x;
  return copysign(r, x);
}
