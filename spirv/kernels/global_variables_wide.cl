// Program-scope variables with 64-bit initializers (Needs OpenCL C 2.0): each literal is one
// operand of two words, whose high word was once dropped (a double 1234.0 started as 0, the CTS's
// c11_atomics atomic_exchange of a program-scope atomic_double).
global long big = 0x123456789abcdef0L;
global ulong2 pair = (ulong2)(0x100000001UL, 0xfedcba9800000000UL);
global long negative[2] = {-2L, -0x100000000L};

kernel void read_wide(global long* out) {
  out[0] = big;
  out[1] = (long)pair.x;
  out[2] = (long)pair.y;
  out[3] = negative[0];
  out[4] = negative[1];
}
