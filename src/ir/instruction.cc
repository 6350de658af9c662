#include "ir/instruction.h"

#include <algorithm>
#include <cassert>
#include <cstring>
#include <iterator>
#include <unordered_map>

#include "ir/module.h"

namespace cl2vk::ir {
namespace {

struct NameEntry {
  uint32_t value;
  const char* name;
};

// Generated from SPIRV-Headers at configure time.
constexpr NameEntry kOpcodeNames[] = {
#include "cl2vk/opcode_names.inc"
};
constexpr NameEntry kCapabilityNames[] = {
#include "cl2vk/capability_names.inc"
};

template <size_t N>
const char* lookUp(const NameEntry (&table)[N], uint32_t value) {
  static const std::unordered_map<uint32_t, const char*> names = [&table] {
    std::unordered_map<uint32_t, const char*> map;
    for (const NameEntry& entry : table) map.emplace(entry.value, entry.name);
    return map;
  }();
  auto it = names.find(value);
  return it != names.end() ? it->second : nullptr;
}

}  // namespace

std::string opcodeName(spv::Op opcode) {
  auto value = static_cast<uint32_t>(opcode);
  const char* name = lookUp(kOpcodeNames, value);
  return name ? name : "Op" + std::to_string(value);
}

std::string capabilityName(spv::Capability capability) {
  auto value = static_cast<uint32_t>(capability);
  const char* name = lookUp(kCapabilityNames, value);
  return name ? name : "Capability" + std::to_string(value);
}

bool hasResultId(spv::Op opcode) {
  bool result = false, type = false;
  spv::HasResultAndType(opcode, &result, &type);
  return result;
}

bool hasResultType(spv::Op opcode) {
  bool result = false, type = false;
  spv::HasResultAndType(opcode, &result, &type);
  return type;
}

bool isIdKind(spv_operand_type_t kind) {
  switch (kind) {
    case SPV_OPERAND_TYPE_ID:
    case SPV_OPERAND_TYPE_TYPE_ID:
    case SPV_OPERAND_TYPE_RESULT_ID:
    case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID:
    case SPV_OPERAND_TYPE_SCOPE_ID:
    case SPV_OPERAND_TYPE_OPTIONAL_ID: return true;
    default: return false;
  }
}

spv_operand_type_t normalizedKind(spv_operand_type_t kind) { return isIdKind(kind) ? SPV_OPERAND_TYPE_ID : kind; }

bool Operand::operator==(const Operand& other) const {
  return normalizedKind(kind) == normalizedKind(other.kind) && words == other.words;
}

Operand Operand::id(uint32_t id) { return {SPV_OPERAND_TYPE_ID, {id}}; }

Operand Operand::literal(uint32_t value) { return {SPV_OPERAND_TYPE_LITERAL_INTEGER, {value}}; }

Operand Operand::number(std::vector<uint32_t> words) {
  return {SPV_OPERAND_TYPE_TYPED_LITERAL_NUMBER, std::move(words)};
}

Operand Operand::string(std::string_view text) {
  // UTF-8 bytes, NUL-terminated, padded with NULs to a whole word (SPIR-V 2.2.1).
  std::vector<uint32_t> words(text.size() / 4 + 1, 0u);
  std::memcpy(words.data(), text.data(), text.size());
  return {SPV_OPERAND_TYPE_LITERAL_STRING, std::move(words)};
}

Operand Operand::enumerant(spv_operand_type_t kind, uint32_t value) { return {kind, {value}}; }

std::string Operand::asString() const {
  const char* bytes = reinterpret_cast<const char*>(words.data());
  size_t limit = words.size() * sizeof(uint32_t);
  return std::string(bytes, strnlen(bytes, limit));
}

Instruction::Instruction(spv::Op opcode, uint32_t typeId, uint32_t resultId, std::vector<Operand> operands)
    : opcode_(opcode), typeId_(typeId), resultId_(resultId), operands_(std::move(operands)) {}

uint32_t Instruction::idOperand(size_t index) const {
  const Operand& op = operand(index);
  assert(op.isId() && op.words.size() == 1);
  return op.words[0];
}

uint32_t Instruction::wordOperand(size_t index) const {
  const Operand& op = operand(index);
  assert(!op.words.empty());
  return op.words[0];
}

uint32_t Instruction::wordCount() const {
  uint32_t count = 1 + (typeId_ != 0) + (resultId_ != 0);
  for (const Operand& op : operands_) count += static_cast<uint32_t>(op.words.size());
  return count;
}

void Instruction::encode(std::vector<uint32_t>& out) const {
  out.push_back(wordCount() << 16 | static_cast<uint32_t>(opcode_));
  if (typeId_) out.push_back(typeId_);
  if (resultId_) out.push_back(resultId_);
  for (const Operand& op : operands_) out.insert(out.end(), op.words.begin(), op.words.end());
}

Function* Instruction::function() const { return list_ ? list_->function() : nullptr; }

Block* Instruction::block() const { return list_ ? list_->block() : nullptr; }

Instruction* Instruction::next() {
  if (!list_) return nullptr;
  auto following = std::next(position_);
  return following == list_->items_.end() ? nullptr : &*following;
}

bool Instruction::sameValueAs(const Instruction& other) const {
  return opcode_ == other.opcode_ && typeId_ == other.typeId_ && operands_ == other.operands_;
}

Instruction* InstList::insert(iterator position, Instruction inst) {
  auto it = items_.insert(position, std::move(inst));
  it->list_ = this;
  it->position_ = it;
  return &*it;
}

void InstList::spliceTail(InstList& from, iterator position) {
  // std::list::splice keeps iterators valid, so only the owner changes.
  for (auto it = position; it != from.items_.end(); ++it) it->list_ = this;
  items_.splice(items_.end(), from.items_, position, from.items_.end());
}

Instruction switchOnWidened(const Instruction& switchInstruction, uint32_t selector, uint32_t width) {
  uint64_t low = width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1;
  std::vector<Operand> operands = switchInstruction.operands();
  operands[0] = Operand::id(selector);
  for (size_t i = 2; i < operands.size(); i += 2) {
    std::vector<uint32_t>& words = operands[i].words;
    uint64_t value = (words.at(0) | (words.size() > 1 ? uint64_t{words[1]} << 32 : 0)) & low;
    words[0] = static_cast<uint32_t>(value);
    if (words.size() > 1) words[1] = static_cast<uint32_t>(value >> 32);
  }
  return Instruction(spv::Op::OpSwitch, 0, 0, std::move(operands));
}

}  // namespace cl2vk::ir
