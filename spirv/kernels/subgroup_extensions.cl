// The functions of the eight cl_khr_subgroup_* extensions, a few per extension, in uniform and
// non-uniform control flow (tests/icd/subgroup_extensions_test.cc runs every function and type).
// Needs OpenCL C 2.0 (clang-15 declares the extensions' functions from OpenCL C 2.0 on).
// Needs SPIR-V 1.3 (OpGroupNonUniform*).
kernel void subgroup_extensions(global const int* in, global int* out, global ulong* wide, global float* real) {
  size_t i = get_global_linear_id();
  int x = in[i];
  uint lane = get_sub_group_local_id();
  int r = sub_group_reduce_add((short)x) + sub_group_broadcast((char)x, 0);   // extended types
  r += sub_group_elect() + sub_group_non_uniform_all_equal(x);                 // non-uniform vote
  uint4 ballot = sub_group_ballot(x > 0);                                      // ballot
  r += sub_group_ballot_bit_count(ballot) + sub_group_ballot_find_msb(ballot) + sub_group_inverse_ballot(ballot);
  r += sub_group_ballot_exclusive_scan(ballot) + (int)get_sub_group_lt_mask().x;
  if (lane & 1) r += sub_group_non_uniform_scan_inclusive_mul(x);              // non-uniform arithmetic
  r += sub_group_shuffle(x, lane ^ 2u) + sub_group_shuffle_down(x, 1u);         // shuffle, relative
  r += sub_group_clustered_reduce_max(x, 4u);                                  // clustered reduce
  r += sub_group_rotate(x, 1) + sub_group_clustered_rotate(x, 3, 4u);          // rotate
  out[i] = r;
  wide[i] = sub_group_shuffle_xor(wide[i], 1u) + sub_group_clustered_reduce_add(wide[i], 2u);
  real[i] = sub_group_non_uniform_reduce_min(real[i]) + sub_group_rotate(real[i], 2);
}
