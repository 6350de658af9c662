// 64-bit atomics on global memory (cl_khr_int64_base_atomics and extended_atomics).
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable
kernel void atomics64(global long* counters) {
  long i = (long)get_global_id(0);
  atom_add(&counters[0], i << 33);
  atom_max(&counters[1], i - 1000);
  atom_xor(&counters[2], (long)1 << (i % 64));
}
