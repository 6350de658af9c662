// Double precision arithmetic and a few builtins.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void doubles(global const double* in, global double* out) {
  size_t i = get_global_id(0);
  double x = in[i];
  out[4 * i] = x * 3.0 + 0.5;
  out[4 * i + 1] = sqrt(fabs(x));
  out[4 * i + 2] = floor(x) - ceil(x);
  out[4 * i + 3] = (double)(long)x;
}
