// work_group_reduce_mul, work_group_scan_inclusive_mul, work_group_scan_exclusive_mul: double.
#include "corpus.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
CORPUS_REDUCE_AND_SCANS(work_group, wg, mul, double)
