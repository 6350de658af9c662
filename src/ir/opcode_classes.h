// Families of opcodes that several passes ask about.
#pragma once

#include "ir/instruction.h"

namespace cl2vk::ir {

// Instructions that end a block.
bool isBlockTerminator(spv::Op opcode);

// OpAtomic* read-modify-write, load, store, exchange and flag instructions: their first operand
// is the pointer, then the scope and the memory semantics.
bool isAtomic(spv::Op opcode);

}  // namespace cl2vk::ir
