// Uses a construct cl2vk does not support; the translator must refuse it with a clear error: a
// struct holding a generic pointer copied whole, where generic pointers are tagged because their
// address space is decided at run time (tagged_pointers.h).
typedef struct {
  int* at;
  int weight;
} Holder;

kernel void generic_struct_copy(global int* g, global const int* path, global int* out) {
  local int shared[64];
  size_t lid = get_local_id(0), i = get_global_id(0);
  shared[lid] = (int)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  volatile Holder held[2] = {{&g[i], 1}, {&shared[lid], 2}};
  Holder chosen = held[path[i]];
  out[i] = *chosen.at * chosen.weight;
}
