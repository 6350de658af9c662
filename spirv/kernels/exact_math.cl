// Math functions OpenCL defines exactly, or exactly at some inputs; exact_math_test.cc checks them
// bit for bit against the host: fma (correctly rounded, which GLSL.std.450's Fma need not be),
// frexp of denormals, and the pi forms of the inverse trigonometric functions where their result
// is a simple fraction. Float here; doubles in exact_math_double.cl, halves in exact_math_half.cl.

kernel void fma_f32(global const float* a, global const float* b, global const float* c, global float* r) {
  size_t i = get_global_id(0);
  r[i] = fma(a[i], b[i], c[i]);
}

// The same through 4-component vectors, and with a scalar addend.
kernel void fma_f32x4(global const float4* a, global const float4* b, global const float4* c, global float4* r) {
  size_t i = get_global_id(0);
  r[i] = fma(a[i], b[i], c[i]);
}

kernel void ldexp_f32(global const float* x, global const int* n, global float* r) {
  size_t i = get_global_id(0);
  r[i] = ldexp(x[i], n[i]);
}

kernel void half_exps_f32(global const float* x, global float* r) {
  size_t i = get_global_id(0);
  r[3 * i] = half_exp(x[i]);
  r[3 * i + 1] = half_exp2(x[i]);
  r[3 * i + 2] = half_exp10(x[i]);
}

kernel void frexp_f32(global const float* x, global float* mantissa, global int* exponent) {
  size_t i = get_global_id(0);
  mantissa[i] = frexp(x[i], exponent + i);
}

// r[4 i .. 4 i + 3] = asinpi(x), acospi(x), atanpi(x), atan2pi(x, y).
kernel void pi_forms_f32(global const float* x, global const float* y, global float* r) {
  size_t i = get_global_id(0);
  r[4 * i] = asinpi(x[i]);
  r[4 * i + 1] = acospi(x[i]);
  r[4 * i + 2] = atanpi(x[i]);
  r[4 * i + 3] = atan2pi(x[i], y[i]);
}

// r[3 i .. 3 i + 2] = nextafter(x, y), minmag(x, y), maxmag(x, y).
kernel void neighbours_f32(global const float* x, global const float* y, global float* r) {
  size_t i = get_global_id(0);
  r[3 * i] = nextafter(x[i], y[i]);
  r[3 * i + 1] = minmag(x[i], y[i]);
  r[3 * i + 2] = maxmag(x[i], y[i]);
}
