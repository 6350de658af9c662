// Typed reads and writes of a word object (word_memory_lowering.h): scalars from the words that
// hold them, vectors, structs and arrays member by member with OpenCL C's layout.
#include <algorithm>

#include "analysis/data_layout.h"
#include "ir/types.h"
#include "passes/memory/word_memory_lowering.h"

namespace cl2vk::pointers {
namespace {

// Whole arrays are read and written element by element; past this many, the kernel is refused
// rather than made enormous (such values come from copying big arrays by value).
constexpr uint64_t kMaxUnrolledElements = 1024;

// The alignment of `offset + delta` when `offset` is aligned to `alignment` (a power of two).
uint32_t alignmentAt(uint32_t alignment, uint32_t delta) {
  if (delta == 0) return alignment;
  return std::min(alignment, delta & (~delta + 1));
}

}  // namespace

Expected<uint32_t> sizeInMemory(const Module& module, uint32_t type) {
  Expected<TypeLayout> layout = layoutOf(module, type);
  if (!layout) return layout.error();
  return (layout->size + layout->alignment - 1) / layout->alignment * layout->alignment;
}

Status walkChainInBytes(const Module& module, const Instruction& chain,
                        const std::function<void(uint32_t index, uint32_t stride)>& scaled,
                        const std::function<void(uint32_t offset)>& bytes) {
  uint32_t type = pointeeOf(module, module.def(chain.idOperand(0))->typeId());
  size_t first = 1;
  if (isPtrAccessChain(chain.opcode())) {
    Expected<uint32_t> stride = sizeInMemory(module, type);
    if (!stride) return stride.error();
    scaled(chain.idOperand(1), *stride);
    first = 2;
  }
  for (size_t i = first; i < chain.numOperands(); ++i) {
    const Instruction* def = module.def(type);
    uint32_t index = chain.idOperand(i);
    if (def->opcode() == spv::Op::OpTypeStruct) {
      std::optional<uint64_t> member = constantValue(module, index);
      Expected<std::vector<uint32_t>> members = memberOffsets(module, type);
      if (!member || !members || *member >= members->size())
        return Error("a struct member index that is not a constant");
      bytes((*members)[*member]);
      type = def->idOperand(*member);
      continue;
    }
    if (def->opcode() != spv::Op::OpTypeArray && def->opcode() != spv::Op::OpTypeRuntimeArray &&
        def->opcode() != spv::Op::OpTypeVector)
      return Error("indexes into a " + ir::opcodeName(def->opcode()));
    type = def->idOperand(0);
    Expected<uint32_t> stride = def->opcode() == spv::Op::OpTypeVector
                                    ? Expected<uint32_t>(ir::scalarWidth(module, type) / 8)
                                    : sizeInMemory(module, type);
    if (!stride) return stride.error();
    scaled(index, *stride);
  }
  return okStatus();
}

uint32_t WordAccess::uint32() { return ir::typeInt(b_.module(), 32); }

// Offsets known at translation time (members of private structs, mostly) fold into constants.
uint32_t WordAccess::plus(uint32_t offset, uint32_t bytes) {
  if (bytes == 0) return offset;
  if (std::optional<uint64_t> known = constantValue(b_.module(), offset))
    return ir::constantUint(b_.module(), 32, *known + bytes);
  return b_.iadd(offset, ir::constantUint(b_.module(), 32, bytes));
}

uint32_t WordAccess::wordPointer(uint32_t offset) {
  std::optional<uint64_t> known = constantValue(b_.module(), offset);
  if (storage_ == SC::PhysicalStorageBuffer && ((known && *known < 4) || offset == inWordOffset_)) return words_;
  uint32_t index =
      known ? ir::constantUint(b_.module(), 32, *known / 4) : b_.lshr(offset, ir::constantUint(b_.module(), 32, 2));
  if (storage_ == SC::PhysicalStorageBuffer)
    return b_.op(spv::Op::OpPtrAccessChain, b_.typeOf(words_), {words_, index});
  return b_.op(spv::Op::OpAccessChain, ir::typePointer(b_.module(), storage_, uint32()), {words_, index});
}

// The shift that moves byte `offset` of its word to bit 0.
static uint32_t byteShift(ir::Builder& b, uint32_t offset) {
  Module& module = b.module();
  if (std::optional<uint64_t> known = constantValue(module, offset))
    return ir::constantUint(module, 32, *known % 4 * 8);
  return b.shl(b.bitAnd(offset, ir::constantUint(module, 32, 3)), ir::constantUint(module, 32, 3));
}

uint32_t WordAccess::readBits(uint32_t offset, uint32_t width) {
  uint32_t word = b_.load(uint32(), wordPointer(offset), wordAlignment());
  if (width == 32) return word;
  uint32_t shifted = b_.lshr(word, byteShift(b_, offset));
  return b_.bitAnd(shifted, ir::constantUint(b_.module(), 32, (uint64_t{1} << width) - 1));
}

void WordAccess::writeBits(uint32_t offset, uint32_t width, uint32_t bits32) {
  uint32_t pointer = wordPointer(offset);
  if (width == 32) {
    b_.store(pointer, bits32, wordAlignment());
    return;
  }
  Module& module = b_.module();
  uint32_t shift = byteShift(b_, offset);
  uint32_t mask = b_.shl(ir::constantUint(module, 32, (uint64_t{1} << width) - 1), shift);
  uint32_t placed = b_.shl(bits32, shift);
  if (storage_ == SC::Workgroup || storage_ == SC::PhysicalStorageBuffer) {
    // Other work-items may store the other bytes of this word at the same time: only this
    // value's bits change, each step atomic. The value's one bits are set first, then its zero
    // bits cleared, so that a field that already holds the value (a flag many work-items set)
    // reads as that value throughout; clearing first showed zero in between, which a work-item
    // reading the field then saw (the CTS's generic_address_space builtin_functions, SwiftShader).
    spv::Scope reach = storage_ == SC::Workgroup ? spv::Scope::Workgroup : spv::Scope::Device;
    uint32_t scope = ir::constantUint(module, 32, static_cast<uint32_t>(reach));
    uint32_t relaxed = ir::constantUint(module, 32, 0);
    uint32_t keep = b_.bitOr(b_.bitNot(mask), placed);
    b_.op(spv::Op::OpAtomicOr, uint32(), {pointer, scope, relaxed, placed});
    b_.op(spv::Op::OpAtomicAnd, uint32(), {pointer, scope, relaxed, keep});
    return;
  }
  uint32_t old = b_.load(uint32(), pointer);
  b_.store(pointer, b_.bitOr(b_.bitAnd(old, b_.bitNot(mask)), placed));
}

uint32_t WordAccess::readScalar(uint32_t type, uint32_t offset, uint32_t alignment) {
  Module& module = b_.module();
  uint32_t width = ir::scalarWidth(module, type);
  uint32_t bytes = width / 8;
  // Bytes one at a time when the value is not aligned to its size (packed structs).
  auto bitsAt = [&](uint32_t at, uint32_t count) {
    if (alignment >= std::min(count, 4u)) return readBits(at, count * 8);
    uint32_t bits = readBits(at, 8);
    for (uint32_t k = 1; k < count; ++k)
      bits = b_.bitOr(bits, b_.shl(readBits(plus(at, k), 8), ir::constantUint(module, 32, 8 * k)));
    return bits;
  };
  if (width == 64) {
    uint32_t pair = b_.op(spv::Op::OpCompositeConstruct, ir::typeVector(module, uint32(), 2),
                          {bitsAt(offset, 4), bitsAt(plus(offset, 4), 4)});
    return b_.bitcast(type, pair);
  }
  uint32_t bits = bitsAt(offset, bytes);
  if (width < 32 && valueTypeOf(type) != type) return bits;  // widened: the zero-extended bits
  if (width < 32) bits = b_.resize(bits, width);
  return b_.typeOf(bits) == type ? bits : b_.bitcast(type, bits);
}

void WordAccess::writeScalar(uint32_t type, uint32_t value, uint32_t offset, uint32_t alignment) {
  Module& module = b_.module();
  uint32_t width = ir::scalarWidth(module, type);
  auto bitsTo = [&](uint32_t at, uint32_t count, uint32_t bits32) {
    if (alignment >= std::min(count, 4u)) return writeBits(at, count * 8, bits32);
    for (uint32_t k = 0; k < count; ++k)
      writeBits(plus(at, k), 8, b_.lshr(bits32, ir::constantUint(module, 32, 8 * k)));
  };
  if (width == 64) {
    uint32_t pair = b_.bitcast(ir::typeVector(module, uint32(), 2), value);
    bitsTo(offset, 4, b_.extract(uint32(), pair, 0));
    bitsTo(plus(offset, 4), 4, b_.extract(uint32(), pair, 1));
    return;
  }
  if (width < 32 && b_.typeOf(value) != type) return bitsTo(offset, width / 8, value);  // widened already
  uint32_t integer = ir::typeInt(module, width);
  uint32_t bits = type == integer ? value : b_.bitcast(integer, value);
  bitsTo(offset, width / 8, b_.resize(bits, 32));
}

bool WordAccess::fillsWords(uint32_t component, uint32_t count, uint32_t alignment) {
  uint32_t width = ir::isVectorType(b_.module(), component) ? 0 : ir::intWidth(b_.module(), component);
  if (width == 0 || width >= 32) return false;
  return alignment >= 4 && count * width % 32 == 0;
}

uint32_t WordAccess::readPacked(uint32_t type, uint32_t offset) {
  Module& module = b_.module();
  const Instruction* def = module.def(type);
  uint32_t width = ir::scalarWidth(module, def->idOperand(0));
  uint32_t perWord = 32 / width;
  uint32_t mask = ir::constantUint(module, 32, (uint64_t{1} << width) - 1);
  std::vector<uint32_t> parts;
  for (uint32_t w = 0; w < def->wordOperand(1) / perWord; ++w) {
    uint32_t word = readBits(plus(offset, 4 * w), 32);
    for (uint32_t k = 0; k < perWord; ++k) {
      uint32_t bits = k == 0 ? word : b_.lshr(word, ir::constantUint(module, 32, k * width));
      if (k + 1 < perWord) bits = b_.bitAnd(bits, mask);
      parts.push_back(valueTypeOf(type) != type ? bits : b_.resize(bits, width));
    }
  }
  return b_.op(spv::Op::OpCompositeConstruct, valueTypeOf(type), parts);
}

// The whole word is written, so a plain store cannot clobber a neighbour's bytes.
void WordAccess::writePacked(uint32_t type, uint32_t value, uint32_t offset) {
  Module& module = b_.module();
  const Instruction* def = module.def(type);
  uint32_t width = ir::scalarWidth(module, def->idOperand(0));
  uint32_t perWord = 32 / width;
  uint32_t valueComponent = b_.componentType(b_.typeOf(value));
  for (uint32_t w = 0; w < def->wordOperand(1) / perWord; ++w) {
    uint32_t word = 0;
    for (uint32_t k = 0; k < perWord; ++k) {
      uint32_t bits = b_.resize(b_.extract(valueComponent, value, w * perWord + k), 32);
      if (k > 0) bits = b_.shl(bits, ir::constantUint(module, 32, k * width));
      word = k == 0 ? bits : b_.bitOr(word, bits);
    }
    b_.store(wordPointer(plus(offset, 4 * w)), word, wordAlignment());
  }
}

Expected<uint32_t> WordAccess::read(uint32_t type, uint32_t offset, uint32_t alignment) {
  Module& module = b_.module();
  const Instruction* def = module.def(type);
  switch (def->opcode()) {
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: return readScalar(type, offset, alignment);
    case spv::Op::OpTypePointer: {
      // A buffer address in widened values (lower-narrow-integers): 64 bits, then the pointer.
      uint32_t address = readScalar(ir::typeInt(module, 64), offset, alignment);
      uint32_t valueType = valueTypeOf(type);
      if (!valueType_ || !ir::isPointerType(module, valueType)) return address;
      return b_.op(spv::Op::OpConvertUToPtr, valueType, {address});
    }
    case spv::Op::OpTypeVector: {
      uint32_t component = def->idOperand(0);
      uint32_t size = ir::scalarWidth(module, component) / 8;
      if (fillsWords(component, def->wordOperand(1), alignment)) return readPacked(type, offset);
      std::vector<uint32_t> parts;
      for (uint32_t i = 0; i < def->wordOperand(1); ++i)
        parts.push_back(readScalar(component, plus(offset, i * size), alignmentAt(alignment, i * size)));
      return b_.op(spv::Op::OpCompositeConstruct, valueTypeOf(type), parts);
    }
    case spv::Op::OpTypeStruct: {
      Expected<std::vector<uint32_t>> offsets = memberOffsets(module, type);
      if (!offsets) return offsets.error();
      std::vector<uint32_t> parts;
      for (size_t i = 0; i < def->numOperands(); ++i) {
        uint32_t at = (*offsets)[i];
        Expected<uint32_t> part = read(def->idOperand(i), plus(offset, at), alignmentAt(alignment, at));
        if (!part) return part;
        parts.push_back(*part);
      }
      return b_.op(spv::Op::OpCompositeConstruct, valueTypeOf(type), parts);
    }
    case spv::Op::OpTypeArray: {
      std::optional<uint64_t> length = constantValue(module, def->idOperand(1));
      Expected<uint32_t> stride = sizeInMemory(module, def->idOperand(0));
      if (!stride) return stride.error();
      if (!length || *length > kMaxUnrolledElements)
        return Error("an array of more than " + std::to_string(kMaxUnrolledElements) + " elements read as one value");
      std::vector<uint32_t> parts;
      for (uint32_t i = 0; i < *length; ++i) {
        Expected<uint32_t> part =
            read(def->idOperand(0), plus(offset, i * *stride), alignmentAt(alignment, i * *stride));
        if (!part) return part;
        parts.push_back(*part);
      }
      return b_.op(spv::Op::OpCompositeConstruct, valueTypeOf(type), parts);
    }
    default: return Error("a value of type " + ir::opcodeName(def->opcode()) + " read from reinterpreted memory");
  }
}

Status WordAccess::writeAs(uint32_t type, uint32_t value, uint32_t offset, uint32_t alignment) {
  Module& module = b_.module();
  const Instruction* def = module.def(type);
  uint32_t valueType = b_.typeOf(value);
  switch (def->opcode()) {
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: writeScalar(type, value, offset, alignment); return okStatus();
    case spv::Op::OpTypePointer: {
      uint32_t ulong = ir::typeInt(module, 64);
      if (ir::isPointerType(module, valueType)) value = b_.op(spv::Op::OpConvertPtrToU, ulong, {value});
      writeScalar(ulong, value, offset, alignment);
      return okStatus();
    }
    case spv::Op::OpTypeVector: {
      uint32_t component = def->idOperand(0);
      uint32_t size = ir::scalarWidth(module, component) / 8;
      if (fillsWords(component, def->wordOperand(1), alignment)) {
        writePacked(type, value, offset);
        return okStatus();
      }
      uint32_t valueComponent = b_.componentType(valueType);
      for (uint32_t i = 0; i < def->wordOperand(1); ++i)
        writeScalar(component, b_.extract(valueComponent, value, i), plus(offset, i * size),
                    alignmentAt(alignment, i * size));
      return okStatus();
    }
    case spv::Op::OpTypeStruct: {
      Expected<std::vector<uint32_t>> offsets = memberOffsets(module, type);
      if (!offsets) return offsets.error();
      const Instruction* valueDef = module.def(valueType);
      for (uint32_t i = 0; i < def->numOperands(); ++i) {
        uint32_t at = (*offsets)[i];
        CL2VK_TRY(writeAs(def->idOperand(i), b_.extract(valueDef->idOperand(i), value, i), plus(offset, at),
                          alignmentAt(alignment, at)));
      }
      return okStatus();
    }
    case spv::Op::OpTypeArray: {
      std::optional<uint64_t> length = constantValue(module, def->idOperand(1));
      Expected<uint32_t> stride = sizeInMemory(module, def->idOperand(0));
      if (!stride) return stride.error();
      if (!length || *length > kMaxUnrolledElements)
        return Error("an array of more than " + std::to_string(kMaxUnrolledElements) +
                     " elements written as one value");
      uint32_t valueElement = module.def(valueType)->idOperand(0);
      for (uint32_t i = 0; i < *length; ++i)
        CL2VK_TRY(writeAs(def->idOperand(0), b_.extract(valueElement, value, i), plus(offset, i * *stride),
                          alignmentAt(alignment, i * *stride)));
      return okStatus();
    }
    default: return Error("a value of type " + ir::opcodeName(def->opcode()) + " written to reinterpreted memory");
  }
}

}  // namespace cl2vk::pointers
