// Helper functions taking pointers into global, local and private memory.
void accumulate(global int* dst, const int* values, int count) {
  int total = 0;
  for (int k = 0; k < count; ++k) total += values[k];
  *dst += total;
}

int load_twice(local const int* p, size_t at) { return p[at] * 2; }

kernel void helper_functions(global int* out) {
  local int shared[64];
  size_t lid = get_local_id(0);
  shared[lid] = (int)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  int mine[3] = {(int)lid, load_twice(shared, (lid + 1) % get_local_size(0)), 7};
  out[get_global_id(0)] = 0;
  accumulate(&out[get_global_id(0)], mine, 3);
}
