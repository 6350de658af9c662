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

// get_fence of generic pointers into each space, through a helper and through a select that
// picks its space at run time: 2 (global), 1 (local), 0 (private), then 2 or 1 by the id.
uint fence_of(const int* p) { return get_fence(p); }

kernel void generic_fences(global int* in, global uint* out) {
  local int shared[4];
  int mine[2] = {1, (int)get_global_id(0)};
  shared[get_local_id(0) & 3] = mine[1];
  const int* either = (get_global_id(0) & 1) ? (const int*)in : (const int*)shared;
  size_t i = get_global_id(0) * 4;
  out[i + 0] = fence_of(in);
  out[i + 1] = fence_of(shared);
  out[i + 2] = fence_of(mine);
  out[i + 3] = get_fence(either);
}

// Generic pointers whose address space the path decides (tagged pointers, docs/decisions.md):
// one of a __global, a __local and a __private int as `path` says, read, written, cast back with
// to_global/to_local/to_private and asked its fence.
kernel void generic_by_path(global int* g, global const int* path, global int* out) {
  local int shared[64];
  int mine[4];
  size_t lid = get_local_id(0), i = get_global_id(0);
  shared[lid] = (int)lid * 3;
  for (int k = 0; k < 4; ++k) mine[k] = (int)i * 10 + k;
  barrier(CLK_LOCAL_MEM_FENCE);
  int* p;
  if (path[i] == 0)
    p = &g[i];
  else if (path[i] == 1)
    p = &shared[lid];
  else
    p = &mine[1];
  int before = p[0];
  p[0] = before + 1000;
  int kind = (to_global(p) ? 1 : 0) | (to_local(p) ? 2 : 0) | (to_private(p) ? 4 : 0);
  out[4 * i + 0] = before;
  out[4 * i + 1] = *p + (p == &shared[lid] ? 10000 : 0);
  out[4 * i + 2] = kind;
  out[4 * i + 3] = get_fence(p);
}

// A ternary between a __global and a __local array, indexed and compared after the choice.
kernel void generic_by_select(global const int* g, global int* out) {
  local int shared[64];
  size_t lid = get_local_id(0), i = get_global_id(0);
  shared[lid] = -(int)lid;
  barrier(CLK_LOCAL_MEM_FENCE);
  const int* base = (i & 1) ? g : (const int*)shared;
  size_t at = (i & 1) ? i : lid;
  const int* p = base + at;
  out[2 * i] = p[0] + 2 * *(base + at);
  out[2 * i + 1] = (int)(p - base) + (p == (const int*)&shared[lid] ? 1000 : 0);
}

// Atomics through a generic pointer into a __global or a __local counter, chosen per work-item.
kernel void generic_atomics(global atomic_int* counter, global int* out) {
  local atomic_int groupCount;
  size_t lid = get_local_id(0), i = get_global_id(0);
  if (lid == 0) atomic_init(&groupCount, 0);
  barrier(CLK_LOCAL_MEM_FENCE);
  atomic_int* p = (lid & 1) ? (atomic_int*)counter : (atomic_int*)&groupCount;
  int old = atomic_fetch_add_explicit(p, 1, memory_order_relaxed, memory_scope_device);
  barrier(CLK_LOCAL_MEM_FENCE | CLK_GLOBAL_MEM_FENCE);
  out[2 * i] = old;
  out[2 * i + 1] = atomic_load_explicit(&groupCount, memory_order_relaxed, memory_scope_work_group);
}

// Generic pointers kept in memory: in a private array of structs picked at run time, and in a
// __local array where the neighbouring work-item reads them.
typedef struct {
  int* at;
  int weight;
} Holder;

kernel void generic_in_memory(global int* g, global const int* path, global int* out) {
  local int shared[64];
  int* local slots[64];
  size_t lid = get_local_id(0), i = get_global_id(0);
  int mine = (int)i * 7;
  shared[lid] = (int)lid + 100;
  Holder held[3] = {{&g[i], 1}, {&shared[lid], 2}, {&mine, 3}};
  slots[lid] = (lid & 1) ? (int*)&g[i] : (int*)&shared[lid];
  barrier(CLK_LOCAL_MEM_FENCE);
  int* chosen = held[path[i]].at;
  int* neighbours = slots[lid ^ 1];
  out[3 * i] = *chosen * held[path[i]].weight;
  out[3 * i + 1] = *neighbours;
  out[3 * i + 2] = (to_local(neighbours) ? 1 : 0) | (to_private(chosen) ? 2 : 0);
}
