// Loops whose coming iterations can be counted ahead, which unroll-loops runs several iterations
// per pass (tests/kernels/counted_loops_test.cc): grid-stride loops as CLBlast's dot product and
// reductions write them, with every trip count from none up, a stride counting down, an unsigned
// index that wraps past zero, an index that grows geometrically, a body that branches and one that
// stores, and values read after the loop.

// acc = sum of x[i] * (i & 7) over i = start + g, then + stride, while i < n; the index that ended
// the loop is written too.
kernel void strided_sum(global const int* x, global int* out, global int* last, int start, int n, int stride) {
  int g = get_global_id(0);
  int i = start + g;
  int acc = 0;
  while (i < n) {
    acc += x[i] * (i & 7);
    i += stride;
  }
  out[g] = acc;
  last[g] = i;
}

// Counting down to zero: each step folds one element into a running hash.
kernel void strided_down(global const int* x, global int* out, int from, int stride) {
  int g = get_global_id(0);
  int acc = 1;
  for (int i = from - g; i >= 0; i -= stride) acc = acc * 3 + x[i];
  out[g] = acc;
}

// An unsigned index that passes UINT_MAX and wraps to 0 on its way to `end`.
kernel void wrapping_index(global const uint* x, global uint* out, uint start, uint end, uint stride) {
  uint g = get_global_id(0);
  uint acc = 0;
  for (uint i = start + g; i != end; i += stride) acc = acc * 31u + x[i & 255u];
  out[g] = acc;
}

// The index doubles (plus one) each iteration.
kernel void geometric_index(global const uint* x, global uint* out, uint n) {
  uint g = get_global_id(0);
  uint acc = 0;
  for (uint i = g + 1; i < n; i = i * 2u + 1u) acc += x[i % 1000u] ^ i;
  out[g] = acc;
}

// A body that stores, with a load that only one side of a branch makes: y[i] += x[i], or z[i] too
// where x[i] is over the limit.
kernel void strided_update(global const float* x, global float* y, global const float* z, float limit, int n,
                           int stride) {
  for (int i = get_global_id(0); i < n; i += stride) {
    float v = x[i];
    if (v > limit) v += z[i];
    y[i] += v;
  }
}
