// sub_group_broadcast: half.
#include "corpus.h"

#pragma OPENCL EXTENSION cl_khr_fp16 : enable
CORPUS_SUB_GROUP_BROADCAST(half)
