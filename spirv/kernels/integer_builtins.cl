// Integer builtins with OpenCL's exact semantics: each work-item writes 16 results.
kernel void integer_builtins(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int x = in[i];
  int y = in[(i + 7) % get_global_size(0)];
  uint ux = (uint)x, uy = (uint)y;
  global int* o = out + 16 * i;
  o[0] = abs(x);
  o[1] = (int)abs_diff(x, y);
  o[2] = add_sat(x, y);
  o[3] = sub_sat(x, y);
  o[4] = hadd(x, y);
  o[5] = rhadd(x, y);
  o[6] = mul_hi(x, y);
  o[7] = (int)mul_hi(ux, uy);
  o[8] = mad24(x & 0x7fff, y & 0x7fff, 3);
  o[9] = (int)clz(ux);
  o[10] = (int)popcount(ux);
  o[11] = (int)rotate(ux, uy);
  o[12] = min(x, y) ^ max(x, y);
  o[13] = clamp(x, -1000, 1000);
  o[14] = (int)add_sat(ux, uy);
  o[15] = select(x, y, x < y);
}
