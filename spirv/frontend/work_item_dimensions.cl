// The work-item functions at dimension indexes beyond the last (3 and above): 1 for the sizes and
// the number of groups, 0 for the ids and the offset. llvm-spirv-15 writes each as a component of
// the builtin's three-component vector: for the constants 3 and 7 an out-of-bounds
// OpCompositeExtract, which SPIR-V's validator refuses; for the run-time `dim` an unchecked
// OpVectorExtractDynamic. Needs OpenCL C 2.0 (get_enqueued_local_size).
kernel void dimensions_beyond_three(global uint* out, uint dim) {
  global uint* o = out + get_global_linear_id() * 24;
  o[0] = (uint)get_global_size(dim);
  o[1] = (uint)get_global_id(dim);
  o[2] = (uint)get_local_size(dim);
  o[3] = (uint)get_local_id(dim);
  o[4] = (uint)get_num_groups(dim);
  o[5] = (uint)get_group_id(dim);
  o[6] = (uint)get_global_offset(dim);
  o[7] = (uint)get_enqueued_local_size(dim);
  o[8] = (uint)get_global_size(3);
  o[9] = (uint)get_global_id(3);
  o[10] = (uint)get_local_size(3);
  o[11] = (uint)get_local_id(3);
  o[12] = (uint)get_num_groups(3);
  o[13] = (uint)get_group_id(3);
  o[14] = (uint)get_global_offset(3);
  o[15] = (uint)get_enqueued_local_size(3);
  o[16] = (uint)get_global_size(7);
  o[17] = (uint)get_global_id(7);
  o[18] = (uint)get_local_size(7);
  o[19] = (uint)get_local_id(7);
  o[20] = (uint)get_num_groups(7);
  o[21] = (uint)get_group_id(7);
  o[22] = (uint)get_global_offset(7);
  o[23] = (uint)get_enqueued_local_size(7);
}
