// The shuffle kernels of spirv/kernels/shuffles*.cl, one per element type.
#pragma once

// Every shape of shuffle and shuffle2 (2, 4, 8 and 16 components in and out) with masks computed
// at run time, for one element type T and its mask type U; 102 results per work-item
// (tests/kernels/shuffles_test.cc computes the same on the CPU).
#define SHUFFLES(T, U)                                                                 \
  kernel void shuffles_##T(global const T* in, global const U* masks, global T* out) { \
    size_t i = get_global_id(0);                                                       \
    T##16 a = vload16(2 * i, in), b = vload16(2 * i + 1, in);                          \
    U##16 m = vload16(i, masks);                                                       \
    global T* o = out + 102 * i;                                                       \
    vstore16(shuffle(a, m), 0, o);                               /* 16 -> 16 */        \
    vstore8(shuffle(a.lo, m.lo), 0, o + 16);                     /* 8 -> 8 */          \
    vstore4(shuffle(a.s0123, m.s89ab), 0, o + 24);               /* 4 -> 4 */          \
    vstore2(shuffle(a.s01, m.s01), 0, o + 28);                   /* 2 -> 2 */          \
    vstore16(shuffle(a.s0123, m), 0, o + 30);                    /* 4 -> 16 */         \
    vstore4(shuffle(a, m.s4567), 0, o + 46);                     /* 16 -> 4 */         \
    vstore16(shuffle2(a, b, m), 0, o + 50);                      /* 16, 16 -> 16 */    \
    vstore8(shuffle2(a.lo, b.hi, m.hi), 0, o + 66);              /* 8, 8 -> 8 */       \
    vstore16(shuffle2(a.s01, b.s23, m), 0, o + 74);              /* 2, 2 -> 16 */      \
    vstore2(shuffle2(a, b, m.s9a), 0, o + 90);                   /* 16, 16 -> 2 */     \
    vstore8(shuffle2(a.s0123, b.s4567, m.s13579bdf), 0, o + 92); /* 4, 4 -> 8 */       \
    vstore2(shuffle2(a.lo, b.lo, m.sef), 0, o + 100);            /* 8, 8 -> 2 */       \
  }
