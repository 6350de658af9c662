// work_group_reduce_, work_group_scan_inclusive_, work_group_scan_exclusive_ with add, min, max: half.
#include "corpus.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
CORPUS_ADD_MIN_MAX(work_group, wg, half)
