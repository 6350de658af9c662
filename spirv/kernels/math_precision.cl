// One kernel per OpenCL.std function that math_precision_test measures against MPFR: r = f(x) or
// r = f(x, y), element by element.
#define UNARY(f) \
  kernel void f##_f32(global const float* x, global const float* y, global float* r) { \
    size_t i = get_global_id(0); \
    r[i] = f(x[i]); \
  }
#define BINARY(f) \
  kernel void f##_f32(global const float* x, global const float* y, global float* r) { \
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

// A vector call goes through the scalar library function per component.
kernel void fmod_float4(global const float4* x, global const float4* y, global float4* r) {
  size_t i = get_global_id(0);
  r[i] = fmod(x[i], y[i]);
}

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
UNARY(tgamma)
UNARY(lgamma)
UNARY(erf)
UNARY(erfc)
UNARY(exp)
UNARY(exp2)
UNARY(exp10)
UNARY(expm1)
UNARY(log)
UNARY(log2)
UNARY(log10)
UNARY(log1p)
BINARY(pow)
BINARY(powr)
UNARY(cbrt)
UNARY(sinh)
UNARY(cosh)
UNARY(tanh)
UNARY(asinh)
UNARY(acosh)
UNARY(atanh)

// pown and rootn take their integer from y.
kernel void pown_f32(global const float* x, global const float* y, global float* r) {
  size_t i = get_global_id(0);
  r[i] = pown(x[i], (int)clamp(y[i], -2000.0f, 2000.0f));
}
kernel void rootn_f32(global const float* x, global const float* y, global float* r) {
  size_t i = get_global_id(0);
  r[i] = rootn(x[i], (int)clamp(y[i], -2000.0f, 2000.0f));
}
// pown, rootn and pow with any int, up to INT_MIN and INT_MAX (whose parity a float cannot hold).
kernel void int_powers_f32(global const float* x, global const int* n, global float* r) {
  size_t i = get_global_id(0);
  r[3 * i] = pown(x[i], n[i]);
  r[3 * i + 1] = rootn(x[i], n[i]);
  r[3 * i + 2] = pow(x[i], convert_float_rte(n[i]));
}

// ilogb's int, for an exact comparison.
kernel void ilogb_f32(global const float* x, global const float* y, global int* r) {
  size_t i = get_global_id(0);
  r[i] = ilogb(x[i]);
}

// remquo's remainder in r and quotient bits in q.
kernel void remquo_f32(global const float* x, global const float* y, global float* r, global int* q) {
  size_t i = get_global_id(0);
  r[i] = remquo(x[i], y[i], &q[i]);
}

kernel void lgamma_r_f32(global const float* x, global int* sign, global float* r) {
  size_t i = get_global_id(0);
  r[i] = lgamma_r(x[i], &sign[i]);
}
