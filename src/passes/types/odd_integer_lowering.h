// The parts of widen-odd-integers (widen_odd_integers.h): the driver that maps types and
// constants and walks the instructions (widen_odd_integers.cc), and the arithmetic, conversions,
// OpenCL.std functions and memory accesses on the widened values (odd_integer_arithmetic.cc,
// odd_integer_memory.cc).
#pragma once

#include <cstdint>
#include <string>

#include "ir/builder.h"
#include "passes/pass.h"
#include "passes/types/integer_widening.h"

namespace cl2vk::odd {

using ir::Builder;
using ir::Instruction;
using ir::Module;

// The standard width (8, 16, 32 or 64) that holds an integer of `width` bits.
uint32_t widenedWidth(uint32_t width);

class OddIntegerWidening : public IntegerWidening {
 public:
  explicit OddIntegerWidening(Module& module) : IntegerWidening(module) {}

  Expected<PassResult> run();

  // --- Types (widen_odd_integers.cc) ---
  // The width of an integer scalar or vector type that is not 8, 16, 32 or 64 bits wide, else 0.
  uint32_t oddWidth(uint32_t type) const;
  uint32_t sourceWidth(uint32_t type) const override { return oddWidth(type); }

  // --- Arithmetic (odd_integer_arithmetic.cc) ---
  // `value` (a widened integer of `width` bits) with the bits above `width` cleared.
  uint32_t mask(Builder& b, uint32_t value, uint32_t width);
  // `value` (a widened integer of `width` bits) sign-extended to its whole type.
  uint32_t signExtend(Builder& b, uint32_t value, uint32_t width);
  // Lower one instruction; false when the opcode is not one that they lower.
  Expected<bool> lowerArithmetic(Instruction& inst);
  Expected<bool> lowerConversion(Instruction& inst);
  Expected<bool> lowerOpenclStd(Instruction& inst);
  // `value` (widened, of `source` type before the pass) reinterpreted as `type` (before the pass):
  // the bits laid out from component 0 up, as LLVM's bitcast does.
  uint32_t bitcast(Builder& b, uint32_t value, uint32_t source, uint32_t type);

  // --- Memory (odd_integer_memory.cc) ---
  // Loads and stores of such integers; false when `inst` is neither.
  Expected<bool> lowerMemory(Instruction& inst);

 private:
  // The next standard width for an odd integer, with the capability it needs.
  uint32_t mapNonAggregate(const Instruction& type) override;
  Status lowerInstruction(Instruction& inst);
  Status lowerGlobals();
  Status lowerFunctionHeaders();
  Status removeOldTypes();
};

}  // namespace cl2vk::odd
