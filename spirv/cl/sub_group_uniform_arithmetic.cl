// The cl_khr_work_group_uniform_arithmetic operators at sub-group scope: reduce and both scans with
// mul (int, uint, long, ulong, float), and, or, xor (int, uint, long, ulong) and logical_and,
// logical_or, logical_xor (int predicates).
#include "corpus.h"

CORPUS_REDUCE_AND_SCANS(sub_group, sg, mul, int)
CORPUS_REDUCE_AND_SCANS(sub_group, sg, mul, uint)
CORPUS_REDUCE_AND_SCANS(sub_group, sg, mul, long)
CORPUS_REDUCE_AND_SCANS(sub_group, sg, mul, ulong)
CORPUS_REDUCE_AND_SCANS(sub_group, sg, mul, float)
CORPUS_BITWISE(sub_group, sg, int)
CORPUS_BITWISE(sub_group, sg, uint)
CORPUS_BITWISE(sub_group, sg, long)
CORPUS_BITWISE(sub_group, sg, ulong)
CORPUS_LOGICAL(sub_group, sg)
