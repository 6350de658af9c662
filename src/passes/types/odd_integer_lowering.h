// The parts of widen-odd-integers (widen_odd_integers.h): the driver that maps types and
// constants and walks the instructions (widen_odd_integers.cc), and the arithmetic, conversions,
// OpenCL.std functions and memory accesses on the widened values (odd_integer_arithmetic.cc,
// odd_integer_memory.cc).
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>

#include "ir/builder.h"
#include "passes/pass.h"

namespace cl2vk::odd {

using ir::Builder;
using ir::Instruction;
using ir::Module;

// The standard width (8, 16, 32 or 64) that holds an integer of `width` bits.
uint32_t widenedWidth(uint32_t width);

class OddIntegerWidening {
 public:
  explicit OddIntegerWidening(Module& module) : module_(module) {}

  Expected<PassResult> run();

  // --- Types (widen_odd_integers.cc) ---
  // The width of an integer scalar or vector type that is not 8, 16, 32 or 64 bits wide, else 0.
  uint32_t oddWidth(uint32_t type) const;
  // Whether `type` holds such an integer anywhere (members, elements, pointees, parameters).
  bool involvesOdd(uint32_t type);
  // The type values of `type` have after the pass; `type` itself when not involved.
  uint32_t mapType(uint32_t type);
  // The type `value` had before the pass (values this pass made remember theirs).
  uint32_t originalType(uint32_t value) const;
  // `value` as the pass holds it: a widened constant for an old one, else itself.
  uint32_t widened(uint32_t value);
  // Replaces `inst` by `value`, which stands for a value of `original` type, and removes it.
  Status finish(Instruction& inst, uint32_t value, uint32_t original);
  // Rewrites `inst` in place with its type mapped and its operands widened.
  void retype(Instruction& inst);

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

  Module& module() { return module_; }

 private:
  Status lowerInstruction(Instruction& inst);
  Status lowerGlobals();
  Status lowerFunctionHeaders();
  Status removeOldTypes();

  Module& module_;
  std::unordered_map<uint32_t, bool> involves_;
  std::unordered_map<uint32_t, uint32_t> mapped_;     // type -> type after the pass
  std::unordered_map<uint32_t, uint32_t> constants_;  // old constant -> widened constant
  std::unordered_map<uint32_t, uint32_t> original_;   // value made by the pass -> its old type
  uint32_t firstNewId_ = 0;                           // ids from here on were made by the current lowering
};

}  // namespace cl2vk::odd
