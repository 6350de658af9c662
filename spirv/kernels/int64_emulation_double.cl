// long with double for the 64-bit emulation tests (tests/kernels/int64_emulation_test.cc):
// conversions both ways and bit casts.
kernel void long_double_conversions(global const long* a, global const double* d, global long* out,
                                    global double* dout) {
  size_t i = get_global_id(0);
  long x = a[i];
  double g = d[i];
  out[3 * i] = (long)g;
  out[3 * i + 1] = (long)(ulong)g;
  out[3 * i + 2] = as_long(g);
  dout[3 * i] = (double)x;
  dout[3 * i + 1] = (double)(ulong)x;
  dout[3 * i + 2] = as_double(x);
}
