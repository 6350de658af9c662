// combine-vector-loads: loads of single components of one vector in __local or __private memory
// (OpAccessChain whose last index is a constant component), made in one block with no write to
// that memory between them, become one load of the vector and an OpCompositeExtract per
// component. clang splits `float4 v = lm[i]` into component loads when the components are used
// one by one (CLBlast's GEMM reads its __local tiles so); NVIDIA's OpenCL compiler merges them
// back into one 128-bit shared-memory load, and a Vulkan driver may not. Components nobody reads
// are read too, which is harmless in Workgroup and Function memory: the whole vector is inside the
// variable. Buffers are left alone (a vector read there could pass the end of the buffer).
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> combineVectorLoads(ir::Module& module, const Target& target);

}  // namespace cl2vk
