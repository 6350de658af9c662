// work_group_reduce_, work_group_scan_inclusive_, work_group_scan_exclusive_ with add, min, max (OpenCL C 2.0):
// int, uint, long, ulong, float.
#include "corpus.h"

CORPUS_ADD_MIN_MAX(work_group, wg, int)
CORPUS_ADD_MIN_MAX(work_group, wg, uint)
CORPUS_ADD_MIN_MAX(work_group, wg, long)
CORPUS_ADD_MIN_MAX(work_group, wg, ulong)
CORPUS_ADD_MIN_MAX(work_group, wg, float)
