// finalize-vulkan's first step (finalize_vulkan.h): what is still OpenCL-only after the lowerings
// is an error naming the kernel and the instruction, and what nothing uses of it goes.
#include "analysis/call_graph.h"
#include "ir/collectives.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/environment/finalize_vulkan.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Function;
using ir::Instruction;
using ir::Module;
using ir::Section;

bool usesGenericPointer(const Module& module, const Instruction& inst) {
  for (const ir::Operand& operand : inst.operands()) {
    if (!operand.isId()) continue;
    uint32_t type = ir::typeOf(module, operand.words[0]);
    if (ir::isPointerType(module, type) && ir::storageOf(module, type) == spv::StorageClass::Generic) return true;
  }
  return false;
}

// Vulkan allows a Workgroup variable no initializer but OpConstantNull (with an extension), and
// OpenCL C none at all: an undefined one says nothing and goes; any other is refused by name.
Status dropWorkgroupInitializers(Module& module) {
  for (Instruction& inst : module.section(Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpVariable || inst.numOperands() < 2 ||
        inst.wordOperand(0) != static_cast<uint32_t>(spv::StorageClass::Workgroup))
      continue;
    if (!ir::isUndefined(module, inst.idOperand(1)))
      return Error(module.describe(inst) + ": a __local variable with an initializer is not supported");
    module.update(&inst, Instruction(spv::Op::OpVariable, inst.typeId(), inst.resultId(), {inst.operand(0)}));
  }
  return okStatus();
}

}  // namespace

Status rejectWhatIsStillOpenCL(Module& module) {
  CL2VK_TRY(dropWorkgroupInitializers(module));
  for (Function& function : module.functions()) {
    if (function.isDeclaration()) {
      for (const ir::Use& use : module.uses(function.id())) {
        if (use.user->opcode() != spv::Op::OpFunctionCall) continue;
        std::string name = ir::linkageName(module, function.id());
        std::string what =
            ir::isCollectiveBuiltinName(name)
                ? "the collective builtin '" + std::string(ir::demangledBaseName(name)) + "' is not supported yet"
                : "calls '" + (name.empty() ? module.functionName(function) : name) +
                      "', which is not defined in the module (linking is not supported)";
        return ir::refuse(module, *use.user, what);
      }
      continue;
    }
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (ir::isGroupCollective(inst.opcode()))
          return ir::refuse(module, inst, "work-group and sub-group collectives are not supported yet");
        if (usesGenericPointer(module, inst))
          return ir::refuse(module, inst,
                            "uses a __generic pointer whose address space cl2vk cannot tell (an undefined "
                            "pointer, or one no cast from a named address space reaches)");
        if (inst.opcode() == spv::Op::OpExtInst) {
          const Instruction* set = module.def(inst.idOperand(0));
          std::string setName = set ? set->stringOperand(0) : "";
          if (setName != "GLSL.std.450" && !setName.starts_with("NonSemantic."))
            return ir::refuse(module, inst, "extended instruction set '" + setName + "' is not supported in Vulkan");
        }
      }
    }
  }
  // Extended instruction sets nobody uses any more (OpenCL.std once lowered) go.
  std::vector<Instruction*> imports;
  for (Instruction& inst : module.section(Section::kExtInstImport)) {
    if (!module.isUsed(inst.resultId())) imports.push_back(&inst);
  }
  for (Instruction* inst : imports) CL2VK_TRY(module.remove(inst));
  // Declarations nobody calls (imports llvm-spirv keeps) go.
  std::vector<Function*> declarations;
  for (Function& function : module.functions()) {
    if (function.isDeclaration()) declarations.push_back(&function);
  }
  for (Function* declaration : declarations) CL2VK_TRY(module.removeFunction(declaration));
  return okStatus();
}

}  // namespace cl2vk
