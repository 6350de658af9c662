// The half forms of exact_math.cl.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

kernel void fma_f16(global const half* a, global const half* b, global const half* c, global half* r) {
  size_t i = get_global_id(0);
  r[i] = fma(a[i], b[i], c[i]);
}

kernel void ldexp_f16(global const half* x, global const int* n, global half* r) {
  size_t i = get_global_id(0);
  r[i] = ldexp(x[i], n[i]);
}

kernel void frexp_f16(global const half* x, global half* mantissa, global int* exponent) {
  size_t i = get_global_id(0);
  int e;
  mantissa[i] = frexp(x[i], &e);
  exponent[i] = e;
}
