#include "cl2vk/specialization.h"

#include <cstring>

#include "ir/reader.h"
#include "ir/writer.h"

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Module;

// The scalar specialization constants of `module` by SpecId.
std::map<uint32_t, Instruction*> constantsBySpecId(Module& module) {
  std::map<uint32_t, Instruction*> constants;
  for (Instruction& inst : module.section(ir::Section::kAnnotation)) {
    if (inst.opcode() != spv::Op::OpDecorate || inst.wordOperand(1) != static_cast<uint32_t>(spv::Decoration::SpecId))
      continue;
    Instruction* constant = module.def(inst.idOperand(0));
    if (!constant) continue;
    spv::Op op = constant->opcode();
    if (op == spv::Op::OpSpecConstant || op == spv::Op::OpSpecConstantTrue || op == spv::Op::OpSpecConstantFalse)
      constants.emplace(inst.wordOperand(2), constant);
  }
  return constants;
}

uint32_t valueSize(const Module& module, const Instruction& constant) {
  if (constant.opcode() != spv::Op::OpSpecConstant) return 1;  // a bool, as a cl_uchar
  return module.def(constant.typeId())->wordOperand(0) / 8;
}

}  // namespace

Expected<std::map<uint32_t, uint32_t>> specializationConstants(std::span<const uint32_t> spirv) {
  auto module = ir::readBinary(spirv);
  if (!module) return module.error();
  std::map<uint32_t, uint32_t> sizes;
  for (auto [id, constant] : constantsBySpecId(**module)) sizes.emplace(id, valueSize(**module, *constant));
  return sizes;
}

Expected<std::vector<uint32_t>> specialize(std::span<const uint32_t> spirv,
                                           const std::map<uint32_t, std::vector<uint8_t>>& values) {
  auto read = ir::readBinary(spirv);
  if (!read) return read.error();
  Module& module = **read;
  std::map<uint32_t, Instruction*> constants = constantsBySpecId(module);
  for (const auto& [id, bytes] : values) {
    auto found = constants.find(id);
    if (found == constants.end()) return Error("the module has no specialization constant " + std::to_string(id));
    Instruction& constant = *found->second;
    uint32_t size = valueSize(module, constant);
    if (bytes.size() != size)
      return Error("specialization constant " + std::to_string(id) + " holds " + std::to_string(size) + " bytes, not " +
                   std::to_string(bytes.size()));
    if (constant.opcode() != spv::Op::OpSpecConstant) {
      spv::Op op = bytes[0] != 0 ? spv::Op::OpSpecConstantTrue : spv::Op::OpSpecConstantFalse;
      module.update(&constant, Instruction(op, constant.typeId(), constant.resultId()));
      continue;
    }
    // A literal of a type narrower than 32 bits fills the low bits of one word; the types of a
    // Kernel module carry no sign, so the rest stays 0.
    std::vector<uint32_t> words((size + 3) / 4, 0);
    std::memcpy(words.data(), bytes.data(), size);
    module.update(&constant, Instruction(spv::Op::OpSpecConstant, constant.typeId(), constant.resultId(),
                                         {ir::Operand::number(std::move(words))}));
  }
  return ir::writeBinary(module);
}

}  // namespace cl2vk
