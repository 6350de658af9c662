#include "passes/instructions/fold_integer_constants.h"

#include <optional>
#include <vector>

#include "analysis/data_layout.h"
#include "ir/types.h"

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Module;
using spv::Op;

// The width of a scalar integer type, 0 for any other.
uint32_t scalarIntegerWidth(const Module& module, uint32_t type) {
  return ir::isVectorType(module, type) ? 0 : ir::intWidth(module, type);
}

// The value of a scalar integer constant (OpConstant or OpConstantNull) in the low bits of its width.
std::optional<uint64_t> integerConstant(const Module& module, uint32_t id) {
  const Instruction* def = module.def(id);
  if (def && def->opcode() == Op::OpConstantNull && scalarIntegerWidth(module, def->typeId())) return 0;
  return constantValue(module, id);
}

// `op` of the constants `a` and `b` (b unused by unary operations) of `width` bits, before its
// truncation to the result's width (ir::constantBits keeps the low bits); nothing where the result is undefined (a
// shift by the width or more, a division by zero) or the operation is not one this pass folds.
std::optional<uint64_t> evaluate(Op op, uint32_t width, uint64_t a, uint64_t b) {
  switch (op) {
    case Op::OpIAdd: return a + b;
    case Op::OpISub: return a - b;
    case Op::OpIMul: return a * b;
    case Op::OpBitwiseAnd: return a & b;
    case Op::OpBitwiseOr: return a | b;
    case Op::OpBitwiseXor: return a ^ b;
    case Op::OpNot: return ~a;
    case Op::OpSNegate: return uint64_t{0} - a;
    case Op::OpUDiv: return b == 0 ? std::nullopt : std::optional<uint64_t>(a / b);
    case Op::OpUMod: return b == 0 ? std::nullopt : std::optional<uint64_t>(a % b);
    case Op::OpShiftLeftLogical: return b >= width ? std::nullopt : std::optional<uint64_t>(a << b);
    case Op::OpShiftRightLogical: return b >= width ? std::nullopt : std::optional<uint64_t>(a >> b);
    case Op::OpShiftRightArithmetic:
      return b >= width ? std::nullopt : std::optional<uint64_t>(static_cast<uint64_t>(signExtend(a, width) >> b));
    case Op::OpUConvert: return a;
    case Op::OpSConvert: return static_cast<uint64_t>(signExtend(a, width));
    default: return std::nullopt;
  }
}

bool isUnary(Op op) { return op == Op::OpNot || op == Op::OpSNegate || op == Op::OpUConvert || op == Op::OpSConvert; }

class Folder {
 public:
  explicit Folder(Module& module) : module_(module) {}

  // What `inst` computes, as an existing id, where this pass knows it; 0 otherwise.
  uint32_t fold(const Instruction& inst) {
    Op op = inst.opcode();
    if (op == Op::OpPtrAccessChain || op == Op::OpInBoundsPtrAccessChain) return stepByZero(inst);
    if (integerWidth(inst.typeId()) == 0 || inst.numOperands() < 1) return 0;
    uint32_t x = inst.idOperand(0);
    uint32_t width = integerWidth(ir::typeOf(module_, x));
    if (width == 0) return 0;
    std::optional<uint64_t> a = integerConstant(module_, x);
    if (isUnary(op) && inst.numOperands() == 1) return a ? constant(inst, evaluate(op, width, *a, 0)) : 0;
    if (inst.numOperands() != 2) return 0;
    uint32_t y = inst.idOperand(1);
    std::optional<uint64_t> b = integerConstant(module_, y);
    if (a && b) return constant(inst, evaluate(op, width, *a, *b));
    return identity(inst, x, a, y, b);
  }

 private:
  uint32_t integerWidth(uint32_t type) const { return scalarIntegerWidth(module_, type); }

  uint32_t constant(const Instruction& inst, std::optional<uint64_t> value) {
    if (!value) return 0;
    return ir::constantBits(module_, inst.typeId(), *value);
  }

  // x + 0, 0 + x, x - 0, x * 1, 1 * x, x | 0, 0 | x, x ^ 0, 0 ^ x, x shifted by 0: x, where x has
  // the result's type; x * 0, 0 * x, x & 0, 0 & x: 0.
  uint32_t identity(const Instruction& inst, uint32_t x, std::optional<uint64_t> a, uint32_t y,
                    std::optional<uint64_t> b) {
    auto same = [&](uint32_t id) { return ir::typeOf(module_, id) == inst.typeId() ? id : 0; };
    switch (inst.opcode()) {
      case Op::OpIAdd:
      case Op::OpBitwiseOr:
      case Op::OpBitwiseXor:
        if (b == 0u) return same(x);
        if (a == 0u) return same(y);
        return 0;
      case Op::OpISub:
      case Op::OpShiftLeftLogical:
      case Op::OpShiftRightLogical:
      case Op::OpShiftRightArithmetic: return b == 0u ? same(x) : 0;
      case Op::OpIMul:
        if (b == 1u) return same(x);
        if (a == 1u) return same(y);
        return a == 0u || b == 0u ? constant(inst, 0) : 0;
      case Op::OpBitwiseAnd: return a == 0u || b == 0u ? constant(inst, 0) : 0;
      default: return 0;
    }
  }

  // p[0] with no further index is p.
  uint32_t stepByZero(const Instruction& inst) {
    if (inst.numOperands() != 2 || integerConstant(module_, inst.idOperand(1)) != 0u) return 0;
    uint32_t base = inst.idOperand(0);
    return ir::typeOf(module_, base) == inst.typeId() ? base : 0;
  }

  Module& module_;
};

}  // namespace

Expected<PassResult> foldIntegerConstants(Module& module, const Target& /*target*/) {
  Folder folder(module);
  std::vector<Instruction*> folded;
  for (ir::Function& function : module.functions()) {
    for (ir::Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (inst.resultId() == 0) continue;
        uint32_t value = folder.fold(inst);
        if (value == 0) continue;
        module.replaceAllUses(inst.resultId(), value);
        folded.push_back(&inst);
      }
    }
  }
  for (Instruction* inst : folded) CL2VK_TRY(module.remove(inst));
  return folded.empty() ? PassResult::kUnchanged : PassResult::kChanged;
}

}  // namespace cl2vk
