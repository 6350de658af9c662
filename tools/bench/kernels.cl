// The OpenCL kernels of cl2vk-bench. Each BENCH_PROGRAM_<name> block is built as its own program
// (-D BENCH_PROGRAM_<name>), so that a platform lacking a feature (work-group collectives,
// sub-groups, cl_khr_work_group_uniform_arithmetic) skips only the kernels that need it.
// Every kernel reads one input buffer and writes one output buffer; the output conventions are in
// workloads.h: reductions, all and logical xor write one value per work-group (by local id 0) or
// per sub-group (by sub-group local id 0), scans and broadcasts one value per work-item.

#ifdef BENCH_PROGRAM_BASIC

kernel void empty(void) {}

kernel void copy_uint(global const uint* in, global uint* out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}

kernel void copy_uint4(global const uint4* in, global uint4* out) {
  size_t i = get_global_id(0);
  out[i] = in[i];
}

// clpeak's global memory bandwidth kernel (global_bandwidth_v4_local_offset): 16 float4s per
// work-item, coalesced across the work-group, their lanes summed.
kernel void read16_float4(global const float4* in, global float* out) {
  size_t wg = get_local_size(0);
  global const float4* base = in + get_group_id(0) * 16 * wg + get_local_id(0);
  float4 sum = 0.0f;
  for (int k = 0; k < 16; ++k) sum += base[k * wg];
  out[get_global_id(0)] = (sum.s0 + sum.s1) + (sum.s2 + sum.s3);
}

// Index arithmetic in size_t (64-bit): the input as rows of 256 words, written transposed. On a
// device without shaderInt64 every index and address here is a pair of 32-bit words.
kernel void transpose_uint(global const uint* in, global uint* out) {
  size_t i = get_global_id(0);
  size_t rows = get_global_size(0) / 256;
  out[(i % 256) * rows + i / 256] = in[i];
}

// The same in int, as much OpenCL C is written: clang sign-extends every index, and a pointer moved
// by an index that may be negative goes through integer arithmetic on its address
// (signed-offsets-as-integers); this row measures what that costs.
kernel void transpose_uint_int(global const uint* in, global uint* out) {
  int i = get_global_id(0);
  int rows = get_global_size(0) / 256;
  out[(i % 256) * rows + i / 256] = in[i];
}

// ulong arithmetic: MurmurHash3's 64-bit finalizer and a mul_hi of the result.
kernel void hash_ulong(global const ulong* in, global ulong* out) {
  size_t i = get_global_id(0);
  ulong x = in[i];
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdUL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53UL;
  x ^= x >> 33;
  out[i] = x + mul_hi(x, in[i]);
}

// 64-bit rotates: 32 rounds of SHA-512's big sigma functions (six rotates and two additions a
// round), what hashcat's SHA-512 modes spend their time on (split-64-bit-rotates).
kernel void rotate_ulong(global const ulong* in, global ulong* out) {
  size_t i = get_global_id(0);
  ulong x = in[i], y = x ^ 0x6a09e667f3bcc908UL;
  for (int round = 0; round < 32; ++round) {
    x += rotate(y, 36UL) ^ rotate(y, 30UL) ^ rotate(y, 25UL);
    y += rotate(x, 50UL) ^ rotate(x, 46UL) ^ rotate(x, 23UL);
  }
  out[i] = x ^ y;
}

// Byte processing, four bytes per work-item, each loaded and stored on its own (workloads.h's
// byteTransform).
kernel void bytes_uchar(global const uchar* in, global uchar* out) {
  size_t i = get_global_id(0) * 4;
  for (int k = 0; k < 4; ++k) {
    uchar b = in[i + k];
    out[i + k] = (uchar)(b * 3 + 7) ^ (b >> 1);
  }
}

// The classic reduction before OpenCL 2.0: a barrier tree over __local memory.
kernel void local_tree_reduce_add_float(global const float* in, global float* out, local float* scratch) {
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}

// The same tree over __local memory the kernel declares as uint and uses as float: reinterpreted
// memory, which cl2vk makes word-addressed. Against the tree above, it measures what that costs.
kernel void local_tree_reduce_add_float_words(global const float* in, global float* out, local uint* words) {
  local float* scratch = (local float*)words;
  size_t lid = get_local_id(0);
  scratch[lid] = in[get_global_id(0)];
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = get_local_size(0) / 2; stride > 0; stride /= 2) {
    if (lid < stride) scratch[lid] += scratch[lid + stride];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (lid == 0) out[get_group_id(0)] = scratch[0];
}

#endif

// Math: one function per work-item on arguments made from x in [-1, 1) (workloads.h,
// mathArguments): sin(100x), exp(10x), log(|x| + 2^-10), pow(|x| + 0.5, 8x), fmod(1000x, |x| + 0.25).
#define MATH_KERNELS(T, suffix, prefix)                                                       \
  kernel void math_##prefix##sin_##suffix(global const T* in, global T* out) {                \
    size_t i = get_global_id(0);                                                              \
    out[i] = prefix##sin(in[i] * (T)100);                                                     \
  }                                                                                           \
  kernel void math_##prefix##exp_##suffix(global const T* in, global T* out) {                \
    size_t i = get_global_id(0);                                                              \
    out[i] = prefix##exp(in[i] * (T)10);                                                      \
  }                                                                                           \
  kernel void math_##prefix##log_##suffix(global const T* in, global T* out) {                \
    size_t i = get_global_id(0);                                                              \
    out[i] = prefix##log(fabs(in[i]) + (T)0x1p-10);                                           \
  }

#ifdef BENCH_PROGRAM_BASIC
MATH_KERNELS(float, float, )
MATH_KERNELS(float, float, native_)

kernel void math_pow_float(global const float* in, global float* out) {
  size_t i = get_global_id(0);
  out[i] = pow(fabs(in[i]) + 0.5f, in[i] * 8.0f);
}

kernel void math_native_pow_float(global const float* in, global float* out) {
  size_t i = get_global_id(0);
  out[i] = native_powr(fabs(in[i]) + 0.5f, in[i] * 8.0f);
}

kernel void math_fmod_float(global const float* in, global float* out) {
  size_t i = get_global_id(0);
  out[i] = fmod(in[i] * 1000.0f, fabs(in[i]) + 0.25f);
}
#endif

#ifdef BENCH_PROGRAM_MATH_DOUBLE
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
MATH_KERNELS(double, double, )

kernel void math_pow_double(global const double* in, global double* out) {
  size_t i = get_global_id(0);
  out[i] = pow(fabs(in[i]) + 0.5, in[i] * 8.0);
}

kernel void math_fmod_double(global const double* in, global double* out) {
  size_t i = get_global_id(0);
  out[i] = fmod(in[i] * 1000.0, fabs(in[i]) + 0.25);
}
#endif

// Work-group collectives: one value per work-group for reductions, one per work-item for the rest.
#define WG_REDUCE(name, T, call)                                        \
  kernel void name(global const T* in, global T* out) {                 \
    T result = call(in[get_global_id(0)]);                              \
    if (get_local_id(0) == 0) out[get_group_id(0)] = result;            \
  }
#define WG_PER_ITEM(name, T, expression)                                \
  kernel void name(global const T* in, global T* out) {                 \
    T x = in[get_global_id(0)];                                         \
    out[get_global_id(0)] = expression;                                 \
  }

#ifdef BENCH_PROGRAM_WORK_GROUP

WG_REDUCE(wg_reduce_add_float, float, work_group_reduce_add)
WG_REDUCE(wg_reduce_add_int, int, work_group_reduce_add)
WG_PER_ITEM(wg_scan_inclusive_add_int, int, work_group_scan_inclusive_add(x))
WG_PER_ITEM(wg_scan_inclusive_add_float, float, work_group_scan_inclusive_add(x))
WG_PER_ITEM(wg_scan_exclusive_max_int, int, work_group_scan_exclusive_max(x))
WG_PER_ITEM(wg_broadcast_int, int, work_group_broadcast(x, get_local_size(0) - 1))

kernel void wg_all_int(global const int* in, global int* out) {
  int result = work_group_all(in[get_global_id(0)] != 0);
  if (get_local_id(0) == 0) out[get_group_id(0)] = result;
}

// Each work-item sums 16 values, coalesced across the work-group, then the work-group reduces.
kernel void reduce16_float(global const float* in, global float* out) {
  size_t wg = get_local_size(0);
  global const float* base = in + get_group_id(0) * 16 * wg + get_local_id(0);
  float sum = 0.0f;
  for (int k = 0; k < 16; ++k) sum += base[k * wg];
  float result = work_group_reduce_add(sum);
  if (get_local_id(0) == 0) out[get_group_id(0)] = result;
}

#endif

#ifdef BENCH_PROGRAM_WORK_GROUP_UNIFORM_ARITHMETIC

kernel void wg_reduce_logical_xor_int(global const int* in, global int* out) {
  int result = work_group_reduce_logical_xor(in[get_global_id(0)] != 0);
  if (get_local_id(0) == 0) out[get_group_id(0)] = result;
}

#endif

// Sub-group collectives: one value per sub-group for reductions, at group * sub-groups per group
// + sub-group id; one per work-item for the rest.
#define SUB_GROUP_INDEX() (get_group_id(0) * get_num_sub_groups() + get_sub_group_id())
#define SG_REDUCE(name, T, call)                                        \
  kernel void name(global const T* in, global T* out) {                 \
    T result = call(in[get_global_id(0)]);                              \
    if (get_sub_group_local_id() == 0) out[SUB_GROUP_INDEX()] = result; \
  }

#ifdef BENCH_PROGRAM_SUB_GROUP

kernel void sub_group_size_probe(global uint* out) {
  if (get_global_id(0) == 0) out[0] = get_max_sub_group_size();
}

SG_REDUCE(sg_reduce_add_float, float, sub_group_reduce_add)
SG_REDUCE(sg_reduce_add_int, int, sub_group_reduce_add)
WG_PER_ITEM(sg_scan_inclusive_add_int, int, sub_group_scan_inclusive_add(x))
WG_PER_ITEM(sg_scan_inclusive_add_float, float, sub_group_scan_inclusive_add(x))
WG_PER_ITEM(sg_scan_exclusive_max_int, int, sub_group_scan_exclusive_max(x))
WG_PER_ITEM(sg_broadcast_int, int, sub_group_broadcast(x, get_max_sub_group_size() - 1))

kernel void sg_all_int(global const int* in, global int* out) {
  int result = sub_group_all(in[get_global_id(0)] != 0);
  if (get_sub_group_local_id() == 0) out[SUB_GROUP_INDEX()] = result;
}

#endif

#ifdef BENCH_PROGRAM_SUB_GROUP_EXTENSIONS

WG_PER_ITEM(sg_shuffle_xor_int, int, sub_group_shuffle_xor(x, 1u))
WG_PER_ITEM(sg_ballot_bit_count_int, int, (int)sub_group_ballot_bit_count(sub_group_ballot(x > 0)))
WG_PER_ITEM(sg_clustered_reduce_add_int, int, sub_group_clustered_reduce_add(x, 4u))
WG_PER_ITEM(sg_non_uniform_reduce_add_int, int, (get_sub_group_local_id() & 1) ? sub_group_non_uniform_reduce_add(x) : x)

#endif

#ifdef BENCH_PROGRAM_SUB_GROUP_UNIFORM_ARITHMETIC

kernel void sg_reduce_logical_xor_int(global const int* in, global int* out) {
  int result = sub_group_reduce_logical_xor(in[get_global_id(0)] != 0);
  if (get_sub_group_local_id() == 0) out[SUB_GROUP_INDEX()] = result;
}

#endif
