// ilogb and logb for float and double, exact: the exponent read from the bits, subnormals by
// their leading bit. ilogb(0) is FP_ILOGB0 (INT_MIN), ilogb of NaN and infinity FP_ILOGBNAN and
// INT_MAX (both INT_MAX), as clang's OpenCL headers define them.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

int __cl2vk_ilogb_f32(float x) {
  uint bits = as_uint(x) & 0x7fffffffu;
  if (bits >= 0x7f800000u) return 0x7fffffff;
  if (bits == 0) return (int)0x80000000u;
  int e = (int)(bits >> 23);
  return e != 0 ? e - 127 : -118 - (int)clz(bits);  // a subnormal's top bit p weighs 2^(p - 149)
}

int __cl2vk_ilogb_f64(double x) {
  ulong bits = as_ulong(x) & 0x7ffffffffffffffful;
  if (bits >= 0x7ff0000000000000ul) return 0x7fffffff;
  if (bits == 0) return (int)0x80000000u;
  int e = (int)(bits >> 52);
  return e != 0 ? e - 1023 : -1011 - (int)clz(bits);
}

float __cl2vk_logb_f32(float x) {
  if (isnan(x)) return x;
  if (isinf(x)) return INFINITY;
  if (x == 0.0f) return -INFINITY;
  return (float)__cl2vk_ilogb_f32(x);
}

double __cl2vk_logb_f64(double x) {
  if (isnan(x)) return x;
  if (isinf(x)) return (double)INFINITY;
  if (x == 0.0) return -(double)INFINITY;
  return (double)__cl2vk_ilogb_f64(x);
}
