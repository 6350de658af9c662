// Reverses each work-group's slice through a __local array declared in the kernel body.
kernel void local_reverse(global const int* in, global int* out) {
  local int slice[256];
  size_t lid = get_local_id(0), size = get_local_size(0);
  slice[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = slice[size - 1 - lid];
}
