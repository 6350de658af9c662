// signed-offsets-as-integers: a buffer pointer moved by an element index that may be negative
// (OpPtrAccessChain of a PhysicalStorageBuffer pointer whose index is not known to be
// non-negative) becomes integer arithmetic on its address: OpConvertPtrToU, the index times the
// pointee's ArrayStride added, OpConvertUToPtr.
//
// NVIDIA's driver (580, H100 and H200) loses accesses through a chain whose index is negative:
// `global int* c = f + i + back; c[-back] = v` (clang writes the index as a sign extension) stored
// nothing, and the CTS's vstore_half3 through `f - adjust` (the index 0 minus a zero extension)
// left the last halves unwritten, while the same address reached as an integer was right. An index
// built only from non-negative values (constants, zero extensions, work-item ids, sums, products,
// logical shifts, unsigned division of them) keeps its access chain, which the driver handles; any
// other (a sign extension, a subtraction, a value loaded from memory) goes through the address.
// Runs after lower-pointers and before lower-int64, which lowers the address arithmetic where the
// device has no 64-bit integers.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> signedOffsetsAsIntegers(ir::Module& module, const Target& target);

}  // namespace cl2vk
