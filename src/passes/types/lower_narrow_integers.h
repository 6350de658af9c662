// lower-narrow-integers: for a device without shaderInt8/shaderInt16 or without 8/16-bit buffer
// storage (SwiftShader, many mobile GPUs), 8- and 16-bit integers (char, short, their vectors
// and structs holding them) become 32-bit values holding the zero-extended bits: operations that
// can carry past the width (add, sub, mul, shl, not, negate) mask their result, signed ones
// (arithmetic shift, signed divide, remainder, compare, min, max, abs, sign extension) first
// sign-extend their operands. Buffer pointers to such types become 64-bit addresses, and loads
// and stores through them read and write the 32-bit words that hold the bytes (word_access.cc);
// a store of part of a word sets and then clears its bits with atomic or/and, so that neighbouring
// work-items' stores to the same word do not race. __local and __private variables of such types
// get 32-bit elements. A width is lowered when the target lacks either its arithmetic or its
// storage; nothing changes when it has both.
//
// Refused, naming kernel and instruction: atomics, spec constants and function calls on such
// types, 16-bit floats (half) when a width is lowered, and operations this pass does not know.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerNarrowIntegers(ir::Module& module, const Target& target);

}  // namespace cl2vk
