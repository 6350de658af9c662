// A 64-bit atomic store as a kernel's only 64-bit atomic (the capability it needs is found from
// the stored value: a store has no result type). Needs OpenCL C 2.0 (atomic_store). Named
// atomics64* like atomics64.cl: SPIRV-Tools' OpenCL profiles reject the Int64Atomics capability,
// so the corpus tests check such modules against SPIR-V's core rules only.
#pragma OPENCL EXTENSION cl_khr_int64_base_atomics : enable
#pragma OPENCL EXTENSION cl_khr_int64_extended_atomics : enable

kernel void atomic_store64(global atomic_long* slots) {
  size_t i = get_global_id(0);
  atomic_store_explicit(&slots[i], (long)i * 0x100000001L - 7, memory_order_relaxed, memory_scope_device);
}
