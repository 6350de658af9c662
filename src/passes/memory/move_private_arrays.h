// move-private-arrays: where a kernel's __private arrays and structs (its Function variables that
// promote-variables left in memory) come to more bytes than Target::privateMemoryBudget, moves the
// largest of them to a scratch buffer until the rest fits. NVIDIA's driver fails to create a
// pipeline whose invocations need more than about 8 KB of Function memory, where its OpenCL runs
// the same kernel (docs/decisions.md, "Private arrays on NVIDIA").
//
// A moved variable becomes a __global pointer into the hidden parameter `cl2vk.private_scratch`, a
// pointer to the invocation's own block of the buffer (a uint array of the kernel's scratch
// stride); lower-kernel-interface offsets the buffer's address by the invocation's index in its
// dispatch, and the runtime sizes the buffer for the largest dispatch (and splits the range into
// dispatches of at most so many invocations). Every pointer derived from a moved variable (access
// chains, casts, phis and selects) changes storage class with it; variables that a phi, select or
// comparison joins move together. A variable whose pointer leaves what the pass can retype (stored
// in memory, passed to a call, joined with a pointer of unknown origin) stays.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> movePrivateArrays(ir::Module& module, const Target& target);

}  // namespace cl2vk
