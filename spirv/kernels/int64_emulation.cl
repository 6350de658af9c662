// long and ulong arithmetic for the 64-bit emulation tests (tests/kernels/int64_emulation_test.cc,
// which translate these kernels for a device without shaderInt64): every operator on one pair of
// values per work-item, shifts by every amount, conversions, vectors and size_t indexing. With int, long and float only, so that a device without double, char or short
// runs it (int64_emulation_double.cl and int64_emulation_narrow.cl have the others).
// Needs OpenCL C 2.0 (ctz).

#define BINARY_RESULTS 40

kernel void long_binary(global const long* a, global const long* b, global long* out) {
  size_t i = get_global_id(0);
  long x = a[i], y = b[i];
  ulong ux = (ulong)x, uy = (ulong)y;
  global long* o = out + BINARY_RESULTS * i;
  o[0] = x + y;
  o[1] = x - y;
  o[2] = x * y;
  o[3] = x + 3 * y;
  o[4] = (long)(ux - uy * 5);
  o[5] = (long)(ux * 7);
  o[6] = x - 1;
  o[7] = x & y;
  o[8] = x | y;
  o[9] = x ^ y;
  o[10] = ~x;
  o[11] = -x;
  int s = (int)(y & 63);
  o[12] = x << s;
  o[13] = x >> s;
  o[14] = (long)(ux >> s);
  o[15] = (x < y) | (x <= y) << 1 | (x > y) << 2 | (x >= y) << 3 | (x == y) << 4 | (x != y) << 5 |
          (ux < uy) << 6 | (ux <= uy) << 7 | (ux > uy) << 8 | (ux >= uy) << 9;
  o[16] = mul_hi(x, y);
  o[17] = (long)mul_hi(ux, uy);
  o[18] = min(x, y);
  o[19] = max(x, y);
  o[20] = (long)min(ux, uy);
  o[21] = (long)max(ux, uy);
  o[22] = (long)abs(x);
  o[23] = (long)abs_diff(x, y);
  o[24] = add_sat(x, y);
  o[25] = sub_sat(x, y);
  o[26] = (long)add_sat(ux, uy);
  o[27] = (long)sub_sat(ux, uy);
  o[28] = hadd(x, y);
  o[29] = rhadd(x, y);
  o[30] = rotate(x, y);
  o[31] = popcount(x);
  o[32] = clz(x);
  o[33] = ctz(x);
  o[34] = mad_hi(x, y, x);
  o[35] = mad_sat(x, y, x);
  o[36] = (long)mad_sat(ux, uy, ux);
  o[37] = clamp(x, min(y, 5L), max(y, 5L));
  o[38] = (long)hadd(ux, uy);
  o[39] = x < y ? x * 3 : y - 1;
}

// Quotients, or remainders, by divisors the host replaced where OpenCL leaves the result undefined
// (0, and LONG_MIN / -1). In one kernel, a division and a remainder of the same operands become a
// freeze instruction that llvm-spirv-15 cannot translate.
kernel void long_division(global const long* a, global const long* b, global long* out, int remainder) {
  size_t i = get_global_id(0);
  long x = a[i], y = b[i];
  if (remainder) {
    out[2 * i] = x % y;
    out[2 * i + 1] = (long)((ulong)x % (ulong)y);
  } else {
    out[2 * i] = x / y;
    out[2 * i + 1] = (long)((ulong)x / (ulong)y);
  }
}

// Work-item i shifts a[i / 64] by i % 64 every way.
kernel void long_shifts(global const long* a, global long* out) {
  size_t i = get_global_id(0);
  long x = a[i / 64];
  uint s = (uint)(i % 64);
  out[3 * i] = x << s;
  out[3 * i + 1] = x >> s;
  out[3 * i + 2] = (long)((ulong)x >> s);
}

#define CONVERSION_RESULTS 12

kernel void long_conversions(global const long* a, global const float* f, global long* out, global float* fout) {
  size_t i = get_global_id(0);
  long x = a[i];
  float g = f[i];
  global long* o = out + CONVERSION_RESULTS * i;
  o[0] = (int)x;
  o[1] = (uint)x;
  o[2] = (long)(int)(x >> 16);
  o[3] = (long)(uint)((ulong)x >> 40);
  o[4] = (long)(int)x;
  o[5] = (long)(ulong)(uint)x;
  o[6] = (long)g;
  o[7] = (long)(ulong)g;
  o[8] = x - 5;  // the _sat forms are in long_saturating_conversions
  o[9] = (long)((ulong)x >> 3);
  o[10] = as_long((int2)((int)x, (int)(x >> 32)) + (int2)(1, 2));
  o[11] = (long)((uint)x * 3u);
  fout[2 * i] = (float)x;
  fout[2 * i + 1] = (float)(ulong)x;
}

// The _sat conversions: out of range they saturate, NaN gives 0.
kernel void long_saturating_conversions(global const float* f, global long* out) {
  size_t i = get_global_id(0);
  out[2 * i] = convert_long_sat(f[i]);
  out[2 * i + 1] = (long)convert_ulong_sat(f[i]);
}

kernel void long_vectors(global const long4* a, global const long4* b, global long4* out, global int4* narrow) {
  size_t i = get_global_id(0);
  long4 x = a[i], y = b[i];
  out[4 * i] = x * y + (x >> 3);
  out[4 * i + 1] = x < y;  // -1 where true
  out[4 * i + 2] = select(x, y, x > y) ^ (long4)(1, 2, 3, 4);
  out[4 * i + 3] = (long4)(x.s1 + y.s3, x.s2, vload2(0, (global const long*)(b + i)).s10);
  narrow[i] = convert_int4(x ^ y);
}

// The conversions on long4 and ulong4, component by component as the scalar ones.
kernel void long_vector_conversions(global const long4* a, global const float4* f, global float4* fout,
                                    global long4* out) {
  size_t i = get_global_id(0);
  fout[2 * i] = convert_float4(a[i]);
  fout[2 * i + 1] = convert_float4(as_ulong4(a[i]));
  out[2 * i] = convert_long4_sat(f[i]);
  out[2 * i + 1] = as_long4(convert_ulong4_sat(f[i]));
}

// size_t indices, pointer steps and a long accumulator: the index-heavy shape.
kernel void long_indexing(global const int* in, global long* out, ulong stride, long bias) {
  size_t i = get_global_id(0);
  size_t j = i * stride % get_global_size(0);
  global const int* p = in + j;
  long sum = bias;
  for (size_t k = 0; k < 4; ++k) sum += (long)p[k * 0] * (long)(k + 1) + (long)(in + j - in);
  out[get_global_size(0) - 1 - i] = sum;
}

// Pointer steps by int values (negative ones among them) and by a negative constant: each index
// a sign-extended 32-bit value, which lower-int64 keeps as a step by that value.
kernel void int_indexing(global const int* in, global int* out, int offset) {
  int i = (int)get_global_id(0);
  global const int* middle = in + 500;
  out[i] = middle[i - 500 + offset] * 3 + middle[-7] + middle[(i & 1) ? -i : i];
}

kernel void long_reduce(global const long* a, global long* out, local long* scratch) {
  size_t l = get_local_id(0);
  scratch[l] = a[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t s = get_local_size(0) / 2; s > 0; s >>= 1) {
    if (l < s) scratch[l] += scratch[l + s];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = scratch[0];
}
