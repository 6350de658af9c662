#include "passes/vectors/wide_vectors_parts.h"

#include <algorithm>

#include "analysis/data_layout.h"
#include "ir/types.h"

namespace cl2vk {

using ir::Builder;
using ir::Instruction;
using ir::Operand;

void WideParts::collectWideTypes() {
  for (const Instruction& inst : module_.section(ir::Section::kGlobal)) {
    // OpenCL's wide vectors have 8 or 16 components, whole numbers of parts.
    if (inst.opcode() != spv::Op::OpTypeVector || inst.wordOperand(1) <= 4 || inst.wordOperand(1) % 4 != 0) continue;
    WideType type;
    type.component = inst.idOperand(0);
    type.count = inst.wordOperand(1);
    wideTypes_[inst.resultId()] = type;
  }
  for (auto& [id, type] : wideTypes_) type.part = ir::typeVector(module_, type.component, 4);
}

std::vector<uint32_t> WideParts::wideTypeIds() const {
  std::vector<uint32_t> ids;
  for (const auto& [id, type] : wideTypes_) ids.push_back(id);
  return ids;
}

uint32_t WideParts::memoryType(uint32_t type) {
  WideType& wide = wideTypes_.at(type);
  if (wide.memory == 0) {
    uint32_t length = ir::constantUint(module_, 32, wide.parts());
    wide.memory = module_.takeId();
    module_.append(ir::Section::kGlobal,
                   Instruction(spv::Op::OpTypeArray, 0, wide.memory, {Operand::id(wide.part), Operand::id(length)}));
    // Aligned like the vector it stands for (its size), not like one part: the members after it,
    // and its own address, stay where OpenCL C puts them (data_layout.h).
    uint32_t vectorBytes = ir::scalarWidth(module_, wide.component) / 8 * wide.count;
    module_.append(
        ir::Section::kAnnotation,
        Instruction(spv::Op::OpDecorate, 0, 0,
                    {Operand::id(wide.memory),
                     Operand::enumerant(SPV_OPERAND_TYPE_DECORATION, static_cast<uint32_t>(spv::Decoration::Alignment)),
                     Operand::literal(vectorBytes)}));
    memoryComponents_[wide.memory] = wide.component;
  }
  return wide.memory;
}

bool WideParts::isWide(uint32_t value) const {
  if (parts_.contains(value)) return true;
  const Instruction* def = module_.def(value);
  return def && isWideType(def->typeId());
}

Expected<std::vector<uint32_t>> WideParts::partsOf(uint32_t value) const {
  auto it = parts_.find(value);
  if (it == parts_.end())
    return Error("%" + std::to_string(value) + ", a vector of 8 or 16 components, has not been split");
  return it->second;
}

uint32_t WideParts::memoryValue(Builder& b, uint32_t value) {
  if (auto it = memoryValues_.find(value); it != memoryValues_.end()) return it->second;
  std::vector<uint32_t> parts = parts_.at(value);
  uint32_t array = b.valueOfIds(spv::Op::OpCompositeConstruct, memoryType(ir::typeOf(module_, value)), parts);
  memoryValues_[value] = array;
  return array;
}

uint32_t WideParts::pointee(uint32_t pointerType) const {
  return ir::isPointerType(module_, pointerType) ? ir::pointeeOf(module_, pointerType) : 0;
}

uint32_t WideParts::elementType(uint32_t type, uint32_t index) const {
  const Instruction* def = module_.def(type);
  if (!def) return 0;
  switch (def->opcode()) {
    case spv::Op::OpTypeStruct: return index < def->numOperands() ? def->idOperand(index) : 0;
    case spv::Op::OpTypeArray:
    case spv::Op::OpTypeRuntimeArray:
    case spv::Op::OpTypeVector: return def->idOperand(0);
    default: return 0;
  }
}

bool WideParts::pointsToWideMemory(uint32_t pointer) const {
  return isMemoryType(pointee(ir::typeOf(module_, pointer)));
}

uint32_t WideParts::partPointer(Builder& b, uint32_t pointer, uint32_t k) {
  const Instruction* pointerType = module_.def(ir::typeOf(module_, pointer));
  auto storage = static_cast<spv::StorageClass>(pointerType->wordOperand(0));
  uint32_t part = module_.def(pointerType->idOperand(1))->idOperand(0);
  return b.valueOfIds(spv::Op::OpInBoundsAccessChain, ir::typePointer(module_, storage, part),
                      {pointer, ir::constantUint(module_, 32, k)});
}

std::vector<Operand> WideParts::partMemoryAccess(const std::vector<Operand>& operands, size_t first,
                                                 uint32_t partType) const {
  std::vector<Operand> access(operands.begin() + static_cast<std::ptrdiff_t>(std::min(first, operands.size())),
                              operands.end());
  if (access.empty()) return access;
  uint32_t mask = access[0].words[0];
  if ((mask & static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)) && access.size() > 1) {
    Expected<TypeLayout> layout = layoutOf(module_, partType);
    uint32_t partBytes = layout ? layout->size : 1;
    access[1] = Operand::literal(std::min(access[1].words[0], partBytes));
  }
  return access;
}

std::pair<uint32_t, uint32_t> WideParts::splitIndex(Builder& b, uint32_t index) {
  uint32_t type = ir::typeOf(module_, index);
  if (std::optional<uint64_t> constant = constantValue(module_, index)) {
    return {ir::constantBits(module_, type, *constant >> 2), ir::constantBits(module_, type, *constant & 3)};
  }
  return {b.valueOfIds(spv::Op::OpShiftRightLogical, type, {index, ir::constantBits(module_, type, 2)}),
          b.valueOfIds(spv::Op::OpBitwiseAnd, type, {index, ir::constantBits(module_, type, 3)})};
}

void WideParts::copyDecorations(uint32_t from, uint32_t to) {
  std::vector<Instruction> copies;
  for (const Instruction* decoration : module_.decorations(from)) {
    std::vector<Operand> operands = decoration->operands();
    operands[0] = Operand::id(to);
    copies.emplace_back(decoration->opcode(), 0, 0, std::move(operands));
  }
  for (Instruction& copy : copies) module_.append(ir::Section::kAnnotation, std::move(copy));
}

Expected<std::vector<Component>> WideParts::components(uint32_t value) const {
  std::vector<Component> components;
  if (isWide(value)) {
    Expected<std::vector<uint32_t>> parts = partsOf(value);
    if (!parts) return parts.error();
    for (uint32_t part : *parts) {
      for (uint32_t i = 0; i < 4; ++i) components.push_back({part, i});
    }
    return components;
  }
  uint32_t type = ir::typeOf(module_, value);
  if (ir::isVectorType(module_, type)) {
    for (uint32_t i = 0; i < ir::componentCount(module_, type); ++i) components.push_back({value, i});
  } else {
    components.push_back({value, Component::kScalar});
  }
  return components;
}

uint32_t WideParts::scalar(Builder& b, const Component& component) {
  if (component.index == Component::kScalar) return component.vector;
  uint32_t type = ir::componentType(module_, ir::typeOf(module_, component.vector));
  return b.value(spv::Op::OpCompositeExtract, type, {Operand::id(component.vector), Operand::literal(component.index)});
}

uint32_t WideParts::assemble(Builder& b, const std::vector<Component>& components, uint32_t type) {
  uint32_t count = static_cast<uint32_t>(components.size());
  uint32_t first = components[0].vector;
  bool whole = first != 0 && ir::typeOf(module_, first) == type;
  for (uint32_t i = 0; i < count && whole; ++i) whole = components[i] == Component{first, i};
  if (whole) return first;

  std::vector<uint32_t> sources;
  bool allFromVectors = true;
  for (const Component& c : components) {
    if (c.vector == 0) continue;
    if (c.index == Component::kScalar) allFromVectors = false;
    if (std::find(sources.begin(), sources.end(), c.vector) == sources.end()) sources.push_back(c.vector);
  }
  if (allFromVectors && !sources.empty() && sources.size() <= 2) {
    uint32_t second = sources.size() == 2 ? sources[1] : sources[0];
    uint32_t firstCount = ir::componentCount(module_, ir::typeOf(module_, sources[0]));
    std::vector<Operand> operands = {Operand::id(sources[0]), Operand::id(second)};
    for (const Component& c : components) {
      uint32_t literal = c.vector == 0 ? 0xFFFFFFFF : c.vector == sources[0] ? c.index : firstCount + c.index;
      operands.push_back(Operand::literal(literal));
    }
    return b.value(spv::Op::OpVectorShuffle, type, std::move(operands));
  }

  uint32_t scalar = module_.def(type)->idOperand(0);
  std::vector<uint32_t> constituents;
  for (const Component& c : components) {
    if (c.vector == 0) {
      constituents.push_back(ir::undef(module_, scalar));
    } else if (c.index == Component::kScalar) {
      constituents.push_back(c.vector);
    } else {
      constituents.push_back(
          b.value(spv::Op::OpCompositeExtract, scalar, {Operand::id(c.vector), Operand::literal(c.index)}));
    }
  }
  return b.valueOfIds(spv::Op::OpCompositeConstruct, type, constituents);
}

Expected<std::vector<uint32_t>> WideParts::words(Builder& b, uint32_t value) {
  std::vector<uint32_t> pieces = {value};
  if (isWide(value)) {
    Expected<std::vector<uint32_t>> parts = partsOf(value);
    if (!parts) return parts.error();
    pieces = *parts;
  }
  std::vector<uint32_t> words;
  for (uint32_t piece : pieces) {
    Expected<std::vector<uint32_t>> more = pieceWords(b, piece);
    if (!more) return more.error();
    words.insert(words.end(), more->begin(), more->end());
  }
  return words;
}

// A piece of 32, 64, 128 or 256 bits as words.
Expected<std::vector<uint32_t>> WideParts::pieceWords(Builder& b, uint32_t piece) {
  uint32_t type = ir::typeOf(module_, piece);
  uint32_t count = ir::componentCount(module_, type);
  uint32_t scalar = count == 1 ? type : module_.def(type)->idOperand(0);
  uint32_t bits = count * ir::scalarWidth(module_, scalar);
  uint32_t uintType = ir::typeInt(module_, 32);
  if (bits == 32)
    return std::vector<uint32_t>{type == uintType ? piece : b.valueOfIds(spv::Op::OpBitcast, uintType, {piece})};
  if (bits == 64 || bits == 128) {
    uint32_t wordsType = ir::typeVector(module_, uintType, bits / 32);
    uint32_t asWords = type == wordsType ? piece : b.valueOfIds(spv::Op::OpBitcast, wordsType, {piece});
    std::vector<uint32_t> words;
    for (uint32_t i = 0; i < bits / 32; ++i) {
      words.push_back(b.value(spv::Op::OpCompositeExtract, uintType, {Operand::id(asWords), Operand::literal(i)}));
    }
    return words;
  }
  if (bits == 256 && count == 4) {
    uint32_t half = ir::typeVector(module_, scalar, 2);
    std::vector<uint32_t> words;
    for (uint32_t h = 0; h < 2; ++h) {
      uint32_t halfValue =
          b.value(spv::Op::OpVectorShuffle, half,
                  {Operand::id(piece), Operand::id(piece), Operand::literal(2 * h), Operand::literal(2 * h + 1)});
      Expected<std::vector<uint32_t>> more = pieceWords(b, halfValue);
      if (!more) return more.error();
      words.insert(words.end(), more->begin(), more->end());
    }
    return words;
  }
  return Error("a bit cast of " + std::to_string(bits) + " bits through 32-bit words is not supported");
}

Expected<uint32_t> WideParts::fromWords(Builder& b, const std::vector<uint32_t>& words, size_t first, uint32_t type) {
  uint32_t count = ir::componentCount(module_, type);
  uint32_t scalar = count == 1 ? type : module_.def(type)->idOperand(0);
  uint32_t bits = count * ir::scalarWidth(module_, scalar);
  uint32_t uintType = ir::typeInt(module_, 32);
  size_t needed = bits / 32;
  if (bits % 32 != 0 || first + needed > words.size()) return Error("a bit cast between types of different sizes");
  if (bits == 32) return type == uintType ? words[first] : b.valueOfIds(spv::Op::OpBitcast, type, {words[first]});
  if (bits == 64 || bits == 128) {
    uint32_t wordsType = ir::typeVector(module_, uintType, bits / 32);
    std::vector<uint32_t> constituents(words.begin() + static_cast<std::ptrdiff_t>(first),
                                       words.begin() + static_cast<std::ptrdiff_t>(first + needed));
    uint32_t asWords = b.valueOfIds(spv::Op::OpCompositeConstruct, wordsType, constituents);
    return type == wordsType ? asWords : b.valueOfIds(spv::Op::OpBitcast, type, {asWords});
  }
  if (bits == 256 && count == 4) {
    uint32_t half = ir::typeVector(module_, scalar, 2);
    Expected<uint32_t> low = fromWords(b, words, first, half);
    if (!low) return low;
    Expected<uint32_t> high = fromWords(b, words, first + 4, half);
    if (!high) return high;
    return b.value(spv::Op::OpVectorShuffle, type,
                   {Operand::id(*low), Operand::id(*high), Operand::literal(0), Operand::literal(1),
                    Operand::literal(2), Operand::literal(3)});
  }
  return Error("a bit cast of " + std::to_string(bits) + " bits through 32-bit words is not supported");
}

}  // namespace cl2vk
