// sin, cos and tan for float within OpenCL's bounds (4, 4 and 5 ULP) for every argument, where
// Vulkan promises an absolute 2^-11 in [-pi, pi] only: trig_double.cl's method in float and
// 32-bit integers (no double or 64-bit integer is needed). x - n pi/2 = r + rr: below 2^12 by
// subtracting pi/2 in four parts, the first three exact in n's range; above, by Payne and Hanek's
// method with 32-bit words of 2/pi.
#include "float_float.h"
#include "sin_cos_kernels_float.h"

// pi/2 as three 12-bit parts and the rest: n times each part is exact for n < 2^12.
#define PIO2_1 0x1.92p+0f
#define PIO2_2 0x1.fb4p-12f
#define PIO2_3 0x1.444p-24f
#define PIO2_4 0x1.68c234p-39f
#define PIO2_HI 0x1.921fb6p+0f
#define PIO2_LO -0x1.777a5cp-25f
#define TWO_OVER_PI 0x1.45f306p-1f
#define PIO4 0x1.921fb6p-1f

// The bits of 2/pi after the binary point, 32 to a word, after a word of zeros. 256 bits cover
// x up to 2^128.
static constant uint kTwoOverPi[9] = {0x00000000u, 0xa2f9836eu, 0x4e441529u, 0xfc2757d1u, 0xf534ddc0u,
                                      0xdb629599u, 0x3c439041u, 0xfe5163abu, 0xdebbc561u};

// 32 bits of 2/pi starting at bit `first` after the point (bits before the point are 0).
static uint twoOverPiBits(int first) {
  int position = first + 31;  // in the table, whose first word holds bits -31 to 0
  int word = position >> 5, shift = position & 31;
  uint bits = kTwoOverPi[word] << shift;
  if (shift != 0) bits |= kTwoOverPi[word + 1] >> (32 - shift);
  return bits;
}

// Payne-Hanek for finite |x| >= 2^12: returns n mod 4 and x - n pi/2 as *r + *rr.
static int reduceLarge(float x, float* r, float* rr) {
  uint bits = as_uint(x);
  int e = (int)((bits >> 23) & 0xff) - 127;
  uint m = (bits & 0x7fffffu) | 0x800000u;  // x = m 2^(e - 23)
  // Bits of 2/pi before e - 24 multiply x into multiples of 4; 96 from there give the integer
  // part mod 4 and 94 bits of fraction: x 2/pi mod 4 = (m W mod 2^96) 2^-94.
  int first = e - 24;
  uint w0 = twoOverPiBits(first), w1 = twoOverPiBits(first + 32), w2 = twoOverPiBits(first + 64);
  uint p0 = m * w2;
  uint carry = mul_hi(m, w2);
  uint p1 = m * w1 + carry;
  uint p2 = m * w0 + mul_hi(m, w1) + (p1 < carry ? 1u : 0u);
  int n = (int)(p2 >> 30);
  p2 &= 0x3fffffffu;
  bool negative = (p2 >> 29) != 0;  // a fraction of a half or more counts from the next integer
  if (negative) {
    n += 1;
    p0 = ~p0 + 1u;
    p1 = ~p1 + (p0 == 0 ? 1u : 0u);
    p2 = (~p2 + (p0 == 0 && p1 == 0 ? 1u : 0u)) & 0x3fffffffu;
  }
  int shift = 0;
  if (p2 == 0) {
    p2 = p1;
    p1 = p0;
    p0 = 0;
    shift += 32;
  }
  int lead = (int)clz(p2);
  uint hi = lead == 0 ? p2 : (p2 << lead) | (p1 >> (32 - lead));
  uint lo = lead == 0 ? p1 : (p1 << lead) | (p0 >> (32 - lead));
  shift += lead;
  // hi's top bit weighs 2^(1 - shift); f as two exact floats of 24 bits each.
  float scale = as_float((uint)(127 + 1 - shift) << 23);
  float fHi = (float)(hi >> 8) * (scale * 0x1p-23f);
  float fLo = (float)(((hi & 0xffu) << 16) | (lo >> 16)) * (scale * 0x1p-47f);
  float error;
  float product = twoProductF(fHi, PIO2_HI, &error);
  error += fHi * PIO2_LO + fLo * PIO2_HI;
  float sum = product + error;
  float rest = error - (sum - product);
  if (negative) {
    sum = -sum;
    rest = -rest;
  }
  if (x < 0.0f) {
    n = -n;
    sum = -sum;
    rest = -rest;
  }
  *r = sum;
  *rr = rest;
  return n & 3;
}

static int reduce(float x, float* r, float* rr) {
  float a = fabs(x);
  if (a <= PIO4) {
    *r = x;
    *rr = 0.0f;
    return 0;
  }
  if (a >= 0x1p12f) return reduceLarge(x, r, rr);
  float n = rint(x * TWO_OVER_PI);
  float head = x - n * PIO2_1;  // exact
  float e1, e2;
  float s = twoSumF(head, -(n * PIO2_2), &e1);
  s = twoSumF(s, -(n * PIO2_3), &e2);
  float tail = (e1 + e2) - n * PIO2_4;
  float sum = s + tail;
  *rr = tail - (sum - s);
  *r = sum;
  return (int)n & 3;
}

float __cl2vk_sin_f32(float x) {
  if (isnan(x) || isinf(x)) return as_float(0x7fc00000u);
  if (x == 0) return x;  // the reduction would lose a zero's sign
  float r, rr;
  switch (reduce(x, &r, &rr)) {
    case 0: return sinKernel(r, rr);
    case 1: return cosKernel(r, rr);
    case 2: return -sinKernel(r, rr);
    default: return -cosKernel(r, rr);
  }
}

float __cl2vk_cos_f32(float x) {
  if (isnan(x) || isinf(x)) return as_float(0x7fc00000u);
  float r, rr;
  switch (reduce(x, &r, &rr)) {
    case 0: return cosKernel(r, rr);
    case 1: return -sinKernel(r, rr);
    case 2: return -cosKernel(r, rr);
    default: return sinKernel(r, rr);
  }
}

float __cl2vk_tan_f32(float x) {
  if (isnan(x) || isinf(x)) return as_float(0x7fc00000u);
  if (x == 0) return x;  // the reduction would lose a zero's sign
  float r, rr;
  int n = reduce(x, &r, &rr);
  float s = sinKernel(r, rr), c = cosKernel(r, rr);
  return (n & 1) ? -c / s : s / c;
}

// ---- The forms built on fma (Target::fusedLibraryForms: a correctly rounded fma, the driver's)
//
// x - n pi/2 by Cody and Waite's method with fma, below 2^12: pi/2 as three floats, PIO2_HI +
// PIO2_LO + PIO2_LO2 (74 bits). PIO2_HI's last bit weighs 2^-23, so x - n PIO2_HI has no bit below
// x's or 2^-23 and is below 1 in magnitude: exact. The next two fma round once each, at 2^-24 of a
// result within n |PIO2_LO2| < 2^-37 of the final r, which is at least 2^-27.8 (the float below
// 2^12 closest to a multiple of pi/2 is 0x1.f9cbe2p+7, near 161 pi/2: every float from 1 to 2^12
// tried); the truncation of pi/2 adds n 2^-76. r alone (no second word) is then within an ULP and
// a half of x - n pi/2, and sin, cos and tan stay within OpenCL's 4, 4 and 5 ULP (measured with
// MPFR, MathPrecisionFusedForms). n = 0 keeps x itself, and its zero's sign. Above 2^12, and for
// NaN and infinities, the exact path.
#define PIO2_LO2 -0x1.ee59dap-50f

static float sinPolynomial(float r) {
  float z = r * r;
  float g = fma(fma(fma(0x1.6dbdeep-19f, z, -0x1.a013a8p-13f), z, 0x1.11110ep-7f), z, -0x1.555556p-3f);
  return fma(r * z, g, r);
}

static float cosPolynomial(float r) {
  float z = r * r;
  float g = fma(fma(fma(-0x1.25243cp-22f, z, 0x1.a015c4p-16f), z, -0x1.6c16c0p-10f), z, 0x1.555556p-5f);
  float halfZ = 0.5f * z;
  float w = 1.0f - halfZ;
  return w + fma(z * z, g, (1.0f - w) - halfZ);
}

// x - n pi/2 for finite x below 2^12 in magnitude, and n mod 4.
static float reduceFused(float x, int* quadrant) {
  float n = rint(x * TWO_OVER_PI);
  *quadrant = (int)n & 3;
  return n == 0.0f ? x : fma(-n, PIO2_LO2, fma(-n, PIO2_LO, fma(-n, PIO2_HI, x)));
}

// The value for quadrant n (n + 1 for cos) of the polynomials at r.
static float sinInQuadrant(float r, int n) {
  float value = (n & 1) ? cosPolynomial(r) : sinPolynomial(r);
  return (n & 2) ? -value : value;
}

float __cl2vk_sin_f32_fused(float x) {
  if (!(fabs(x) < 0x1p12f)) return __cl2vk_sin_f32(x);
  if (x == 0) return x;  // the polynomial's fma would add -0 to +0
  int n;
  float r = reduceFused(x, &n);
  return sinInQuadrant(r, n);
}

float __cl2vk_cos_f32_fused(float x) {
  if (!(fabs(x) < 0x1p12f)) return __cl2vk_cos_f32(x);
  int n;
  float r = reduceFused(x, &n);
  return sinInQuadrant(r, n + 1);
}

float __cl2vk_tan_f32_fused(float x) {
  if (!(fabs(x) < 0x1p12f)) return __cl2vk_tan_f32(x);
  if (x == 0) return x;  // the polynomial's fma would add -0 to +0
  int n;
  float r = reduceFused(x, &n);
  float s = sinPolynomial(r), c = cosPolynomial(r);
  return (n & 1) ? -c / s : s / c;
}

float __cl2vk_sinpi_f32(float x) { return isnan(x) || isinf(x) ? as_float(0x7fc00000u) : sinCosPi(x, false); }
float __cl2vk_cospi_f32(float x) { return isnan(x) || isinf(x) ? as_float(0x7fc00000u) : sinCosPi(x, true); }

// sinpi / cospi, whose zeros' signs give tanpi's: +-0 at integers, +-inf at half-integers.
float __cl2vk_tanpi_f32(float x) {
  if (isnan(x) || isinf(x)) return as_float(0x7fc00000u);
  return sinCosPi(x, false) / sinCosPi(x, true);
}

// ---- sinpi, cospi and tanpi built on fma
//
// Below 2^23, x = n/2 + r exactly (n = rint(2x), |r| <= 1/4), and sin(pi r), cos(pi r) are
// polynomials in r itself, fitted to sin(pi r) / r and cos(pi r) on |r| <= 1/4 (Chebyshev fits with
// mpmath, errors below 9e-10 and 3e-10 of the value before their coefficients are rounded to
// float), instead of the kernels at pi r formed as a float-float. sin: pi r = hi + lo exactly by
// one fma, pi's second float PI_LO joins the higher terms (at most a tenth of pi r) in lo: 0.74 ULP
// (0.88 just above 2^-126, where lo's last bits are denormals). cos: 1 - (pi^2/2) r^2 rounds to hi,
// its error recovered by a second fma, and r^2's own error (by fma too) and pi^2/2's second float
// join the higher terms: 0.55 ULP. Every float r in [0, 1/4] tried against sin and cos in double.
// tanpi: a rational function of r, below. r = 0 (x an integer or a half-integer, where the zeros'
// and infinities' signs matter), |x| >= 2^23, NaN and infinities take the exact path.
#define PI_SQUARED_HALF_HI 0x1.3bd3ccp+2f
#define PI_SQUARED_HALF_LO 0x1.37c8bcp-23f

static float sinPiPolynomial(float r) {
  float z = r * r;
  float q = fma(fma(fma(0x1.4cb762p-4f, z, -0x1.32ce1ep-1f), z, 0x1.466bc2p+1f), z, -0x1.4abbcep+2f);
  float hi = r * PI_HI;
  float lo = fma(r, PI_HI, -hi);
  return hi + fma(r, fma(z, q, PI_LO), lo);
}

static float cosPiPolynomial(float r) {
  float z = r * r;
  float zLo = fma(r, r, -z);
  float g = fma(fma(fma(-0x1.a2e2fep-6f, z, 0x1.e1f01ep-3f), z, -0x1.55d3c6p+0f), z, 0x1.03c1f0p+2f);
  float hi = fma(-PI_SQUARED_HALF_HI, z, 1.0f);
  float error = fma(-PI_SQUARED_HALF_HI, z, 1.0f - hi);  // 1 - hi is exact: hi is in [0.69, 1]
  return hi + fma(z * z, g, error - fma(PI_SQUARED_HALF_HI, zLo, PI_SQUARED_HALF_LO * z));
}

// sin(pi x) for quadrant n (n + 1 for cos) of r.
static float sinPiInQuadrant(float r, int n) {
  float value = (n & 1) ? cosPiPolynomial(r) : sinPiPolynomial(r);
  return (n & 2) ? -value : value;
}

float __cl2vk_sinpi_f32_fused(float x) {
  float n = rint(2.0f * x);
  float r = x - 0.5f * n;  // exact
  if (!(fabs(x) < 0x1p23f) || r == 0.0f) return __cl2vk_sinpi_f32(x);
  return sinPiInQuadrant(r, (int)n);
}

float __cl2vk_cospi_f32_fused(float x) {
  float n = rint(2.0f * x);
  float r = x - 0.5f * n;
  if (!(fabs(x) < 0x1p23f) || r == 0.0f) return __cl2vk_cospi_f32(x);
  return sinPiInQuadrant(r, (int)n + 1);
}

// tan(pi r) for 0 < |r| <= 1/4 (-cot(pi r) where `odd`): r P(z) / Q(z) with z = r^2, P of degree 2
// and Q of degree 2 (a rational fit to tan(pi r) / r by iterated weighted least squares with
// mpmath, relative error 1.6e-8 with the coefficients rounded to float, P's constant term pi). r
// P(z) is formed as sinPiPolynomial forms pi r, as the pair n + nLo; the quotient of one reciprocal
// is corrected by its fma residual, with nLo, so that the driver's division error is left out: 1.9
// ULP for tan and 1.3 for -cot over every float r (against double references, a division 3 ULP off
// included).
static float tanPiRational(float r, bool odd) {
  float z = r * r;
  float p = fma(fma(0x1.50cb0ap-2f, z, -0x1.b9f30ep+1f), z, PI_LO);  // P(z) - PI_HI
  float hi = r * PI_HI;
  float lo = fma(r, p, fma(r, PI_HI, -hi));
  float n = hi + lo;
  float nLo = (hi - n) + lo;  // exact: |lo| < |hi|
  float d = fma(fma(0x1.8e4496p+0f, z, -0x1.18e3d6p+2f), z, 1.0f);
  float numerator = odd ? d : n, divisor = odd ? -n : d;
  float reciprocal = 1.0f / divisor;
  float q = numerator * reciprocal;
  float residual = fma(-q, divisor, numerator) + (odd ? q * nLo : nLo);
  return fma(residual, reciprocal, q);
}

float __cl2vk_tanpi_f32_fused(float x) {
  float n = rint(2.0f * x);
  float r = x - 0.5f * n;
  if (!(fabs(x) < 0x1p23f) || r == 0.0f) return __cl2vk_tanpi_f32(x);
  // tan for even n, -cot for odd, the period being 1; -cot's divisor is at least about pi 2^-25 (r
  // is a multiple of x's last place, and |x| >= 1/4 where n is odd).
  return tanPiRational(r, ((int)n & 1) != 0);
}
