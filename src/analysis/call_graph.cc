#include "analysis/call_graph.h"

#include <set>
#include <unordered_set>
#include <vector>

#include "ir/opcode_classes.h"

namespace cl2vk::ir {

std::string kernelReaching(const Module& module, const Function& function) {
  for (const Instruction& entry : module.section(Section::kEntryPoint)) {
    if (entry.idOperand(1) == function.id()) return entry.stringOperand(2);  // a kernel itself
  }
  for (const Instruction& entry : module.section(Section::kEntryPoint)) {
    std::set<uint32_t> seen;
    std::vector<uint32_t> work = {entry.idOperand(1)};
    while (!work.empty()) {
      uint32_t id = work.back();
      work.pop_back();
      if (id == function.id()) return entry.stringOperand(2);
      const Function* caller = module.function(id);
      if (!caller || !seen.insert(id).second) continue;
      for (const Block& block : caller->blocks()) {
        for (const Instruction& inst : block.instructions()) {
          if (inst.opcode() == spv::Op::OpFunctionCall) work.push_back(inst.idOperand(0));
        }
      }
    }
  }
  return module.functionName(function);
}

std::vector<Function*> functionsNoKernelReaches(Module& module) {
  if (module.section(Section::kEntryPoint).empty()) return {};
  std::unordered_set<const Function*> reached;
  std::vector<Function*> work;
  auto reach = [&](uint32_t id) {
    if (Function* function = module.function(id); function && reached.insert(function).second) work.push_back(function);
  };
  // The roots: every function a use outside any function names, but by a name or decoration.
  for (Function& function : module.functions()) {
    for (const Use& use : module.uses(function.id())) {
      if (use.user->function() || (isNameOrDecoration(use.user->opcode()) && use.operandIndex == 0)) continue;
      reach(function.id());
    }
  }
  auto reachFrom = [&reach](const Instruction& inst) {
    for (const Operand& op : inst.operands()) {
      if (op.isId()) reach(op.words[0]);
    }
  };
  while (!work.empty()) {
    Function* function = work.back();
    work.pop_back();
    for (const Instruction& inst : function->header()) reachFrom(inst);
    for (const Block& block : function->blocks()) {
      for (const Instruction& inst : block.instructions()) reachFrom(inst);
    }
  }
  std::vector<Function*> unreached;
  for (Function& function : module.functions()) {
    if (!reached.contains(&function)) unreached.push_back(&function);
  }
  return unreached;
}

Error refuse(const Module& module, const Instruction& inst, const std::string& why) {
  const std::string kernel = inst.function() ? "kernel '" + kernelReaching(module, *inst.function()) + "': " : "";
  return Error(kernel + module.describe(inst) + ": " + why);
}

Error refuse(const Module& module, const Function& function, const std::string& why) {
  return Error("kernel '" + kernelReaching(module, function) + "': " + why);
}

}  // namespace cl2vk::ir
