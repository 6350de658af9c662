// NULL __global pointers: an argument that may be NULL is tested before use, and a pointer chosen
// between a buffer and NULL is compared with NULL. Vulkan has no null PhysicalStorageBuffer
// pointer constant, so the translator makes NULL the address 0.
kernel void null_pointers(global int* out, global const int* maybe_null, int fallback) {
  size_t i = get_global_id(0);
  global const int* chosen = (i % 2 == 0) ? maybe_null : 0;
  int value = fallback;
  if (chosen != 0) value = chosen[i];
  out[i] = maybe_null ? value + 1 : value - 1;
}
