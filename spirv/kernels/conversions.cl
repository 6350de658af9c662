// Conversions with explicit rounding modes and saturation (convert_T_sat_rtX), which OpenCL
// defines exactly.

// Float to int with each rounding mode; the inputs are in range (out of range is undefined).
kernel void float_to_int_rounding(global const float* in, global int* out) {
  size_t i = get_global_id(0);
  float x = in[i];
  global int* o = out + 5 * i;
  o[0] = convert_int(x);
  o[1] = convert_int_rte(x);
  o[2] = convert_int_rtp(x);
  o[3] = convert_int_rtn(x);
  o[4] = convert_int_rtz(x);
}

// Saturating conversions: any input, NaN and infinities included.
kernel void float_to_int_saturating(global const float* in, global int* out) {
  size_t i = get_global_id(0);
  float x = in[i];
  global int* o = out + 7 * i;
  o[0] = convert_int_sat(x);
  o[1] = convert_int_sat_rte(x);
  o[2] = (int)convert_uchar_sat(x);
  o[3] = (int)convert_char_sat_rtn(x);
  o[4] = (int)convert_ushort_sat(x);
  o[5] = (int)convert_short_sat_rtp(x);
  o[6] = (int)convert_uint_sat(x);
}

// Int to float with each rounding mode (large ints are not exactly representable).
kernel void int_to_float_rounding(global const int* in, global float* out) {
  size_t i = get_global_id(0);
  int x = in[i];
  global float* o = out + 4 * i;
  o[0] = convert_float_rte(x);
  o[1] = convert_float_rtz(x);
  o[2] = convert_float_rtp(x);
  o[3] = convert_float_rtn(x);
}

// Unsigned int to float at the default rounding (to nearest even), plain and as a uint4: values of
// 2^31 and more are where SwiftShader's own conversion rounded twice (0xFFFFFF7F gave 2^32).
kernel void uint_to_float(global const uint* in, global float* out) {
  size_t i = get_global_id(0);
  out[i] = convert_float(in[i]);
  if (i % 4 == 0) vstore4(convert_float4(vload4(i / 4, in)), i / 4, out + get_global_size(0));
}

// Saturating integer narrowing.
kernel void int_narrowing_saturating(global const long* in, global int* out) {
  size_t i = get_global_id(0);
  long x = in[i];
  global int* o = out + 4 * i;
  o[0] = convert_int_sat(x);
  o[1] = (int)convert_uchar_sat(x);
  o[2] = (int)convert_short_sat(x);
  o[3] = (int)convert_uint_sat(x);
}
