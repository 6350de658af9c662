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
  uint32_t index =
      known ? ir::constantUint(b_.module(), 32, *known / 4) : b_.lshr(offset, ir::constantUint(b_.module(), 32, 2));
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
  uint32_t word = b_.load(uint32(), wordPointer(offset));
  if (width == 32) return word;
  uint32_t shifted = b_.lshr(word, byteShift(b_, offset));
  return b_.bitAnd(shifted, ir::constantUint(b_.module(), 32, (uint64_t{1} << width) - 1));
}

void WordAccess::writeBits(uint32_t offset, uint32_t width, uint32_t bits32) {
  uint32_t pointer = wordPointer(offset);
  if (width == 32) {
    b_.store(pointer, bits32);
    return;
  }
  Module& module = b_.module();
  uint32_t shift = byteShift(b_, offset);
  uint32_t mask = b_.shl(ir::constantUint(module, 32, (uint64_t{1} << width) - 1), shift);
  uint32_t placed = b_.shl(bits32, shift);
  if (storage_ == SC::Workgroup) {
    // Other work-items may store the other bytes of this word at the same time: clear and set
    // only this value's bits, each atomically.
    uint32_t scope = ir::constantUint(module, 32, static_cast<uint32_t>(spv::Scope::Workgroup));
    uint32_t relaxed = ir::constantUint(module, 32, 0);
    b_.op(spv::Op::OpAtomicAnd, uint32(), {pointer, scope, relaxed, b_.bitNot(mask)});
    b_.op(spv::Op::OpAtomicOr, uint32(), {pointer, scope, relaxed, placed});
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
  if (width < 32) bits = b_.resize(bits, width);
  return b_.typeOf(bits) == type ? bits : b_.bitcast(type, bits);
}

void WordAccess::writeScalar(uint32_t value, uint32_t offset, uint32_t alignment) {
  Module& module = b_.module();
  uint32_t type = b_.typeOf(value);
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
  uint32_t integer = ir::typeInt(module, width);
  uint32_t bits = type == integer ? value : b_.bitcast(integer, value);
  bitsTo(offset, width / 8, b_.resize(bits, 32));
}

Expected<uint32_t> WordAccess::read(uint32_t type, uint32_t offset, uint32_t alignment) {
  Module& module = b_.module();
  const Instruction* def = module.def(type);
  switch (def->opcode()) {
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: return readScalar(type, offset, alignment);
    case spv::Op::OpTypeVector: {
      uint32_t component = def->idOperand(0);
      uint32_t size = ir::scalarWidth(module, component) / 8;
      std::vector<uint32_t> parts;
      for (uint32_t i = 0; i < def->wordOperand(1); ++i)
        parts.push_back(readScalar(component, plus(offset, i * size), alignmentAt(alignment, i * size)));
      return b_.op(spv::Op::OpCompositeConstruct, type, parts);
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
      return b_.op(spv::Op::OpCompositeConstruct, type, parts);
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
      return b_.op(spv::Op::OpCompositeConstruct, type, parts);
    }
    default: return Error("a value of type " + ir::opcodeName(def->opcode()) + " read from reinterpreted memory");
  }
}

Status WordAccess::write(uint32_t value, uint32_t offset, uint32_t alignment) {
  Module& module = b_.module();
  uint32_t type = b_.typeOf(value);
  const Instruction* def = module.def(type);
  switch (def->opcode()) {
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: writeScalar(value, offset, alignment); return okStatus();
    case spv::Op::OpTypeVector: {
      uint32_t component = def->idOperand(0);
      uint32_t size = ir::scalarWidth(module, component) / 8;
      for (uint32_t i = 0; i < def->wordOperand(1); ++i)
        writeScalar(b_.extract(component, value, i), plus(offset, i * size), alignmentAt(alignment, i * size));
      return okStatus();
    }
    case spv::Op::OpTypeStruct: {
      Expected<std::vector<uint32_t>> offsets = memberOffsets(module, type);
      if (!offsets) return offsets.error();
      for (uint32_t i = 0; i < def->numOperands(); ++i) {
        uint32_t at = (*offsets)[i];
        CL2VK_TRY(write(b_.extract(def->idOperand(i), value, i), plus(offset, at), alignmentAt(alignment, at)));
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
      for (uint32_t i = 0; i < *length; ++i)
        CL2VK_TRY(write(b_.extract(def->idOperand(0), value, i), plus(offset, i * *stride),
                        alignmentAt(alignment, i * *stride)));
      return okStatus();
    }
    default: return Error("a value of type " + ir::opcodeName(def->opcode()) + " written to reinterpreted memory");
  }
}

}  // namespace cl2vk::pointers
