// An 8-component double vector, in a module of its own so that wide_vectors.cl builds on devices
// without double (SwiftShader).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void wide_double8(global const double8* a, global double8* out) {
  size_t i = get_global_id(0);
  double8 x = a[i];
  out[i] = fma(x, x, (double8)(0.25)) - copysign(floor(x), -x) + sqrt(fabs(x));
}
