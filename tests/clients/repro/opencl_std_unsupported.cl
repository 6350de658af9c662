// New cause (pyopencl.clmath): OpenCL.std functions that lower-opencl-std refuses for every float
// type, float included (not only the double ones of the known cause):
//   lower-opencl-std: %N = OpExtInst in function 'k': OpenCL.std <name> is not supported
// for cospi, sinpi, tanpi, erf, erfc, lgamma, lgamma_r, tgamma, logb, ilogb, remainder and remquo.
// Each kernel below is one of them; clBuildProgram of this file fails at the first.
// Measured the same way (clang-15 -O2 + llvm-spirv-15 + cl2vk-opt), the double forms of acos, acosh,
// acospi, asin, asinh, asinpi, atan, atanh, atanpi, atan2, atan2pi, cbrt, cos, cosh, exp, exp2,
// exp10, expm1, log, log2, log10, log1p, pow, powr, pown, rootn, sin, sincos, sinh, tan and tanh are
// refused as "not supported on 64-bit floats" (the known double-math cause, wider than
// sin/cos/exp/log).
__kernel void pi_scaled(__global float *o, __global const float *x) {
  size_t i = get_global_id(0);
  o[3 * i] = cospi(x[i]);
  o[3 * i + 1] = sinpi(x[i]);
  o[3 * i + 2] = tanpi(x[i]);
}

__kernel void error_and_gamma(__global float *o, __global const float *x) {
  size_t i = get_global_id(0);
  int sign;
  o[5 * i] = erf(x[i]);
  o[5 * i + 1] = erfc(x[i]);
  o[5 * i + 2] = lgamma(x[i]);
  o[5 * i + 3] = lgamma_r(x[i], &sign) * sign;
  o[5 * i + 4] = tgamma(x[i]);
}

__kernel void exponents_and_remainders(__global float *o, __global int *e, __global const float *x,
                                       __global const float *y) {
  size_t i = get_global_id(0);
  int quotient;
  o[3 * i] = logb(x[i]);
  e[2 * i] = ilogb(x[i]);
  o[3 * i + 1] = remainder(x[i], y[i]);
  o[3 * i + 2] = remquo(x[i], y[i], &quotient);
  e[2 * i + 1] = quotient;
}
