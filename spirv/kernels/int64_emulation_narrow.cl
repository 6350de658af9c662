// long with char and short for the 64-bit emulation tests (tests/kernels/int64_emulation_test.cc):
// truncations and extensions between 8, 16 and 64 bits.
kernel void long_narrow_conversions(global const long* a, global long* out) {
  size_t i = get_global_id(0);
  long x = a[i];
  out[4 * i] = (short)x;
  out[4 * i + 1] = (uchar)x;
  out[4 * i + 2] = (char)x;
  out[4 * i + 3] = (long)(ulong)(ushort)x;
}
