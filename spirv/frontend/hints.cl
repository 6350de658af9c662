// What llvm-spirv-15 --spirv-ext=+all writes for optimizer hints: restrict pointers inlined into a
// kernel (SPV_INTEL_memory_access_aliasing), __builtin_expect and __builtin_assume
// (SPV_KHR_expect_assume), loop pragmas (OpLoopMerge with loop controls), every function at -O0
// (OptNoneINTEL), and a bit-reversal loop that -O3 turns into OpBitReverse (Shader declared in a
// kernel), and an annotated variable. Needs SPIR-V 1.4: at 1.2 llvm-spirv-15 cannot write the
// annotated variable (its UserSemantic decoration is 1.4's) and crashes.

static void scaled_add(global int* restrict y, global const int* restrict x, int a, int n) {
  for (int i = 0; i < n; ++i) y[i] += a * x[i];
}

// y[0..2n) += a * x[0..2n), in two halves.
kernel void restrict_halves(global int* restrict y, global const int* restrict x, int a, int n) {
  scaled_add(y, x, a, n);
  scaled_add(y + n, x + n, a, n);
}

kernel void expect_assume(global int* out, int n) {
  int i = get_global_id(0);
  __builtin_assume(n > 0);
  if (__builtin_expect(i < n, 1)) out[i] = i * 3;
}

// out[i] = (sum of out[0..n)) ^ (xor of out[j] << 1), read before any work-item writes (the
// launch has one work-group; a barrier separates the reads from the write).
kernel void unroll_pragmas(global int* out, int n) {
  int s = 0;
#pragma unroll 4
  for (int i = 0; i < n; ++i) s += out[i];
#pragma nounroll
  for (int i = 0; i < n; ++i) s ^= out[i] << 1;
  barrier(CLK_GLOBAL_MEM_FENCE);
  out[get_global_id(0)] = s;
}

kernel void bit_reverse(global uint* out) {
  uint x = out[get_global_id(0)], r = 0;
  for (int b = 0; b < 32; ++b) r |= ((x >> b) & 1u) << (31 - b);
  out[get_global_id(0)] = r;
}

// __attribute__((annotate)) leaves its string as a module-scope variable in the Function storage
// class (UserSemantic holds the text), which SPIR-V does not allow.
kernel void annotated(global const int* in, global int* out) {
  __attribute__((annotate("cl2vk: doubled"))) int x = in[get_global_id(0)];
  out[get_global_id(0)] = 2 * x;
}
