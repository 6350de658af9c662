#include "passes/memory/signed_offsets.h"

#include <optional>
#include <unordered_map>
#include <vector>

#include "analysis/data_layout.h"
#include "ir/builder.h"
#include "ir/types.h"

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Module;

// Whether an integer value is known to be non-negative as a signed number of its width, from how
// it is made. Wrap-around of sums and products of non-negative values is not considered: an index
// that large is out of any buffer already. A phi is assumed non-negative while its own incoming
// values are examined (a counter that only grows stays non-negative).
class NonNegative {
 public:
  explicit NonNegative(const Module& module) : module_(module) {}

  bool operator()(uint32_t id) {
    if (auto known = known_.find(id); known != known_.end()) return known->second;
    const Instruction* def = module_.def(id);
    if (!def) return false;
    known_[id] = def->opcode() == spv::Op::OpPhi;  // the optimistic guess for cycles
    bool result = examine(*def);
    known_[id] = result;
    return result;
  }

 private:
  bool examine(const Instruction& def) {
    auto operand = [&](size_t i) { return (*this)(def.idOperand(i)); };
    switch (def.opcode()) {
      case spv::Op::OpConstant: {
        std::optional<uint64_t> value = constantValue(module_, def.resultId());
        uint32_t width = ir::scalarWidth(module_, def.typeId());
        return value && width > 0 && (*value >> (width - 1)) == 0;
      }
      case spv::Op::OpConstantNull: return true;
      case spv::Op::OpUConvert:
        return ir::scalarWidth(module_, ir::typeOf(module_, def.idOperand(0))) <
               ir::scalarWidth(module_, ir::componentType(module_, def.typeId()));
      case spv::Op::OpSConvert:
      case spv::Op::OpShiftRightArithmetic:
      case spv::Op::OpShiftLeftLogical:
      case spv::Op::OpUDiv: return operand(0);
      case spv::Op::OpShiftRightLogical: {
        std::optional<uint64_t> shift = constantValue(module_, def.idOperand(1));
        return (shift && *shift > 0) || operand(0);
      }
      case spv::Op::OpUMod: return operand(0) || operand(1);
      case spv::Op::OpBitwiseAnd: return operand(0) || operand(1);
      case spv::Op::OpIAdd:
      case spv::Op::OpIMul:
      case spv::Op::OpBitwiseOr:
      case spv::Op::OpBitwiseXor:
      case spv::Op::OpSDiv:
      case spv::Op::OpSRem: return operand(0) && operand(1);
      case spv::Op::OpSelect: return operand(1) && operand(2);
      case spv::Op::OpPhi:
        for (size_t i = 0; i < def.numOperands(); i += 2) {
          if (!operand(i)) return false;
        }
        return true;
      case spv::Op::OpCompositeExtract: {
        // A component of a vector built right here (the work-item ids are).
        const Instruction* composite = module_.def(def.idOperand(0));
        if (!composite || composite->opcode() != spv::Op::OpCompositeConstruct || def.numOperands() != 2) return false;
        uint32_t index = def.wordOperand(1);
        return index < composite->numOperands() && (*this)(composite->idOperand(index));
      }
      default: return false;
    }
  }

  const Module& module_;
  std::unordered_map<uint32_t, bool> known_;
};

}  // namespace

Expected<PassResult> signedOffsetsAsIntegers(Module& module, const Target& /*target*/) {
  NonNegative nonNegative(module);
  std::vector<Instruction*> chains;
  for (ir::Function& function : module.functions()) {
    for (ir::Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        bool chain = inst.opcode() == spv::Op::OpPtrAccessChain || inst.opcode() == spv::Op::OpInBoundsPtrAccessChain;
        if (chain && ir::isBufferPointer(module, inst.typeId()) && !nonNegative(inst.idOperand(1)))
          chains.push_back(&inst);
      }
    }
  }
  for (Instruction* chain : chains) {
    ir::Builder b = ir::Builder::before(module, chain);
    uint32_t base = chain->idOperand(0);
    const Instruction* stride = module.findDecoration(b.typeOf(base), spv::Decoration::ArrayStride);
    if (!stride) return Error(module.describe(*chain) + ": a buffer pointer without an ArrayStride (a cl2vk bug)");
    uint32_t indexType = ir::typeOf(module, chain->idOperand(1));
    if (ir::isVectorType(module, indexType) || !ir::intWidth(module, indexType))
      return Error(module.describe(*chain) + ": the element index is not an integer scalar");
    uint32_t u64 = ir::typeInt(module, 64);
    uint32_t index = b.resizeSigned(chain->idOperand(1), 64);
    uint32_t offset = b.imul(index, b.bits(u64, stride->wordOperand(2)));
    uint32_t address = b.iadd(b.op(spv::Op::OpConvertPtrToU, u64, {base}), offset);
    uint32_t moved = b.op(spv::Op::OpConvertUToPtr, b.typeOf(base), {address});
    uint32_t pointer = moved;
    if (chain->numOperands() > 2) {
      // The chain's further indexes, into the element, stay a chain from the moved pointer, with
      // the element index 0 (a pointer chain, as lower-int64 expects of a buffer pointer's).
      std::vector<uint32_t> operands = {moved, b.bits(ir::typeOf(module, chain->idOperand(1)), 0)};
      for (size_t i = 2; i < chain->numOperands(); ++i) operands.push_back(chain->idOperand(i));
      pointer = b.op(chain->opcode(), chain->typeId(), operands);
    }
    module.replaceAllUses(chain->resultId(), pointer);
    CL2VK_TRY(module.remove(chain));
  }
  return chains.empty() ? PassResult::kUnchanged : PassResult::kChanged;
}

}  // namespace cl2vk
