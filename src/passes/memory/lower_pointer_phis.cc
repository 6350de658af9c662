#include "passes/memory/lower_pointer_phis.h"

#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "ir/types.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Instruction;
using ir::Module;
using ir::Operand;

}  // namespace

Expected<PassResult> lowerPointerPhis(Module& module, const Target& target) {
  if (target.pointerPhis) return PassResult::kUnchanged;
  std::vector<Instruction*> phis;
  for (ir::Function& function : module.functions()) {
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (inst.opcode() == spv::Op::OpPhi && ir::isBufferPointer(module, inst.typeId())) phis.push_back(&inst);
      }
    }
  }
  if (phis.empty()) return PassResult::kUnchanged;
  uint32_t address = ir::typeVector(module, ir::typeInt(module, 32), 2);

  // Every pointer phi gets its address phi first, so that phis reading each other read addresses.
  std::unordered_map<uint32_t, uint32_t> addressPhis;
  for (Instruction* phi : phis) {
    uint32_t id = module.takeId();
    module.insertBefore(phi, Instruction(spv::Op::OpPhi, address, id));
    addressPhis[phi->resultId()] = id;
  }
  std::map<std::pair<uint32_t, uint32_t>, uint32_t> castsAtEnd;  // (pointer, block) -> its address there
  for (Instruction* phi : phis) {
    Instruction* addressPhi = module.def(addressPhis.at(phi->resultId()));
    std::vector<Operand> operands;
    for (size_t i = 0; i + 1 < phi->numOperands(); i += 2) {
      uint32_t value = phi->idOperand(i), label = phi->idOperand(i + 1);
      const Instruction* def = module.def(value);
      uint32_t incoming;
      if (auto it = addressPhis.find(value); it != addressPhis.end()) {
        incoming = it->second;
      } else if (def->opcode() == spv::Op::OpUndef) {
        incoming = ir::undef(module, address);
      } else {
        uint32_t& cast = castsAtEnd[{value, label}];
        if (!cast) {
          cast = module.takeId();
          module.insertBefore(module.def(label)->block()->endOfCode(),
                              Instruction(spv::Op::OpBitcast, address, cast, {Operand::id(value)}));
        }
        incoming = cast;
      }
      operands.push_back(Operand::id(incoming));
      operands.push_back(Operand::id(label));
    }
    module.update(addressPhi, Instruction(spv::Op::OpPhi, address, addressPhi->resultId(), std::move(operands)));
  }
  // The pointers again, after the block's phis.
  for (Instruction* phi : phis) {
    Instruction* first = nullptr;
    for (Instruction& inst : phi->block()->instructions()) {
      spv::Op op = inst.opcode();
      if (op != spv::Op::OpLabel && op != spv::Op::OpPhi && op != spv::Op::OpLine && op != spv::Op::OpNoLine) {
        first = &inst;
        break;
      }
    }
    uint32_t pointer = module.takeId();
    module.insertBefore(
        first, Instruction(spv::Op::OpBitcast, phi->typeId(), pointer, {Operand::id(addressPhis.at(phi->resultId()))}));
    module.replaceAllUses(phi->resultId(), pointer);
  }
  CL2VK_TRY(module.removeAll(phis));
  return PassResult::kChanged;
}

}  // namespace cl2vk
