// asin, acos, atan, atan2 and their pi forms for double, which GLSL.std.450 does not have: the
// algorithm of inverse_trig.cl with double constants and longer polynomials
// (tools/builtins/fit-polynomials.py).
// Each operation rounds as written (no fused multiply-add): the algorithms count on it.
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

// atan(f) for |f| <= 7/16: f + f u g(u) with u = f^2 (error of g below 2e-19).
static double atanPolynomial(double f) {
  double u = f * f;
  double g = -0x1.9a239e5a9c793p-7;
  g = g * u + 0x1.ddf4141252423p-6;
  g = g * u - 0x1.4ac2f13f00fb9p-5;
  g = g * u + 0x1.812dbb32976abp-5;
  g = g * u - 0x1.ae802f8797bc7p-5;
  g = g * u + 0x1.e1d23dd1aec1fp-5;
  g = g * u - 0x1.111090a2806b0p-4;
  g = g * u + 0x1.3b13abae16efbp-4;
  g = g * u - 0x1.745d171e3eb9fp-4;
  g = g * u + 0x1.c71c71c6740b1p-4;
  g = g * u - 0x1.24924924918e8p-3;
  g = g * u + 0x1.999999999998fp-3;
  g = g * u - 0x1.5555555555555p-2;
  return f + f * u * g;
}

// (asin(x) - x) / x^3 as a function of z = x^2, for z <= 1/4 (error below 1e-18).
static double asinRemainder(double z) {
  double g = 0x1.e529c6fce9bb4p-6;
  g = g * z - 0x1.3b416bb7d9257p-6;
  g = g * z + 0x1.406192d124629p-6;
  g = g * z + 0x1.8f193743418ffp-9;
  g = g * z + 0x1.31622469ce5adp-7;
  g = g * z + 0x1.3b49de7121487p-7;
  g = g * z + 0x1.7b027ee1dd585p-7;
  g = g * z + 0x1.c990ad3d8fdcap-7;
  g = g * z + 0x1.1c4efce23019fp-6;
  g = g * z + 0x1.6e8ba123e494cp-6;
  g = g * z + 0x1.f1c71c7a52ba3p-6;
  g = g * z + 0x1.6db6db6dac1e0p-5;
  g = g * z + 0x1.3333333333388p-4;
  return g * z + 0x1.5555555555555p-3;
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
