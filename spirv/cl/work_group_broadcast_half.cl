// work_group_broadcast with 1, 2 and 3 local ids: half.
#include "corpus.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
CORPUS_WORK_GROUP_BROADCAST(half)
