// Found by the pyopencl suite (arrays of structs, radix sort, KeyValueSorter), and repaired since by
// repair-llvm-spirv (docs/frontend.md): llvm-spirv-15 puts an OpVariable outside the entry block.
//
// At -O2, clang-15's MemCpyOpt joins "load a struct from one global buffer, store it to another"
// into one llvm.memmove (it cannot prove the buffers apart). llvm-spirv-15 lowers llvm.memmove
// through a temporary: an OpVariable (uchar[20], Function) followed by two OpCopyMemorySized, and it
// places that OpVariable where the memmove was, inside the loop's block. The input check refuses it:
//   the input is not valid SPIR-V: SPIRV-Tools validation (spv1.0) failed: All OpVariable
//   instructions in a function must be the first instructions in the first block.
//     %82 = OpVariable %_ptr_Function__arr_uchar_ulong_20 Function
// Reproduce: clang-15 -cl-std=CL1.2 -target spir64 -O2 -fno-vectorize -fno-slp-vectorize -c -emit-llvm
//   struct_copy_memmove.cl -o s.bc && llvm-spirv-15 s.bc -o s.spv && spirv-val s.spv
// (or build it with clBuildProgram on cl2vk). The repair moves Function-storage OpVariables into
// the entry block (each is private to one invocation, and its OpLifetimeStart/Stop keep marking
// where it is live); the copies then go through a uchar[20] array, which lower-pointers' word-
// addressed memory accepts.
typedef struct {
  float4 position;
  int id;
  float mass;
  uchar flags;
  short charge;
} particle;

__kernel void gather(__global particle *out, __global const particle *in, __global const int *order, long n) {
  for (long i = get_global_id(0); i < n; i += get_global_size(0)) {
    particle q = in[order[i]];
    q.mass *= 2;
    out[i] = q;
  }
}
