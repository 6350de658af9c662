// async_work_group_copy and async_work_group_strided_copy in both directions, with more elements
// than work-items, int and float4 elements, an event passed on to a second copy, one wait for two
// events, and prefetch.
kernel void async_copies(global const int* in, global int* out, global int* scattered, global const float4* vin,
                         global float4* vout, local int* tile, local float4* vtile) {
  int n = (int)get_local_size(0), g = (int)get_group_id(0), lid = (int)get_local_id(0);
  int groups = (int)get_num_groups(0);
  int m = 2 * n + 3;  // more elements than work-items, and not a multiple of them
  prefetch(in + g * m, (size_t)m);
  // The group's slice in, read back reversed.
  event_t e = async_work_group_copy(tile, in + g * m, (size_t)m, 0);
  wait_group_events(1, &e);
  for (int i = lid; i < m; i += n) out[g * m + i] = tile[m - 1 - i];
  barrier(CLK_LOCAL_MEM_FENCE);
  // Every groups-th element from the g-th in, changed, and out to the same places.
  event_t gather = async_work_group_strided_copy(tile, in + g, (size_t)m, (size_t)groups, 0);
  wait_group_events(1, &gather);
  for (int i = lid; i < m; i += n) tile[i] += 1000;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t scatter = async_work_group_strided_copy(scattered + g, tile, (size_t)m, (size_t)groups, 0);
  // Vectors in, joining the scatter's event; one wait for both.
  event_t vectors = async_work_group_copy(vtile, vin + g * n, (size_t)n, scatter);
  event_t both[2] = {scatter, vectors};
  wait_group_events(2, both);
  vtile[lid] *= 2.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  event_t back = async_work_group_copy(vout + g * n, vtile, (size_t)n, 0);
  wait_group_events(1, &back);
}
