// Reverses each work-group's slice through a __local array declared in the kernel body.
kernel void local_reverse(global const int* in, global int* out) {
  local int slice[256];
  size_t lid = get_local_id(0), size = get_local_size(0);
  slice[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = slice[size - 1 - lid];
}

// A __local struct declared in the kernel body, which llvm-spirv-15 writes with an undefined
// initializer: the first work-item of each group fills it, and every work-item reads it back.
typedef struct {
  uint group[3];
  uint size;
  ulong first;
} GroupInfo;

kernel void local_struct(global ulong* out) {
  local GroupInfo info;
  size_t lid = get_local_id(0);
  if (lid == 0) {
    for (int d = 0; d < 3; ++d) info.group[d] = (uint)get_group_id(d);
    info.size = (uint)get_local_size(0);
    info.first = get_global_id(0);
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  out[get_global_id(0)] = info.first + lid + (ulong)info.group[0] * 1000000 + (ulong)info.size * 1000000000;
}
