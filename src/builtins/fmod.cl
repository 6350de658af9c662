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
