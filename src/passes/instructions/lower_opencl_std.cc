#include "passes/instructions/lower_opencl_std.h"

#include "analysis/call_graph.h"
#include "passes/instructions/opencl_std_lowerings.h"
#include "passes/lowering.h"

namespace cl2vk {

Error unsupported(ir::Builder& e, const ExtCall& call, const std::string& detail) {
  if (call.name == "printf")
    return ir::refuse(e.module(), call.inst, "printf is left for lower-printf, which runs before this pass");
  return ir::refuse(e.module(), call.inst, "OpenCL.std " + call.name + " is not supported" + detail);
}

uint32_t argAs(ir::Builder& e, const ExtCall& call, size_t index, uint32_t type) {
  return e.splat(type, call.args[index]);
}

namespace {

// The id of the OpenCL.std import, or 0.
uint32_t openclStdImport(const ir::Module& module) {
  for (const ir::Instruction& inst : module.section(ir::Section::kExtInstImport)) {
    if (inst.stringOperand(0) == "OpenCL.std") return inst.resultId();
  }
  return 0;
}

const ExtEntry* findEntry(uint32_t instruction) {
  for (const ExtTable* table : {&mathLowerings(), &geometricLowerings(), &integerLowerings(), &memoryLowerings()}) {
    if (auto it = table->find(instruction); it != table->end()) return &it->second;
  }
  return nullptr;
}

Expected<bool> lowerExtInst(ir::Module& module, ir::Instruction& inst) {
  uint32_t instruction = inst.wordOperand(1);
  const ExtEntry* entry = findEntry(instruction);
  ExtCall call{inst, entry ? entry->name : "instruction " + std::to_string(instruction), inst.typeId(), {}};
  for (size_t i = 2; i < inst.numOperands(); ++i) call.args.push_back(inst.operand(i).words.at(0));
  ir::Builder builder = ir::Builder::before(module, &inst);
  if (!entry || !entry->lower) return unsupported(builder, call);
  Expected<uint32_t> replacement = entry->lower(builder, call);
  if (!replacement) return replacement.error();
  if (*replacement != 0) module.replaceAllUses(inst.resultId(), *replacement);
  CL2VK_TRY(module.remove(&inst));
  return true;
}

}  // namespace

Expected<PassResult> lowerOpenclStd(ir::Module& module, const Target&) {
  uint32_t import = openclStdImport(module);
  if (import == 0) return PassResult::kUnchanged;
  auto isOpenclStd = [import](const ir::Instruction& inst) {
    return inst.opcode() == spv::Op::OpExtInst && inst.idOperand(0) == import;
  };
  Expected<PassResult> result = lowerInstructions(module, isOpenclStd, lowerExtInst);
  if (!result) return result;
  if (!module.isUsed(import)) CL2VK_TRY(module.remove(module.def(import)));
  return PassResult::kChanged;
}

}  // namespace cl2vk
