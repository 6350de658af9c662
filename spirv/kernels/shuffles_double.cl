// shuffle and shuffle2 of every size, with run-time masks, for double.
#pragma OPENCL EXTENSION cl_khr_fp64 : enable
#include "cl2vk_shuffles.h"

SHUFFLES(double, ulong)
