// Kernel templates for the collectives corpus. Every kernel reads one value per work-item from
// `in` and writes the collective's result to `out`, both indexed by the global linear id, so that
// one host harness can run any of them and compare with a CPU reference.
#ifndef CL2VK_CORPUS_H
#define CL2VK_CORPUS_H

#include "cl2vk_collectives.h"

#define CORPUS_UNARY(name, T, fn)                       \
  kernel void name(global const T* in, global T* out) { \
    size_t i = get_global_linear_id();                  \
    out[i] = fn(in[i]);                                 \
  }

// <tag>_reduce_<op>_<T>, <tag>_scan_inclusive_<op>_<T>, <tag>_scan_exclusive_<op>_<T>
#define CORPUS_REDUCE_AND_SCANS(scope, tag, op, T)                              \
  CORPUS_UNARY(tag##_reduce_##op##_##T, T, scope##_reduce_##op)                 \
  CORPUS_UNARY(tag##_scan_inclusive_##op##_##T, T, scope##_scan_inclusive_##op) \
  CORPUS_UNARY(tag##_scan_exclusive_##op##_##T, T, scope##_scan_exclusive_##op)

#define CORPUS_ADD_MIN_MAX(scope, tag, T)     \
  CORPUS_REDUCE_AND_SCANS(scope, tag, add, T) \
  CORPUS_REDUCE_AND_SCANS(scope, tag, min, T) \
  CORPUS_REDUCE_AND_SCANS(scope, tag, max, T)

#define CORPUS_BITWISE(scope, tag, T)         \
  CORPUS_REDUCE_AND_SCANS(scope, tag, and, T) \
  CORPUS_REDUCE_AND_SCANS(scope, tag, or, T)  \
  CORPUS_REDUCE_AND_SCANS(scope, tag, xor, T)

#define CORPUS_LOGICAL(scope, tag)                      \
  CORPUS_REDUCE_AND_SCANS(scope, tag, logical_and, int) \
  CORPUS_REDUCE_AND_SCANS(scope, tag, logical_or, int)  \
  CORPUS_REDUCE_AND_SCANS(scope, tag, logical_xor, int)

// The local id to broadcast from arrives as a kernel argument: it must be uniform.
#define CORPUS_WORK_GROUP_BROADCAST(T)                                                            \
  kernel void wg_broadcast_1d_##T(global const T* in, global T* out, ulong x) {                   \
    size_t i = get_global_linear_id();                                                            \
    out[i] = work_group_broadcast(in[i], x);                                                      \
  }                                                                                               \
  kernel void wg_broadcast_2d_##T(global const T* in, global T* out, ulong x, ulong y) {          \
    size_t i = get_global_linear_id();                                                            \
    out[i] = work_group_broadcast(in[i], x, y);                                                   \
  }                                                                                               \
  kernel void wg_broadcast_3d_##T(global const T* in, global T* out, ulong x, ulong y, ulong z) { \
    size_t i = get_global_linear_id();                                                            \
    out[i] = work_group_broadcast(in[i], x, y, z);                                                \
  }

#define CORPUS_SUB_GROUP_BROADCAST(T)                                          \
  kernel void sg_broadcast_##T(global const T* in, global T* out, uint lane) { \
    size_t i = get_global_linear_id();                                         \
    out[i] = sub_group_broadcast(in[i], lane);                                 \
  }

#endif  // CL2VK_CORPUS_H
