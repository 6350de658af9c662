#include "passes/interface/hidden_parameters.h"

#include "ir/types.h"

namespace cl2vk {

using ir::Instruction;
using ir::Operand;

bool isHiddenParameterName(const std::string& name) {
  return name == kPrintfBufferName || name == kGlobalVariablesName || name == kLoopLimitFlagName ||
         name == kPrivateScratchName;
}

uint32_t addHiddenParameter(ir::Module& module, ir::Function& kernel, uint32_t type, const char* name) {
  uint32_t parameter = module.takeId();
  module.insertAfter(&kernel.header().back(), Instruction(spv::Op::OpFunctionParameter, type, parameter, {}));
  module.append(ir::Section::kDebug,
                Instruction(spv::Op::OpName, 0, 0, {Operand::id(parameter), Operand::string(name)}));
  Instruction& definition = kernel.definition();
  const Instruction* functionType = module.def(definition.idOperand(1));
  std::vector<uint32_t> parameterTypes;
  for (size_t i = 1; i < functionType->numOperands(); ++i) parameterTypes.push_back(functionType->idOperand(i));
  parameterTypes.push_back(type);
  uint32_t newType = ir::typeFunction(module, functionType->idOperand(0), parameterTypes);
  module.update(&definition, Instruction(spv::Op::OpFunction, definition.typeId(), definition.resultId(),
                                         {definition.operand(0), Operand::id(newType)}));
  return parameter;
}

}  // namespace cl2vk
