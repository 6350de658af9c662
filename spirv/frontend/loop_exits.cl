// Control flow that llvm-spirv-15 lays out with blocks ahead of their dominators: loops left
// early, nested loops with breaks, and a switch with a fall-through followed by a loop.

// Sums in[k] * k over the prefix before j for each j, stopping at a negative value, at a 7 (which
// makes the result -1) and, in the inner loop, at a value over 100.
kernel void early_exits(global const int* in, global int* out, int n) {
  int i = get_global_id(0);
  int limit = min(n, i + 1);
  int sum = 0;
  for (int j = 0; j < limit; ++j) {
    if (in[j] < 0) break;
    if (in[j] == 7) {
      sum = -1;
      break;
    }
    for (int k = 0; k < j; ++k) {
      if (in[k] > 100) break;
      sum += in[k] * k;
    }
  }
  out[i] = sum;
}

kernel void switch_then_loop(global const int* in, global int* out) {
  int i = get_global_id(0);
  int v = in[i];
  int r = 0;
  switch (v % 9) {
    case 0: r = v * 3; break;
    case 1: r = v + 11; break;
    case 2:
    case 3: r = -v; break;
    case 5: r = v << 2;  // falls through
    case 6: r += 1; break;
    default: r = 0;
  }
  while (r > 10) {
    if (r % 3 == 0) break;
    r -= 4;
  }
  out[i] = r;
}

// The first index in each row of a width x width matrix whose running sum passes the threshold,
// or -1: a search that leaves two loops at once.
kernel void first_over_threshold(global const int* matrix, global int* out, int width, int threshold) {
  int row = get_global_id(0);
  int found = -1;
  for (int pass = 0; pass < 2 && found < 0; ++pass) {
    int sum = 0;
    for (int column = 0; column < width; ++column) {
      sum += matrix[row * width + column] >> pass;
      if (sum > threshold) {
        found = column + pass * width;
        break;
      }
    }
  }
  out[row] = found;
}

// An endless loop left only from inside nested ifs: each work-item leaves at its own pass, and
// reads after the loop the value it loaded in that pass (a SIMD driver that recomputes the body
// for items that left must keep it in a merge phi; no block of the loop both dominates its
// continue target and decides whether to leave, so the phi's second edge comes from elsewhere).
kernel void nested_breaks(global const int* in, global int* out) {
  int i = get_global_id(0);
  int j = 0;
  int v;
  for (;;) {
    v = in[j] * 3 + i % 5;
    if (v > i) {
      if (in[j + 1] % 4 == 0) break;
    }
    ++j;
  }
  out[i] = v * 1000 + j;
}
