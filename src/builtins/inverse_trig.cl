// asin, acos, atan, atan2 and their pi forms for float, within OpenCL's bounds (4-6 ULP) where
// GLSL.std.450 promises 4096 ULP. Each reduces its argument to a small interval, evaluates a
// near-minimax polynomial there (tools/builtins/fit-polynomials.py fits them) and adds the
// reduction's constant as a high and a low part, so that the constants cost no accuracy.
// Each operation rounds as written (no fused multiply-add): the algorithms count on it.
#pragma OPENCL FP_CONTRACT OFF

// pi/2, pi, pi/4, atan(1/2) and 1/pi as a float and the float nearest the rest.
#define PIO2_HI 0x1.921fb6p+0f
#define PIO2_LO -0x1.777a5cp-25f
#define PI_HI 0x1.921fb6p+1f
#define PI_LO -0x1.777a5cp-24f
#define PIO4_HI 0x1.921fb6p-1f
#define PIO4_LO -0x1.777a5cp-26f
#define ATAN_HALF_HI 0x1.dac670p-2f
#define ATAN_HALF_LO 0x1.586ed4p-28f
#define INV_PI_HI 0x1.45f306p-2f
#define INV_PI_LO 0x1.b93910p-27f

// atan(f) for |f| <= 7/16: f + f u g(u) with u = f^2 (error of g below 1e-9).
static float atanPolynomial(float f) {
  float u = f * f;
  float g = 0x1.8b0b06p-5f;
  g = g * u - 0x1.5d79d8p-4f;
  g = g * u + 0x1.c4f1ecp-4f;
  g = g * u - 0x1.248627p-3f;
  g = g * u + 0x1.999967p-3f;
  g = g * u - 0x1.555555p-2f;
  return f + f * u * g;
}

// (asin(x) - x) / x^3 as a function of z = x^2, for z <= 1/4 (error below 5e-9).
static float asinRemainder(float z) {
  float g = 0x1.13fed4p-5f;
  g = g * z + 0x1.18f91ep-6f;
  g = g * z + 0x1.fd8da2p-6f;
  g = g * z + 0x1.6d5bbap-5f;
  g = g * z + 0x1.333431p-4f;
  return g * z + 0x1.555555p-3f;
}

// atan(t) for t in [0, 1]: directly below 7/16, else as atan(c) + atan((t - c) / (1 + t c)) for
// c = 1/2 or 1, whose numerators 2t - 1 and t - 1 are exact.
static float atanUnit(float t) {
  if (t < 0x1.cp-2f) return atanPolynomial(t);
  if (t < 0x1.6p-1f) return ATAN_HALF_HI + (ATAN_HALF_LO + atanPolynomial((2.0f * t - 1.0f) / (2.0f + t)));
  return PIO4_HI + (PIO4_LO + atanPolynomial((t - 1.0f) / (t + 1.0f)));
}

// atan(1/a) for a > 1 with one division: atanUnit's ranges of 1/a, with their arguments formed
// from a itself ((2/a - 1) / (2 + 1/a) = (2 - a) / (2a + 1) and (1/a - 1) / (1/a + 1) =
// (1 - a) / (1 + a), whose numerators are exact) instead of from a rounded 1/a.
static float atanOfReciprocal(float a) {
  if (a > 16.0f / 7.0f) return atanPolynomial(1.0f / a);
  if (a > 16.0f / 11.0f) return ATAN_HALF_HI + (ATAN_HALF_LO + atanPolynomial((2.0f - a) / (2.0f * a + 1.0f)));
  return PIO4_HI + (PIO4_LO + atanPolynomial((1.0f - a) / (1.0f + a)));
}

// 2 asin(sqrt(z)) for z in [0, 1/4], as 2 s_hi + 2 (c + s z R(z)): s_hi, sqrt(z) cut to 12
// bits, squares exactly, and c = (z - s_hi^2) / (s + s_hi) corrects it, so the square root's own
// rounding does not matter. The high part is returned in *hi, the rest is the result.
static float twiceAsinOfRoot(float z, float* hi) {
  float s = sqrt(z);
  float sHi = as_float(as_uint(s) & 0xfffff000u);
  float c = z == 0.0f ? 0.0f : (z - sHi * sHi) / (s + sHi);
  *hi = 2.0f * sHi;
  return 2.0f * (c + s * z * asinRemainder(z));
}

float __cl2vk_asin_f32(float x) {
  float a = fabs(x);
  if (a <= 0.5f) {
    float z = x * x;
    return x + x * z * asinRemainder(z);
  }
  if (!(a <= 1.0f)) return as_float(0x7fc00000u);  // |x| > 1 or NaN
  // asin(a) = pi/2 - 2 asin(sqrt((1 - a) / 2)); 1 - a and the halving are exact.
  float hi;
  float lo = twiceAsinOfRoot((1.0f - a) * 0.5f, &hi);
  return copysign((PIO2_HI - hi) + (PIO2_LO - lo), x);
}

float __cl2vk_acos_f32(float x) {
  float a = fabs(x);
  if (a <= 0.5f) {
    float z = x * x;
    return PIO2_HI - (x - (PIO2_LO - x * z * asinRemainder(z)));
  }
  if (!(a <= 1.0f)) return as_float(0x7fc00000u);
  float hi;
  float lo = twiceAsinOfRoot((1.0f - a) * 0.5f, &hi);
  if (x > 0.0f) return hi + lo;       // acos(a) = 2 asin(sqrt((1 - a) / 2))
  return (PI_HI - hi) + (PI_LO - lo);  // acos(-a) = pi - acos(a)
}

float __cl2vk_atan_f32(float x) {
  float a = fabs(x);
  // atan(a) = pi/2 - atan(1/a) above 1 (and pi/2 at infinity, where 1/a is 0).
  float r = a > 1.0f ? PIO2_HI + (PIO2_LO - atanOfReciprocal(a)) : atanUnit(a);
  return copysign(r, x);  // NaN stays NaN
}

// The ratio of the smaller of |x| and |y| to the larger, whose atan is the angle of (|x|, |y|)
// from the nearer axis; 0/0 counts as 0 and inf/inf as 1, which gives C99's results for zeros and
// infinities.
static float atan2Ratio(float ay, float ax) {
  float small = min(ax, ay), large = max(ax, ay);
  // Vulkan defines division for divisors in [2^-126, 2^126] only (NVIDIA's reciprocal of a larger
  // one is flushed: atan2(FLT_MAX, FLT_MAX) was 0 there), so both are scaled into it, exactly or,
  // for a smaller operand scaled into the denormals, where the ratio is below a float's reach.
  float scale = large > 0x1p64f ? 0x1p-64f : large < 0x1p-64f ? 0x1p64f : 1.0f;
  small *= scale;
  large *= scale;
  return ay == 0.0f ? 0.0f : isinf(ax) && isinf(ay) ? 1.0f : small / large;
}

float __cl2vk_atan2_f32(float y, float x) {
  if (isnan(x) || isnan(y)) return x + y;
  float ay = fabs(y), ax = fabs(x);
  float t = atan2Ratio(ay, ax);
  float base = atanUnit(t);
  float r;
  if (ay <= ax) {
    r = signbit(x) ? (PI_HI - base) + PI_LO : base;
  } else {
    r = signbit(x) ? (PIO2_HI + base) + PIO2_LO : (PIO2_HI - base) + PIO2_LO;
  }
  return copysign(r, y);
}

// The pi forms keep the exact results at the ends of their ranges (atanpi(inf) = 0.5, atan2pi(y, -y)
// = 0.75, acospi(-1) = 1: the CTS's math_edge_cases) by working in units of pi: what the angle adds
// to the quarter or half turn it starts from is divided by pi, and the turn is added exactly.
// r / pi with 1/pi in two parts; the sign of a zero r is kept.
static float overPi(float r) { return copysign(r * INV_PI_HI + r * INV_PI_LO, r); }

float __cl2vk_asinpi_f32(float x) {
  // From asin itself: 0.5 - (what asin subtracts from pi/2) / pi would lose a bit near |x| = 0.5.
  if (fabs(x) == 1.0f) return copysign(0.5f, x);
  return overPi(__cl2vk_asin_f32(x));
}

float __cl2vk_acospi_f32(float x) {
  float a = fabs(x);
  if (a <= 0.5f) return 0.5f - overPi(__cl2vk_asin_f32(x));  // acos(x) = pi/2 - asin(x)
  if (!(a <= 1.0f)) return as_float(0x7fc00000u);
  float hi;
  float lo = twiceAsinOfRoot((1.0f - a) * 0.5f, &hi);
  float turn = overPi(hi + lo);
  return x > 0.0f ? turn : 1.0f - turn;
}

float __cl2vk_atanpi_f32(float x) {
  float a = fabs(x);
  float r = a > 1.0f ? 0.5f - overPi(atanOfReciprocal(a)) : a == 1.0f ? 0.25f : overPi(atanUnit(a));
  return copysign(r, x);  // NaN stays NaN
}

// atan2pi(y, x) from `base`, atanpi of the smaller magnitude over the larger (in [0, 1/4]): the turn
// the quadrant and the diagonal it lies beyond start from, added exactly.
static float atan2piInQuadrant(float base, float y, float x, bool belowDiagonal) {
  float r;
  if (belowDiagonal) {
    r = signbit(x) ? 1.0f - base : base;
  } else {
    r = signbit(x) ? 0.5f + base : 0.5f - base;
  }
  return copysign(r, y);
}

float __cl2vk_atan2pi_f32(float y, float x) {
  if (isnan(x) || isnan(y)) return x + y;
  float ay = fabs(y), ax = fabs(x);
  float t = atan2Ratio(ay, ax);
  float base = t == 1.0f ? 0.25f : overPi(atanUnit(t));  // atan(1) is a quarter of pi exactly
  return atan2piInQuadrant(base, y, x, ay <= ax);
}

// ---- atan, atanpi, atan2 and atan2pi built on fma (Target::fusedLibraryForms)
//
// One polynomial over the whole of [0, 1] instead of three ranges: atan(t) = t + t u g(u), u = t^2,
// g of degree 8 fitted to (atan(t) / t - 1) / u (a Chebyshev fit with mpmath, error below 1.6e-8
// before its coefficients are rounded to float, a third of an ULP at t = 1), by fma. The pi forms
// fold 1/pi into g, and t / pi is formed as a pair by one fma (1/pi's second float joining it).
// Above 1 they take t = 1/a, whose reciprocal is corrected once by its fma residual (the driver's
// division may be 2.5 ULP off; the correction leaves half an ULP), and the quarter or half turn
// minus the angle. atan2's ratio is the smaller magnitude times the larger's reciprocal, corrected
// alike. Every float from 2^-30 to 2^60 tried against double references (below, t u g(u) is under
// 2^-60 t): atan 1.6 ULP, atanpi 1.6, with the division 3 ULP off too. NaN, infinities, |x| >= 2^60
// and atan2's operands beyond [2^-126, 2^126] (zeros, where the reciprocal would leave float's
// range) take the exact path.
static float atanFused(float t) {
  float u = t * t;
  float g =
      fma(fma(fma(fma(-0x1.38de56p-9f, u, 0x1.ba9f66p-7f), u, -0x1.25dc12p-5f), u, 0x1.0001c6p-4f), u, -0x1.6295f8p-4f);
  g = fma(fma(fma(fma(g, u, 0x1.c3f168p-4f), u, -0x1.246cd2p-3f), u, 0x1.99983cp-3f), u, -0x1.555554p-2f);
  return fma(t * u, g, t);
}

// atan(t) / pi for t in [0, 1].
static float atanpiFused(float t) {
  float u = t * t;
  float g = fma(fma(fma(fma(-0x1.8e5b48p-11f, u, 0x1.19c846p-8f), u, -0x1.76275ap-7f), u, 0x1.45f54ap-6f), u,
                -0x1.c37902p-6f);
  g = fma(fma(fma(fma(g, u, 0x1.1fb742p-5f), u, -0x1.7453c2p-5f), u, 0x1.04c18ep-4f), u, -0x1.b2995ep-4f);
  float hi = t * INV_PI_HI;
  float lo = fma(t, INV_PI_HI, -hi);
  return hi + fma(t * u, g, fma(t, INV_PI_LO, lo));
}

// 1/a within half an ULP and a little for a in [2^-126, 2^126].
static float reciprocalFused(float a) {
  float r = 1.0f / a;
  return fma(r, fma(-a, r, 1.0f), r);
}

float __cl2vk_atan_f32_fused(float x) {
  float a = fabs(x);
  if (!(a < 0x1p60f)) return __cl2vk_atan_f32(x);
  // atan(a) = pi/2 - atan(1/a) above 1.
  float r = a > 1.0f ? PIO2_HI + (PIO2_LO - atanFused(reciprocalFused(a))) : atanFused(a);
  return copysign(r, x);
}

float __cl2vk_atanpi_f32_fused(float x) {
  float a = fabs(x);
  if (!(a < 0x1p60f)) return __cl2vk_atanpi_f32(x);
  float r = a > 1.0f ? 0.5f - atanpiFused(reciprocalFused(a)) : a == 1.0f ? 0.25f : atanpiFused(a);
  return copysign(r, x);
}

// The smaller of |x| and |y| over the larger, within half an ULP and a little, for operands within
// the fused forms' range.
static float atan2RatioFused(float ay, float ax) {
  float small = min(ax, ay), large = max(ax, ay);
  float reciprocal = 1.0f / large;
  float q = small * reciprocal;
  return fma(fma(-q, large, small), reciprocal, q);
}

// Both magnitudes at most 2^126 (NaN fails) and the larger at least 2^-126.
static bool atan2InFusedRange(float ay, float ax) {
  return ax <= 0x1p126f && ay <= 0x1p126f && max(ax, ay) >= 0x1p-126f;
}

float __cl2vk_atan2_f32_fused(float y, float x) {
  float ay = fabs(y), ax = fabs(x);
  if (!atan2InFusedRange(ay, ax)) return __cl2vk_atan2_f32(y, x);
  float base = atanFused(atan2RatioFused(ay, ax));
  float r;
  if (ay <= ax) {
    r = signbit(x) ? PI_HI + (PI_LO - base) : base;
  } else {
    r = signbit(x) ? PIO2_HI + (PIO2_LO + base) : PIO2_HI + (PIO2_LO - base);
  }
  return copysign(r, y);
}

float __cl2vk_atan2pi_f32_fused(float y, float x) {
  float ay = fabs(y), ax = fabs(x);
  if (!atan2InFusedRange(ay, ax)) return __cl2vk_atan2pi_f32(y, x);
  float base = ax == ay ? 0.25f : atanpiFused(atan2RatioFused(ay, ax));  // atan(1) is a quarter of pi exactly
  return atan2piInQuadrant(base, y, x, ay <= ax);
}

// ---- asin, acos, asinpi and acospi built on fma (Target::fusedLibraryForms)
//
// One polynomial for both of asin's pieces: for |x| <= 1/2, z = x^2 and asin(x) = x + x z g(z);
// above, asin(a) = pi/2 - 2 asin(s) with s = sqrt(z), z = (1 - a) / 2 in (0, 1/4] (exact, one
// fma), and asin(s) = s + p with p = s z g(z) + c, c the square root's correction: s from the
// float InverseSqrt (within 2 ULP in Vulkan) as z rsqrt(z), c = (z - s^2) rsqrt(z) / 2 with the
// residual by fma, so that s + c is within 2^-40 of the root (no division, no square root). g, of
// degree 4, is fitted to (asin(s) - s) / (s z) over z in [0, 1/4] (weighted least squares with
// mpmath, error below 2^-27.3 of asin(s) with the coefficients rounded to float). Above 1/2 the
// result is K + m s + m p + L for a constant angle K + L (0, pi/2 or pi, as a float and the rest)
// and m = 2 or -2: K + m s by a fast two-sum, whose error joins m p + L, so that the result rounds
// about once. The pi forms fold 1/pi into g and take s / pi as a pair by fma (1/pi's second float
// joining it), c / pi with it. Every 7th float of [-1, 1] against double references, with the
// square root's seed 2 ULP off either way: asin 0.87 ULP, acos 0.92, asinpi 1.00 (0.91 for
// normal results; the pair s / pi loses its low part among the subnormals), acospi 0.79. |x| >= 1
// and NaN take the exact forms.
static float asinTailFused(float z) {
  return fma(fma(fma(fma(0x1.596d1cp-5f, z, 0x1.8c2848p-6f), z, 0x1.747e4ap-5f), z, 0x1.3301e4p-4f), z,
             0x1.5555c8p-3f);
}

// asinTailFused / pi.
static float asinpiTailFused(float z) {
  return fma(fma(fma(fma(0x1.b7cf70p-7f, z, 0x1.f86738p-8f), z, 0x1.da45f2p-7f), z, 0x1.86e4dap-6f), z,
             0x1.b299f0p-5f);
}

// sqrt(z) as the result plus *c (within 2^-40 of the root together) for z in [2^-25, 1/4].
static float rootFused(float z, float* c) {
  float y = rsqrt(z);
  float root = z * y;
  *c = fma(-root, root, z) * (0.5f * y);
  return root;
}

// K + m (s + p) + L rounded about once, for |K| > |m s| or K = 0 (m s exact).
static float addAngleFused(float k, float m, float s, float p, float l) {
  float hi = fma(m, s, k);
  float error = fma(m, s, k - hi);  // exact: k - hi is (Fast2Sum), and so is the sum
  return hi + (error + fma(m, p, l));
}

// s / pi as the result plus *lo.
static float overPiFused(float s, float* lo) {
  float q = s * INV_PI_HI;
  *lo = fma(s, INV_PI_LO, fma(s, INV_PI_HI, -q));
  return q;
}

// K + m (s + s z g + c) / pi, for g = asinpiTailFused(z) and |K| > |m s / pi|.
static float addAngleOverPiFused(float k, float m, float s, float z, float g, float c) {
  float qLo;
  float q = overPiFused(s, &qLo);
  float p = fma(s * z, g, fma(c, INV_PI_HI, qLo));
  float hi = fma(m, q, k);
  float error = fma(m, q, k - hi);
  return hi + fma(m, p, error);
}

float __cl2vk_asin_f32_fused(float x) {
  float a = fabs(x);
  if (!(a < 1.0f)) return __cl2vk_asin_f32(x);
  bool big = a > 0.5f;
  float z = big ? fma(-0.5f, a, 0.5f) : x * x;
  float g = asinTailFused(z);
  if (!big) return fma(x * z, g, x);  // zeros keep their sign
  float c;
  float s = rootFused(z, &c);
  return copysign(addAngleFused(PIO2_HI, -2.0f, s, fma(s * z, g, c), PIO2_LO), x);
}

float __cl2vk_acos_f32_fused(float x) {
  float a = fabs(x);
  if (!(a < 1.0f)) return __cl2vk_acos_f32(x);
  bool big = a > 0.5f;
  float z = big ? fma(-0.5f, a, 0.5f) : x * x;
  float g = asinTailFused(z);
  // acos(x) = pi/2 - asin(x) up to 1/2 (asin(x) rounded first, to at most half an ULP of the result),
  // 2 asin(s) above, pi - 2 asin(s) below -1/2.
  if (!big) return PIO2_HI + (PIO2_LO - fma(x * z, g, x));
  float c;
  float s = rootFused(z, &c);
  bool negative = x < 0.0f;
  return addAngleFused(negative ? PI_HI : 0.0f, negative ? -2.0f : 2.0f, s, fma(s * z, g, c), negative ? PI_LO : 0.0f);
}

float __cl2vk_asinpi_f32_fused(float x) {
  float a = fabs(x);
  if (!(a < 1.0f)) return __cl2vk_asinpi_f32(x);
  bool big = a > 0.5f;
  float z = big ? fma(-0.5f, a, 0.5f) : a * a;
  float g = asinpiTailFused(z);
  float r;
  if (big) {
    float c;
    float s = rootFused(z, &c);
    r = addAngleOverPiFused(0.5f, -2.0f, s, z, g, c);
  } else {
    float qLo;
    float q = overPiFused(a, &qLo);
    r = q + fma(a * z, g, qLo);
  }
  return copysign(r, x);
}

float __cl2vk_acospi_f32_fused(float x) {
  float a = fabs(x);
  if (!(a < 1.0f)) return __cl2vk_acospi_f32(x);
  bool big = a > 0.5f;
  float z = big ? fma(-0.5f, a, 0.5f) : x * x;
  float g = asinpiTailFused(z);
  if (!big) {  // 1/2 - asinpi(x), asinpi(x) rounded first
    float qLo;
    float q = overPiFused(x, &qLo);
    return 0.5f - (q + fma(x * z, g, qLo));
  }
  float c;
  float s = rootFused(z, &c);
  bool negative = x < 0.0f;
  return addAngleOverPiFused(negative ? 1.0f : 0.0f, negative ? -2.0f : 2.0f, s, z, g, c);
}
