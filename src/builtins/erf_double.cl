// erf and erfc for double within OpenCL's bounds (16 ULP), which GLSL.std.450 does not have:
// erf_float.cl's method with longer polynomials (tools/builtins/fit-polynomials.py) and one more
// interval; x^2 is a double-double, so that e^(-x^2) keeps its accuracy up to x = 27.
#include "double_double.h"
#include "exp_log_kernels.h"

#define TWO_OVER_SQRT_PI_MINUS_1 0x1.06eba8214db69p-3

static double erfSmall(double z) {
  double g = -0x1.f5b7006b5bf91p-31;
  g = g * z + 0x1.eb579251b3a91p-27;
  g = g * z - 0x1.5e70b1605a138p-23;
  g = g * z + 0x1.b9d3d75c58972p-20;
  g = g * z - 0x1.f4d17778e7f20p-17;
  g = g * z + 0x1.f9a320062f0e0p-14;
  g = g * z - 0x1.c02db3de79940p-11;
  g = g * z + 0x1.565bcd0e0a713p-8;
  g = g * z - 0x1.b82ce312879d9p-6;
  g = g * z + 0x1.ce2f21a042bcep-4;
  return g * z - 0x1.812746b0379e7p-2;
}

static double erfcNear(double t) {
  double g = 0x1.701f26ce2bd7fp-30;
  g = g * t - 0x1.6334716ca8a6cp-28;
  g = g * t + 0x1.2b27054dd1175p-26;
  g = g * t - 0x1.1322e934a6626p-24;
  g = g * t + 0x1.f16ad1d2096d8p-23;
  g = g * t - 0x1.b43924b6f6a23p-21;
  g = g * t + 0x1.74a0a1f3f4299p-19;
  g = g * t - 0x1.35a4e2c7908a6p-17;
  g = g * t + 0x1.f39c0ef0aaaa4p-16;
  g = g * t - 0x1.867a00e186aa1p-14;
  g = g * t + 0x1.26ee224a43796p-12;
  g = g * t - 0x1.ad51ec49b77d5p-11;
  g = g * t + 0x1.2c133024e1f65p-9;
  g = g * t - 0x1.91297b9b9869bp-8;
  g = g * t + 0x1.fe41e1fc441edp-7;
  g = g * t - 0x1.32be61f54ac5dp-5;
  g = g * t + 0x1.59a3d22374325p-4;
  g = g * t - 0x1.68c1dc2130a6cp-3;
  return g * t + 0x1.56e2c70875a32p-2;
}

static double erfcMiddle(double t) {
  double g = 0x1.9f8dda69efc13p+16;
  g = g * t - 0x1.ec59c6b58abaap+14;
  g = g * t + 0x1.5b84ec2a8e26ap+12;
  g = g * t - 0x1.bc1956d7f97dcp+10;
  g = g * t + 0x1.421e48a059335p+9;
  g = g * t - 0x1.aee124dd00092p+7;
  g = g * t + 0x1.28714d58b1824p+6;
  g = g * t - 0x1.abfb745fac412p+4;
  g = g * t + 0x1.43c44a1b3a119p+3;
  g = g * t - 0x1.02c2065e60e17p+2;
  g = g * t + 0x1.ba2c56dc81c19p+0;
  g = g * t - 0x1.9a831b91fc823p-1;
  g = g * t + 0x1.a834fd169e551p-2;
  g = g * t - 0x1.fb13a1919d07dp-3;
  g = g * t + 0x1.77b07ce4026bdp-3;
  g = g * t - 0x1.91cdedbf4e95cp-3;
  return g * t + 0x1.0e3520427399ap-1;
}

static double erfcFar(double t) {
  double g = 0x1.04921f7f9d2bfp+19;
  g = g * t - 0x1.4866c4dce29ccp+16;
  g = g * t + 0x1.981803b76e654p+13;
  g = g * t - 0x1.2463636c0fc0fp+11;
  g = g * t + 0x1.c3707f9564c9dp+8;
  g = g * t - 0x1.7ac88e0be22f7p+6;
  g = g * t + 0x1.5f8e247d86d22p+4;
  g = g * t - 0x1.70bfc2d6b7bb5p+2;
  g = g * t + 0x1.c2c5db14bef0fp+0;
  g = g * t - 0x1.50ae1cf2973f3p-1;
  g = g * t + 0x1.4d548665ea24dp-2;
  g = g * t - 0x1.033a314bfd5f1p-2;
  return g * t + 0x1.1b867613697edp-1;
}

static double erfcTail(double t) {
  double g = 0x1.345d5b2502e92p+11;
  g = g * t - 0x1.80ff514501f59p+8;
  g = g * t + 0x1.05b1eba37f5f2p+6;
  g = g * t - 0x1.a0cfd667c7aa0p+3;
  g = g * t + 0x1.90366d1b42539p+1;
  g = g * t - 0x1.e72d7aac87abcp-1;
  g = g * t + 0x1.9938969c6c71ap-2;
  g = g * t - 0x1.1a49451842739p-2;
  return g * t + 0x1.1fbfe9ad06e07p-1;
}

// e^(-x^2) for x >= 0, with x^2 as a double-double.
static double expOfNegativeSquare(double x) {
  double error;
  double square = twoProduct(x, x, &error);
  if (square > 746.0) return 0.0;
  double k = rint(-square * LOG2E);
  double r = ((-square - k * LN2_HI) - k * LN2_LO) - error;
  return scaleByPowerOf2(1.0 + expm1Kernel(r), (int)k);
}

// erfc(a) for a >= 0.84375.
static double erfcLarge(double a) {
  if (a > 27.3) return 0.0;  // below half the smallest subnormal
  double scaled;
  if (a < 2.0) {
    scaled = erfcNear(a - 1.421875);
  } else {
    double inverse = 1.0 / a;
    double w = inverse * inverse;
    double polynomial = a < 4.0 ? erfcMiddle(w - 0.15625) : a < 8.0 ? erfcFar(w - 0.0390625) : erfcTail(w - 0.0078125);
    scaled = inverse * polynomial;
  }
  return expOfNegativeSquare(a) * scaled;
}

double __cl2vk_erf_f64(double x) {
  double a = fabs(x);
  if (isnan(x)) return x;
  if (a < 0.84375) {
    double z = x * x;
    return x + x * (TWO_OVER_SQRT_PI_MINUS_1 + z * erfSmall(z));
  }
  if (a >= 6.0) return copysign(1.0, x);  // erfc(6) is below half an ulp of 1
  return copysign(1.0 - erfcLarge(a), x);
}

double __cl2vk_erfc_f64(double x) {
  double a = fabs(x);
  if (isnan(x)) return x;
  if (a < 0.84375) {
    double z = x * x;
    return 1.0 - (x + x * (TWO_OVER_SQRT_PI_MINUS_1 + z * erfSmall(z)));
  }
  if (x > 0.0) return erfcLarge(a);
  return a >= 6.0 ? 2.0 : 2.0 - erfcLarge(a);
}

// ---- The forms built on fma (Target::fusedLibraryForms: a correctly rounded fma, the driver's)
//
// erf_float.cl's fused forms in double: the same polynomials, each Horner step one fma, x^2 as a
// pair by one fma, and the common cases tested first.

static double erfSmallFused(double z) {
  double g = fma(-0x1.f5b7006b5bf91p-31, z, 0x1.eb579251b3a91p-27);
  g = fma(g, z, -0x1.5e70b1605a138p-23);
  g = fma(g, z, 0x1.b9d3d75c58972p-20);
  g = fma(g, z, -0x1.f4d17778e7f20p-17);
  g = fma(g, z, 0x1.f9a320062f0e0p-14);
  g = fma(g, z, -0x1.c02db3de79940p-11);
  g = fma(g, z, 0x1.565bcd0e0a713p-8);
  g = fma(g, z, -0x1.b82ce312879d9p-6);
  g = fma(g, z, 0x1.ce2f21a042bcep-4);
  return fma(g, z, -0x1.812746b0379e7p-2);
}

static double erfcNearFused(double t) {
  double g = fma(0x1.701f26ce2bd7fp-30, t, -0x1.6334716ca8a6cp-28);
  g = fma(g, t, 0x1.2b27054dd1175p-26);
  g = fma(g, t, -0x1.1322e934a6626p-24);
  g = fma(g, t, 0x1.f16ad1d2096d8p-23);
  g = fma(g, t, -0x1.b43924b6f6a23p-21);
  g = fma(g, t, 0x1.74a0a1f3f4299p-19);
  g = fma(g, t, -0x1.35a4e2c7908a6p-17);
  g = fma(g, t, 0x1.f39c0ef0aaaa4p-16);
  g = fma(g, t, -0x1.867a00e186aa1p-14);
  g = fma(g, t, 0x1.26ee224a43796p-12);
  g = fma(g, t, -0x1.ad51ec49b77d5p-11);
  g = fma(g, t, 0x1.2c133024e1f65p-9);
  g = fma(g, t, -0x1.91297b9b9869bp-8);
  g = fma(g, t, 0x1.fe41e1fc441edp-7);
  g = fma(g, t, -0x1.32be61f54ac5dp-5);
  g = fma(g, t, 0x1.59a3d22374325p-4);
  g = fma(g, t, -0x1.68c1dc2130a6cp-3);
  return fma(g, t, 0x1.56e2c70875a32p-2);
}

static double erfcMiddleFused(double t) {
  double g = fma(0x1.9f8dda69efc13p+16, t, -0x1.ec59c6b58abaap+14);
  g = fma(g, t, 0x1.5b84ec2a8e26ap+12);
  g = fma(g, t, -0x1.bc1956d7f97dcp+10);
  g = fma(g, t, 0x1.421e48a059335p+9);
  g = fma(g, t, -0x1.aee124dd00092p+7);
  g = fma(g, t, 0x1.28714d58b1824p+6);
  g = fma(g, t, -0x1.abfb745fac412p+4);
  g = fma(g, t, 0x1.43c44a1b3a119p+3);
  g = fma(g, t, -0x1.02c2065e60e17p+2);
  g = fma(g, t, 0x1.ba2c56dc81c19p+0);
  g = fma(g, t, -0x1.9a831b91fc823p-1);
  g = fma(g, t, 0x1.a834fd169e551p-2);
  g = fma(g, t, -0x1.fb13a1919d07dp-3);
  g = fma(g, t, 0x1.77b07ce4026bdp-3);
  g = fma(g, t, -0x1.91cdedbf4e95cp-3);
  return fma(g, t, 0x1.0e3520427399ap-1);
}

static double erfcFarFused(double t) {
  double g = fma(0x1.04921f7f9d2bfp+19, t, -0x1.4866c4dce29ccp+16);
  g = fma(g, t, 0x1.981803b76e654p+13);
  g = fma(g, t, -0x1.2463636c0fc0fp+11);
  g = fma(g, t, 0x1.c3707f9564c9dp+8);
  g = fma(g, t, -0x1.7ac88e0be22f7p+6);
  g = fma(g, t, 0x1.5f8e247d86d22p+4);
  g = fma(g, t, -0x1.70bfc2d6b7bb5p+2);
  g = fma(g, t, 0x1.c2c5db14bef0fp+0);
  g = fma(g, t, -0x1.50ae1cf2973f3p-1);
  g = fma(g, t, 0x1.4d548665ea24dp-2);
  g = fma(g, t, -0x1.033a314bfd5f1p-2);
  return fma(g, t, 0x1.1b867613697edp-1);
}

static double erfcTailFused(double t) {
  double g = fma(0x1.345d5b2502e92p+11, t, -0x1.80ff514501f59p+8);
  g = fma(g, t, 0x1.05b1eba37f5f2p+6);
  g = fma(g, t, -0x1.a0cfd667c7aa0p+3);
  g = fma(g, t, 0x1.90366d1b42539p+1);
  g = fma(g, t, -0x1.e72d7aac87abcp-1);
  g = fma(g, t, 0x1.9938969c6c71ap-2);
  g = fma(g, t, -0x1.1a49451842739p-2);
  return fma(g, t, 0x1.1fbfe9ad06e07p-1);
}

// erfcLarge with fma, for 0.84375 <= a <= 27.3, as the result times 2^*k: R(a) e^r with
// r = -a^2 - k ln2, which the callers scale (erf by a plain product: k >= -52 below 6).
// 1 / a is the float reciprocal and two Newton steps (reciprocalFused), within an ulp of the
// quotient, instead of a double division.
static double erfcScaledFused(double a, int* k) {
  double scaled;
  if (a < 2.0) {
    scaled = erfcNearFused(a - 1.421875);
  } else {
    double inverse = reciprocalFused(a);
    double w = inverse * inverse;
    double polynomial = a < 4.0   ? erfcMiddleFused(w - 0.15625)
                        : a < 8.0 ? erfcFarFused(w - 0.0390625)
                                  : erfcTailFused(w - 0.0078125);
    scaled = inverse * polynomial;
  }
  // e^(-a^2) with a^2 = square + error exactly.
  double square = a * a;
  double error = fma(a, a, -square);
  double n = rint(-square * LOG2E);
  *k = (int)n;
  double r = fma(n, -LN2_LO, fma(n, -LN2_HI, -square)) - error;
  return fma(scaled, expm1KernelFused(r), scaled);
}

static double erfcLargeFused(double a) {
  int k;
  double scaled = erfcScaledFused(a, &k);
  return scaleByPowerOf2(scaled, k);
}

// x + x (c + z g(z)) for |x| < 0.84375.
static double erfSmallSumFused(double x) {
  double z = x * x;
  return fma(x, fma(z, erfSmallFused(z), TWO_OVER_SQRT_PI_MINUS_1), x);
}

double __cl2vk_erf_f64_fused(double x) {
  double a = fabs(x);
  if (a < 0.84375) return erfSmallSumFused(x);
  if (a < 6.0) {
    int k;
    double scaled = erfcScaledFused(a, &k);
    return copysign(fma(-scaled, powerOf2(k), 1.0), x);
  }
  return isnan(x) ? x : copysign(1.0, x);  // erfc(6) is below half an ulp of 1
}

double __cl2vk_erfc_f64_fused(double x) {
  double a = fabs(x);
  if (a < 0.84375) return 1.0 - erfSmallSumFused(x);
  if (x > 27.3) return 0.0;   // below half the smallest subnormal
  if (x <= -6.0) return 2.0;  // erfc(6) is below half an ulp of 2
  if (a >= 0.84375) {
    double e = erfcLargeFused(a);
    return x > 0.0 ? e : 2.0 - e;
  }
  return x;  // NaN
}
