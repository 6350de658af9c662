// __private and __local memory read through pointers of another type: unions, byte views, casts of
// __local arguments, memcpy between types, vload/vstore on private arrays, packed structs,
// pointers swapped between __local arrays, pointers stored in private memory and turned into
// integers. Vulkan's logical pointers express none of these; cl2vk makes such variables
// word-addressed (docs/decisions.md).

typedef union {
  float f;
  uint u;
  uchar bytes[4];
  ushort halves[2];
} FloatBits;

// out[4i] = bits of in[i]; out[4i+1] = the bytes reversed; out[4i+2] = the 16-bit halves swapped;
// out[4i+3] = the float built back from bytes written one at a time.
kernel void union_bits(global const float* in, global uint* out) {
  size_t i = get_global_id(0);
  FloatBits v;
  v.f = in[i];
  out[4 * i] = v.u;
  out[4 * i + 1] = (uint)v.bytes[0] << 24 | (uint)v.bytes[1] << 16 | (uint)v.bytes[2] << 8 | v.bytes[3];
  out[4 * i + 2] = (uint)v.halves[0] << 16 | v.halves[1];
  FloatBits w;
  for (int k = 0; k < 4; ++k) w.bytes[k] = v.bytes[k];
  w.f += 1.0f;
  out[4 * i + 3] = w.u;
}

// A __local float4 argument seen as ints and as bytes: each work-item writes an int, and then
// one byte of another word (neighbours write the other bytes of that word at the same time).
kernel void local_views(global const int* in, global int* out, local float4* scratch) {
  size_t l = get_local_id(0), n = get_local_size(0), g = get_global_id(0);
  local int* ints = (local int*)scratch;
  ints[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  int mirrored = ints[n - 1 - l];
  barrier(CLK_LOCAL_MEM_FENCE);
  local uchar* bytes = (local uchar*)scratch;
  bytes[l] = (uchar)(in[g] * 3 + 1);
  barrier(CLK_LOCAL_MEM_FENCE);
  out[2 * g] = mirrored;
  out[2 * g + 1] = l % 4 == 0 ? ints[l / 4] : 0;
}

// A kernel-scope __local array of words written byte by byte by every work-item at once.
kernel void local_bytes(global const uchar* in, global uint* out) {
  local uint words[64];
  size_t l = get_local_id(0), g = get_global_id(0);
  local uchar* bytes = (local uchar*)words;
  bytes[l] = in[g];
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l < get_local_size(0) / 4) out[g / get_local_size(0) * 64 + l] = words[l];
}

typedef struct {
  char tag;
  float values[3];
  short small;
  long big;
} Record;

// A private struct filled from global bytes, byte by byte and with memcpy, then read typed.
kernel void struct_from_bytes(global const uchar* in, global float* out, global long* wide) {
  size_t i = get_global_id(0);
  Record byBytes, byCopy;
  uchar* target = (uchar*)&byBytes;
  for (int k = 0; k < (int)sizeof(Record); ++k) target[k] = in[i * sizeof(Record) + k];
  __builtin_memcpy(&byCopy, in + i * sizeof(Record), sizeof(Record));
  out[2 * i] = byBytes.tag + byBytes.values[0] + byBytes.values[1] * byBytes.values[2] + byBytes.small;
  out[2 * i + 1] = byCopy.tag + byCopy.values[0] + byCopy.values[1] * byCopy.values[2] + byCopy.small;
  wide[i] = byBytes.big - byCopy.big + byCopy.big;
}

// vload4/vstore4 at unaligned element offsets of a private float array.
kernel void private_vectors(global const float* in, global float* out) {
  size_t i = get_global_id(0);
  float values[10];
  for (int k = 0; k < 10; ++k) values[k] = in[10 * i + k];
  float4 a = vload4(0, values + 1);
  float4 b = vload4(1, values + 2);
  vstore4(a * 2.0f + b, 0, values + 3);
  for (int k = 0; k < 10; ++k) out[10 * i + k] = values[k];
}

// Hillis-Steele inclusive scan in two __local arrays whose pointers swap every step.
kernel void ping_pong_scan(global const int* in, global int* out, local int* first, local int* second) {
  size_t l = get_local_id(0), n = get_local_size(0);
  local int* from = first;
  local int* to = second;
  from[l] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = 1; stride < n; stride *= 2) {
    to[l] = l >= stride ? from[l] + from[l - stride] : from[l];
    barrier(CLK_LOCAL_MEM_FENCE);
    local int* swap = from;
    from = to;
    to = swap;
  }
  out[get_global_id(0)] = from[l];
}

typedef struct {
  private int* cursor;
  int count;
} Cursor;

// Pointers kept in a private struct, compared, subtracted and turned into integers.
kernel void private_pointers(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  int values[8];
  for (int k = 0; k < 8; ++k) values[k] = in[8 * i + k];
  Cursor c = {values, 0};
  while (c.cursor < values + 8) {
    if (*c.cursor % 2 == 0) c.count += *c.cursor;
    c.cursor += 1 + (*c.cursor & 1);
  }
  private int* last = &values[7];
  out[4 * i] = c.count;
  out[4 * i + 1] = (int)(last - values);
  out[4 * i + 2] = (int)((ulong)last - (ulong)&values[2]);
  out[4 * i + 3] = c.cursor == values + 8 ? 1 : 2;
}

typedef struct __attribute__((packed)) {
  char tag;
  int value;
  short small;
} Packed;

// A packed struct in private memory: its int sits at byte 1.
kernel void packed_struct(global const uchar* in, global int* out) {
  size_t i = get_global_id(0);
  Packed p;
  uchar* bytes = (uchar*)&p;
  for (int k = 0; k < (int)sizeof(Packed); ++k) bytes[k] = in[i * sizeof(Packed) + k];
  p.value += 1;
  out[3 * i] = p.tag;
  out[3 * i + 1] = p.value;
  out[3 * i + 2] = p.small + ((uchar*)&p)[2];
}

constant uchar kTable[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};

// A program-scope __constant byte table read as words.
kernel void constant_table_words(global uint* out) {
  size_t i = get_global_id(0);
  out[i] = ((constant uint*)kTable)[i % 4];
}

typedef struct {
  int low, high, count;
} Range;

// A __local array of structs copied whole (a memcpy of the array's first bytes, as clang writes
// `out[group] = ranges[0]` when the copy starts at the array itself) to a buffer at a dynamic index:
// pyopencl's struct reductions end this way.
kernel void local_struct_copy(global const int* in, global Range* out) {
  local Range ranges[64];
  size_t l = get_local_id(0);
  Range r = {in[get_global_id(0)], in[get_global_id(0)] * 2, (int)l};
  ranges[l] = r;
  barrier(CLK_LOCAL_MEM_FENCE);
  if (l == 0) out[get_group_id(0)] = ranges[0];
  if (l == 1) out[get_num_groups(0) + get_group_id(0)] = ranges[get_local_size(0) - 1];
}

// Bytes appended to a __private word array by a memcpy whose length is known only at run time, as
// hashcat's bcrypt appends a password to its key schedule (`memcpy(buf + i, src, min(72 - i, len))`).
// One struct holds both arrays: clang places a second array's alloca after the first one's address
// computation, which llvm-spirv-15 writes as an OpVariable after another instruction.
kernel void copies_of_run_time_length(global const uchar* in, global const uint* lengths, global uint* out) {
  size_t i = get_global_id(0);
  struct {
    uint state[18];
    uchar chunk[64];
  } key;
  for (int b = 0; b < 64; ++b) key.chunk[b] = in[i * 64 + b];
  for (int w = 0; w < 18; ++w) key.state[w] = 0x01010101u * (uint)w + (uint)i;
  uint at = lengths[i] & 0xff, length = lengths[i] >> 8;  // at + length <= 72, length <= 64
  __builtin_memcpy((uchar*)key.state + at, key.chunk, length);
  for (int w = 0; w < 18; ++w) out[i * 18 + w] = key.state[w];
}

// Copies too long to unroll (16800 bytes) into and out of a __private array written as bytes too.
kernel void long_copy_to_buffer(global const uint* in, global uint* out) {
  size_t i = get_global_id(0);
  uint words[4200];
  __builtin_memcpy(words, in + i * 4200, sizeof words);
  ((uchar*)words)[i * 13 % 16800] ^= 0x5a;
  __builtin_memcpy(out + i * 4200, words, sizeof words);
}
