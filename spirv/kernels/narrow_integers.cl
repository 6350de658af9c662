// char and short on a device without 8/16-bit arithmetic or storage (lower-narrow-integers):
// every operator and integer builtin over pairs of values, conversions, vectors and bit casts,
// byte stores of neighbouring work-items into the same words, a struct of mixed sizes,
// __local and __private arrays. tests/kernels/narrow_integers_test.cc has the CPU references.
#define NARROW_OPS(T, UT, BITS)                                                                     \
  kernel void ops_##T(global const T* a, global const T* b, global T* out) {                        \
    int i = get_global_id(0);                                                                       \
    T x = a[i], y = b[i];                                                                           \
    T d = y ? y : (T)1;                                                                             \
    global T* o = out + i * 28;                                                                     \
    o[0] = x + y;                                                                                   \
    o[1] = x - y;                                                                                   \
    o[2] = x * y;                                                                                   \
    o[3] = x / d;                                                                                   \
    o[4] = y % (x ? x : (T)1); /* not x % d: with x / d, clang -O2 writes a freeze */                \
    o[5] = x << (y & (BITS - 1));                                                                   \
    o[6] = x >> (y & (BITS - 1));                                                                   \
    o[7] = x & y;                                                                                   \
    o[8] = x | y;                                                                                   \
    o[9] = x ^ y;                                                                                   \
    o[10] = ~x;                                                                                     \
    o[11] = -x;                                                                                     \
    o[12] = x < y;                                                                                  \
    o[13] = x >= y;                                                                                 \
    o[14] = x == y;                                                                                 \
    o[15] = min(x, y);                                                                              \
    o[16] = max(x, y);                                                                              \
    o[17] = (T)abs(x);                                                                              \
    o[18] = add_sat(x, y);                                                                          \
    o[19] = sub_sat(x, y);                                                                          \
    o[20] = hadd(x, y);                                                                             \
    o[21] = rhadd(x, y);                                                                            \
    o[22] = mul_hi(x, y);                                                                           \
    o[23] = clz(x);                                                                                 \
    o[24] = popcount(x);                                                                            \
    o[25] = rotate(x, y);                                                                           \
    o[26] = (T)abs_diff(x, y);                                                                      \
    o[27] = mad_sat(x, y, x);                                                                       \
  }
NARROW_OPS(char, uchar, 8)
NARROW_OPS(uchar, uchar, 8)
NARROW_OPS(short, ushort, 16)
NARROW_OPS(ushort, ushort, 16)

// From char and short to every type, and back with and without saturation.
kernel void narrow_conversions(global const char* c, global const short* s, global const int* n,
                               global const float* f, global int* wide, global float* real, global long* lng,
                               global char* toChar, global short* toShort, global uchar* toUchar) {
  int i = get_global_id(0);
  char x = c[i];
  short y = s[i];
  wide[2 * i] = x;
  wide[2 * i + 1] = (uchar)x + (ushort)y;
  real[2 * i] = x;
  real[2 * i + 1] = (ushort)y;
  lng[2 * i] = y;
  lng[2 * i + 1] = (ulong)(uchar)x;
  toChar[3 * i] = (char)n[i];
  toChar[3 * i + 1] = convert_char_sat(n[i]);
  toChar[3 * i + 2] = convert_char_sat_rte(f[i]);
  toShort[3 * i] = x;
  toShort[3 * i + 1] = convert_short_sat(n[i]);
  toShort[3 * i + 2] = (short)(uchar)x;
  toUchar[2 * i] = convert_uchar_sat(y);
  toUchar[2 * i + 1] = convert_uchar_sat(f[i]);
}

// Vectors, swizzles and bit casts between shapes.
kernel void narrow_vectors(global const char4* a, global const short2* b, global const char16* w, global int* bits,
                           global char4* sum, global short2* prod, global char16* wide, global long* asLong) {
  int i = get_global_id(0);
  char4 x = a[i];
  short2 y = b[i];
  sum[i] = x + x.wzyx * (char4)(3, -1, 5, 7);
  prod[i] = y * y.yx - (short2)(1, 2);
  bits[2 * i] = as_int(x + (char4)1);
  bits[2 * i + 1] = as_int(y) ^ as_int(as_char4(bits[2 * i]) >> (char4)1);
  char16 v = w[i];
  wide[i] = v * (char16)3 + v.sf0123456789abcde;
  asLong[i] = as_long(v.lo) + as_long(as_short4(v.hi));
}

// Each work-item stores its own byte (or short) many times; neighbours share words.
kernel void byte_stores(global uchar* bytes, global short* shorts, int repeats) {
  int i = get_global_id(0);
  for (int k = 0; k < repeats; ++k) {
    bytes[i] = (uchar)(i * 7 + k);
    shorts[i] = (short)(i * 1001 - k);
  }
}

// Every work-item stores the same bytes and shorts into shared arrays (flags many set at once),
// then counts what it reads back otherwise: a value already stored must stay visible while others
// store it again (the CTS's generic_address_space builtin_functions saw zeros in between).
#define SAME_VALUE_STORE(k)  \
  flags[k] = (uchar)(k + 1); \
  marks[k] = (short)(-k - 1);
#define SAME_VALUE_CHECK(k) otherwise[8 * i + k] = (flags[k] != (uchar)(k + 1)) | (marks[k] != (short)(-k - 1)) << 1;
kernel void same_value_stores(global uchar* flags, global short* marks, global uint* otherwise) {
  size_t i = get_global_id(0);
  SAME_VALUE_STORE(0) SAME_VALUE_STORE(1) SAME_VALUE_STORE(2) SAME_VALUE_STORE(3)
  SAME_VALUE_STORE(4) SAME_VALUE_STORE(5) SAME_VALUE_STORE(6) SAME_VALUE_STORE(7)
  SAME_VALUE_CHECK(0) SAME_VALUE_CHECK(1) SAME_VALUE_CHECK(2) SAME_VALUE_CHECK(3)
  SAME_VALUE_CHECK(4) SAME_VALUE_CHECK(5) SAME_VALUE_CHECK(6) SAME_VALUE_CHECK(7)
}

typedef struct {
  char c;
  short s;
  int n;
  uchar4 v;
  char tail[3];
} Mixed;

kernel void mixed_struct(global Mixed* m) {
  int i = get_global_id(0);
  Mixed x = m[i];
  x.c = x.c * 2 + 1;
  x.s = x.s - x.c;
  x.n += x.s;
  x.v = x.v.yzwx + (uchar4)(1, 2, 3, 4);
  x.tail[i % 3] = x.tail[0] ^ (char)i;
  m[i] = x;
}

kernel void narrow_local_private(global const uchar* in, global ushort* out, local uchar* scratch) {
  local short table[64];
  uchar priv[8];
  int l = get_local_id(0), g = get_global_id(0);
  scratch[l] = in[g];
  table[l] = (short)(in[g] * -3);
  for (int k = 0; k < 8; ++k) priv[k] = (uchar)(in[g] + k * 40);
  barrier(CLK_LOCAL_MEM_FENCE);
  int n = get_local_size(0);
  out[g] = (ushort)(scratch[n - 1 - l] + table[(l + 1) % n] + priv[in[g] & 7]);
}

// half in buffers without 16-bit storage or shaderFloat16: through the bits of 16-bit words.
kernel void half_round_trip(global const half* in, global float* widened, global half* nearest, global half* towardZero,
                            global half* quarters) {
  int i = get_global_id(0);
  float x = vload_half(i, in);
  widened[i] = x;
  vstore_half(x * 3.0f, i, nearest);
  vstore_half_rtz(x * 3.0f, i, towardZero);
  if (i % 4 == 0) vstorea_half4(vloada_half4(i / 4, in) * 0.25f, i / 4, quarters);
}

// Sub-group collectives on char, uchar and short (cl_khr_subgroup_extended_types): computed on
// the widened values, narrowed after. `where` says which sub-group and lane each item was.
kernel void narrow_sub_groups(global const char* a, global const short* b, global char* chars, global short* shorts,
                              global int* where) {
  int i = get_global_id(0);
  char x = a[i];
  short y = b[i];
  chars[5 * i] = sub_group_reduce_add(x);
  chars[5 * i + 1] = sub_group_reduce_max(x);
  chars[5 * i + 2] = sub_group_scan_inclusive_min(x);
  chars[5 * i + 3] = sub_group_broadcast(x, 1);
  chars[5 * i + 4] = (char)sub_group_reduce_max((uchar)x);
  shorts[2 * i] = sub_group_reduce_min(y);
  shorts[2 * i + 1] = sub_group_scan_exclusive_add(y);
  where[2 * i] = (int)get_group_id(0) * 1000 + (int)get_sub_group_id();
  where[2 * i + 1] = (int)get_sub_group_local_id();
}

typedef struct {
  uchar x;
  short y;
  char3 z;
} NarrowArgument;

// A char pointer chosen per work-item and walked byte by byte, a char argument and a struct of
// narrow members passed by value, and char3 through vload3/vstore3 and through a pointer.
kernel void narrow_pointers_and_arguments(global char* even, global char* odd, char step, NarrowArgument v,
                                          global const char* bytes, global uchar* packed, global char3* triples) {
  int i = get_global_id(0);
  global char* p = (i & 1) ? odd + (i - 1) * 2 : even + i * 2;
  for (int k = 0; k < 3; ++k) *p++ += step + v.x + k;
  char3 t = vload3(i, bytes);
  vstore3(t + (char3)(v.z.x, v.y, 3), i, (global char*)packed);
  triples[i] = triples[i].zyx;
}

// More integer builtins on char over every pair: ctz, upsample (to short), bitselect, select,
// mad_hi, and the char2 forms of min and rotate.
kernel void more_char_builtins(global const char* a, global const char* b, global char* out, global short* wide) {
  int i = get_global_id(0);
  char x = a[i], y = b[i];
#if __OPENCL_C_VERSION__ >= 200
  out[6 * i] = ctz(x);
#else
  out[6 * i] = x ? 7 - clz((char)(x & -x)) : 8;  // OpenCL C 1.2 has no ctz
#endif
  out[6 * i + 1] = bitselect(x, y, (char)0x5a);
  out[6 * i + 2] = select(x, y, y);
  out[6 * i + 3] = mad_hi(x, y, x);
  char2 pair = min((char2)(x, y), (char2)(y, x)) + rotate((char2)(x, y), (char2)(y, 3));
  out[6 * i + 4] = pair.x;
  out[6 * i + 5] = pair.y;
  wide[i] = upsample(x, (uchar)y);
}

// A packed struct: its int and short straddle words, read and written byte by byte.
typedef struct __attribute__((packed)) {
  char c;
  int n;
  short s;
} PackedNarrow;

kernel void packed_narrow_struct(global PackedNarrow* p) {
  int i = get_global_id(0);
  PackedNarrow x = p[i];
  x.n += x.c * x.s;
  x.c ^= 0x55;
  x.s -= 7;
  p[i] = x;
}

// A char16's element at a run-time index, read and replaced (an OpVectorExtractDynamic and
// OpVectorInsertDynamic of its char4 parts once lower-wide-vectors has split it).
kernel void char16_dynamic(global const char16* in, global const int* index, global char* picked, global char16* out) {
  int i = get_global_id(0);
  char16 v = in[i];
  int k = index[i] & 15;
  picked[i] = v[k];
  v[(k + 3) & 15] = (char)(i * 7);
  out[i] = v;
}

// Chains of comparisons of a char and of a short with constants, which LLVM turns into a switch
// on the 8- or 16-bit value (CTS integer_ops unary_ops_increment): the selector is widened
// zero-extended, so the case literals must be too.
int case_of_char(char c) {
  if (c == -128) return 1;
  if (c == -1) return 2;
  if (c == 0) return 3;
  if (c == 5) return 4;
  if (c == 'a') return 5;
  if (c == 127) return 6;
  return 0;
}

int case_of_short(short s) {
  if (s == -32768) return 1;
  if (s == -129) return 2;
  if (s == -1) return 3;
  if (s == 128) return 4;
  if (s == 255) return 5;
  if (s == 32767) return 6;
  return 0;
}

kernel void narrow_switch(global const char* c, global const short* s, global int* out) {
  size_t i = get_global_id(0);
  out[i] = case_of_char(c[i]) + 10 * case_of_short(s[i]);
}
