// OpenCL 2.0 generic pointers: a helper taking an unqualified pointer, called with global,
// local and private memory.
// Needs OpenCL C 2.0 (generic address space).
int sum3(const int* p) { return p[0] + p[1] + p[2]; }

kernel void generic_pointers(global const int* in, global int* out) {
  local int shared[64];
  size_t lid = get_local_id(0);
  shared[lid] = (int)lid * 10;
  barrier(CLK_LOCAL_MEM_FENCE);
  int mine[3] = {1, 2, (int)lid};
  size_t i = get_global_id(0);
  out[i] = sum3(&in[i]) + sum3(&shared[lid & ~(size_t)3]) + sum3(mine);
}

// get_fence of generic pointers into each space, through a helper and through a select that
// picks its space at run time: 2 (global), 1 (local), 0 (private), then 2 or 1 by the id.
uint fence_of(const int* p) { return get_fence(p); }

kernel void generic_fences(global int* in, global uint* out) {
  local int shared[4];
  int mine[2] = {1, (int)get_global_id(0)};
  shared[get_local_id(0) & 3] = mine[1];
  const int* either = (get_global_id(0) & 1) ? (const int*)in : (const int*)shared;
  size_t i = get_global_id(0) * 4;
  out[i + 0] = fence_of(in);
  out[i + 1] = fence_of(shared);
  out[i + 2] = fence_of(mine);
  out[i + 3] = get_fence(either);
}
