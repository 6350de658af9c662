// Vectors of 8 and 16 components, which Vulkan does not have: arithmetic, swizzles, vector loads
// and stores, OpenCL.std functions, conversions, a by-value argument and a __local array.

kernel void wide_float16(global const float16* a, global const float16* b, float16 scale, global float16* out) {
  size_t i = get_global_id(0);
  float16 x = a[i];
  float16 y = b[i];
  float16 r = x * scale + y;
  r.s0123 = r.s3210 - y.lo.lo;
  r.hi = r.hi * (float8)(2.0f);
  out[i] = r;
}

kernel void wide_float8_math(global const float* a, global float* out) {
  size_t i = get_global_id(0);
  float8 x = vload8(i, a);
  float8 m = fmax(fabs(x), (float8)(1.5f));
  float8 f = floor(x) + fmin(x, 3.0f);
  float8 c = clamp(x, -2.0f, 2.0f);
  vstore8(m + f, 3 * i, out);
  vstore8(c, 3 * i + 1, out);
  vstore8(select(x, -x, x < 0.0f), 3 * i + 2, out);
}

kernel void wide_int16(global const int* a, global int* out, int shift) {
  size_t i = get_global_id(0);
  int16 x = vload16(i, a);
  int16 y = (x << shift) ^ x.sfedcba9876543210;
  int16 z = max(y, x) + as_int16(abs_diff(x, y).s89abcdef01234567);
  z.odd = z.even.s01234567 - x.lo;
  int16 w = clamp(x, -100, 100) + (x > y ? 7 : -7);
  w.s7 = any(x < 0) ? 11 : 13;
  w.s8 = all(x.lo > -1000000) ? 17 : 19;
  vstore16(z, 2 * i, out);
  vstore16(w, 2 * i + 1, out);
}

kernel void wide_int8(global const int8* a, global int8* out, global float8* converted, int k) {
  size_t i = get_global_id(0);
  int8 x = a[i];
  int8 y = x.even.s01230123 * (int8)(k) - x.odd.s33221100 / (int8)(3);
  y.s5 = x[i % 8];
  out[i] = y;
  converted[i] = convert_float8(y) * 0.5f;
}

kernel void wide_uchar16(global const uchar16* a, global uchar16* out, global uint4* bits) {
  size_t i = get_global_id(0);
  uchar16 x = a[i];
  uchar16 y = add_sat(x, (uchar16)(200)) + rotate(x, (uchar16)(3));
  out[i] = y;
  bits[i] = as_uint4(y) + (uint4)(1);
}

kernel void wide_ushort8(global const ushort8* a, global ushort8* out) {
  size_t i = get_global_id(0);
  ushort8 x = a[i];
  ushort8 y = (x >> (ushort8)(2)) | (ushort8)(0x8001);
  out[i] = mad_sat(x, (ushort8)(3), y) + popcount(x);
}

kernel void wide_long8(global const long8* a, global long8* out) {
  size_t i = get_global_id(0);
  long8 x = a[i];
  long8 y = x * (long8)(3, -5, 7, -9, 11, -13, 15, -17) + (x >> 3);
  out[i] = (long8)(y.lo, min(y.hi, x.lo));
}

kernel void wide_convert(global const float8* a, global int8* out, global short16* narrow) {
  size_t i = get_global_id(0);
  float8 x = a[i];
  int8 n = convert_int8(x);
  out[i] = n + convert_int8_sat_rte(x * 1000.0f);
  narrow[i] = convert_short16((int16)(n, n.s76543210 + 1));
}

kernel void wide_local(global const float16* a, global float16* out, local float16* scratch) {
  local float16 tile[8];
  size_t l = get_local_id(0);
  size_t i = get_global_id(0);
  tile[l] = a[i] * 2.0f;
  scratch[l] = a[i] + 1.0f;
  barrier(CLK_LOCAL_MEM_FENCE);
  size_t other = (l + 1) % get_local_size(0);
  out[i] = tile[other] + scratch[other];
}

// 8- and 16-component vectors inside structs keep OpenCL C's layout: each aligned to its own size,
// the members after it where the host puts them, in every address space (the CTS's vectors
// vec_align_struct*; the parts' arrays alone would be aligned like one part).
typedef struct { char c; char8 v; short s; } CharsAfterAChar;       // v at 8, s at 16, size 24
typedef struct { short3 t; int16 v; char tail; } IntsAfterAShort3;  // v at 64, tail at 128, size 192

kernel void wide_in_structs(global CharsAfterAChar* a, global IntsAfterAShort3* b, global uint* where) {
  size_t i = get_global_id(0), lid = get_local_id(0);
  private CharsAfterAChar p = a[i];
  local IntsAfterAShort3 shared[4];
  p.v = p.v * (char8)(2) + (char8)(p.c);
  p.s += (short)p.v.s7;
  a[i] = p;
  shared[lid] = b[i];
  shared[lid].v += (int16)(shared[lid].tail);
  shared[lid].tail += 1;
  barrier(CLK_LOCAL_MEM_FENCE);
  b[i] = shared[(lid + 1) % 4];
  where[4 * i + 0] = (uint)((private uchar*)&p.v - (private uchar*)&p);
  where[4 * i + 1] = (uint)((ulong)(private uchar*)&p.v % 8);
  where[4 * i + 2] = (uint)((local uchar*)&shared[lid].v - (local uchar*)&shared[0]);
  where[4 * i + 3] = (uint)((ulong)(local uchar*)&shared[lid].v % 64);
}

// A char16 put together from loads at constant offsets that are not multiples of their size, as
// the CTS's vector_creation writes them; each work-item reads its 19 bytes from src + 19 * i.
kernel void char16_from_vloads(global const char* src, global char16* out) {
  global const char* p = src + 19 * get_global_id(0);
  out[get_global_id(0)] = (char16)(vload8(0, p + 3), vload4(0, p + 11), vload2(0, p + 15), p[17], p[1]);
}
