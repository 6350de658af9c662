// 64-bit rotates by every constant amount, written as OpenCL's rotate and as the shift idiom
// (which clang makes a funnel shift and llvm-spirv a helper function), of scalars and of vectors:
// the inputs of split-64-bit-rotates (tests/kernels/rotates_test.cc).

#define AMOUNTS(M)                                                                                       \
  M(1) M(2) M(3) M(4) M(5) M(6) M(7) M(8) M(9) M(10) M(11) M(12) M(13) M(14) M(15) M(16) M(17) M(18) \
  M(19) M(20) M(21) M(22) M(23) M(24) M(25) M(26) M(27) M(28) M(29) M(30) M(31) M(32) M(33) M(34)    \
  M(35) M(36) M(37) M(38) M(39) M(40) M(41) M(42) M(43) M(44) M(45) M(46) M(47) M(48) M(49) M(50)    \
  M(51) M(52) M(53) M(54) M(55) M(56) M(57) M(58) M(59) M(60) M(61) M(62) M(63)

// Per work-item, 64 words each: x rotated left by n (rotate) at n, right by n (the idiom) at
// 64 + n, and words 0 and 64 the rotates by 0 and 64 (x itself).
kernel void rotate_every_amount(global const ulong* in, global ulong* out) {
  size_t i = get_global_id(0);
  ulong x = in[i];
  global ulong* o = out + i * 128;
  o[0] = rotate(x, (ulong)64);
  o[64] = rotate(x, (ulong)0);
#define ONE(n)                           \
  o[n] = rotate(x, (ulong)(n));          \
  o[64 + n] = (x >> (n)) | (x << (64 - (n)));
  AMOUNTS(ONE)
#undef ONE
}

// Vectors: ulong2 left by 8, ulong3 left by 50, ulong4 right by 32 (the idiom), 9 words per
// work-item.
kernel void rotate_vectors(global const ulong* in, global ulong* out) {
  size_t i = get_global_id(0);
  ulong x = in[i], y = ~in[i] * 3;
  ulong2 a = rotate((ulong2)(x, y), (ulong2)(8));
  ulong3 b = rotate((ulong3)(x, y, x ^ y), (ulong3)(50));
  ulong4 v = (ulong4)(x, y, x + y, x - y);
  ulong4 c = (v >> 32) | (v << 32);
  global ulong* o = out + i * 9;
  vstore2(a, 0, o);
  vstore3(b, 0, o + 2);
  o[5] = c.x, o[6] = c.y, o[7] = c.z, o[8] = c.w;
}
