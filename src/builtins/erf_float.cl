// erf and erfc for float within OpenCL's bounds (16 ULP); GLSL.std.450 has neither. erf is
// x (2/sqrt(pi) + x^2 g(x^2)) below 0.84375 and 1 - erfc above; erfc is 1 - erf below 0.84375 and
// e^(-x^2) R(x) above, with R(x) = erfc(x) e^(x^2) a polynomial in x - 1.421875 up to 2 and
// x R(x) a polynomial in 1/x^2 beyond (tools/builtins/fit-polynomials.py); x^2 is a float-float, so
// that e^(-x^2) keeps its accuracy where x^2 is large.
#include "exp_log_float_kernels.h"
#include "float_float.h"

#define TWO_OVER_SQRT_PI_MINUS_1 0x1.06eba8p-3f

static float erfSmall(float z) {
  float g = 0x1.85ae98p-14f;
  g = g * z - 0x1.b51daap-11f;
  g = g * z + 0x1.55dc1p-8f;
  g = g * z - 0x1.b827ap-6f;
  g = g * z + 0x1.ce2f0ep-4f;
  return g * z - 0x1.812746p-2f;
}

static float erfcNear(float t) {
  float g = 0x1.3f8cb8p-12f;
  g = g * t - 0x1.d3eb68p-11f;
  g = g * t + 0x1.2b4ac8p-9f;
  g = g * t - 0x1.8feefep-8f;
  g = g * t + 0x1.fe469p-7f;
  g = g * t - 0x1.32c20ep-5f;
  g = g * t + 0x1.59a3cep-4f;
  g = g * t - 0x1.68c1d6p-3f;
  return g * t + 0x1.56e2c8p-2f;
}

static float erfcMiddle(float t) {
  float g = 0x1.e58302p+0f;
  g = g * t - 0x1.bcdc8ep-1f;
  g = g * t + 0x1.a76d0ep-2f;
  g = g * t - 0x1.fa758cp-3f;
  g = g * t + 0x1.77b0eep-3f;
  g = g * t - 0x1.91ce1ap-3f;
  return g * t + 0x1.0e352p-1f;
}

static float erfcFar(float t) {
  float g = 0x1.e16d3cp+0f;
  g = g * t - 0x1.7129bap-1f;
  g = g * t + 0x1.5ddf6ep-2f;
  g = g * t - 0x1.088fcep-2f;
  return g * t + 0x1.1c8c56p-1f;
}

// e^(-x^2) for x >= 0, with x^2 as a float-float.
static float expOfNegativeSquare(float x) {
  float error;
  float square = twoProductF(x, x, &error);
  if (square > 104.0f) return 0.0f;
  float k = rint(-square * LOG2E);
  float r = ((-square - k * LN2_HI) - k * LN2_LO) - error;
  return scaleByPowerOf2(1.0f + expm1Kernel(r), (int)k);
}

// erfc(a) for a >= 0.84375.
static float erfcLarge(float a) {
  if (a > 10.5f) return 0.0f;  // below half the smallest subnormal
  float scaled;
  if (a < 2.0f) {
    scaled = erfcNear(a - 1.421875f);
  } else {
    float inverse = 1.0f / a;
    float w = inverse * inverse;
    scaled = inverse * (a < 4.0f ? erfcMiddle(w - 0.15625f) : erfcFar(w - 0.03125f));
  }
  return expOfNegativeSquare(a) * scaled;
}

float __cl2vk_erf_f32(float x) {
  float a = fabs(x);
  if (isnan(x)) return x;
  if (a < 0x1p-64f) {
    // 2x/sqrt(pi) to within 2^-128, scaled up so that x times the constant is not a denormal
    // (which a device that flushes them would lose, erf(FLT_MIN) giving FLT_MIN).
    float scaled = x * 0x1p64f;
    return (scaled + scaled * TWO_OVER_SQRT_PI_MINUS_1) * 0x1p-64f;
  }
  if (a < 0.84375f) {
    float z = x * x;
    return x + x * (TWO_OVER_SQRT_PI_MINUS_1 + z * erfSmall(z));
  }
  if (a >= 4.0f) return copysign(1.0f, x);  // erfc(4) is below half an ulp of 1
  return copysign(1.0f - erfcLarge(a), x);
}

float __cl2vk_erfc_f32(float x) {
  float a = fabs(x);
  if (isnan(x)) return x;
  if (a < 0.84375f) {
    float z = x * x;
    return 1.0f - (x + x * (TWO_OVER_SQRT_PI_MINUS_1 + z * erfSmall(z)));
  }
  if (x > 0.0f) return erfcLarge(a);
  return a >= 4.0f ? 2.0f : 2.0f - erfcLarge(a);
}

// ---- The forms built on fma (Target::fusedLibraryForms: a correctly rounded fma, the driver's)
//
// erfc: the same method and polynomials, each step of Horner's rule one fma, and x^2 as a pair by
// one fma (its rounding error fma(x, x, -x^2)) instead of Veltkamp's split. erf: below 0.84375 the
// same polynomial, the sum x + x (c + z g(z)) as fma(x, c + z g(z), x), one rounding fewer; above,
// 1 - erfc(|x|) from erfcAbsolute, polynomials without exp or division. The common cases come
// first and none falls back to the exact forms.

// The Horner steps of erfSmall, erfcNear, erfcMiddle and erfcFar by fma.
static float erfSmallFused(float z) {
  float g = fma(0x1.85ae98p-14f, z, -0x1.b51daap-11f);
  g = fma(g, z, 0x1.55dc1p-8f);
  g = fma(g, z, -0x1.b827ap-6f);
  g = fma(g, z, 0x1.ce2f0ep-4f);
  return fma(g, z, -0x1.812746p-2f);
}

static float erfcNearFused(float t) {
  float g = fma(0x1.3f8cb8p-12f, t, -0x1.d3eb68p-11f);
  g = fma(g, t, 0x1.2b4ac8p-9f);
  g = fma(g, t, -0x1.8feefep-8f);
  g = fma(g, t, 0x1.fe469p-7f);
  g = fma(g, t, -0x1.32c20ep-5f);
  g = fma(g, t, 0x1.59a3cep-4f);
  g = fma(g, t, -0x1.68c1d6p-3f);
  return fma(g, t, 0x1.56e2c8p-2f);
}

static float erfcMiddleFused(float t) {
  float g = fma(0x1.e58302p+0f, t, -0x1.bcdc8ep-1f);
  g = fma(g, t, 0x1.a76d0ep-2f);
  g = fma(g, t, -0x1.fa758cp-3f);
  g = fma(g, t, 0x1.77b0eep-3f);
  g = fma(g, t, -0x1.91ce1ap-3f);
  return fma(g, t, 0x1.0e352p-1f);
}

static float erfcFarFused(float t) {
  float g = fma(0x1.e16d3cp+0f, t, -0x1.7129bap-1f);
  g = fma(g, t, 0x1.5ddf6ep-2f);
  g = fma(g, t, -0x1.088fcep-2f);
  return fma(g, t, 0x1.1c8c56p-1f);
}

// erfcLarge with fma, for 0.84375 <= a <= 10.5.
static float erfcLargeFused(float a) {
  float scaled;
  if (a < 2.0f) {
    scaled = erfcNearFused(a - 1.421875f);
  } else {
    float inverse = 1.0f / a;
    float w = inverse * inverse;
    scaled = inverse * (a < 4.0f ? erfcMiddleFused(w - 0.15625f) : erfcFarFused(w - 0.03125f));
  }
  // e^(-a^2) with a^2 = square + error exactly.
  float square = a * a;
  float error = fma(a, a, -square);
  float k = rint(-square * LOG2E);
  float r = fma(k, -LN2_LO, fma(k, -LN2_HI, -square)) - error;
  return scaleByPowerOf2(1.0f + expm1Kernel(r), (int)k) * scaled;
}

// x + x (c + z g(z)) for |x| < 0.84375.
static float erfSmallSumFused(float x) {
  float z = x * x;
  return fma(x, fma(z, erfSmallFused(z), TWO_OVER_SQRT_PI_MINUS_1), x);
}

// erfc(a) for 0.84375 <= a < 4 to within 2^-25.4 absolute (the fits 2^-26.6, the rest the
// roundings where erfc is largest, near 0.84): where erf is 1 - erfc, at least 0.77, an absolute
// error is all that matters, and erf needs no exp. Two polynomials of degree 10, in a - 1.421875
// below 2 and a - 3 above (float coefficients rounded one at a time, each refit after the last
// rounding; one polynomial over the whole range loses 2^-23.7 to the roundings of its alternating
// terms), the coefficients selected rather than branched on.
static float erfcAbsolute(float a) {
  bool near = a < 2.0f;
  float t = a - (near ? 1.421875f : 3.0f);
  float g = fma(near ? -0x1.a386bap-13f : -0x1.785bf8p-16f, t, near ? -0x1.7524cep-10f : 0x1.d8cd44p-17f);
  g = fma(g, t, near ? 0x1.d61b9cp-9f : 0x1.299dd2p-13f);
  g = fma(g, t, near ? 0x1.6faa20p-9f : -0x1.b619fcp-12f);
  g = fma(g, t, near ? -0x1.5f72fep-6f : 0x1.80fc9cp-11f);
  g = fma(g, t, near ? 0x1.90f97ap-6f : -0x1.076994p-10f);
  g = fma(g, t, near ? 0x1.2eb26cp-5f : 0x1.1206a6p-10f);
  g = fma(g, t, near ? -0x1.367606p-3f : -0x1.9ecc34p-11f);
  g = fma(g, t, near ? 0x1.b321c0p-3f : 0x1.b5f5d2p-12f);
  g = fma(g, t, near ? -0x1.3206dcp-3f : -0x1.23d232p-13f);
  return fma(g, t, near ? 0x1.6b41ccp-5f : 0x1.72a40ap-16f);
}

float __cl2vk_erf_f32_fused(float x) {
  float a = fabs(x);
  // Down to the denormals: the fma's product x (c + z g(z)) does not round before the sum, so it is
  // not lost where a device flushes a denormal product (the exact form's scaling below 2^-64).
  if (a < 0.84375f) return erfSmallSumFused(x);
  if (a < 4.0f) return copysign(1.0f - erfcAbsolute(a), x);
  return isnan(x) ? x : copysign(1.0f, x);  // erfc(4) is below half an ulp of 1
}

float __cl2vk_erfc_f32_fused(float x) {
  float a = fabs(x);
  if (a < 0.84375f) return 1.0f - erfSmallSumFused(x);
  if (x > 10.5f) return 0.0f;   // below half the smallest subnormal
  if (x <= -4.0f) return 2.0f;  // erfc(4) is below half an ulp of 2
  if (a >= 0.84375f) {
    float e = erfcLargeFused(a);
    return x > 0.0f ? e : 2.0f - e;
  }
  return x;  // NaN
}
