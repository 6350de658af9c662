// Loads and stores of integers of odd widths (odd_integer_lowering.h). LLVM stores an iN in
// ceil(N/8) bytes and lays arrays and structs out with the alloc size of the next standard width,
// which the widened type has too; where the store size is smaller (i17 to i24 and i33 to i56), the
// value goes to and from memory a byte at a time, so that the bytes after it are left alone.
#include "analysis/call_graph.h"
#include "ir/capabilities.h"
#include "ir/types.h"
#include "passes/types/odd_integer_lowering.h"

namespace cl2vk::odd {
namespace {

// Whether an array or struct of `type` holds a vector of odd-width integers, which LLVM lays out
// with its bits packed rather than as the widened vector.
bool holdsOddVector(const Module& module, uint32_t type) {
  const Instruction* def = module.def(type);
  switch (def->opcode()) {
    case spv::Op::OpTypeVector: {
      uint32_t width = ir::scalarWidth(module, def->idOperand(0));
      return def->wordOperand(1) > 1 && width != widenedWidth(width);
    }
    case spv::Op::OpTypeArray:
    case spv::Op::OpTypeRuntimeArray: return holdsOddVector(module, def->idOperand(0));
    case spv::Op::OpTypeStruct:
      for (size_t i = 0; i < def->numOperands(); ++i) {
        if (holdsOddVector(module, def->idOperand(i))) return true;
      }
      return false;
    default: return false;
  }
}

bool isAtomic(spv::Op opcode) {
  return (opcode >= spv::Op::OpAtomicLoad && opcode <= spv::Op::OpAtomicXor) ||
         opcode == spv::Op::OpAtomicFlagTestAndSet || opcode == spv::Op::OpAtomicFlagClear;
}

}  // namespace

Expected<bool> OddIntegerWidening::lowerMemory(Instruction& inst) {
  spv::Op opcode = inst.opcode();
  if (isAtomic(opcode))
    return ir::refuse(module_, inst,
                      "atomics on integers of a width other than 8, 16, 32 or 64 bits are not supported");
  if (opcode != spv::Op::OpLoad && opcode != spv::Op::OpStore) return false;
  bool isLoad = opcode == spv::Op::OpLoad;
  uint32_t pointer = inst.idOperand(0);
  uint32_t type = isLoad ? inst.typeId() : originalType(inst.idOperand(1));
  uint32_t width = oddWidth(type);
  if (!width) {
    // An aggregate or a pointer: the same layout with the widened types, but an odd vector
    // inside has LLVM's bit-packed layout.
    if (holdsOddVector(module_, type))
      return ir::refuse(module_, inst,
                        "an aggregate holding a vector of integers of a width other than 8, 16, 32 or 64 bits (LLVM "
                        "packs its bits) is not supported in memory");
    retype(inst);
    return true;
  }
  if (ir::componentCount(module_, type) > 1)
    return ir::refuse(module_, inst,
                      std::string("a vector of ") + std::to_string(width) + "-bit integers " +
                          (isLoad ? "loaded from" : "stored to") + " memory (LLVM packs its bits) is not supported");
  Builder b = Builder::before(module_, &inst);
  uint32_t wide = mapType(type);
  uint32_t bytes = (width + 7) / 8;
  if (bytes * 8 == b.width(wide)) {
    if (!isLoad) {
      retype(inst);  // the value is held zero-extended: its bytes are the ones LLVM stores
      return true;
    }
    // Masked in case the bytes were written as something else.
    uint32_t value = b.value(spv::Op::OpLoad, wide, inst.operands());
    CL2VK_TRY(finish(inst, mask(b, value, width), type));
    return true;
  }
  auto storage = static_cast<spv::StorageClass>(module_.def(originalType(pointer))->wordOperand(0));
  ir::requireCapability(module_, spv::Capability::Int8);
  uint32_t uchar = ir::typeInt(module_, 8);
  uint32_t bytePointerType = ir::typePointer(module_, storage, uchar);
  uint32_t firstByte = b.bitcast(bytePointerType, pointer);
  auto byteAt = [&](uint32_t index) {
    return index == 0 ? firstByte
                      : b.valueOfIds(spv::Op::OpInBoundsPtrAccessChain, bytePointerType,
                                     {firstByte, ir::constantUint(module_, 32, index)});
  };
  if (isLoad) {
    uint32_t value = 0;
    for (uint32_t i = 0; i < bytes; ++i) {
      uint32_t part = b.resize(b.load(uchar, byteAt(i), 1), b.width(wide));
      if (i > 0) part = b.shl(part, b.bits(wide, 8 * i));
      value = value ? b.bitOr(value, part) : part;
    }
    CL2VK_TRY(finish(inst, bytes * 8 == width ? value : mask(b, value, width), type));
    return true;
  }
  uint32_t value = widened(inst.idOperand(1));
  for (uint32_t i = 0; i < bytes; ++i) {
    uint32_t part = i > 0 ? b.lshr(value, b.bits(wide, 8 * i)) : value;
    b.store(byteAt(i), b.resize(part, 8), 1);
  }
  CL2VK_TRY(module_.remove(&inst));
  return true;
}

}  // namespace cl2vk::odd
