// Kernels whose __private arrays move to the private scratch buffer under a small private memory
// budget (move-private-arrays; tests/kernels/private_scratch_test.cc sets the budget). Here, not in
// kernels/, because llvm-spirv-15 writes the exits of their loops ahead of the loops at -O1 and
// above (repair-llvm-spirv puts the blocks in order).

// Two arrays that one pointer chooses between (a select, at -O0 a phi): they move together.
kernel void chosen_array(global const uint* in, global uint* out) {
  size_t i = get_global_id(0) + get_global_size(0) * get_global_id(1);
  uint a[300], b[300];
  for (int w = 0; w < 300; ++w) {
    a[w] = in[(i + w) % 1024];
    b[w] = a[w] * 3u + (uint)w;
  }
  uint* p = (i & 1) ? a : b;
  uint s = 0;
  for (int w = 0; w < 300; w += 7) s = s * 31u + p[w];
  out[i] = s;
}

// A 128 KB array touched at eight places that `at` gives: launched over more work-items than one
// dispatch's scratch holds, so the launch runs as several dispatches.
kernel void sparse_large_array(global const uint* at, global uint* out) {
  size_t i = get_global_id(0);
  uint words[32768];
  for (int k = 0; k < 8; ++k) words[(at[k] + i) % 32768u] = (uint)i * 8u + (uint)k;
  uint s = 0;
  for (int k = 0; k < 8; ++k) s = s * 131u + words[(at[7 - k] + i) % 32768u];
  out[i] = s;
}

// A struct array with a byte view of it, and an array kept in Function memory beside it.
typedef struct {
  uint key;
  uchar tag[12];
} Entry;

kernel void entries_and_bytes(global const uint* in, global uint* out) {
  size_t i = get_global_id(0);
  Entry entries[80];
  uint small[4] = {1, 2, 3, 4};
  for (int e = 0; e < 80; ++e) {
    entries[e].key = in[(i * 7 + e) % 1024];
    for (int t = 0; t < 12; ++t) entries[e].tag[t] = (uchar)(e + t + i);
  }
  uchar* bytes = (uchar*)entries;
  uint s = small[i % 4];
  for (int b = 0; b < 80 * 16; b += 5) s = s * 3u + bytes[b];
  out[i] = s;
}
