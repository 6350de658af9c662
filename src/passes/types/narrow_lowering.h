// The parts of lower-narrow-integers (lower_narrow_integers.h): the driver that maps types and
// constants and walks the instructions (lower_narrow_integers.cc), arithmetic and conversions
// (narrow_arithmetic.cc), and buffer pointers as addresses with word access (narrow_memory.cc).
#pragma once

#include <cstdint>

#include "cl2vk/target.h"
#include "ir/builder.h"
#include "passes/pass.h"
#include "passes/types/integer_widening.h"

namespace cl2vk::narrow {

using ir::Builder;
using ir::Instruction;
using ir::Module;

class NarrowLowering : public IntegerWidening {
 public:
  NarrowLowering(Module& module, const Target& target);

  Expected<PassResult> run();

  // --- Types (lower_narrow_integers.cc) ---
  // The width of an 8/16-bit integer (or 16-bit float) scalar or vector type that this target
  // lowers, else 0.
  uint32_t narrowWidth(uint32_t type) const;
  uint32_t sourceWidth(uint32_t type) const override { return narrowWidth(type); }

  // --- Arithmetic (narrow_arithmetic.cc) ---
  // `value` (a widened integer of `width` bits) with the bits above `width` cleared.
  uint32_t mask(Builder& b, uint32_t value, uint32_t width);
  // `value` (a widened integer of `width` bits) sign-extended to 32 bits.
  uint32_t signExtend(Builder& b, uint32_t value, uint32_t width);
  // Lowers one instruction that computes on or converts lowered integers; false when the
  // opcode is not one of these.
  Expected<bool> lowerArithmetic(Instruction& inst);
  Expected<bool> lowerConversion(Instruction& inst);
  // `value` (widened, of `source` type before the pass) reinterpreted as `type`: char4 <-> int,
  // short2 <-> int, char8 <-> long ...; neither is a 16-bit float.
  uint32_t bitcast(Builder& b, uint32_t value, uint32_t source, uint32_t type);

  // --- Memory (narrow_memory.cc) ---
  // Lowers buffer pointer arithmetic, conversions, loads and stores of involved types; false
  // when `inst` is not one of these.
  Expected<bool> lowerMemory(Instruction& inst);

  const Target& target() const { return target_; }

 private:
  // 32-bit integers for lowered ones, 64-bit addresses for buffer pointers to involved types.
  uint32_t mapNonAggregate(const Instruction& type) override;
  // Lowers `inst` if it computes on, converts, stores or points to lowered types.
  Status lowerInstruction(Instruction& inst);
  Status lowerGlobals();
  // Whether `inst` computes on or with a 16-bit float.
  bool involvesHalf(const Instruction& inst) const;
  Status removeOldTypes();

  const Target& target_;
  bool lower8_, lower16_;
  bool lowerHalf_;                // 16-bit floats as their bits: without shaderFloat16, or with 16-bit ints lowered
  uint32_t wordPointerType_ = 0;  // PhysicalStorageBuffer uint*, ArrayStride 4
};

}  // namespace cl2vk::narrow
