// sub_group_reduce_, sub_group_scan_inclusive_, sub_group_scan_exclusive_ with add, min, max (OpenCL C 2.0):
// int, uint, long, ulong, float.
#include "corpus.h"

CORPUS_ADD_MIN_MAX(sub_group, sg, int)
CORPUS_ADD_MIN_MAX(sub_group, sg, uint)
CORPUS_ADD_MIN_MAX(sub_group, sg, long)
CORPUS_ADD_MIN_MAX(sub_group, sg, ulong)
CORPUS_ADD_MIN_MAX(sub_group, sg, float)
