// sub_group_broadcast: double.
#include "corpus.h"

#pragma OPENCL EXTENSION cl_khr_fp64 : enable
CORPUS_SUB_GROUP_BROADCAST(double)
