// sin, cos and tan for double, which GLSL.std.450 does not have, within OpenCL's bounds (4, 4 and 5
// ULP) for every argument. x is reduced to x - n pi/2 = r + rr (a double-double, |r| <= pi/4):
// below 2^20 by subtracting n pi/2 in four parts, the first three exact in n's range (Cody and
// Waite); above, by Payne and Hanek's method: the bits of 2/pi that matter for x's exponent,
// multiplied by x's significand in 64-bit integer arithmetic, give n mod 4 and the fraction to 128
// bits. sin and cos of r + rr are polynomials (tools/builtins/fit-polynomials.py).
// Each operation rounds as written (no fused multiply-add): the algorithms count on it.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "double_double.h"
#include "sin_cos_kernels_double.h"

// pi/2 as three 33-bit parts and the rest: n times each part is exact for n < 2^20.
#define PIO2_1 0x1.921fb54400000p+0
#define PIO2_2 0x1.0b4611a600000p-34
#define PIO2_3 0x1.3198a2e000000p-69
#define PIO2_4 0x1.b839a252049c1p-104
#define PIO2_HI 0x1.921fb54442d18p+0
#define PIO2_LO 0x1.1a62633145c07p-54
#define TWO_OVER_PI 0x1.45f306dc9c883p-1
#define PIO4 0x1.921fb54442d18p-1

// The bits of 2/pi after the binary point, 64 to a word, after a word of zeros (so that a window
// may start up to 64 bits before the point). 1280 bits cover x up to 2^1024.
static constant ulong kTwoOverPi[21] = {
    0x0000000000000000ul, 0xa2f9836e4e441529ul, 0xfc2757d1f534ddc0ul, 0xdb6295993c439041ul, 0xfe5163abdebbc561ul,
    0xb7246e3a424dd2e0ul, 0x06492eea09d1921cul, 0xfe1deb1cb129a73eul, 0xe88235f52ebb4484ul, 0xe99c7026b45f7e41ul,
    0x3991d639835339f4ul, 0x9c845f8bbdf9283bul, 0x1ff897ffde05980ful, 0xef2f118b5a0a6d1ful, 0x6d367ecf27cb09b7ul,
    0x4f463f669e5fea2dul, 0x7527bac7ebe5f17bul, 0x3d0739f78a5292eaul, 0x6bfb5fb11f8d5d08ul, 0x56033046fc7b6babul,
    0xf0cfbc209af4361dul};

// 64 bits of 2/pi starting at bit `first` after the point (bits before the point are 0).
static ulong twoOverPiBits(int first) {
  int position = first + 63;  // in the table, whose first word holds bits -63 to 0
  int word = position >> 6, shift = position & 63;
  ulong bits = kTwoOverPi[word] << shift;
  if (shift != 0) bits |= kTwoOverPi[word + 1] >> (64 - shift);
  return bits;
}

// Payne-Hanek for finite |x| >= 2^20: returns n mod 4 and x - n pi/2 as *r + *rr.
static int reduceLarge(double x, double* r, double* rr) {
  ulong bits = as_ulong(x);
  int e = (int)((bits >> 52) & 0x7ff) - 1023;
  ulong m = (bits & 0xffffffffffffful) | 0x10000000000000ul;  // x = m 2^(e - 52)
  // Bits of 2/pi before e - 53 multiply x into multiples of 4; 192 from there give the integer
  // part mod 4 and 190 bits of fraction: x 2/pi mod 4 = (m W mod 2^192) 2^-190.
  int first = e - 53;
  ulong w0 = twoOverPiBits(first), w1 = twoOverPiBits(first + 64), w2 = twoOverPiBits(first + 128);
  ulong p0 = m * w2;
  ulong carry = mul_hi(m, w2);
  ulong p1 = m * w1 + carry;
  ulong p2 = m * w0 + mul_hi(m, w1) + (p1 < carry ? 1ul : 0ul);
  int n = (int)(p2 >> 62);
  p2 &= 0x3ffffffffffffffful;
  // A fraction of a half or more counts from the next integer: f - 1 in [-1/2, 0).
  bool negative = (p2 >> 61) != 0;
  if (negative) {
    n += 1;
    // Two's complement of the 190-bit fraction (as 1 - f), the sign kept aside.
    p0 = ~p0 + 1ul;
    p1 = ~p1 + (p0 == 0 ? 1ul : 0ul);
    p2 = (~p2 + (p0 == 0 && p1 == 0 ? 1ul : 0ul)) & 0x3ffffffffffffffful;
  }
  // The leading 128 bits of the fraction, normalized; it is never below 2^-70 or so for doubles.
  int shift = 0;
  if (p2 == 0) {
    p2 = p1;
    p1 = p0;
    p0 = 0;
    shift += 64;
  }
  int lead = (int)clz(p2);
  ulong hi = lead == 0 ? p2 : (p2 << lead) | (p1 >> (64 - lead));
  ulong lo = lead == 0 ? p1 : (p1 << lead) | (p0 >> (64 - lead));
  shift += lead;
  // hi's top bit weighs 2^(1 - shift); f as two exact doubles of 53 bits each.
  double scale = as_double((ulong)(1023 + 1 - shift) << 52);
  double fHi = (double)(hi >> 11) * (scale * 0x1p-52);
  double fLo = (double)(((hi & 0x7fful) << 42) | (lo >> 22)) * (scale * 0x1p-105);
  // (fHi + fLo) pi/2 as a double-double.
  double error;
  double product = twoProduct(fHi, PIO2_HI, &error);
  error += fHi * PIO2_LO + fLo * PIO2_HI;
  double sum = product + error;
  double rest = error - (sum - product);
  if (negative) {
    sum = -sum;
    rest = -rest;
  }
  if (x < 0.0) {
    n = -n;
    sum = -sum;
    rest = -rest;
  }
  *r = sum;
  *rr = rest;
  return n & 3;
}

// n mod 4 and x - n pi/2 = *r + *rr, |*r| <= pi/4 (a little more for |x| near pi/4), finite x.
static int reduce(double x, double* r, double* rr) {
  double a = fabs(x);
  if (a <= PIO4) {
    *r = x;
    *rr = 0.0;
    return 0;
  }
  if (a >= 0x1p20) return reduceLarge(x, r, rr);
  double n = rint(x * TWO_OVER_PI);
  double head = x - n * PIO2_1;  // exact
  double e1, e2;
  double s = twoSum(head, -(n * PIO2_2), &e1);
  s = twoSum(s, -(n * PIO2_3), &e2);
  double tail = (e1 + e2) - n * PIO2_4;
  double sum = s + tail;
  *rr = tail - (sum - s);
  *r = sum;
  return (int)n & 3;
}

double __cl2vk_sin_f64(double x) {
  if (isnan(x) || isinf(x)) return as_double(0x7ff8000000000000ul);
  if (x == 0) return x;  // the reduction would lose a zero's sign
  double r, rr;
  switch (reduce(x, &r, &rr)) {
    case 0: return sinKernel(r, rr);
    case 1: return cosKernel(r, rr);
    case 2: return -sinKernel(r, rr);
    default: return -cosKernel(r, rr);
  }
}

double __cl2vk_cos_f64(double x) {
  if (isnan(x) || isinf(x)) return as_double(0x7ff8000000000000ul);
  double r, rr;
  switch (reduce(x, &r, &rr)) {
    case 0: return cosKernel(r, rr);
    case 1: return -sinKernel(r, rr);
    case 2: return -cosKernel(r, rr);
    default: return sinKernel(r, rr);
  }
}

double __cl2vk_tan_f64(double x) {
  if (isnan(x) || isinf(x)) return as_double(0x7ff8000000000000ul);
  if (x == 0) return x;  // the reduction would lose a zero's sign
  double r, rr;
  int n = reduce(x, &r, &rr);
  double s = sinKernel(r, rr), c = cosKernel(r, rr);
  return (n & 1) ? -c / s : s / c;
}

// ---- The forms built on fma (Target::fusedLibraryForms: a correctly rounded fma)
//
// Below 2^20, x - n pi/2 by three fma with pi/2 as PIO2_HI + PIO2_LO + PIO2_LO2 (159 bits), as
// trig_float.cl's forms do: PIO2_HI's last bit weighs 2^-52, so the first step is exact; the next
// two round once each at 2^-53 of a result within n |PIO2_LO2| < 2^-89 of the final r, which no
// double comes near (the closest any double comes to a multiple of pi/2 is about 2^-61); n = 0
// keeps x. r alone is then within an ULP and a half of x - n pi/2.
#define PIO2_LO2 -0x1.f1976b7ed8fbcp-110

static double reduceFused(double x, int* quadrant) {
  double n = rint(x * TWO_OVER_PI);
  *quadrant = (int)n & 3;
  return n == 0.0 ? x : fma(-n, PIO2_LO2, fma(-n, PIO2_LO, fma(-n, PIO2_HI, x)));
}

// The value for quadrant n (n + 1 for cos) of the kernels at r.
static double sinInQuadrant(double r, int n) {
  double value = (n & 1) ? cosKernel(r, 0.0) : sinKernel(r, 0.0);
  return (n & 2) ? -value : value;
}

double __cl2vk_sin_f64_fused(double x) {
  if (!(fabs(x) < 0x1p20)) return __cl2vk_sin_f64(x);
  if (x == 0) return x;  // the polynomial's fma would add -0 to +0
  int n;
  double r = reduceFused(x, &n);
  return sinInQuadrant(r, n);
}

double __cl2vk_cos_f64_fused(double x) {
  if (!(fabs(x) < 0x1p20)) return __cl2vk_cos_f64(x);
  int n;
  double r = reduceFused(x, &n);
  return sinInQuadrant(r, n + 1);
}

double __cl2vk_tan_f64_fused(double x) {
  if (!(fabs(x) < 0x1p20)) return __cl2vk_tan_f64(x);
  if (x == 0) return x;  // the polynomial's fma would add -0 to +0
  int n;
  double r = reduceFused(x, &n);
  double s = sinKernel(r, 0.0), c = cosKernel(r, 0.0);
  return (n & 1) ? -c / s : s / c;
}

double __cl2vk_sinpi_f64(double x) {
  return isnan(x) || isinf(x) ? as_double(0x7ff8000000000000ul) : sinCosPi(x, false);
}
double __cl2vk_cospi_f64(double x) {
  return isnan(x) || isinf(x) ? as_double(0x7ff8000000000000ul) : sinCosPi(x, true);
}
double __cl2vk_tanpi_f64(double x) {
  if (isnan(x) || isinf(x)) return as_double(0x7ff8000000000000ul);
  return sinCosPi(x, false) / sinCosPi(x, true);
}

// ---- sinpi, cospi and tanpi built on fma
//
// Below 2^29, x = n/2 + r exactly (n = rint(2x), |r| <= 1/4) as sinCosPi does, and pi r = hi + lo
// by one fma instead of Veltkamp's split (pi's second double times r joins lo), into the kernels'
// polynomials by fma. tanpi is a rational function of r (below) whose quotient comes from one
// reciprocal: the float reciprocal of the divisor (a relative error below 2^-21, the driver's
// division 2.5 ULP off included), one Newton step (below 2^-41), and the quotient from it
// corrected by its fma residual (within half an ULP and 2^-80 of the value), where a double
// division is a long subroutine on GPUs. r = 0 (x an integer or a half-integer, where the zeros'
// and infinities' signs matter), |x| >= 2^29 (beyond, n = rint(2x) may reach 2^31, which no int
// holds: NVIDIA converts it to INT_MAX, the wrong quadrant), NaN and infinities take the exact path.

// sinKernel and cosKernel (sin_cos_kernels_double.h) with their polynomials by fma: the same
// coefficients, each step rounded once instead of twice.
static double sinKernelFused(double r, double rr) {
  double z = r * r;
  double g = fma(fma(fma(0x1.9242a97f1788ep-49, z, -0x1.ae7c53a6d817ep-41), z, 0x1.61245fb4e98bbp-33), z,
                 -0x1.ae64567e730a8p-26);
  g = fma(fma(fma(fma(g, z, 0x1.71de3a556c2c8p-19), z, -0x1.a01a01a01a019p-13), z, 0x1.1111111111111p-7), z,
          -0x1.5555555555555p-3);
  return r + fma(r * z, g, fma(-0.5 * z, rr, rr));  // sin(r + rr) = sin r + rr cos r
}

static double cosKernelFused(double r, double rr) {
  double z = r * r;
  double g = fma(fma(fma(-0x1.65d2b1695ab9bp-53, z, 0x1.ae7ce8c282ac6p-45), z, -0x1.9397495431234p-37), z,
                 0x1.1eed8eff3362ep-29);
  g = fma(fma(fma(fma(g, z, -0x1.27e4fb7789d98p-22), z, 0x1.a01a01a01a019p-16), z, -0x1.6c16c16c16c17p-10), z,
          0x1.5555555555555p-5);
  double halfZ = 0.5 * z;
  double w = 1.0 - halfZ;
  // 1 - z/2 rounded to w, its rounding error recovered; cos(r + rr) = cos r - rr sin r.
  return w + (((1.0 - w) - halfZ) + fma(z * z, g, -r * rr));
}

// x = n/2 + r and pi r = the result + *lo, for finite |x| < 2^29 (n is converted to an int only
// then).
static double piTimesReduced(double x, double* n, double* r, double* lo) {
  *n = rint(2.0 * x);
  *r = x - 0.5 * *n;  // exact
  double hi = PI_HI * *r;
  *lo = fma(PI_LO, *r, fma(PI_HI, *r, -hi));
  return hi;
}

double __cl2vk_sinpi_f64_fused(double x) {
  double n, r, lo;
  double hi = piTimesReduced(x, &n, &r, &lo);
  if (!(fabs(x) < 0x1p29) || r == 0.0) return __cl2vk_sinpi_f64(x);
  int quadrant = (int)n;
  double value = (quadrant & 1) ? cosKernelFused(hi, lo) : sinKernelFused(hi, lo);
  return (quadrant & 2) ? -value : value;
}

double __cl2vk_cospi_f64_fused(double x) {
  double n, r, lo;
  double hi = piTimesReduced(x, &n, &r, &lo);
  if (!(fabs(x) < 0x1p29) || r == 0.0) return __cl2vk_cospi_f64(x);
  int quadrant = (int)n + 1;
  double value = (quadrant & 1) ? cosKernelFused(hi, lo) : sinKernelFused(hi, lo);
  return (quadrant & 2) ? -value : value;
}

// tan(pi r) for 0 < |r| <= 1/4 (-cot(pi r) where `odd`): r P(z) / Q(z) with z = r^2, P of degree 4
// and Q of degree 3 (a rational fit to tan(pi r) / r by iterated weighted least squares with
// mpmath, relative error 7.6e-18 with the coefficients rounded, P's constant term pi). r P(z) is
// the pair n + nLo (pi r by one fma, pi's second double joining the higher terms); the quotient of
// the reciprocal above is corrected by its fma residual, with nLo: 1.55 ULP over 3e6 inputs
// against MPFR, where the sin and cos kernels' quotient gave 2.19.
static double tanPiRational(double r, bool odd) {
  double z = r * r;
  double p = fma(fma(fma(fma(-0x1.17b3861902a05p-11, z, -0x1.14113ffc1acbep-5), z, 0x1.e89c05f1203adp-1), z,
                     -0x1.03f26ae694164p+2),
                 z, PI_LO);  // P(z) - PI_HI
  double hi = PI_HI * r;
  double lo = fma(r, p, fma(PI_HI, r, -hi));
  double n = hi + lo;
  double nLo = (hi - n) + lo;  // exact: |lo| < |hi|
  double d = fma(fma(fma(-0x1.f8246b25aeec3p-3, z, 0x1.323d39d5aa8b7p+1), z, -0x1.254b950511682p+2), z, 1.0);
  double numerator = odd ? d : n, divisor = odd ? -n : d;
  double reciprocal = (double)(1.0f / (float)divisor);
  reciprocal = fma(reciprocal, fma(-divisor, reciprocal, 1.0), reciprocal);
  double q = numerator * reciprocal;
  double residual = fma(-q, divisor, numerator) + (odd ? q * nLo : nLo);
  return fma(residual, reciprocal, q);
}

double __cl2vk_tanpi_f64_fused(double x) {
  double n = rint(2.0 * x);
  double r = x - 0.5 * n;  // exact
  if (!(fabs(x) < 0x1p29) || r == 0.0) return __cl2vk_tanpi_f64(x);
  // tan for even n, -cot for odd, the period being 1; -cot's divisor is at least about pi 2^-54 (r
  // is a multiple of x's last place, and |x| >= 1/4 where n is odd), in float's range.
  return tanPiRational(r, ((int)n & 1) != 0);
}
