// shuffle and shuffle2 of every size, with run-time masks, for the integer types and float
// (shuffles_double.cl and shuffles_half.cl for the others).
#include "cl2vk_shuffles.h"

SHUFFLES(char, uchar)
SHUFFLES(uchar, uchar)
SHUFFLES(short, ushort)
SHUFFLES(ushort, ushort)
SHUFFLES(int, uint)
SHUFFLES(uint, uint)
SHUFFLES(long, ulong)
SHUFFLES(ulong, ulong)
SHUFFLES(float, uint)
