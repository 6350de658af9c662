// A 64-bin histogram: each work-group counts into __local bins with local atomics, then adds
// them to the global bins with global atomics.
kernel void histogram(global const uchar* data, uint n, global uint* bins) {
  local uint counts[64];
  size_t lid = get_local_id(0);
  for (size_t b = lid; b < 64; b += get_local_size(0)) counts[b] = 0;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t i = get_global_id(0);
  if (i < n) atomic_inc(&counts[data[i] % 64]);
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t b = lid; b < 64; b += get_local_size(0)) atomic_add(&bins[b], counts[b]);
}
