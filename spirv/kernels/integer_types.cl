// Arithmetic on every integer type: each kernel mixes add, multiply, shift, divide and compare.
// (No remainder next to the division: clang-15 -O2 then emits an LLVM `freeze`, which
// llvm-spirv-15 cannot translate.)
#define INTEGER_KERNEL(T)                                                        \
  kernel void integers_##T(global const T* a, global const T* b, global T* out) { \
    size_t i = get_global_id(0);                                                  \
    T x = a[i], y = b[i];                                                         \
    T q = x / (T)(y | 1);                                                         \
    out[i] = (T)(x + y) ^ (T)(x * 3) ^ (T)(x >> 1) ^ q ^ (T)(x < y);              \
  }
INTEGER_KERNEL(char)
INTEGER_KERNEL(uchar)
INTEGER_KERNEL(short)
INTEGER_KERNEL(ushort)
INTEGER_KERNEL(int)
INTEGER_KERNEL(uint)
INTEGER_KERNEL(long)
INTEGER_KERNEL(ulong)
