// Loops with break and continue, a nested loop with an early exit, and an early return.
kernel void control_flow(global const int* in, global int* out, int n) {
  size_t i = get_global_id(0);
  int acc = 0;
  for (int j = 0; j < n; ++j) {
    int v = in[(i + j) % 64];
    if (v < 0) break;
    if (v % 3 == 0) continue;
    for (int k = 0; k < v; ++k) {
      if (k * k > v) break;
      acc += k;
    }
    acc += v;
  }
  if (acc > 5000) {
    out[i] = -1;
    return;
  }
  out[i] = acc;
}
