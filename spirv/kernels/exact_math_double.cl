// The double forms of exact_math.cl.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void fma_f64(global const double* a, global const double* b, global const double* c, global double* r) {
  size_t i = get_global_id(0);
  r[i] = fma(a[i], b[i], c[i]);
}

kernel void ldexp_f64(global const double* x, global const int* n, global double* r) {
  size_t i = get_global_id(0);
  r[i] = ldexp(x[i], n[i]);
}

kernel void frexp_f64(global const double* x, global double* mantissa, global int* exponent) {
  size_t i = get_global_id(0);
  mantissa[i] = frexp(x[i], exponent + i);
}

kernel void pi_forms_f64(global const double* x, global const double* y, global double* r) {
  size_t i = get_global_id(0);
  r[4 * i] = asinpi(x[i]);
  r[4 * i + 1] = acospi(x[i]);
  r[4 * i + 2] = atanpi(x[i]);
  r[4 * i + 3] = atan2pi(x[i], y[i]);
}

kernel void neighbours_f64(global const double* x, global const double* y, global double* r) {
  size_t i = get_global_id(0);
  r[3 * i] = nextafter(x[i], y[i]);
  r[3 * i + 1] = minmag(x[i], y[i]);
  r[3 * i + 2] = maxmag(x[i], y[i]);
}

kernel void rsqrt_f64(global const double* x, global double* r) {
  size_t i = get_global_id(0);
  r[i] = rsqrt(x[i]);
}
