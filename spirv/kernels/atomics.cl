// Atomics on global and local memory, every read-modify-write, plus barriers with global and
// local fences and mem_fence.
kernel void atomics_global(global int* counters, global uint* bits) {
  int i = (int)get_global_id(0);
  atomic_add(&counters[0], i);
  atomic_sub(&counters[1], i);
  atomic_inc(&counters[2]);
  atomic_dec(&counters[3]);
  atomic_min(&counters[4], i - 100);
  atomic_max(&counters[5], i - 100);
  atomic_or(&bits[0], 1u << (i % 32));
  atomic_and(&bits[1], ~(1u << (i % 32)));
  atomic_xor(&bits[2], 1u << (i % 32));
  atomic_cmpxchg(&counters[6], i, i + 1);  // a chain: only the work-item whose id is current moves it on
  atomic_xchg(&counters[7], 42);
}

kernel void atomics_local(global int* out) {
  local int sum;
  local uint mask;
  if (get_local_id(0) == 0) {
    sum = 0;
    mask = 0;
  }
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_add(&sum, (int)get_local_id(0));
  atomic_or(&mask, 1u << (get_local_id(0) % 32));
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  if (get_local_id(0) == 0) {
    out[2 * get_group_id(0)] = sum;
    out[2 * get_group_id(0) + 1] = (int)mask;
  }
}

// Each work-item publishes a value, fences, and a neighbour in the same work-group reads it
// after the barrier.
kernel void fences(global int* data, global int* out) {
  size_t i = get_global_id(0);
  data[i] = (int)i * 3;
  mem_fence(CLK_GLOBAL_MEM_FENCE);
  barrier(CLK_GLOBAL_MEM_FENCE);
  size_t base = i - get_local_id(0);
  out[i] = data[base + (get_local_id(0) + 1) % get_local_size(0)];
}
