// shuffle and shuffle2 of every size, with run-time masks, for half.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
#include "cl2vk_shuffles.h"

SHUFFLES(half, ushort)
