// exp, exp2, exp10, expm1, log, log2, log10, log1p, sinh, cosh and tanh for float within OpenCL's
// bounds (2-5 ULP), where lavapipe's GLSL.std.450 Exp and Log were off by millions of ULP at the
// ends of their ranges: exp_log.cl in float, on the kernels of exp_log_float_kernels.h.
#include "exp_log_float_kernels.h"

float __cl2vk_exp_f32(float x) { return expFloat(x); }

float __cl2vk_exp2_f32(float x) {
  if (isnan(x)) return x;
  if (x >= 128.0f) return INFINITY;
  if (x < -150.0f) return 0.0f;
  float k = rint(x);
  float r = (x - k) * LN2;  // x - k is exact; the product's rounding is 2^-55 of exp2 at most
  return scaleByPowerOf2(1.0f + expm1Kernel(r), (int)k);
}

float __cl2vk_exp10_f32(float x) {
  if (isnan(x)) return x;
  if (x > 39.0f) return INFINITY;  // beyond log10 of FLT_MAX
  if (x < -46.0f) return 0.0f;     // below log10 of 2^-150
  float k = rint(x * LOG2_10);
  // x - k log10(2), the first product exact, then scaled to natural units.
  float r = ((x - k * LOG10_2_HI) - k * LOG10_2_LO) * LN10;
  return scaleByPowerOf2(1.0f + expm1Kernel(r), (int)k);
}

float __cl2vk_expm1_f32(float x) { return x == 0.0f ? x : expm1Float(x); }  // expm1(-0) is -0

float __cl2vk_log_f32(float x) { return logFloat(x); }

// hi + lo times a constant in two parts (chi with 12 bits) plus an exact offset, with the low
// parts added last.
static float scaledLog(float offset, float offsetLo, float f, float lo, float chi, float clo) {
  // f with its low 12 bits cleared has 12 significant bits, so its product with chi is exact.
  float fHi = as_float(as_uint(f) & 0xfffff000u);
  float rest = (f - fHi) + lo;
  float product = fHi * chi;
  float sum = offset + product;
  float error = (offset - sum) + product;  // exact: |offset| >= |product| or offset is 0
  if (fabs(offset) < fabs(product)) error = (product - sum) + offset;
  return sum + (error + offsetLo + rest * chi + (fHi + rest) * clo);
}

float __cl2vk_log2_f32(float x) {
  float special;
  if (logSpecial(x, &special)) return special;
  int k;
  float f = splitExponent(x, &k);
  float hi;
  float lo = log1pKernel(f, 0.0f, &hi);
  return scaledLog((float)k, 0.0f, hi, lo, LOG2E_HI, LOG2E_LO);
}

float __cl2vk_log10_f32(float x) {
  float special;
  if (logSpecial(x, &special)) return special;
  int k;
  float f = splitExponent(x, &k);
  float hi;
  float lo = log1pKernel(f, 0.0f, &hi);
  float dk = (float)k;
  return scaledLog(dk * LOG10_2_HI, dk * LOG10_2_LO, hi, lo, LOG10E_HI, LOG10E_LO);
}

float __cl2vk_log1p_f32(float x) { return x == 0.0f ? x : log1pFloat(x); }  // log1p(-0) is -0

// Hyperbolic functions through expm1, which keeps small arguments accurate; past 88 (where exp
// overflows before sinh and cosh do) through exp(x/2)^2 / 2.
float __cl2vk_sinh_f32(float x) {
  float a = fabs(x);
  float r;
  if (a < 22.0f) {
    float e = expm1Float(a);
    r = 0.5f * (e + e / (e + 1.0f));  // (e^a - e^-a) / 2 without cancellation
  } else if (a < 88.0f) {
    r = 0.5f * expFloat(a);
  } else {
    float w = expFloat(0.5f * a);
    r = (0.5f * w) * w;
  }
  return copysign(r, x);  // NaN stays NaN
}

float __cl2vk_cosh_f32(float x) {
  float a = fabs(x);
  if (isnan(x)) return x;
  if (a < 0.5f * LN2) {
    float e = expm1Float(a);
    return 1.0f + (e * e) / (2.0f * (1.0f + e));
  }
  if (a < 22.0f) {
    float t = expFloat(a);
    return 0.5f * t + 0.5f / t;
  }
  if (a < 88.0f) return 0.5f * expFloat(a);
  float w = expFloat(0.5f * a);
  return (0.5f * w) * w;
}

float __cl2vk_tanh_f32(float x) {
  float a = fabs(x);
  float r;
  if (a >= 22.0f) {
    r = 1.0f;  // 1 - 2e^-44 rounds to 1
  } else if (a >= 1.0f) {
    r = 1.0f - 2.0f / (expm1Float(2.0f * a) + 2.0f);
  } else {
    float t = expm1Float(-2.0f * a);
    r = -t / (t + 2.0f);
  }
  if (isnan(x)) return x;
  return copysign(r, x);
}

// ---- The forms built on fma (Target::fusedLibraryForms)
//
// expm1 below ln2/2 by expm1KernelFused alone; from -17 to 88 from one reduction as
// 2^n e^r - 1 (expm1ScaledFused). Elsewhere, NaN and infinities, the exact form.
float __cl2vk_expm1_f32_fused(float x) {
  float a = fabs(x);
  if (a < 0.5f * LN2) return a < 0x1p-25f ? x : expm1KernelFused(x);  // zeros keep their sign
  if (!(x > -17.0f && x < 88.0f)) return __cl2vk_expm1_f32(x);
  int n;
  float r = reduceByLn2Fused(x, &n);
  return expm1ScaledFused(r, powerOf2(n));
}

// log1p as the logarithm of 1 + x as an exact pair (Fast2Sum, the larger operand first):
// logOfPairFused, one division. Below 2^-24, x itself (log1p rounds to it; zeros keep their sign);
// at -1 and below, past 2^100, NaN and infinities, the exact form.
float __cl2vk_log1p_f32_fused(float x) {
  float a = fabs(x);
  if (!(a >= 0x1p-24f && x > -1.0f && x < 0x1p100f)) return a < 0x1p-24f ? x : __cl2vk_log1p_f32(x);
  float u = 1.0f + x;
  return logOfPairFused(u, x < 1.0f ? (1.0f - u) + x : (x - u) + 1.0f);
}

// sinh and cosh below 1 by their series (odd and even minimax polynomials fitted to the relative
// error, below 2^-24.9 and 2^-26.8 for the part beyond x and 1, which is at most a seventh and a
// third of the result); from 1 to 88 from h = e^|x| / 2 (halfExpFused, one reduction) as
// h -+ 1/(4h), whose second term is at most a sixth of sinh: one division's error there weighs a
// sixth, and the cancellation magnifies h's (about an ULP) by coth 1 = 1.31 at most. Past 10 the
// second term is below 2^-28 of the first and is left out. Past 88 (where e^|x| nears overflow),
// NaN and infinities, the exact forms.
#define HYPERBOLIC_SERIES_END 1.0f
#define HYPERBOLIC_FUSED_END 88.0f

float __cl2vk_sinh_f32_fused(float x) {
  float a = fabs(x);
  if (a < HYPERBOLIC_SERIES_END) {
    float z = x * x;
    float p = fma(fma(fma(0x1.78a24cp-19f, z, 0x1.a0091cp-13f), z, 0x1.11111ep-7f), z, 0x1.555556p-3f);
    return fma(x * z, p, x);  // x itself for tiny x, its zero's sign kept
  }
  if (!(a < HYPERBOLIC_FUSED_END)) return __cl2vk_sinh_f32(x);
  float h = halfExpFused(a);
  return copysign(a < 10.0f ? h - 0.25f / h : h, x);
}

float __cl2vk_cosh_f32_fused(float x) {
  float a = fabs(x);
  if (a < HYPERBOLIC_SERIES_END) {
    float z = x * x;
    float p = fma(fma(fma(0x1.a966a8p-16f, z, 0x1.6bff96p-10f), z, 0x1.55557ap-5f), z, 0.5f);
    return fma(z, p, 1.0f);
  }
  if (!(a < HYPERBOLIC_FUSED_END)) return __cl2vk_cosh_f32(x);
  float h = halfExpFused(a);
  return a < 10.0f ? h + 0.25f / h : h;
}

// tanh below 0.55 by an odd minimax polynomial (the part beyond x, at most a tenth of the result,
// within 2^-24 of its own); up to 9.1 as 1 - q with q = 2 / (e^(2|x|) + 1) in [0, 1/2]: the
// denominator rounds once (fma), and q, from one reciprocal, is corrected by its exact residual
// so that the division's error (up to 2.5 ULP in Vulkan, an ULP and a quarter of the result) does
// not count. Past 9.1, 2e^(-2|x|) is below 2^-25 and tanh rounds to +-1.
float __cl2vk_tanh_f32_fused(float x) {
  float a = fabs(x);
  if (!(a < 9.1f)) return isnan(x) ? x : copysign(1.0f, x);
  float r;
  if (a < 0.55f) {
    float z = a * a;
    float p = fma(fma(fma(fma(-0x1.b137b4p-8f, z, 0x1.5d226ep-6f), z, -0x1.b9a04ep-5f), z, 0x1.110feap-3f), z,
                  -0x1.555554p-2f);
    r = fma(a * z, p, a);
  } else {
    int n;
    float y = reduceByLn2Fused(2.0f * a, &n);
    float t = powerOf2(n);
    // t + 1 is exact up to n = 23; above, q is below 2^-23 and its rounding far below the result's.
    float d = fma(t, expm1KernelFused(y), t + 1.0f);
    float reciprocal = 1.0f / d;
    float q = 2.0f * reciprocal;
    r = 1.0f - fma(fma(-q, d, 2.0f), reciprocal, q);
  }
  return copysign(r, x);  // on |x|: x + x^3 p would make a negative zero +0
}

// exp, exp2 and exp10 without a branch: x clamped to [-104, 89], [-151, 129], [-46, 39] (beyond,
// the result rounds to 0 or overflows, and so it does at those ends; NaN is returned as it is: a
// driver may compile the clamp as if no operand were NaN, and NVIDIA's made exp(NaN) inf), n as the
// nearest integer to x log2(b) from the sum with 1.5 2^23 (one fma; the sum's low bits are n, so
// that 2^n is built from them, no conversion), r = x - n ln2 (exp: Cody-Waite, n LN2_HI and its
// difference with x exact, one rounding), x - n (exp2: exact) or x log2(10) - n with log2(10) as
// two floats (exp10: two fma, two roundings, at most 2^-25 of 2^r), then 2^n (1 + (b^r - 1)) in
// two steps: 2^n1 (1 + (b^r - 1)) by one fma, 2^n1 normal, rounded once, times 2^(n - n1), exact
// where the result is normal, else rounding it into the subnormals (the first rounding is then far
// below the second's ULP) or overflowing. e^r - 1 = r + r^2 P(r) (|r| <= ln2/2) and 2^r - 1 =
// r ln2 + r^2 Q(r) (|r| <= 1/2), P and Q of degree 4 fitted with mpmath (weighted least squares,
// below 2^-27.9 and 2^-28 of b^r with float coefficients), the leading term of each exact or by
// fma. Every 7th float of [-104, 89], [-150, 129], [-46, 39] (every 31st a little beyond) against
// double references: exp 1.01 ULP, exp2 0.86, exp10 1.06; infinities, NaN, zeros, the overflow
// and underflow thresholds as the exact forms.
#define ROUNDING_SHIFT 0x1.8p23f
#define LOG2_10_LO 0x1.2f346ep-24f

// 2^n (1 + p) for the n whose sum with ROUNDING_SHIFT is j (n in [-160, 130]).
static float scaleByShiftedPowerOf2(float p, float j) {
  int n = as_int(j) - as_int(ROUNDING_SHIFT);
  int low = n >> 1;
  float t = powerOf2(low);
  return fma(t, p, t) * powerOf2(n - low);
}

// 2^r - 1 for |r| <= 1/2.
static float exp2m1KernelFused(float r) {
  float q = fma(fma(fma(fma(0x1.415fc6p-13f, r, 0x1.5f0934p-10f), r, 0x1.3b2dfap-7f), r, 0x1.c6af7ap-5f), r,
                0x1.ebfbdcp-3f);
  return fma(r, LN2, (r * r) * q);
}

float __cl2vk_exp_f32_fused(float x) {
  float y = x < EXP_UNDERFLOW ? EXP_UNDERFLOW : x > EXP_OVERFLOW ? EXP_OVERFLOW : x;
  float j = fma(y, LOG2E, ROUNDING_SHIFT);
  float k = j - ROUNDING_SHIFT;
  float r = fma(-k, LN2_LO, fma(-k, LN2_HI, y));
  float p = fma(fma(fma(fma(0x1.6a2448p-10f, r, 0x1.1239d4p-7f), r, 0x1.5558f2p-5f), r, 0x1.555492p-3f), r,
                0x1.fffffcp-2f);
  return isnan(x) ? x : scaleByShiftedPowerOf2(fma(r * r, p, r), j);
}

float __cl2vk_exp2_f32_fused(float x) {
  float y = x < -151.0f ? -151.0f : x > 129.0f ? 129.0f : x;
  float j = y + ROUNDING_SHIFT;
  return isnan(x) ? x : scaleByShiftedPowerOf2(exp2m1KernelFused(y - (j - ROUNDING_SHIFT)), j);
}

float __cl2vk_exp10_f32_fused(float x) {
  float y = x < -46.0f ? -46.0f : x > 39.0f ? 39.0f : x;
  float j = fma(y, LOG2_10, ROUNDING_SHIFT);
  float r = fma(y, LOG2_10_LO, fma(y, LOG2_10, -(j - ROUNDING_SHIFT)));
  return isnan(x) ? x : scaleByShiftedPowerOf2(exp2m1KernelFused(r), j);
}
