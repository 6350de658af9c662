// fmod for float and double, exact as OpenCL requires: the remainder of two floating-point
// numbers is representable, so it is computed on the integer significands by long division (a
// shift and an integer remainder per step) and rebuilt from its bits. No floating-point
// arithmetic touches the operands, so a device that flushes denormals still gets them right.
// Each operation rounds as written (no fused multiply-add): the algorithms count on it.
#pragma OPENCL FP_CONTRACT OFF
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

float __cl2vk_fmod_f32(float x, float y) {
  uint ux = as_uint(x), uy = as_uint(y);
  uint sign = ux & 0x80000000u;
  uint ax = ux & 0x7fffffffu, ay = uy & 0x7fffffffu;
  if (ax >= 0x7f800000u || ay > 0x7f800000u || ay == 0) return as_float(0x7fc00000u);  // NaN, inf, y == 0
  if (ax < ay) return x;                                                                  // y = inf included
  // Significands with the implicit bit, normalized to [2^23, 2^24) so that mx < 2 * my holds.
  int ex = (int)(ax >> 23), ey = (int)(ay >> 23);
  uint mx = ax & 0x7fffffu, my = ay & 0x7fffffu;
  if (ex == 0) {
    int shift = (int)clz(mx) - 8;
    mx <<= shift;
    ex = 1 - shift;
  } else {
    mx |= 0x800000u;
  }
  if (ey == 0) {
    int shift = (int)clz(my) - 8;
    my <<= shift;
    ey = 1 - shift;
  } else {
    my |= 0x800000u;
  }
  // Long division: up to 8 bits per step keep the shifted remainder below 2^32.
  uint r = mx % my;
  for (int left = ex - ey; left > 0 && r != 0;) {
    int step = min(left, 8);
    r = (r << step) % my;
    left -= step;
  }
  if (r == 0) return as_float(sign);
  // r * 2^(ey - 150): normalize, then a normal or a subnormal encoding (exact either way: the
  // remainder is a multiple of y's last place).
  int shift = (int)clz(r) - 8;
  r <<= shift;
  int e = ey - shift;
  if (e >= 1) return as_float(sign | ((uint)e << 23) | (r & 0x7fffffu));
  return as_float(sign | (r >> (1 - e)));
}

double __cl2vk_fmod_f64(double x, double y) {
  ulong ux = as_ulong(x), uy = as_ulong(y);
  ulong sign = ux & 0x8000000000000000ul;
  ulong ax = ux & 0x7ffffffffffffffful, ay = uy & 0x7ffffffffffffffful;
  if (ax >= 0x7ff0000000000000ul || ay > 0x7ff0000000000000ul || ay == 0) return as_double(0x7ff8000000000000ul);
  if (ax < ay) return x;
  // Significands normalized to [2^52, 2^53).
  int ex = (int)(ax >> 52), ey = (int)(ay >> 52);
  ulong mx = ax & 0xffffffffffffful, my = ay & 0xffffffffffffful;
  if (ex == 0) {
    int shift = (int)clz(mx) - 11;
    mx <<= shift;
    ex = 1 - shift;
  } else {
    mx |= 0x10000000000000ul;
  }
  if (ey == 0) {
    int shift = (int)clz(my) - 11;
    my <<= shift;
    ey = 1 - shift;
  } else {
    my |= 0x10000000000000ul;
  }
  // Up to 11 bits per step keep the shifted remainder below 2^64.
  ulong r = mx % my;
  for (int left = ex - ey; left > 0 && r != 0;) {
    int step = min(left, 11);
    r = (r << step) % my;
    left -= step;
  }
  if (r == 0) return as_double(sign);
  int shift = (int)clz(r) - 11;
  r <<= shift;
  int e = ey - shift;
  if (e >= 1) return as_double(sign | ((ulong)e << 52) | (r & 0xffffffffffffful));
  return as_double(sign | (r >> (1 - e)));
}

// ---- The forms built on fma (Target::fusedLibraryForms: a correctly rounded fma, the driver's)
//
// Where |x| / |y| < 2^18 and |y| lies in [2^-103, 2^126) (float; [2^-126, 2^126) for double),
// fmod is |x| - q |y| by one fma, exact. q is the integer part of the quotient raised by 2^-20 of
// itself: Vulkan bounds a division's error for such y by 2.5 ulp of a float, 2^-21.7 of it, so q
// is the true quotient's integer part or one more. |x| - q |y| is then a multiple of y's last
// place in [-|y|, |y|), representable (no more than 24 or 53 significant bits), so the fma rounds
// nothing, and a negative one plus |y| is exact too. It is never a denormal (y's last place is at
// least 2^-126), so a device that flushes denormals gets it right. Elsewhere the long division.

float __cl2vk_fmod_f32_fused(float x, float y) {
  uint ax = as_uint(x) & 0x7fffffffu, ay = as_uint(y) & 0x7fffffffu;
  bool quotientFits = ax < 0x7f800000u && (int)(ax >> 23) - (int)(ay >> 23) <= 17;
  if (ay < 0x0c000000u || ay >= 0x7e800000u || !quotientFits) return __cl2vk_fmod_f32(x, y);
  if (ax < ay) return x;  // a denormal x too, which the fma could flush
  float fx = as_float(ax), fy = as_float(ay);
  float q = trunc(fx / fy * 0x1.00001p+0f);
  float r = fma(-q, fy, fx);
  return copysign(r < 0.0f ? r + fy : r, x);
}

double __cl2vk_fmod_f64_fused(double x, double y) {
  ulong ax = as_ulong(x) & 0x7ffffffffffffffful, ay = as_ulong(y) & 0x7ffffffffffffffful;
  bool quotientFits = ax < 0x7ff0000000000000ul && (int)(ax >> 52) - (int)(ay >> 52) <= 17;
  if (ay < 0x3810000000000000ul || ay >= 0x47d0000000000000ul || !quotientFits) return __cl2vk_fmod_f64(x, y);
  if (ax < ay) return x;
  double fx = as_double(ax), fy = as_double(ay);
  double q = trunc(fx / fy * 0x1.00001p+0);
  double r = fma(-q, fy, fx);
  return copysign(r < 0.0 ? r + fy : r, x);
}

// remainder and remquo: x - n y with n the quotient rounded to nearest (ties to even), exact. The
// long division runs as for fmod, keeping the quotient's low 7 bits, then the remainder is
// reflected (r -> y - r, n + 1) when it is more than half of y. Division and remainder are written
// as a quotient and a multiply-subtract (clang -O2 turns a / and a % of the same operands into a
// freeze that llvm-spirv-15 cannot translate).

// remainder(x, y), with n's low 7 bits and the sign of x/y in *quotient (0 when the result is NaN
// or x itself for an infinite y).
// r * 2^(e - 150) with `sign`, for r below 2^24 and a multiple of the result's last place: a
// normal or a subnormal encoding, exact either way.
static float floatFromSignificand(uint sign, uint r, int e) {
  if (r == 0) return as_float(sign);
  int shift = (int)clz(r) - 8;
  r <<= shift;
  e -= shift;
  if (e >= 1) return as_float(sign | ((uint)e << 23) | (r & 0x7fffffu));
  return as_float(sign | (r >> (1 - e)));
}

static float remainderF32(float x, float y, int* quotient) {
  uint ux = as_uint(x), uy = as_uint(y);
  uint sign = ux & 0x80000000u;
  int quotientSign = ((ux ^ uy) & 0x80000000u) ? -1 : 1;
  uint ax = ux & 0x7fffffffu, ay = uy & 0x7fffffffu;
  *quotient = 0;
  if (ax >= 0x7f800000u || ay > 0x7f800000u || ay == 0) return as_float(0x7fc00000u);
  if (ay == 0x7f800000u) return x;
  int ex = (int)(ax >> 23), ey = (int)(ay >> 23);
  uint mx = ax & 0x7fffffu, my = ay & 0x7fffffu;
  if (ex == 0) {
    if (mx == 0) return x;  // x = 0
    int shift = (int)clz(mx) - 8;
    mx <<= shift;
    ex = 1 - shift;
  } else {
    mx |= 0x800000u;
  }
  if (ey == 0) {
    int shift = (int)clz(my) - 8;
    my <<= shift;
    ey = 1 - shift;
  } else {
    my |= 0x800000u;
  }
  if (ax < ay) {
    // n is 0 or 1: 1 when |x| is more than half of |y|, and then the result is |y| - |x|, exactly,
    // in integers (float arithmetic on denormals is flushed on some devices).
    int gap = ey - ex;
    if (gap >= 2 || (gap == 1 && mx <= my)) return x;  // a tie goes to the even n, 0
    *quotient = quotientSign;
    return floatFromSignificand(sign ^ 0x80000000u, (my << gap) - mx, ex);
  }
  uint n = mx >= my ? 1u : 0u;
  uint r = mx - n * my;
  for (int left = ex - ey; left > 0;) {
    int step = min(left, 8);
    uint shifted = r << step;
    uint digits = shifted / my;
    r = shifted - digits * my;
    n = ((n << step) + digits) & 0x7fu;
    left -= step;
  }
  if (2u * r > my || (2u * r == my && (n & 1u) != 0)) {
    r = my - r;
    sign ^= 0x80000000u;
    n = (n + 1u) & 0x7fu;
  }
  *quotient = quotientSign * (int)n;
  return floatFromSignificand(sign, r, ey);
}

float __cl2vk_remainder_f32(float x, float y) {
  int quotient;
  return remainderF32(x, y, &quotient);
}
float __cl2vk_remquo_f32(float x, float y) { return __cl2vk_remainder_f32(x, y); }
int __cl2vk_remquo_quotient_f32(float x, float y) {
  int quotient;
  remainderF32(x, y, &quotient);
  return quotient;
}

static double remainderF64(double x, double y, int* quotient) {
  ulong ux = as_ulong(x), uy = as_ulong(y);
  ulong sign = ux & 0x8000000000000000ul;
  int quotientSign = ((ux ^ uy) & 0x8000000000000000ul) ? -1 : 1;
  ulong ax = ux & 0x7ffffffffffffffful, ay = uy & 0x7ffffffffffffffful;
  *quotient = 0;
  if (ax >= 0x7ff0000000000000ul || ay > 0x7ff0000000000000ul || ay == 0) return as_double(0x7ff8000000000000ul);
  if (ay == 0x7ff0000000000000ul) return x;
  if (ax < ay) {
    double fx = as_double(ax), fy = as_double(ay);
    double rest = fy - fx;
    if (fx <= rest) return x;
    *quotient = quotientSign;
    return as_double(as_ulong(rest) | (sign ^ 0x8000000000000000ul));
  }
  int ex = (int)(ax >> 52), ey = (int)(ay >> 52);
  ulong mx = ax & 0xffffffffffffful, my = ay & 0xffffffffffffful;
  if (ex == 0) {
    int shift = (int)clz(mx) - 11;
    mx <<= shift;
    ex = 1 - shift;
  } else {
    mx |= 0x10000000000000ul;
  }
  if (ey == 0) {
    int shift = (int)clz(my) - 11;
    my <<= shift;
    ey = 1 - shift;
  } else {
    my |= 0x10000000000000ul;
  }
  ulong n = mx >= my ? 1ul : 0ul;
  ulong r = mx - n * my;
  for (int left = ex - ey; left > 0;) {
    int step = min(left, 11);
    ulong shifted = r << step;
    ulong digits = shifted / my;
    r = shifted - digits * my;
    n = ((n << step) + digits) & 0x7ful;
    left -= step;
  }
  if (2ul * r > my || (2ul * r == my && (n & 1ul) != 0)) {
    r = my - r;
    sign ^= 0x8000000000000000ul;
    n = (n + 1ul) & 0x7ful;
  }
  *quotient = quotientSign * (int)n;
  if (r == 0) return as_double(sign);
  int shift = (int)clz(r) - 11;
  r <<= shift;
  int e = ey - shift;
  if (e >= 1) return as_double(sign | ((ulong)e << 52) | (r & 0xffffffffffffful));
  return as_double(sign | (r >> (1 - e)));
}

double __cl2vk_remainder_f64(double x, double y) {
  int quotient;
  return remainderF64(x, y, &quotient);
}
double __cl2vk_remquo_f64(double x, double y) { return __cl2vk_remainder_f64(x, y); }
int __cl2vk_remquo_quotient_f64(double x, double y) {
  int quotient;
  remainderF64(x, y, &quotient);
  return quotient;
}
