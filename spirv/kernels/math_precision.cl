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
