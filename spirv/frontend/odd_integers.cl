// Integers of odd widths (docs/frontend.md). clang-15 -O2 narrows `switch (x & 3)` to an i2 and
// `switch (x & 0xf)` to an i4; _BitInt(N) gives the same LLVM types at every optimisation level,
// in arithmetic, conversions and memory, for widen-odd-integers to widen. (No switch here:
// llvm-spirv-15 aborts on an odd-width switch under SPV_INTEL_arbitrary_precision_integers, so
// the runtime's source compiler widens those in the LLVM IR; tests/icd covers them.)
// Needs SPV_INTEL_arbitrary_precision_integers (as the runtime's source compiler enables it).

// For each pair (p, q): eight results from p and q cut to 4, 24 and 2 bits, and the 3 bytes of a
// 24-bit value stored at bytes[4 * i], whose fourth byte the store must leave alone.
kernel void odd_integers(global const int* in, global int* out, global uchar* bytes) {
  int i = get_global_id(0);
  int p = in[2 * i], q = in[2 * i + 1];
  _BitInt(4) a = (_BitInt(4))p, b = (_BitInt(4))q;
  unsigned _BitInt(4) ua = (unsigned _BitInt(4))p, ub = (unsigned _BitInt(4))q;
  _BitInt(24) c = (_BitInt(24))p;
  unsigned _BitInt(24) uc = (unsigned _BitInt(24))q;
  _BitInt(2) d = (_BitInt(2))q;
  // Wrapping arithmetic is unsigned (a signed _BitInt overflows as an int does: undefined).
  out[8 * i + 0] = (_BitInt(4))(ua + ub);
  out[8 * i + 1] = (b != 0 && !(a == -8 && b == -1)) ? a / b : 99;
  out[8 * i + 2] = (_BitInt(4))(ua * ub);  // (a division and a remainder together get a freeze)
  out[8 * i + 3] = (a < b) + 2 * (ua < ub) + 4 * (int)(a >> 1) + 64 * (int)(ua >> 1);
  unsigned _BitInt(24) product = uc * 12345u;  // wraps at 24 bits
  out[8 * i + 4] = (int)product;
  out[8 * i + 5] = (int)(c >> 3) + (int)(_BitInt(24))((unsigned _BitInt(24))c * (unsigned _BitInt(24))3);
  out[8 * i + 6] = (int)((float)a * 2.0f) + (int)((float)ub * 4.0f);
  out[8 * i + 7] = (int)d * 5 + (int)((unsigned _BitInt(2))d) * 100;
  *(global unsigned _BitInt(24)*)(bytes + 4 * i) = uc + (unsigned _BitInt(24))c;
}
