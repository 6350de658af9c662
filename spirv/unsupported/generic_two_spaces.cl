// Uses a construct cl2vk does not support; the translator must refuse it with a clear error: a
// generic pointer into __global or __local memory as the path decides (Vulkan reaches the two
// through pointers of their own).
kernel void generic_two_spaces(global int* g, local int* l) {
  int* p = g + get_global_id(0);
  if (get_group_id(0) & 1) p = l;
  *p += 1;
}
