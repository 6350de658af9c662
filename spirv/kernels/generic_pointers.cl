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
