// sub_group_reduce_mul, sub_group_scan_inclusive_mul, sub_group_scan_exclusive_mul: double.
#include "corpus.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
CORPUS_REDUCE_AND_SCANS(sub_group, sg, mul, double)
