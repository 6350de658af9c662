// lower-pointers for __local and __private memory that a kernel reinterprets (unions, casts to
// another pointer type, byte views, memcpy between types, vload/vstore on private arrays), whose
// pointers it stores in memory, converts to integers, compares, or mixes between objects. Vulkan's
// logical pointers can express none of that, so such variables become **word-addressed objects**:
// one array of 32-bit words per group of variables that pointers can move between, with every
// pointer into the group a byte offset and every access a typed read or write of words (sub-word
// stores to __local memory as atomic or/and, so that neighbours' stores do not race).
//
// Variables whose every use the typed rewrite (logical_pointers.h) can express are left to it, so
// kernels that do not pun keep their typed access and their speed.
#pragma once

#include "cl2vk/expected.h"
#include "ir/module.h"

namespace cl2vk::pointers {

// Runs once per module, after address spaces are inferred and pointer values retyped, and before
// the typed rewrite of each function.
Status lowerWordAddressedMemory(ir::Module& module);

}  // namespace cl2vk::pointers
