// Inserts new instructions at a fixed point in a module: before an instruction, after one, or at
// the end of a block. Successive instructions keep their order, so a lowering reads top to bottom.
#pragma once

#include <cstdint>
#include <vector>

#include "ir/module.h"

namespace cl2vk::ir {

class Builder {
 public:
  // New instructions go before `position`.
  static Builder before(Module& module, Instruction* position);
  // New instructions go after `position` (and after each other).
  static Builder after(Module& module, Instruction* position);
  // New instructions go at the end of `block`.
  static Builder atEnd(Module& module, Block& block);

  Module& module() { return module_; }

  // Adds an instruction; a fresh result id is allocated when the opcode has a result.
  Instruction* add(spv::Op opcode, uint32_t typeId, std::vector<Operand> operands);
  // Adds an instruction with a result and returns its id.
  uint32_t value(spv::Op opcode, uint32_t typeId, std::vector<Operand> operands);
  // The same with every operand an id (the common case of arithmetic and conversions).
  uint32_t valueOfIds(spv::Op opcode, uint32_t typeId, const std::vector<uint32_t>& ids);

 private:
  enum class Mode { kBefore, kAfter, kAtEnd };
  Builder(Module& module, Mode mode, Instruction* anchor, Block* block)
      : module_(module), mode_(mode), anchor_(anchor), block_(block) {}

  Module& module_;
  Mode mode_;
  Instruction* anchor_;  // kBefore: insert before it; kAfter: insert after it, then it moves on
  Block* block_;         // kAtEnd
};

}  // namespace cl2vk::ir
