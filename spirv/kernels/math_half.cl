// The half functions GLSL.std.450 lacks (erf, erfc, tgamma, lgamma, sinpi, cospi, tanpi, logb,
// ilogb, remainder), which link-builtins computes with the builtin library's float functions;
// math_half_test.cc runs them over every half against MPFR.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

#define UNARY(name)                                                                    \
  kernel void name##_f16(global const half* x, global const half* y, global half* r) { \
    size_t i = get_global_id(0);                                                       \
    r[i] = name(x[i]);                                                                 \
  }

UNARY(erf)
UNARY(erfc)
UNARY(tgamma)
UNARY(lgamma)
UNARY(sinpi)
UNARY(cospi)
UNARY(tanpi)
UNARY(logb)

kernel void remainder_f16(global const half* x, global const half* y, global half* r) {
  size_t i = get_global_id(0);
  r[i] = remainder(x[i], y[i]);
}

kernel void ilogb_f16(global const half* x, global const half* y, global int* r) {
  size_t i = get_global_id(0);
  r[i] = ilogb(x[i]);
}
