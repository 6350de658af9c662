// Collectives several in a row, in a loop, under a work-group-uniform branch, mixed with the
// kernel's own __local memory and barriers.
// Needs OpenCL C 2.0 (work-group functions).
kernel void collectives_mixed(global const int* in, global int* out, int rounds) {
  local int tile[256];
  size_t lid = get_local_id(0);
  int v = in[get_global_id(0)];
  int acc = 0;
  for (int r = 0; r < rounds; ++r) {
    v = work_group_scan_inclusive_add(v) % 1000;
    tile[lid] = v;
    barrier(CLK_LOCAL_MEM_FENCE);
    int neighbour = tile[(lid + 1) % get_local_size(0)];
    barrier(CLK_LOCAL_MEM_FENCE);
    if (rounds > 2)
      acc += work_group_reduce_max(neighbour);
    else
      acc += work_group_broadcast(neighbour, 0);
  }
  out[get_global_id(0)] = acc + work_group_reduce_add(v) + sub_group_reduce_min(v);
}
