// The cl_khr_work_group_uniform_arithmetic operators at work-group scope: reduce and both scans with
// mul (int, uint, long, ulong, float), and, or, xor (int, uint, long, ulong) and logical_and,
// logical_or, logical_xor (int predicates).
#include "corpus.h"

CORPUS_REDUCE_AND_SCANS(work_group, wg, mul, int)
CORPUS_REDUCE_AND_SCANS(work_group, wg, mul, uint)
CORPUS_REDUCE_AND_SCANS(work_group, wg, mul, long)
CORPUS_REDUCE_AND_SCANS(work_group, wg, mul, ulong)
CORPUS_REDUCE_AND_SCANS(work_group, wg, mul, float)
CORPUS_BITWISE(work_group, wg, int)
CORPUS_BITWISE(work_group, wg, uint)
CORPUS_BITWISE(work_group, wg, long)
CORPUS_BITWISE(work_group, wg, ulong)
CORPUS_LOGICAL(work_group, wg)
