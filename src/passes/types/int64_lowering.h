// The parts of lower-int64 (lower_int64.h): 64-bit arithmetic on pairs of 32-bit halves
// (int64_arithmetic.cc, int64_conversions.cc), the per-instruction rewrites
// (int64_instructions.cc, int64_collectives.cc), and the state they share: which values became which halves, and the
// types a 64-bit integer takes in memory (lower_int64.cc).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/builder.h"
#include "ir/types.h"

namespace cl2vk::int64 {

// A 64-bit integer value, or a vector of them, as its two 32-bit halves: each a uint, or a uint
// vector of the value's component count.
struct Pair {
  uint32_t lo = 0, hi = 0;
};

// --- Arithmetic on pairs (int64_arithmetic.cc). The halves' type comes from the operands; a
// constant is splatted to their shape. ---

Pair add(ir::Builder& b, Pair x, Pair y);
Pair sub(ir::Builder& b, Pair x, Pair y);
Pair negate(ir::Builder& b, Pair x);
// The low 64 bits of x * y.
Pair mul(ir::Builder& b, Pair x, Pair y);
// The high 64 bits of the 128-bit product (mul_hi).
Pair mulHigh(ir::Builder& b, Pair x, Pair y, bool isSigned);
// Shifts by a 32-bit amount in [0, 63] (SPIR-V leaves larger ones undefined; OpenCL C's
// modulo-64 rule is applied by the front end).
Pair shiftLeft(ir::Builder& b, Pair x, uint32_t amount);
Pair shiftRight(ir::Builder& b, Pair x, uint32_t amount, bool arithmetic);
// A shift left by a constant in [0, 63]: no selects.
Pair shiftLeftBy(ir::Builder& b, Pair x, uint32_t amount);
// An integer comparison opcode (OpIEqual ... OpSGreaterThanEqual) on pairs: a bool of their shape.
uint32_t compare(ir::Builder& b, spv::Op opcode, Pair x, Pair y);
Pair select(ir::Builder& b, uint32_t condition, Pair x, Pair y);
Pair bitwise(ir::Builder& b, spv::Op opcode, Pair x, Pair y);
// A constant pair of the halves' type `half`.
Pair constant(ir::Builder& b, uint32_t half, uint64_t value);
// Whether a signed pair is below zero: a bool of its shape.
uint32_t isNegative(ir::Builder& b, Pair x);
// Quotient and remainder of unsigned scalar halves, by a 64-step shift-subtract loop (a 32-bit
// division when both fit in 32 bits). `b` is at the end of a block (it builds control flow).
std::pair<Pair, Pair> divideUnsigned(ir::Builder& b, Pair n, Pair d);

// --- Conversions with floats (int64_conversions.cc). ---

// x (signed or not) to the float type `type` (16, 32 or 64 bits), rounded to nearest even.
uint32_t toFloat(ir::Builder& b, Pair x, uint32_t type, bool isSigned);
// A float or double, truncated toward zero, to 64 bits; out-of-range values saturate and NaN is 0.
Pair fromFloat(ir::Builder& b, uint32_t value, bool isSigned);

// What the rewrite of a module shares: the halves of every 64-bit value seen so far, and the
// 32-bit types that stand for 64-bit ones.
class Lowering {
 public:
  Lowering(ir::Module& module, uint32_t maxSubgroupSize);

  ir::Module& module() { return module_; }
  // The target's largest subgroup size: how many shuffle steps a scan takes.
  uint32_t maxSubgroupSize() const { return maxSubgroupSize_; }
  // A 64-bit integer scalar or vector type.
  bool isWide(uint32_t type) const;
  bool isWideValue(uint32_t id) const { return isWide(ir::typeOf(module_, id)); }
  // Whether a type is or contains (through vectors, arrays, structs, pointers) a 64-bit integer.
  bool containsWide(uint32_t type) const;
  // The halves' type of a wide type: uint or uvecN.
  uint32_t halfType(uint32_t wideType);
  // The type a wide type takes in memory: uvec2, or an array of N uvec2 for a vector.
  uint32_t memoryType(uint32_t wideType);

  // The halves of a wide value; constants, nulls and undefs get theirs on first use.
  Pair pair(uint32_t id);
  void define(uint32_t id, Pair halves) { pairs_[id] = halves; }
  // The wide value `halves` (of `wideType`) in its memory form, and back.
  uint32_t join(ir::Builder& b, Pair halves, uint32_t wideType);
  Pair split(ir::Builder& b, uint32_t memoryValue, uint32_t wideType);
  // One component of a vector pair as a scalar pair, and a vector pair from scalar ones.
  Pair component(ir::Builder& b, Pair vector, uint32_t index);
  Pair vectorOf(ir::Builder& b, const std::vector<Pair>& components, uint32_t halfType);
  // A 32-bit index or amount: a wide value's low half, others resized to 32 bits.
  uint32_t low32(ir::Builder& b, uint32_t id);

  // The instruction is replaced: its result (when wide) now has `halves`; it goes at the end.
  void replace(ir::Instruction& inst, Pair halves);
  // The instruction is replaced by `value` (a non-wide result).
  void replace(ir::Instruction& inst, uint32_t value);
  void remove(ir::Instruction& inst) { dead_.push_back(&inst); }
  const std::vector<ir::Instruction*>& dead() const { return dead_; }

  // The 64-bit types and constants, replaced by their memory forms once every function is done.
  Status retypeGlobals();

 private:
  ir::Module& module_;
  uint32_t maxSubgroupSize_;
  std::unordered_map<uint32_t, Pair> pairs_;
  std::map<uint32_t, uint32_t> memoryTypes_;
  std::vector<ir::Instruction*> dead_;
};

// An OpBitcast from one buffer pointer type to another, which goes through a uvec2 instead
// (SwiftShader dies compiling a pointer-to-pointer bit cast whose result is bit-cast to an integer).
bool isBufferPointerCast(const ir::Module& module, const ir::Instruction& inst);

// Rewrites one instruction that computes, reads or writes a 64-bit integer
// (int64_instructions.cc). Phis are the driver's.
Status lowerInstruction(Lowering& lowering, ir::Instruction& inst);
// An OpGroupNonUniform* instruction on 64-bit integers (int64_collectives.cc).
Status lowerCollective(Lowering& lowering, ir::Instruction& inst);

}  // namespace cl2vk::int64
