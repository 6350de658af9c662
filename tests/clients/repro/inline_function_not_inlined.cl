// Found with CLBlast 1.5.3 on an NVIDIA H200 (issue 17): its GEMM routines failed to build with
//   lower-pointers: kernel 'TransposePadMatrix': %869 = OpFunctionCall in function
//   'TransposePadMatrix': uses a __local or __private pointer in a way Vulkan cannot express
// CLBlast writes its helpers as INLINE_FUNC, which it defines as `inline` only on devices whose
// vendor is NVIDIA, ARM or Qualcomm (elsewhere it is empty, so lavapipe never saw the problem).
// Under C99's rules, which OpenCL C follows, a plain `inline` definition is not an external
// definition: clang-15 emits it `available_externally`, so when LLVM's inliner finds the body too
// large to inline (CLBlast's fully unrolled tiles) the call stays and the body is dropped. The
// SPIR-V then calls a function that is only declared (Import linkage); a __local pointer passed to
// it is what lower-pointers saw first. At -O0 clang does not emit the body at all, so any call to
// a plain `inline` function failed with -cl-opt-disable.
//
// Reproduce: clang-15 -cl-std=CL1.2 -target spir64 -O2 -fno-vectorize -fno-slp-vectorize -c
//   -emit-llvm inline_function_not_inlined.cl -o i.bc && llvm-spirv-15 i.bc -o i.spv &&
//   spirv-dis i.spv | grep LinkageAttributes
// shows `OpDecorate %transposeTile LinkageAttributes "transposeTile" Import`; cl2vk-opt i.spv and
// clBuildProgram on cl2vk before the fix failed as above. The runtime's source compiler now keeps inline definitions as
// module-private copies (docs/clients.md, "CLBlast").
#define WPT 4
#define TILE 16

inline void transposeTile(__local float* tile, __global const float* src, __global float* dst, int n) {
#pragma unroll
  for (int i = 0; i < WPT; ++i) {
#pragma unroll
    for (int j = 0; j < WPT; ++j) {
      int column = (get_group_id(1) * WPT + j) * TILE + get_local_id(0);
      int row = (get_group_id(0) * WPT + i) * TILE + get_local_id(1);
      float value = (column < n && row < n) ? src[row * n + column] : 0.0f;
      tile[(get_local_id(1) * WPT + j) * (WPT * TILE + 1) + get_local_id(0) * WPT + i] = value;
    }
  }
  barrier(CLK_LOCAL_MEM_FENCE);
#pragma unroll
  for (int i = 0; i < WPT; ++i) {
#pragma unroll
    for (int j = 0; j < WPT; ++j) {
      int column = (get_group_id(0) * WPT + i) * TILE + get_local_id(0);
      int row = (get_group_id(1) * WPT + j) * TILE + get_local_id(1);
      if (column < n && row < n) {
        dst[row * n + column] = tile[(get_local_id(0) * WPT + j) * (WPT * TILE + 1) + get_local_id(1) * WPT + i];
      }
    }
  }
}

__kernel __attribute__((reqd_work_group_size(TILE, TILE, 1))) void transpose(__global const float* src,
                                                                            __global float* dst, int n) {
  __local float tile[WPT * TILE * (WPT * TILE + 1)];
  transposeTile(tile, src, dst, n);
}
