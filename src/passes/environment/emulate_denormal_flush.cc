#include "passes/environment/emulate_denormal_flush.h"

#include <unordered_set>

#include "ir/builder.h"
#include "ir/types.h"
#include "passes/lowering.h"

namespace cl2vk {
namespace {

using ir::Builder;
using ir::Instruction;
using ir::Module;

constexpr uint32_t kSignBit = 0x80000000u, kMagnitude = 0x7fffffffu, kSmallestNormal = 0x00800000u;

// The instructions NVIDIA's FTZ mode flushes: what computes with a float's value. What moves bits
// (load, store, bit cast, select, phi, composites, shuffles) and the classification tests IsNan and
// IsInf, which look at the bits, do not.
bool flushes(const Module& module, const Instruction& inst) {
  using O = spv::Op;
  switch (inst.opcode()) {
    case O::OpFAdd:
    case O::OpFSub:
    case O::OpFMul:
    case O::OpFDiv:
    case O::OpFRem:
    case O::OpFMod:
    case O::OpFNegate:
    case O::OpVectorTimesScalar:
    case O::OpDot:
    case O::OpFConvert:
    case O::OpConvertFToS:
    case O::OpConvertFToU:
    case O::OpFOrdEqual:
    case O::OpFUnordEqual:
    case O::OpFOrdNotEqual:
    case O::OpFUnordNotEqual:
    case O::OpFOrdLessThan:
    case O::OpFUnordLessThan:
    case O::OpFOrdGreaterThan:
    case O::OpFUnordGreaterThan:
    case O::OpFOrdLessThanEqual:
    case O::OpFUnordLessThanEqual:
    case O::OpFOrdGreaterThanEqual:
    case O::OpFUnordGreaterThanEqual:
    case O::OpGroupNonUniformFAdd:
    case O::OpGroupNonUniformFMul:
    case O::OpGroupNonUniformFMin:
    case O::OpGroupNonUniformFMax: return true;
    case O::OpExtInst: {
      const Instruction* set = module.def(inst.idOperand(0));
      return set && set->stringOperand(0) == "GLSL.std.450";
    }
    default: return false;
  }
}

bool isFloat32(Builder& b, uint32_t type) { return type != 0 && b.isFloat(type) && b.width(type) == 32; }

// Whether a constant's value passes through a flush unchanged (no denormal component), so that
// the common case, a normal constant operand, costs nothing.
bool constantKeepsItsValue(const Module& module, uint32_t id) {
  const Instruction* def = module.def(id);
  if (!def) return false;
  switch (def->opcode()) {
    case spv::Op::OpConstantNull: return true;
    case spv::Op::OpConstant: {
      uint32_t magnitude = def->wordOperand(0) & kMagnitude;
      return magnitude == 0 || magnitude >= kSmallestNormal;
    }
    case spv::Op::OpConstantComposite:
      for (const ir::Operand& component : def->operands()) {
        if (!constantKeepsItsValue(module, component.words.at(0))) return false;
      }
      return true;
    default: return false;
  }
}

class Flusher {
 public:
  explicit Flusher(Module& module) : module_(module) {}

  Expected<bool> flushInstruction(Module&, Instruction& inst) {
    Builder before = Builder::before(module_, &inst);
    bool changed = false;
    std::vector<ir::Operand> operands = inst.operands();
    for (ir::Operand& operand : operands) {
      if (!operand.isId()) continue;
      uint32_t id = operand.words.at(0);
      if (flushed_.contains(id) || !isFloat32(before, ir::typeOf(module_, id)) || constantKeepsItsValue(module_, id))
        continue;
      operand.words[0] = flushValue(before, id);
      changed = true;
    }
    spv::Op opcode = inst.opcode();
    if (opcode == spv::Op::OpFDiv && isFloat32(before, inst.typeId())) {
      // NVIDIA's division: the dividend times the divisor's reciprocal, which is flushed for a
      // divisor above 2^126 (Vulkan defines OpFDiv only for divisors in [2^-126, 2^126]).
      uint32_t reciprocal = before.fdiv(before.real(inst.typeId(), 1.0), operands[1].words[0]);
      operands[1] = ir::Operand::id(flushValue(before, reciprocal));
      opcode = spv::Op::OpFMul;
      changed = true;
    }
    if (changed) module_.update(&inst, Instruction(opcode, inst.typeId(), inst.resultId(), operands));
    if (inst.resultId() == 0 || !isFloat32(before, inst.typeId())) return changed;
    // The result: its users get the flushed value, the flush itself the raw one.
    Builder after = Builder::after(module_, &inst);
    uint32_t result = inst.resultId();
    std::vector<ir::Use> users = module_.uses(result);
    uint32_t value = flushValue(after, result);
    for (const ir::Use& use : users) {
      if (use.operandIndex < 0 || !use.user->block()) continue;  // names and decorations stay
      std::vector<ir::Operand> rewritten = use.user->operands();
      rewritten.at(use.operandIndex).words[0] = value;
      module_.update(use.user, Instruction(use.user->opcode(), use.user->typeId(), use.user->resultId(), rewritten));
    }
    return true;
  }

 private:
  // Zero of the value's sign where its magnitude is below the smallest normal float, by integer
  // arithmetic on its bits (which no device flushes).
  uint32_t flushValue(Builder& b, uint32_t value) {
    uint32_t type = b.typeOf(value);
    uint32_t uintType = b.uintType(type, 32);
    uint32_t bits = b.bitcast(uintType, value);
    uint32_t magnitude = b.bitAnd(bits, b.bits(uintType, kMagnitude));
    uint32_t tiny = b.compare(spv::Op::OpULessThan, magnitude, b.bits(uintType, kSmallestNormal));
    uint32_t zero = b.bitcast(type, b.bitAnd(bits, b.bits(uintType, kSignBit)));
    uint32_t flushed = b.select(tiny, zero, value);
    flushed_.insert(flushed);
    return flushed;
  }

  Module& module_;
  std::unordered_set<uint32_t> flushed_;  // values that are flushed already
};

}  // namespace

Expected<PassResult> emulateDenormalFlush(Module& module, const Target& target) {
  if (!target.emulateFloat32DenormalFlush) return PassResult::kUnchanged;
  Flusher flusher(module);
  return lowerInstructions(
      module, [&module](const Instruction& inst) { return flushes(module, inst); },
      [&flusher](Module& m, Instruction& inst) { return flusher.flushInstruction(m, inst); });
}

}  // namespace cl2vk
