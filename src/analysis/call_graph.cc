#include "analysis/call_graph.h"

#include <set>
#include <vector>

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

Error refuse(const Module& module, const Instruction& inst, const std::string& why) {
  const std::string kernel = inst.function() ? "kernel '" + kernelReaching(module, *inst.function()) + "': " : "";
  return Error(kernel + module.describe(inst) + ": " + why);
}

Error refuse(const Module& module, const Function& function, const std::string& why) {
  return Error("kernel '" + kernelReaching(module, function) + "': " + why);
}

}  // namespace cl2vk::ir
