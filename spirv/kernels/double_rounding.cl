// Rounding doubles to whole numbers, the conversions that round, and sub-group broadcasts of
// computed floats: what llvmpipe got wrong, or could not compile, on a CPU without
// AVX-512 (tests/kernels/cpu_code_generation_test.cc).
// Needs OpenCL C 2.0 (clang-15 declares the extensions' functions from OpenCL C 2.0 on).
// Needs SPIR-V 1.3 (OpGroupNonUniformBroadcastFirst).
#pragma OPENCL EXTENSION cl_khr_fp64 : enable

kernel void double_rounding(global const double* in, global double* out, global long* whole) {
  size_t i = get_global_id(0);
  double x = in[i];
  double integral;
  out[8 * i] = rint(x);
  out[8 * i + 1] = trunc(x);
  out[8 * i + 2] = round(x);
  out[8 * i + 3] = floor(x);
  out[8 * i + 4] = ceil(x);
  out[8 * i + 5] = modf(x, &integral);
  out[8 * i + 6] = integral;
  out[8 * i + 7] = rint((double2)(-x, x)).x;
  whole[2 * i] = convert_long_sat_rte(x);
  whole[2 * i + 1] = convert_int_sat_rte(x);
}

// Floats computed from each work-item's value (narrowed from double, narrowed from a product,
// halved as float and broadcast as its bits) broadcast from its sub-group's first work-item, and
// widened again (LLVM failed only where the broadcast value went on to float arithmetic);
// `lanes` says where each work-item ran.
kernel void broadcast_first_of_computed(global const double* in, global double* out, global uint* lanes) {
  size_t i = get_global_id(0);
  out[3 * i] = sub_group_broadcast_first((float)in[i]);
  out[3 * i + 1] = sub_group_broadcast_first((float)(in[i] * 3.0));
  out[3 * i + 2] = as_float(sub_group_broadcast_first(as_uint((float)in[i] * 0.5f)));
  lanes[2 * i] = get_group_id(0) * get_num_sub_groups() + get_sub_group_id();
  lanes[2 * i + 1] = get_sub_group_local_id();
}
