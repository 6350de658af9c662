#include "analysis/data_layout.h"

#include <algorithm>

namespace cl2vk {
namespace {

bool isPacked(const ir::Module& module, uint32_t structType) {
  return module.findDecoration(structType, spv::Decoration::CPacked) != nullptr;
}

}  // namespace

std::optional<uint64_t> constantValue(const ir::Module& module, uint32_t id) {
  const ir::Instruction* def = module.def(id);
  if (!def || def->opcode() != spv::Op::OpConstant) return std::nullopt;
  const ir::Instruction* type = module.def(def->typeId());
  if (!type || type->opcode() != spv::Op::OpTypeInt) return std::nullopt;
  const auto& words = def->operand(0).words;
  uint64_t value = words[0];
  if (words.size() > 1) value |= static_cast<uint64_t>(words[1]) << 32;
  uint32_t width = type->wordOperand(0);
  if (width < 64) value &= (uint64_t{1} << width) - 1;
  return value;
}

int64_t signExtend(uint64_t bits, uint32_t width) {
  return width >= 64 ? static_cast<int64_t>(bits) : static_cast<int64_t>(bits << (64 - width)) >> (64 - width);
}

Expected<TypeLayout> layoutOf(const ir::Module& module, uint32_t type) {
  const ir::Instruction* def = module.def(type);
  if (!def) return Error("%" + std::to_string(type) + " is not a type");
  switch (def->opcode()) {
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: {
      uint32_t bytes = def->wordOperand(0) / 8;
      return TypeLayout{bytes, bytes};
    }
    case spv::Op::OpTypePointer: return TypeLayout{8, 8};
    case spv::Op::OpTypeVector: {
      Expected<TypeLayout> component = layoutOf(module, def->idOperand(0));
      if (!component) return component.error();
      uint32_t count = def->wordOperand(1);
      uint32_t slots = count == 3 ? 4 : count;
      uint32_t bytes = component->size * slots;
      return TypeLayout{bytes, bytes};
    }
    case spv::Op::OpTypeArray: {
      Expected<TypeLayout> element = layoutOf(module, def->idOperand(0));
      if (!element) return element.error();
      std::optional<uint64_t> length = constantValue(module, def->idOperand(1));
      if (!length) return Error("array %" + std::to_string(type) + " has no constant length");
      // An Alignment decoration raises an array's alignment: the arrays of 4-component parts
      // that stand for 8- and 16-component vectors in memory keep the vector's (lower-wide-vectors).
      uint32_t alignment = element->alignment;
      if (const ir::Instruction* aligned = module.findDecoration(type, spv::Decoration::Alignment))
        alignment = std::max(alignment, aligned->wordOperand(2));
      return TypeLayout{static_cast<uint32_t>(alignUp(element->size, element->alignment) * *length), alignment};
    }
    case spv::Op::OpTypeStruct: {
      bool packed = isPacked(module, type);
      uint32_t offset = 0, alignment = 1;
      for (size_t i = 0; i < def->numOperands(); ++i) {
        Expected<TypeLayout> member = layoutOf(module, def->idOperand(i));
        if (!member) return member.error();
        uint32_t memberAlignment = packed ? 1 : member->alignment;
        offset = alignUp(offset, memberAlignment) + member->size;
        alignment = std::max(alignment, memberAlignment);
      }
      return TypeLayout{alignUp(offset, alignment), alignment};
    }
    default: return Error(ir::opcodeName(def->opcode()) + " %" + std::to_string(type) + " has no memory layout");
  }
}

Expected<std::vector<uint32_t>> memberOffsets(const ir::Module& module, uint32_t structType) {
  const ir::Instruction* def = module.def(structType);
  if (!def || def->opcode() != spv::Op::OpTypeStruct)
    return Error("%" + std::to_string(structType) + " is not a struct");
  bool packed = isPacked(module, structType);
  std::vector<uint32_t> offsets;
  uint32_t offset = 0;
  for (size_t i = 0; i < def->numOperands(); ++i) {
    Expected<TypeLayout> member = layoutOf(module, def->idOperand(i));
    if (!member) return member.error();
    offset = alignUp(offset, packed ? 1 : member->alignment);
    offsets.push_back(offset);
    offset += member->size;
  }
  return offsets;
}

}  // namespace cl2vk
