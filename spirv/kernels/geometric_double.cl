// length, distance and normalize of double vectors of 1 to 4 components whose components span every
// exponent: OpenCL computes them without overflow or underflow in the sum of squares
// (tests/kernels/geometric_test.cc; geometric_float.cl, geometric_double.cl, geometric_half.cl).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
kernel void geometric_double(global const double* in, global double* lengths, global double* units) {
  size_t i = get_global_id(0);
  double4 v = vload4(i, in), w = vload4(i + 1, in);
  global double* l = lengths + 8 * i;
  l[0] = length(v.x);
  l[1] = length(v.xy);
  l[2] = length(v.xyz);
  l[3] = length(v);
  l[4] = distance(v.x, w.x);
  l[5] = distance(v.xy, w.xy);
  l[6] = distance(v.xyz, w.xyz);
  l[7] = distance(v, w);
  global double* u = units + 10 * i;
  u[0] = normalize(v.x);
  vstore2(normalize(v.xy), 0, u + 1);
  vstore3(normalize(v.xyz), 0, u + 3);
  vstore4(normalize(v), 0, u + 6);
}
