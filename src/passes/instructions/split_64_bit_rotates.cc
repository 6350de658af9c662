#include "passes/instructions/split_64_bit_rotates.h"

#include <optional>
#include <utility>
#include <vector>

#include "analysis/data_layout.h"
#include "ir/builder.h"
#include "ir/types.h"
#include "passes/lowering.h"

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Module;
using spv::Op;

// The amount a shift by `id` moves every component: a scalar constant, or a constant vector whose
// components are equal.
std::optional<uint64_t> uniformAmount(const Module& module, uint32_t id) {
  const Instruction* def = module.def(id);
  if (!def) return std::nullopt;
  if (def->opcode() != Op::OpConstantComposite) return constantValue(module, id);
  std::optional<uint64_t> amount;
  for (uint32_t i = 0; i < def->numOperands(); ++i) {
    std::optional<uint64_t> part = constantValue(module, def->idOperand(i));
    if (!part || (amount && *amount != *part)) return std::nullopt;
    amount = part;
  }
  return amount;
}

// A rotate found: the value and the amount it moves left, in (0, 64).
struct Rotate {
  uint32_t value = 0;
  uint32_t left = 0;
};

// `inst` as a rotate: an or of x shifted left by a and x shifted right by 64 - a, either way round.
std::optional<Rotate> asRotate(const Module& module, const Instruction& inst) {
  if (inst.opcode() != Op::OpBitwiseOr || ir::intWidth(module, inst.typeId()) != 64) return std::nullopt;
  const Instruction* first = module.def(inst.idOperand(0));
  const Instruction* second = module.def(inst.idOperand(1));
  if (!first || !second) return std::nullopt;
  if (first->opcode() == Op::OpShiftRightLogical) std::swap(first, second);
  if (first->opcode() != Op::OpShiftLeftLogical || second->opcode() != Op::OpShiftRightLogical) return std::nullopt;
  if (first->idOperand(0) != second->idOperand(0) || first->typeId() != inst.typeId()) return std::nullopt;
  std::optional<uint64_t> left = uniformAmount(module, first->idOperand(1));
  std::optional<uint64_t> right = uniformAmount(module, second->idOperand(1));
  if (!left || !right || *left == 0 || *left >= 64 || *left + *right != 64) return std::nullopt;
  return Rotate{first->idOperand(0), static_cast<uint32_t>(*left)};
}

// The 64-bit scalar `x` rotated left by `left` in (0, 64) as a `type`, through its halves: for a below 32,
// high' = high << a | low >> (32 - a) and low' = low << a | high >> (32 - a); for 32 and above the
// halves change places first. (OpBitcast puts a 64-bit value's low-order bits in component 0.)
uint32_t rotateHalves(ir::Builder& b, uint32_t x, uint32_t left, uint32_t type) {
  uint32_t word = b.uintType(type, 32);
  uint32_t pair = ir::typeVector(b.module(), word, 2);
  uint32_t halves = b.bitcast(pair, x);
  uint32_t low = b.extract(word, halves, 0), high = b.extract(word, halves, 1);
  if (left >= 32) std::swap(low, high);
  left %= 32;
  if (left != 0) {
    // One instruction per statement: the order of a call's arguments is the compiler's choice.
    uint32_t up = b.bits(word, left), down = b.bits(word, 32 - left);
    uint32_t lowUp = b.shl(low, up);
    uint32_t highDown = b.lshr(high, down);
    uint32_t highUp = b.shl(high, up);
    uint32_t lowDown = b.lshr(low, down);
    low = b.bitOr(lowUp, highDown);
    high = b.bitOr(highUp, lowDown);
  }
  return b.bitcast(type, b.op(Op::OpCompositeConstruct, pair, {low, high}));
}

}  // namespace

Expected<PassResult> split64BitRotates(Module& module, const Target& target) {
  if (!target.split64BitRotates || !target.int64) return PassResult::kUnchanged;
  auto wanted = [&module](const Instruction& inst) { return asRotate(module, inst).has_value(); };
  return lowerInstructions(module, wanted, [](Module& m, Instruction& inst) -> Expected<bool> {
    Rotate rotate = *asRotate(m, inst);
    ir::Builder b = ir::Builder::before(m, &inst);
    uint32_t count = b.componentCount(inst.typeId());
    uint32_t rotated;
    if (count == 1) {
      rotated = rotateHalves(b, rotate.value, rotate.left, inst.typeId());
    } else {
      std::vector<uint32_t> components;
      uint32_t component = b.componentType(inst.typeId());
      for (uint32_t i = 0; i < count; ++i)
        components.push_back(rotateHalves(b, b.extract(component, rotate.value, i), rotate.left, component));
      rotated = b.op(Op::OpCompositeConstruct, inst.typeId(), components);
    }
    std::vector<uint32_t> shifts = {inst.idOperand(0), inst.idOperand(1)};
    m.replaceAllUses(inst.resultId(), rotated);
    CL2VK_TRY(m.remove(&inst));
    // The shifts, unless something else uses them too.
    for (uint32_t shift : shifts)
      if (!m.isUsed(shift)) CL2VK_TRY(m.remove(m.def(shift)));
    return true;
  });
}

}  // namespace cl2vk
