#include "passes/interface/word_reader.h"

#include "analysis/data_layout.h"
#include "ir/types.h"

namespace cl2vk {

using ir::Builder;
using ir::Operand;

uint32_t WordReader::word(Builder& builder, uint32_t index) const {
  uint32_t uintType = ir::typeInt(*module_, 32);
  uint32_t pointer = ir::typePointer(*module_, storage_, uintType);
  uint32_t address =
      builder.valueOfIds(spv::Op::OpAccessChain, pointer,
                         {words_, ir::constantUint(*module_, 32, 0), ir::constantUint(*module_, 32, index)});
  std::vector<Operand> operands = {Operand::id(address)};
  if (storage_ == spv::StorageClass::CrossWorkgroup || storage_ == spv::StorageClass::PhysicalStorageBuffer) {
    operands.push_back(
        Operand::enumerant(SPV_OPERAND_TYPE_MEMORY_ACCESS, static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)));
    operands.push_back(Operand::literal(4));
  }
  return builder.value(spv::Op::OpLoad, uintType, std::move(operands));
}

Expected<uint32_t> WordReader::scalar(Builder& builder, uint32_t type, uint32_t byteOffset) const {
  bool isFloat = ir::floatWidth(*module_, type) != 0;
  uint32_t width = ir::scalarWidth(*module_, type);
  if (byteOffset % (width / 8) != 0) return Error("misaligned argument at byte " + std::to_string(byteOffset));
  uint32_t uintType = ir::typeInt(*module_, 32);
  uint32_t first = word(builder, byteOffset / 4);
  uint32_t bits;
  if (width == 64) {
    uint32_t pair = builder.valueOfIds(spv::Op::OpCompositeConstruct, ir::typeVector(*module_, uintType, 2),
                                       {first, word(builder, byteOffset / 4 + 1)});
    return builder.valueOfIds(spv::Op::OpBitcast, type, {pair});
  }
  if (width == 32) {
    return type == uintType ? first : builder.valueOfIds(spv::Op::OpBitcast, type, {first});
  }
  // 8 and 16 bits: shift the bytes down and truncate.
  uint32_t shift = (byteOffset % 4) * 8;
  bits =
      shift ? builder.valueOfIds(spv::Op::OpShiftRightLogical, uintType, {first, ir::constantUint(*module_, 32, shift)})
            : first;
  uint32_t narrowInt = ir::typeInt(*module_, width);
  uint32_t narrow = builder.valueOfIds(spv::Op::OpUConvert, narrowInt, {bits});
  if (isFloat) return builder.valueOfIds(spv::Op::OpBitcast, type, {narrow});
  return narrow;
}

Expected<uint32_t> WordReader::value(Builder& builder, uint32_t type, uint32_t byteOffset) const {
  const ir::Instruction* def = module_->def(type);
  switch (def->opcode()) {
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: return scalar(builder, type, byteOffset);
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeArray: {
      uint32_t element = def->idOperand(0);
      Expected<TypeLayout> layout = layoutOf(*module_, element);
      if (!layout) return layout.error();
      uint32_t count = def->opcode() == spv::Op::OpTypeVector
                           ? def->wordOperand(1)
                           : static_cast<uint32_t>(*constantValue(*module_, def->idOperand(1)));
      std::vector<uint32_t> parts;
      for (uint32_t i = 0; i < count; ++i) {
        Expected<uint32_t> part = value(builder, element, byteOffset + i * layout->size);
        if (!part) return part.error();
        parts.push_back(*part);
      }
      return builder.valueOfIds(spv::Op::OpCompositeConstruct, type, parts);
    }
    case spv::Op::OpTypeStruct: {
      Expected<std::vector<uint32_t>> offsets = memberOffsets(*module_, type);
      if (!offsets) return offsets.error();
      std::vector<uint32_t> parts;
      for (size_t i = 0; i < def->numOperands(); ++i) {
        Expected<uint32_t> part = value(builder, def->idOperand(i), byteOffset + (*offsets)[i]);
        if (!part) return part.error();
        parts.push_back(*part);
      }
      return builder.valueOfIds(spv::Op::OpCompositeConstruct, type, parts);
    }
    default: return Error("cannot pass a " + ir::opcodeName(def->opcode()) + " by value");
  }
}

}  // namespace cl2vk
