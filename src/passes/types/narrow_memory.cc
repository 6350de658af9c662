// Buffer pointers to 8/16-bit integers (and to vectors, arrays and structs holding them) as
// 64-bit addresses, and their loads and stores as reads and writes of the 32-bit words that hold
// the bytes (narrow_lowering.h). The word access is word_memory's (word_access.cc): a store of
// part of a word sets and then clears its bits with atomic or/and at Device scope; a vector that fills
// whole aligned words stores them plainly.
#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/memory/word_memory_lowering.h"
#include "passes/types/narrow_lowering.h"

namespace cl2vk::narrow {
namespace {

using SC = spv::StorageClass;

uint32_t declaredAlignment(const Instruction& inst, size_t memoryOperand) {
  if (inst.numOperands() <= memoryOperand) return 1;
  uint32_t mask = inst.wordOperand(memoryOperand);
  if (!(mask & static_cast<uint32_t>(spv::MemoryAccessMask::Aligned))) return 1;
  return inst.wordOperand(memoryOperand + 1);  // Aligned's literal follows the mask
}

// A PhysicalStorageBuffer pointer to uint whose pointer arithmetic steps by words.
uint32_t wordPointerType(Module& module, uint32_t& cached) {
  if (cached) return cached;
  uint32_t uint32 = ir::typeInt(module, 32);
  for (const Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpTypePointer ||
        inst.wordOperand(0) != static_cast<uint32_t>(SC::PhysicalStorageBuffer) || inst.idOperand(1) != uint32)
      continue;
    const Instruction* stride = module.findDecoration(inst.resultId(), spv::Decoration::ArrayStride);
    if (stride && stride->wordOperand(2) == 4) return cached = inst.resultId();
  }
  cached = module.takeId();
  module.append(ir::Section::kGlobal,
                Instruction(spv::Op::OpTypePointer, 0, cached,
                            {ir::Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS,
                                                    static_cast<uint32_t>(SC::PhysicalStorageBuffer)),
                             ir::Operand::id(uint32)}));
  module.append(ir::Section::kAnnotation,
                Instruction(spv::Op::OpDecorate, 0, 0,
                            {ir::Operand::id(cached),
                             ir::Operand::enumerant(SPV_OPERAND_TYPE_DECORATION,
                                                    static_cast<uint32_t>(spv::Decoration::ArrayStride)),
                             ir::Operand::literal(4)}));
  return cached;
}

}  // namespace

Expected<bool> NarrowLowering::lowerMemory(Instruction& inst) {
  // Whether `type` is a buffer pointer that becomes an address.
  auto isAddress = [&](uint32_t type) { return ir::isBufferPointer(module_, type) && involves(type); };
  auto isPointer = [&](uint32_t type) { return ir::isPointerType(module_, type); };
  Builder b = Builder::before(module_, &inst);
  // 64-bit addresses only where there are buffer pointers, which the module already has then.
  auto ulongType = [&] { return ir::typeInt(module_, 64); };
  uint32_t type = inst.typeId();
  auto done = [&](uint32_t result) -> Expected<bool> {
    CL2VK_TRY(finish(inst, result, type));
    return true;
  };
  // A pointer as its 64-bit address.
  auto addressOf = [&](uint32_t pointer) {
    uint32_t value = widened(pointer);
    if (isAddress(originalType(pointer))) return value;
    uint32_t valueType = b.typeOf(value);
    if (isPointer(valueType)) return b.op(spv::Op::OpConvertPtrToU, ulongType(), {value});
    if (b.width(valueType) == 64 && !b.isVector(valueType)) return value;
    if (b.isVector(valueType)) return b.bitcast(ulongType(), value);
    return b.op(spv::Op::OpUConvert, ulongType(), {value});
  };
  // An address as a value of `type` (the result of a conversion, access chain or bit cast).
  auto fromAddress = [&](uint32_t address) {
    if (isAddress(type) || type == ulongType()) return address;
    if (isPointer(type)) return b.op(spv::Op::OpConvertUToPtr, type, {address});
    if (b.isVector(type)) return b.bitcast(type, address);
    return b.op(spv::Op::OpUConvert, type, {address});
  };
  spv::Op opcode = inst.opcode();
  switch (opcode) {
    case spv::Op::OpConvertUToPtr:
    case spv::Op::OpConvertPtrToU:
    case spv::Op::OpBitcast:
    case spv::Op::OpCopyObject:
      if (!isAddress(type) && !isAddress(originalType(inst.idOperand(0)))) return false;
      return done(fromAddress(addressOf(inst.idOperand(0))));
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain:
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain: {
      uint32_t baseType = originalType(inst.idOperand(0));
      if (!isAddress(baseType)) return false;
      uint32_t address = addressOf(inst.idOperand(0));
      uint64_t constantOffset = 0;
      auto add = [&](uint32_t index, uint64_t stride) -> Status {
        if (std::optional<uint64_t> known = constantValue(module_, index)) {
          int64_t signedIndex = cl2vk::signExtend(*known, ir::scalarWidth(module_, ir::typeOf(module_, index)));
          constantOffset += static_cast<uint64_t>(signedIndex) * stride;
          return okStatus();
        }
        uint32_t indexType = originalType(index);
        uint32_t value = widened(index);
        if (uint32_t w = narrowWidth(indexType)) value = signExtend(b, value, w);
        if (b.width(b.typeOf(value)) != 64) value = b.op(spv::Op::OpSConvert, ulongType(), {value});
        address = b.iadd(address, b.imul(value, ir::constantUint(module_, 64, stride)));
        return okStatus();
      };
      uint32_t current = module_.def(baseType)->idOperand(1);
      size_t first = 1;
      if (opcode == spv::Op::OpPtrAccessChain || opcode == spv::Op::OpInBoundsPtrAccessChain) {
        const Instruction* stride = module_.findDecoration(baseType, spv::Decoration::ArrayStride);
        Expected<uint32_t> size = pointers::sizeInMemory(module_, current);
        if (!stride && !size) return ir::refuse(module_, inst, size.error().message());
        CL2VK_TRY(add(inst.idOperand(1), stride ? stride->wordOperand(2) : *size));
        first = 2;
      }
      for (size_t i = first; i < inst.numOperands(); ++i) {
        const Instruction* def = module_.def(current);
        uint32_t index = inst.idOperand(i);
        if (def->opcode() == spv::Op::OpTypeStruct) {
          Expected<std::vector<uint32_t>> offsets = memberOffsets(module_, current);
          if (!offsets) return ir::refuse(module_, inst, offsets.error().message());
          uint32_t member = static_cast<uint32_t>(*constantValue(module_, index));
          constantOffset += (*offsets)[member];
          current = def->idOperand(member);
          continue;
        }
        current = def->idOperand(0);
        const Instruction* stride = module_.findDecoration(def->resultId(), spv::Decoration::ArrayStride);
        Expected<uint32_t> size = def->opcode() == spv::Op::OpTypeVector
                                      ? Expected<uint32_t>(ir::scalarWidth(module_, current) / 8)
                                      : pointers::sizeInMemory(module_, current);
        if (!stride && !size) return ir::refuse(module_, inst, size.error().message());
        CL2VK_TRY(add(index, stride ? stride->wordOperand(2) : *size));
      }
      if (constantOffset) address = b.iadd(address, ir::constantUint(module_, 64, constantOffset));
      return done(fromAddress(address));
    }
    case spv::Op::OpLoad:
    case spv::Op::OpStore: {
      bool isLoad = opcode == spv::Op::OpLoad;
      uint32_t pointerType = originalType(inst.idOperand(0));
      if (!isAddress(pointerType)) return false;
      uint32_t pointee = module_.def(pointerType)->idOperand(1);
      uint32_t alignment = declaredAlignment(inst, isLoad ? 1 : 2);
      uint32_t address = addressOf(inst.idOperand(0));
      // The word that holds the first byte, and the byte's offset in it (0 when aligned).
      uint32_t wordType = wordPointerType(module_, wordPointerType_);
      uint32_t offset = 0;
      if (alignment >= 4) {
        offset = ir::constantUint(module_, 32, 0);
      } else {
        uint32_t low = b.op(spv::Op::OpUConvert, ir::typeInt(module_, 32), {address});
        offset = b.bitAnd(low, ir::constantUint(module_, 32, 3));
        address = b.bitAnd(address, ir::constantUint(module_, 64, ~uint64_t{3}));
      }
      uint32_t words = b.op(spv::Op::OpConvertUToPtr, wordType, {address});
      pointers::WordAccess access(b, words, SC::PhysicalStorageBuffer);
      access.widenNarrowValues([this](uint32_t t) { return mapType(t); });
      access.setInWordOffset(offset);
      if (isLoad) {
        Expected<uint32_t> value = access.read(pointee, offset, alignment);
        if (!value) return ir::refuse(module_, inst, value.error().message());
        return done(*value);
      }
      if (Status written = access.writeAs(pointee, widened(inst.idOperand(1)), offset, alignment); !written.ok())
        return ir::refuse(module_, inst, written.error().message());
      CL2VK_TRY(module_.remove(&inst));
      return true;
    }
    default: break;
  }
  bool memory = ir::isAtomic(opcode) || opcode == spv::Op::OpCopyMemory || opcode == spv::Op::OpCopyMemorySized ||
                opcode == spv::Op::OpPtrEqual || opcode == spv::Op::OpPtrNotEqual || opcode == spv::Op::OpPtrDiff;
  for (const ir::Operand& operand : inst.operands()) {
    if (memory && operand.isId() && isAddress(originalType(operand.words[0])))
      return ir::refuse(module_, inst,
                        "8/16-bit buffer memory without 8/16-bit storage supports loads, stores and pointer "
                        "arithmetic only (the device lacks storageBuffer8BitAccess/storageBuffer16BitAccess or "
                        "shaderInt8/shaderInt16)");
  }
  return false;
}

}  // namespace cl2vk::narrow
