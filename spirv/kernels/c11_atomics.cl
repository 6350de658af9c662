// OpenCL C 2.0 atomics on global and local memory: atomic_int with the default (seq_cst) and
// explicit orders and scopes, atomic_load/atomic_store, strong and weak compare-exchange, and
// atomic_flag. Vulkan has no flag instructions, no weak exchange, and allows a load only Acquire
// and a store only Release ordering; each result checks one of those lowerings.
// Needs OpenCL C 2.0 (atomic types).
kernel void c11_atomics(global atomic_int* counters, global atomic_flag* flags, global int* out) {
  local atomic_int sum;
  local atomic_flag once;
  int lid = (int)get_local_id(0);
  if (lid == 0) {
    atomic_store_explicit(&sum, 0, memory_order_relaxed, memory_scope_work_group);
    atomic_flag_clear_explicit(&once, memory_order_relaxed, memory_scope_work_group);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  atomic_fetch_add(&sum, lid);
  // Exactly one work-item of each group finds the local flag clear.
  if (!atomic_flag_test_and_set_explicit(&once, memory_order_acq_rel, memory_scope_work_group))
    atomic_fetch_add_explicit(&counters[0], 1, memory_order_relaxed, memory_scope_device);
  // A weak compare-exchange loop adds 2 for every work-item. Relaxed: lavapipe (Mesa 22.3) runs a
  // memory barrier in a loop that work-items leave at different times as if it were a control
  // barrier and loses updates, whether the barrier is an ordered atomic's or an explicit fence
  // (docs/RELIABILITY.md); ordered_exchange_loop below has the ordered loop since cl2vk works around it.
  int seen = atomic_load_explicit(&counters[1], memory_order_relaxed);
#if __OPENCL_C_VERSION__ >= 300
  // Built into SPIR-V 1.4, where llvm-spirv 15 would write the weak exchange that 1.4 removed; the
  // corpus keeps to valid modules (the translator's acceptance of it has its own test).
  while (!atomic_compare_exchange_strong_explicit(&counters[1], &seen, seen + 2, memory_order_relaxed,
                                                  memory_order_relaxed)) {
  }
#else
  while (!atomic_compare_exchange_weak_explicit(&counters[1], &seen, seen + 2, memory_order_relaxed,
                                                memory_order_relaxed)) {
  }
#endif
  // Exactly one strong compare-exchange from 0 succeeds.
  int expected = 0;
  if (atomic_compare_exchange_strong(&counters[2], &expected, 7)) atomic_fetch_add(&counters[3], 1);
  // Exactly one work-item of the whole range finds the global flag clear.
  if (!atomic_flag_test_and_set(&flags[0])) atomic_fetch_add(&counters[4], 1);
  atomic_store(&counters[5], 9);
  atomic_flag_clear(&flags[1]);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) out[get_group_id(0)] = atomic_load_explicit(&sum, memory_order_acquire, memory_scope_work_group);
}

// A strong compare-exchange that releases when it succeeds and acquires when it fails (C17 allows
// the pair; the CTS's c11_atomics runs it), once per work-item, on local and global memory:
// exactly one work-item of each group, and one of the whole range, succeeds from 0.
kernel void exchange_release_acquire(global atomic_int* winner, global int* out) {
  local atomic_int owner;
  local atomic_int wins;
  int lid = (int)get_local_id(0);
  if (lid == 0) {
    atomic_store_explicit(&owner, 0, memory_order_relaxed, memory_scope_work_group);
    atomic_store_explicit(&wins, 0, memory_order_relaxed, memory_scope_work_group);
  }
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  int expected = 0;
  if (atomic_compare_exchange_strong_explicit(&owner, &expected, lid + 1, memory_order_release, memory_order_acquire,
                                              memory_scope_work_group))
    atomic_fetch_add_explicit(&wins, 1, memory_order_relaxed, memory_scope_work_group);
  int none = 0;
  atomic_compare_exchange_strong_explicit(&winner[0], &none, (int)get_global_id(0) + 1, memory_order_release,
                                          memory_order_acquire, memory_scope_device);
  work_group_barrier(CLK_LOCAL_MEM_FENCE);
  if (lid == 0) {
    out[2 * get_group_id(0)] = atomic_load_explicit(&wins, memory_order_relaxed, memory_scope_work_group);
    out[2 * get_group_id(0) + 1] = atomic_load_explicit(&owner, memory_order_relaxed, memory_scope_work_group);
  }
}

// Work-items of different work-groups hand each other data through a buffer under a flag, as the
// CTS's c11_atomics atomic_flag does: each work-item walks the sections in order, takes a section's
// flag with a relaxed test-and-set, and with an acquire fence at device scope reads whether another
// work-item already owns it; the first to find it unowned writes its id, and every holder lets go
// with a release fence and a relaxed clear. Every section gets exactly one owner only if each
// owner's write is visible to the next holder of the flag (NVIDIA served the read from a cache the
// write had not reached until the module took Vulkan's memory model), and lavapipe, which ran each
// fence as a work-group barrier, lost sections until its fences became atomics.
kernel void critical_sections(global atomic_flag* flags, global int* owners, int sections) {
  int id = (int)get_global_id(0);
  int stop = 0;
  for (int s = 0; !stop && s < sections; ++s) {
    bool taken = atomic_flag_test_and_set_explicit(&flags[s], memory_order_relaxed, memory_scope_device);
    atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_acquire, memory_scope_device);
    if (!taken) {
      if (owners[s] == -1) {
        owners[s] = id;
        stop = 1;
      }
      atomic_work_item_fence(CLK_GLOBAL_MEM_FENCE, memory_order_release, memory_scope_device);
      atomic_flag_clear_explicit(&flags[s], memory_order_relaxed, memory_scope_device);
    }
  }
}

// A compare-exchange loop at acq_rel that adds 2 for every work-item, which work-items leave at
// different times: lavapipe ran the barriers the order stands for as work-group barriers and the
// sum came out short (108 instead of 480 for 240 work-items in groups of 40) until its fences
// became atomics (Target::memoryBarriers).
kernel void ordered_exchange_loop(global atomic_int* sum) {
  int seen = atomic_load_explicit(sum, memory_order_relaxed);
  while (!atomic_compare_exchange_strong_explicit(sum, &seen, seen + 2, memory_order_acq_rel, memory_order_acquire)) {
  }
}
