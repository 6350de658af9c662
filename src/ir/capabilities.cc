#include "ir/capabilities.h"

namespace cl2vk::ir {

bool declaresCapability(const Module& module, spv::Capability capability) {
  for (const Instruction& inst : module.section(Section::kCapability)) {
    if (inst.wordOperand(0) == static_cast<uint32_t>(capability)) return true;
  }
  return false;
}

void requireCapability(Module& module, spv::Capability capability) {
  if (declaresCapability(module, capability)) return;
  module.append(Section::kCapability,
                Instruction(spv::Op::OpCapability, 0, 0,
                            {Operand::enumerant(SPV_OPERAND_TYPE_CAPABILITY, static_cast<uint32_t>(capability))}));
}

void requireExtension(Module& module, std::string_view extension) {
  for (const Instruction& inst : module.section(Section::kExtension)) {
    if (inst.stringOperand(0) == extension) return;
  }
  module.append(Section::kExtension, Instruction(spv::Op::OpExtension, 0, 0, {Operand::string(extension)}));
}

}  // namespace cl2vk::ir
