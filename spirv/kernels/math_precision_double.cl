// The double forms of math_precision.cl.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#define UNARY(f) \
  kernel void f##_f64(global const double* x, global const double* y, global double* r) { \
    size_t i = get_global_id(0); \
    r[i] = f(x[i]); \
  }
#define BINARY(f) \
  kernel void f##_f64(global const double* x, global const double* y, global double* r) { \
    size_t i = get_global_id(0); \
    r[i] = f(x[i], y[i]); \
  }

BINARY(fmod)
BINARY(remainder)
UNARY(asin)
UNARY(acos)
UNARY(atan)
BINARY(atan2)
UNARY(asinpi)
UNARY(acospi)
UNARY(atanpi)
BINARY(atan2pi)
UNARY(sin)
UNARY(cos)
UNARY(tan)
UNARY(sinpi)
UNARY(cospi)
UNARY(tanpi)
UNARY(logb)
UNARY(sqrt)
UNARY(rsqrt)
BINARY(hypot)
UNARY(erf)
UNARY(erfc)
UNARY(tgamma)
UNARY(lgamma)
BINARY(pow)
BINARY(powr)
UNARY(cbrt)
UNARY(asinh)
UNARY(acosh)
UNARY(atanh)
UNARY(exp)
UNARY(exp2)
UNARY(exp10)
UNARY(expm1)
UNARY(log)
UNARY(log2)
UNARY(log10)
UNARY(log1p)
UNARY(sinh)
UNARY(cosh)
UNARY(tanh)

// sincos writes cos through its pointer: r = sin, y (as output) = cos.
kernel void sincos_f64(global const double* x, global double* c, global double* r) {
  size_t i = get_global_id(0);
  r[i] = sincos(x[i], &c[i]);
}

// pown and rootn take their integer from y.
kernel void pown_f64(global const double* x, global const double* y, global double* r) {
  size_t i = get_global_id(0);
  r[i] = pown(x[i], (int)clamp(y[i], -2000.0, 2000.0));
}
kernel void rootn_f64(global const double* x, global const double* y, global double* r) {
  size_t i = get_global_id(0);
  r[i] = rootn(x[i], (int)clamp(y[i], -2000.0, 2000.0));
}
// pown, rootn and pow with any int, up to INT_MIN and INT_MAX (whose parity a float cannot hold).
kernel void int_powers_f64(global const double* x, global const int* n, global double* r) {
  size_t i = get_global_id(0);
  r[3 * i] = pown(x[i], n[i]);
  r[3 * i + 1] = rootn(x[i], n[i]);
  r[3 * i + 2] = pow(x[i], (double)n[i]);
}
kernel void ilogb_f64(global const double* x, global const double* y, global int* r) {
  size_t i = get_global_id(0);
  r[i] = ilogb(x[i]);
}
kernel void remquo_f64(global const double* x, global const double* y, global double* r, global int* q) {
  size_t i = get_global_id(0);
  r[i] = remquo(x[i], y[i], &q[i]);
}
kernel void lgamma_r_f64(global const double* x, global int* sign, global double* r) {
  size_t i = get_global_id(0);
  r[i] = lgamma_r(x[i], &sign[i]);
}
