// asin, acos, atan, atan2 and their pi forms for double, which GLSL.std.450 does not have: the
// algorithm of inverse_trig.cl with double constants and longer polynomials
// (tools/builtins/fit-polynomials.py).
// Each operation rounds as written (no fused multiply-add): the algorithms count on it.
#include "double_double.h"

#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

// pi/2, pi, pi/4, atan(1/2) and 1/pi as a double and the double nearest the rest.
#define PIO2_HI 0x1.921fb54442d18p+0
#define PIO2_LO 0x1.1a62633145c07p-54
#define PI_HI 0x1.921fb54442d18p+1
#define PI_LO 0x1.1a62633145c07p-53
#define PIO4_HI 0x1.921fb54442d18p-1
#define PIO4_LO 0x1.1a62633145c07p-55
#define ATAN_HALF_HI 0x1.dac670561bb4fp-2
#define ATAN_HALF_LO 0x1.a2b7f222f65e2p-56
#define INV_PI_HI 0x1.45f306dc9c883p-2
#define INV_PI_LO -0x1.6b01ec5417056p-56

// atan(f) = f + f u g(u) for |f| <= 7/16 and u = f^2, g's coefficients ATAN_G<i> of u^i (error of g
// below 2e-19).
#define ATAN_G0 -0x1.5555555555555p-2
#define ATAN_G1 0x1.999999999998fp-3
#define ATAN_G2 -0x1.24924924918e8p-3
#define ATAN_G3 0x1.c71c71c6740b1p-4
#define ATAN_G4 -0x1.745d171e3eb9fp-4
#define ATAN_G5 0x1.3b13abae16efbp-4
#define ATAN_G6 -0x1.111090a2806b0p-4
#define ATAN_G7 0x1.e1d23dd1aec1fp-5
#define ATAN_G8 -0x1.ae802f8797bc7p-5
#define ATAN_G9 0x1.812dbb32976abp-5
#define ATAN_G10 -0x1.4ac2f13f00fb9p-5
#define ATAN_G11 0x1.ddf4141252423p-6
#define ATAN_G12 -0x1.9a239e5a9c793p-7

static double atanPolynomial(double f) {
  double u = f * f;
  double g = ATAN_G12;
  g = g * u + ATAN_G11;
  g = g * u + ATAN_G10;
  g = g * u + ATAN_G9;
  g = g * u + ATAN_G8;
  g = g * u + ATAN_G7;
  g = g * u + ATAN_G6;
  g = g * u + ATAN_G5;
  g = g * u + ATAN_G4;
  g = g * u + ATAN_G3;
  g = g * u + ATAN_G2;
  g = g * u + ATAN_G1;
  g = g * u + ATAN_G0;
  return f + f * u * g;
}

// (asin(x) - x) / x^3 as a function of z = x^2, for z <= 1/4: ASIN_R<i> the coefficient of z^i
// (error below 1e-18).
#define ASIN_R0 0x1.5555555555555p-3
#define ASIN_R1 0x1.3333333333388p-4
#define ASIN_R2 0x1.6db6db6dac1e0p-5
#define ASIN_R3 0x1.f1c71c7a52ba3p-6
#define ASIN_R4 0x1.6e8ba123e494cp-6
#define ASIN_R5 0x1.1c4efce23019fp-6
#define ASIN_R6 0x1.c990ad3d8fdcap-7
#define ASIN_R7 0x1.7b027ee1dd585p-7
#define ASIN_R8 0x1.3b49de7121487p-7
#define ASIN_R9 0x1.31622469ce5adp-7
#define ASIN_R10 0x1.8f193743418ffp-9
#define ASIN_R11 0x1.406192d124629p-6
#define ASIN_R12 -0x1.3b416bb7d9257p-6
#define ASIN_R13 0x1.e529c6fce9bb4p-6

static double asinRemainder(double z) {
  double g = ASIN_R13;
  g = g * z + ASIN_R12;
  g = g * z + ASIN_R11;
  g = g * z + ASIN_R10;
  g = g * z + ASIN_R9;
  g = g * z + ASIN_R8;
  g = g * z + ASIN_R7;
  g = g * z + ASIN_R6;
  g = g * z + ASIN_R5;
  g = g * z + ASIN_R4;
  g = g * z + ASIN_R3;
  g = g * z + ASIN_R2;
  g = g * z + ASIN_R1;
  return g * z + ASIN_R0;
}

static double atanUnit(double t) {
  if (t < 0x1.cp-2) return atanPolynomial(t);
  if (t < 0x1.6p-1) return ATAN_HALF_HI + (ATAN_HALF_LO + atanPolynomial((2.0 * t - 1.0) / (2.0 + t)));
  return PIO4_HI + (PIO4_LO + atanPolynomial((t - 1.0) / (t + 1.0)));
}

// atan(1/a) for a > 1 with one division: atanUnit's ranges of 1/a, with their arguments formed
// from a itself ((2/a - 1) / (2 + 1/a) = (2 - a) / (2a + 1) and (1/a - 1) / (1/a + 1) =
// (1 - a) / (1 + a), whose numerators are exact) instead of from a rounded 1/a.
static double atanOfReciprocal(double a) {
  if (a > 16.0 / 7.0) return atanPolynomial(1.0 / a);
  if (a > 16.0 / 11.0) return ATAN_HALF_HI + (ATAN_HALF_LO + atanPolynomial((2.0 - a) / (2.0 * a + 1.0)));
  return PIO4_HI + (PIO4_LO + atanPolynomial((1.0 - a) / (1.0 + a)));
}

// 2 asin(sqrt(z)) for z in [0, 1/4] as *hi + the result; s_hi (sqrt(z) cut to 21 bits) squares
// exactly and c corrects it.
static double twiceAsinOfRoot(double z, double* hi) {
  double s = sqrt(z);
  double sHi = as_double(as_ulong(s) & 0xffffffff00000000ul);
  double c = z == 0.0 ? 0.0 : (z - sHi * sHi) / (s + sHi);
  *hi = 2.0 * sHi;
  return 2.0 * (c + s * z * asinRemainder(z));
}

double __cl2vk_asin_f64(double x) {
  double a = fabs(x);
  if (a <= 0.5) {
    double z = x * x;
    return x + x * z * asinRemainder(z);
  }
  if (!(a <= 1.0)) return as_double(0x7ff8000000000000ul);
  double hi;
  double lo = twiceAsinOfRoot((1.0 - a) * 0.5, &hi);
  return copysign((PIO2_HI - hi) + (PIO2_LO - lo), x);
}

double __cl2vk_acos_f64(double x) {
  double a = fabs(x);
  if (a <= 0.5) {
    double z = x * x;
    return PIO2_HI - (x - (PIO2_LO - x * z * asinRemainder(z)));
  }
  if (!(a <= 1.0)) return as_double(0x7ff8000000000000ul);
  double hi;
  double lo = twiceAsinOfRoot((1.0 - a) * 0.5, &hi);
  if (x > 0.0) return hi + lo;
  return (PI_HI - hi) + (PI_LO - lo);
}

double __cl2vk_atan_f64(double x) {
  double a = fabs(x);
  double r = a > 1.0 ? PIO2_HI + (PIO2_LO - atanOfReciprocal(a)) : atanUnit(a);
  return copysign(r, x);
}

// The ratio of the smaller of |x| and |y| to the larger (0/0 counts as 0, inf/inf as 1).
static double atan2Ratio(double ay, double ax) {
  return ay == 0.0 ? 0.0 : isinf(ax) && isinf(ay) ? 1.0 : min(ax, ay) / max(ax, ay);
}

double __cl2vk_atan2_f64(double y, double x) {
  if (isnan(x) || isnan(y)) return x + y;
  double ay = fabs(y), ax = fabs(x);
  double t = atan2Ratio(ay, ax);
  double base = atanUnit(t);
  double r;
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
static double overPi(double r) { return copysign(r * INV_PI_HI + r * INV_PI_LO, r); }

double __cl2vk_asinpi_f64(double x) {
  // From asin itself: 0.5 - (what asin subtracts from pi/2) / pi would lose a bit near |x| = 0.5.
  if (fabs(x) == 1.0) return copysign(0.5, x);
  return overPi(__cl2vk_asin_f64(x));
}

double __cl2vk_acospi_f64(double x) {
  double a = fabs(x);
  if (a <= 0.5) return 0.5 - overPi(__cl2vk_asin_f64(x));  // acos(x) = pi/2 - asin(x)
  if (!(a <= 1.0)) return as_double(0x7ff8000000000000ul);
  double hi;
  double lo = twiceAsinOfRoot((1.0 - a) * 0.5, &hi);
  double turn = overPi(hi + lo);
  return x > 0.0 ? turn : 1.0 - turn;
}

double __cl2vk_atanpi_f64(double x) {
  double a = fabs(x);
  double r = a > 1.0 ? 0.5 - overPi(atanOfReciprocal(a)) : a == 1.0 ? 0.25 : overPi(atanUnit(a));
  return copysign(r, x);  // NaN stays NaN
}

double __cl2vk_atan2pi_f64(double y, double x) {
  if (isnan(x) || isnan(y)) return x + y;
  double ay = fabs(y), ax = fabs(x);
  double t = atan2Ratio(ay, ax);
  double base = t == 1.0 ? 0.25 : overPi(atanUnit(t));  // atan(1) is a quarter of pi exactly
  double r;
  if (ay <= ax) {
    r = signbit(x) ? 1.0 - base : base;
  } else {
    r = signbit(x) ? 0.5 + base : 0.5 - base;
  }
  return copysign(r, y);
}

// ---- The forms built on fma (Target::fusedLibraryForms: a correctly rounded fma)
//
// No division and no square root: float's reciprocal and inverse square root (Vulkan: within 2.5
// and 2 ULP, 2^-21 with the argument's rounding to float) taken one Newton step further in double
// (2^-42), then the quotient or root corrected by its residual, which fma gives exactly. The
// polynomials are those above, by fma in two halves (even and odd powers) for a shorter chain; what
// is added to a constant angle (pi/2, pi, k pi/4; in the pi forms a quarter or half turn) comes as
// a head and a tail, the head added by Dekker's fast two-sum, so that each result rounds once but
// for tails of a few percent of it: within an ULP (MathPrecisionFusedForms). The rare arguments
// (|x| >= 1 for asin and acos, NaN, infinities, for atan magnitudes from 2^100, for atan2 operands
// whose magnitudes add up to more than 2^100 or less than 2^-100, or the smaller of which lies in
// (0, 2^-900)) take the forms above.

// The polynomials above with fma: g(u) = (even powers)(u^2) + u (odd powers)(u^2).
static double atanRemainderFused(double u) {
  double w = u * u;
  double even = fma(fma(fma(fma(fma(fma(ATAN_G12, w, ATAN_G10), w, ATAN_G8), w, ATAN_G6), w, ATAN_G4), w, ATAN_G2),
                    w, ATAN_G0);
  double odd = fma(fma(fma(fma(fma(ATAN_G11, w, ATAN_G9), w, ATAN_G7), w, ATAN_G5), w, ATAN_G3), w, ATAN_G1);
  return fma(u, odd, even);
}

static double asinRemainderFused(double z) {
  double w = z * z;
  double even = fma(fma(fma(fma(fma(fma(ASIN_R12, w, ASIN_R10), w, ASIN_R8), w, ASIN_R6), w, ASIN_R4), w, ASIN_R2),
                    w, ASIN_R0);
  double odd =
      fma(fma(fma(fma(fma(fma(ASIN_R13, w, ASIN_R11), w, ASIN_R9), w, ASIN_R7), w, ASIN_R5), w, ASIN_R3), w, ASIN_R1);
  return fma(z, odd, even);
}

// base + head + tail, the first sum's rounding error kept (Dekker: exact where |base| >= |head|
// or base = 0).
static double addToAngle(double base, double head, double tail) {
  double sum = base + head;
  return sum + (((base - sum) + head) + tail);
}

// (head + tail) / pi as the result + *tail, 1/pi in two parts and the product's error by fma.
static double overPiFused(double head, double tail, double* resultTail) {
  double result = head * INV_PI_HI;
  *resultTail = fma(head, INV_PI_LO, fma(tail, INV_PI_HI, fma(head, INV_PI_HI, -result)));
  return result;
}

// sqrt(z) for z in [2^-54, 1/2] as the result + *tail (to about 2^-80 of it): s and h = 1/(2s)
// from float's inverse square root, one Goldschmidt step (relative errors e to 1.5 e^2), then
// (z - s^2) h with z - s^2 by fma.
static double sqrtFused(double z, double* tail) {
  double y = (double)native_rsqrt((float)z);
  double s = z * y, h = 0.5 * y;
  double e = fma(-s, h, 0.5);
  s = fma(s, e, s);
  h = fma(h, e, h);
  *tail = fma(-s, s, z) * h;
  return s;
}

// asin(x) for 1/2 < |x| < 1 is pi/2 - 2 asin(s) with s = sqrt(z), z = (1 - |x|) / 2 (exact),
// and asin(s) = s + s z R(z): the root and the remainder as *head + the result, the root's tail
// in it. For |x| <= 1/2 the same with s = x, z = x^2.
static double asinTerms(double x, double* head) {
  double a = fabs(x);
  double s = x, sTail = 0.0, z;
  if (a > 0.5) {
    z = fma(-0.5, a, 0.5);
    s = sqrtFused(z, &sTail);
  } else {
    z = x * x;
  }
  *head = s;
  return fma((s + sTail) * z, asinRemainderFused(z), sTail);
}

double __cl2vk_asin_f64_fused(double x) {
  if (!(fabs(x) < 1.0)) return __cl2vk_asin_f64(x);
  double s;
  double tail = asinTerms(x, &s);
  double r = fabs(x) > 0.5 ? addToAngle(PIO2_HI, -2.0 * s, PIO2_LO - 2.0 * tail) : s + tail;
  return copysign(r, x);
}

// acos(x) = pi/2 - asin(x) for |x| <= 1/2, 2 asin(s) for x > 1/2 and pi - 2 asin(s) below -1/2.
double __cl2vk_acos_f64_fused(double x) {
  if (!(fabs(x) < 1.0)) return __cl2vk_acos_f64(x);
  double s;
  double tail = asinTerms(x, &s);
  if (x > 0.5) return 2.0 * s + 2.0 * tail;
  if (x < -0.5) return addToAngle(PI_HI, -2.0 * s, PI_LO - 2.0 * tail);
  return addToAngle(PIO2_HI, -s, PIO2_LO - tail);
}

double __cl2vk_asinpi_f64_fused(double x) {
  if (!(fabs(x) < 1.0)) return __cl2vk_asinpi_f64(x);
  double s;
  double tail = asinTerms(x, &s);
  double turnTail;
  double turn = overPiFused(s, tail, &turnTail);
  double r = fabs(x) > 0.5 ? addToAngle(0.5, -2.0 * turn, -2.0 * turnTail) : turn + turnTail;
  return copysign(r, x);
}

double __cl2vk_acospi_f64_fused(double x) {
  if (!(fabs(x) < 1.0)) return __cl2vk_acospi_f64(x);
  double s;
  double tail = asinTerms(x, &s);
  double turnTail;
  double turn = overPiFused(s, tail, &turnTail);
  if (x > 0.5) return 2.0 * turn + 2.0 * turnTail;
  if (x < -0.5) return addToAngle(1.0, -2.0 * turn, -2.0 * turnTail);
  return addToAngle(0.5, -turn, -turnTail);
}

// 1/d for d in [2^-101, 2^101] within 2^-42: float's reciprocal and a Newton step.
static double reciprocalFused(double d) {
  double r = (double)native_recip((float)d);
  return fma(r, fma(-d, r, 1.0), r);
}

// atan(ay / ax) for ay, ax >= 0 with ay + ax in [2^-100, 2^100], as *quarters pi/4 + the result +
// *tail. The ratio is reduced to t with |t| <= 7/16, as atanUnit does: ay / ax itself, (ay - ax) /
// (ay + ax) (a quarter) or -ax / ay (two), each operation's rounding error kept (twoSum; the sum's
// by Dekker), and t = q + qTail is the quotient by the reciprocal, refined once by its residual
// (2^-84 and a rounding) and its remainder over the divisor. atan(q + qTail) is then
// q + qTail (1 - q^2) + q^3 g(q^2).
static double atanOfRatioFused(double ay, double ax, double* quarters, double* tail) {
  double n = ay, d = ax, nTail = 0.0, dTail = 0.0;
  *quarters = 0.0;
  if (ax < 0.4375 * ay) {
    n = -ax;
    d = ay;
    *quarters = 2.0;
  } else if (!(ay <= 0.4375 * ax)) {
    n = twoSum(ay, -ax, &nTail);
    d = ay + ax;
    dTail = (max(ay, ax) - d) + min(ay, ax);
    *quarters = 1.0;
  }
  double r = reciprocalFused(d);
  double q0 = n * r;
  double q = fma(fma(-q0, d, n), r, q0);
  double qTail = (fma(-q, d, n) + fma(-q, dTail, nTail)) * r;
  double u = q * q;
  *tail = fma(q * u, atanRemainderFused(u), fma(-qTail, u, qTail));
  return q;
}

double __cl2vk_atan_f64_fused(double x) {
  double a = fabs(x);
  if (!(a < 0x1p100)) return __cl2vk_atan_f64(x);
  double quarters, tail;
  double head = atanOfRatioFused(a, 1.0, &quarters, &tail);
  return copysign(addToAngle(quarters * PIO4_HI, head, fma(quarters, PIO4_LO, tail)), x);  // 2 PIO4_HI is exact
}

double __cl2vk_atanpi_f64_fused(double x) {
  double a = fabs(x);
  if (!(a < 0x1p100)) return __cl2vk_atanpi_f64(x);
  double quarters, tail;
  double head = atanOfRatioFused(a, 1.0, &quarters, &tail);
  double turnTail;
  double turn = overPiFused(head, tail, &turnTail);
  return copysign(addToAngle(0.25 * quarters, turn, turnTail), x);
}

// atan2 from the angle of (|x|, |y|): itself for x >= +0, pi (four quarters) less it for x <= -0.
static double atan2Quarters(double y, double x, double* head, double* tail) {
  double quarters;
  *head = atanOfRatioFused(fabs(y), fabs(x), &quarters, tail);
  if (signbit(x)) {
    *head = -*head;
    *tail = -*tail;
    quarters = 4.0 - quarters;
  }
  return quarters;
}

// atanOfRatioFused's range, the smaller operand 0 or from 2^-900: a smaller one, the dividend, makes
// the quotient's residuals underflow (a subnormal dividend over 2^-84 was 48 ULP off).
static bool isOrdinaryAtan2(double y, double x) {
  double ay = fabs(y), ax = fabs(x);
  double sum = ay + ax, smaller = min(ay, ax);
  return sum >= 0x1p-100 && sum <= 0x1p100 && (smaller >= 0x1p-900 || smaller == 0.0);
}

double __cl2vk_atan2_f64_fused(double y, double x) {
  if (!isOrdinaryAtan2(y, x)) return __cl2vk_atan2_f64(y, x);
  double head, tail;
  double quarters = atan2Quarters(y, x, &head, &tail);
  double base = quarters * PIO4_HI;  // 3 PIO4_HI rounds: its error by fma
  double baseTail = fma(quarters, PIO4_HI, -base) + fma(quarters, PIO4_LO, tail);
  return copysign(addToAngle(base, head, baseTail), y);
}

double __cl2vk_atan2pi_f64_fused(double y, double x) {
  if (!isOrdinaryAtan2(y, x)) return __cl2vk_atan2pi_f64(y, x);
  double head, tail;
  double quarters = atan2Quarters(y, x, &head, &tail);
  double turnTail;
  double turn = overPiFused(head, tail, &turnTail);
  return copysign(addToAngle(0.25 * quarters, turn, turnTail), y);
}
