// lower-pointers: moves OpenCL's pointers to what Vulkan allows.
//
// - __global and __constant buffers (CrossWorkgroup, and UniformConstant values that came from
//   an argument address) become PhysicalStorageBuffer pointers: pointer arithmetic stays pointer
//   arithmetic (OpPtrAccessChain with ArrayStride), pointees get explicit layouts (OpenCL C's),
//   every access is Aligned.
// - Program-scope __constant tables become Private variables with their initializers.
// - __local and __private pointers (Workgroup, Function) become logical: every access is an
//   OpAccessChain from the variable, built at the access from the path the pointer took
//   (access chains, pointer arithmetic inside an array, casts through generic, phis and selects
//   that differ only in the last index).
// - Generic pointers take the address space of where they come from; get_fence of one
//   (OpGenericPtrMemSemantics) becomes the semantics of that space (selected at run time where a
//   select or phi of pointers into two spaces decides it). Those whose space the path decides
//   (joins of two spaces, generic pointers loaded from memory) become tagged 64-bit pointers
//   (tagged_pointers.h).
// - Memory that typed access cannot express (unions, casts to other types, pointers stored in
//   memory or compared) becomes word-addressed (word_memory.h).
// - OpCopyMemory(Sized) become a load and a store; lifetime markers go.
// What cannot be expressed is an error naming the kernel and the instruction.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerPointers(ir::Module& module, const Target& target);

}  // namespace cl2vk
