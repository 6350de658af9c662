// Every work-item function, written out per work-item (8 values each), for NDRanges with
// offsets and remainder work-groups.
// Needs OpenCL C 2.0 (get_global_linear_id, get_enqueued_local_size, get_local_linear_id).
kernel void work_item_functions(global uint* out) {
  size_t i = get_global_linear_id();
  global uint* o = out + i * 8;
  o[0] = (uint)get_local_id(0);
  o[1] = (uint)get_local_size(0);
  o[2] = (uint)get_group_id(0);
  o[3] = (uint)get_num_groups(0);
  o[4] = get_work_dim();
  o[5] = (uint)get_enqueued_local_size(0);
  o[6] = (uint)get_local_linear_id();
  o[7] = (uint)get_global_id(0);
}
