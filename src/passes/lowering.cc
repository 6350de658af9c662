#include "passes/lowering.h"

#include <vector>

namespace cl2vk {

Expected<PassResult> lowerInstructions(ir::Module& module, const std::function<bool(const ir::Instruction&)>& wanted,
                                       const LowerFn& lower) {
  std::vector<ir::Instruction*> gathered;
  for (ir::Function& function : module.functions()) {
    for (ir::Block& block : function.blocks()) {
      for (ir::Instruction& inst : block.instructions()) {
        if (wanted(inst)) gathered.push_back(&inst);
      }
    }
  }
  bool changed = false;
  for (ir::Instruction* inst : gathered) {
    Expected<bool> result = lower(module, *inst);
    if (!result) return result.error();
    changed |= *result;
  }
  return changed ? PassResult::kChanged : PassResult::kUnchanged;
}

Expected<PassResult> lowerByOpcode(ir::Module& module, const std::unordered_map<spv::Op, LowerFn>& table) {
  return lowerInstructions(
      module, [&table](const ir::Instruction& inst) { return table.contains(inst.opcode()); },
      [&table](ir::Module& m, ir::Instruction& inst) { return table.at(inst.opcode())(m, inst); });
}

}  // namespace cl2vk
