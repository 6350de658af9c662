// Half math functions, which link-builtins computes with the builtin library's float functions
// on widened operands; math_half_test.cc runs them over every half against MPFR.
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
UNARY(sin)
UNARY(cos)
UNARY(tan)
UNARY(asin)
UNARY(acos)
UNARY(atan)
UNARY(sinh)
UNARY(cosh)
UNARY(tanh)
UNARY(cbrt)
UNARY(exp)
UNARY(exp2)
UNARY(exp10)
UNARY(expm1)
UNARY(log)
UNARY(log2)
UNARY(log10)
UNARY(log1p)

#define BINARY(name)                                                                   \
  kernel void name##_f16(global const half* x, global const half* y, global half* r) { \
    size_t i = get_global_id(0);                                                       \
    r[i] = name(x[i], y[i]);                                                           \
  }

BINARY(fmod)
BINARY(pow)
BINARY(atan2)
BINARY(hypot)

kernel void remainder_f16(global const half* x, global const half* y, global half* r) {
  size_t i = get_global_id(0);
  r[i] = remainder(x[i], y[i]);
}

kernel void ilogb_f16(global const half* x, global const half* y, global int* r) {
  size_t i = get_global_id(0);
  r[i] = ilogb(x[i]);
}

// x / y, correctly rounded (full-range-division), scalars and 3-component vectors.
kernel void divide_f16(global const half* x, global const half* y, global half* r) {
  size_t i = get_global_id(0);
  r[i] = x[i] / y[i];
}

kernel void divide_f16x3(global const half* x, global const half* y, global half* r) {
  size_t i = get_global_id(0);
  vstore3(vload3(i, x) / vload3(i, y), i, r);
}

kernel void divide_f16x16(global const half* x, global const half* y, global half* r) {
  size_t i = get_global_id(0);
  vstore16(vload16(i, x) / vload16(i, y), i, r);
}
