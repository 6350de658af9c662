// sub_group_reduce_, sub_group_scan_inclusive_, sub_group_scan_exclusive_ with add, min, max: half.
#include "corpus.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
CORPUS_ADD_MIN_MAX(sub_group, sg, half)
