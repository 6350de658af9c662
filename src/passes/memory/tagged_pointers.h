// Generic pointers whose address space the path decides, for lower-pointers: a phi or select of
// pointers into two spaces (`p = c ? &global_x : &local_y`), a generic pointer loaded from memory
// (a struct or array of pointers), and everything computed from them.
//
// Vulkan reaches __global memory through addresses and __local and __private memory through
// variables, so one pointer value cannot stand for both. Such a pointer becomes a **tagged
// pointer**: a 64-bit integer whose top two bits name the space (0 __global, 1 __local,
// 2 __private function memory, 3 __private module memory) and whose other bits are the buffer
// address or the byte offset into the space's word-addressed memory (word_memory.h: a __local or
// __private pointer converted to an integer is such an offset). Pointer arithmetic is integer
// arithmetic on it; each load, store and atomic through it branches on the tag to an access in
// each space the pointer can reach; to_global/to_local/to_private and comparisons read the tag.
// Generic pointers stored in memory are stored tagged, so that loading one back gives it again.
//
// Pointers whose space the inference tells (the common case) are not touched: only the functions
// whose inference fails on a generic pointer pay for the branches and the word-addressed memory.
// Buffer addresses must leave the top two bits clear, as every 64-bit virtual address in use does.
#pragma once

#include "passes/memory/pointer_spaces.h"

namespace cl2vk::pointers {

// Rewrites the generic pointers of `function` whose space `spaces` could not tell into tagged
// pointers. Returns false when there are none (the inference's error stands), true when the
// function has been rewritten and its spaces must be inferred again.
Expected<bool> tagGenericPointers(Module& module, Function& function, const SpaceInference& spaces);

}  // namespace cl2vk::pointers
