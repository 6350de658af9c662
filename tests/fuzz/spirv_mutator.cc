#include "spirv_mutator.h"

#include <spirv-tools/libspirv.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <map>
#include <unordered_map>

namespace cl2vk::fuzz {
namespace {

constexpr uint32_t kMagic = 0x07230203;
constexpr size_t kHeaderWords = 5;
constexpr size_t kBoundWord = 3;

struct Operand {
  uint16_t offset;  // in words from the instruction's first word
  uint16_t wordCount;
  spv_operand_type_t type;
};

struct Instruction {
  std::vector<uint32_t> words;
  uint32_t resultId = 0;
  uint32_t typeId = 0;
  std::vector<Operand> operands;  // empty when the module did not parse

  uint16_t opcode() const { return static_cast<uint16_t>(words[0] & 0xffff); }
};

struct Mutant {
  std::array<uint32_t, kHeaderWords> header;
  std::vector<Instruction> instructions;
  std::vector<uint8_t> selector;  // the target selector bytes after the module
  bool typed = false;             // whether spvBinaryParse gave the operands their types
};

bool isIdOperand(spv_operand_type_t type) {
  switch (type) {
    case SPV_OPERAND_TYPE_ID:
    case SPV_OPERAND_TYPE_TYPE_ID:
    case SPV_OPERAND_TYPE_MEMORY_SEMANTICS_ID:
    case SPV_OPERAND_TYPE_SCOPE_ID: return true;
    default: return false;
  }
}

bool isNumberOperand(spv_operand_type_t type) {
  switch (type) {
    case SPV_OPERAND_TYPE_LITERAL_INTEGER:
    case SPV_OPERAND_TYPE_TYPED_LITERAL_NUMBER:
    case SPV_OPERAND_TYPE_SPEC_CONSTANT_OP_NUMBER:
    case SPV_OPERAND_TYPE_EXTENSION_INSTRUCTION_NUMBER: return true;
    default: return false;
  }
}

// Enumerants and masks (storage classes, group operations, memory access, ...).
bool isEnumOperand(spv_operand_type_t type) {
  return !isIdOperand(type) && !isNumberOperand(type) && type != SPV_OPERAND_TYPE_RESULT_ID &&
         type != SPV_OPERAND_TYPE_LITERAL_STRING;
}

spv_result_t collectInstruction(void* user, const spv_parsed_instruction_t* parsed) {
  Instruction& instruction = static_cast<Mutant*>(user)->instructions.emplace_back();
  instruction.words.assign(parsed->words, parsed->words + parsed->num_words);
  instruction.resultId = parsed->result_id;
  instruction.typeId = parsed->type_id;
  for (uint16_t i = 0; i < parsed->num_operands; ++i) {
    const spv_parsed_operand_t& operand = parsed->operands[i];
    instruction.operands.push_back({operand.offset, operand.num_words, operand.type});
  }
  return SPV_SUCCESS;
}

// Splits the instructions by their word counts alone, for modules SPIRV-Tools cannot parse.
bool splitUntyped(std::span<const uint32_t> words, Mutant& mutant) {
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t wordCount = words[at] >> 16;
    if (wordCount == 0 || at + wordCount > words.size()) return false;
    mutant.instructions.emplace_back().words.assign(words.begin() + at, words.begin() + at + wordCount);
    at += wordCount;
  }
  return true;
}

std::optional<Mutant> decode(std::span<const uint8_t> input) {
  std::vector<uint32_t> words(input.size() / sizeof(uint32_t));
  if (words.size() < kHeaderWords) return std::nullopt;
  std::memcpy(words.data(), input.data(), words.size() * sizeof(uint32_t));
  if (words[0] != kMagic) return std::nullopt;  // byte-swapped modules are left to byte mutations

  Mutant mutant;
  std::copy_n(words.begin(), kHeaderWords, mutant.header.begin());
  mutant.selector.assign(input.begin() + words.size() * sizeof(uint32_t), input.end());

  static spv_context context = spvContextCreate(SPV_ENV_UNIVERSAL_1_6);
  if (spvBinaryParse(context, &mutant, words.data(), words.size(), nullptr, collectInstruction, nullptr) ==
      SPV_SUCCESS) {
    mutant.typed = true;
    return mutant;
  }
  mutant.instructions.clear();
  if (!splitUntyped(words, mutant)) return std::nullopt;
  return mutant;
}

std::vector<uint8_t> encode(const Mutant& mutant) {
  std::vector<uint32_t> words(mutant.header.begin(), mutant.header.end());
  for (const Instruction& instruction : mutant.instructions)
    words.insert(words.end(), instruction.words.begin(), instruction.words.end());
  std::vector<uint8_t> bytes(words.size() * sizeof(uint32_t));
  std::memcpy(bytes.data(), words.data(), bytes.size());
  bytes.insert(bytes.end(), mutant.selector.begin(), mutant.selector.end());
  return bytes;
}

class Mutator {
 public:
  Mutator(Mutant& mutant, std::minstd_rand& rng) : mutant_(mutant), rng_(rng) {
    for (const Instruction& instruction : mutant_.instructions) {
      if (instruction.resultId == 0) continue;
      definedIds_.push_back(instruction.resultId);
      idsOfType_[instruction.typeId].push_back(instruction.resultId);
      typeOf_[instruction.resultId] = instruction.typeId;
    }
    for (const Instruction& instruction : mutant_.instructions) {
      for (const Operand& operand : instruction.operands) {
        if (isEnumOperand(operand.type) && operand.wordCount == 1)
          enumValues_[operand.type].push_back(instruction.words[operand.offset]);
      }
    }
  }

  // Tries mutations until one applies (a module without instructions takes none but the selector's).
  void mutateOnce() {
    using Mutation = bool (Mutator::*)();
    static constexpr std::array<Mutation, 10> kTyped{&Mutator::replaceIdWithSameType, &Mutator::replaceIdWithSameType,
                                                     &Mutator::replaceIdWithAnyId,    &Mutator::replaceNumber,
                                                     &Mutator::replaceEnum,           &Mutator::swapIdOperands,
                                                     &Mutator::changeOpcode,          &Mutator::deleteInstruction,
                                                     &Mutator::duplicateInstruction,  &Mutator::moveInstruction};
    static constexpr std::array<Mutation, 5> kUntyped{&Mutator::replaceAnyWord, &Mutator::changeOpcode,
                                                      &Mutator::deleteInstruction, &Mutator::duplicateInstruction,
                                                      &Mutator::moveInstruction};
    if (pick(16) == 0) {
      changeSelector();
      return;
    }
    for (int attempt = 0; attempt < 8; ++attempt) {
      Mutation mutation = mutant_.typed ? kTyped[pick(kTyped.size())] : kUntyped[pick(kUntyped.size())];
      if ((this->*mutation)()) return;
    }
    changeSelector();
  }

 private:
  size_t pick(size_t count) { return std::uniform_int_distribution<size_t>(0, count - 1)(rng_); }
  template <typename T>
  const T& pickFrom(const std::vector<T>& values) {
    return values[pick(values.size())];
  }

  // An instruction and one of its operands that `wanted` accepts, if a few random tries find one.
  template <typename Predicate>
  std::optional<std::pair<Instruction*, Operand>> pickOperand(Predicate wanted) {
    if (mutant_.instructions.empty()) return std::nullopt;
    for (int attempt = 0; attempt < 16; ++attempt) {
      Instruction& instruction = mutant_.instructions[pick(mutant_.instructions.size())];
      std::vector<Operand> candidates;
      for (const Operand& operand : instruction.operands) {
        if (wanted(operand)) candidates.push_back(operand);
      }
      if (!candidates.empty()) return std::make_pair(&instruction, pickFrom(candidates));
    }
    return std::nullopt;
  }

  bool replaceIdWithSameType() {
    auto chosen = pickOperand([](const Operand& operand) { return isIdOperand(operand.type); });
    if (!chosen) return false;
    auto& [instruction, operand] = *chosen;
    uint32_t& id = instruction->words[operand.offset];
    auto type = typeOf_.find(id);
    if (type == typeOf_.end()) return false;
    const std::vector<uint32_t>& sameType = idsOfType_[type->second];
    if (sameType.size() < 2) return false;
    id = pickFrom(sameType);
    return true;
  }

  bool replaceIdWithAnyId() {
    auto chosen = pickOperand([](const Operand& operand) { return isIdOperand(operand.type); });
    if (!chosen || definedIds_.empty()) return false;
    auto& [instruction, operand] = *chosen;
    // Now and then an id that nothing defines, or the bound itself.
    instruction->words[operand.offset] =
        pick(8) == 0 ? static_cast<uint32_t>(pick(mutant_.header[kBoundWord] + 1)) : pickFrom(definedIds_);
    return true;
  }

  uint32_t interestingNumber(uint32_t current) {
    static constexpr std::array<uint32_t, 16> kBoundaries{0,  1,  2,  3,   4,    7,          8,          16,
                                                          31, 32, 64, 255, 1024, 0x7fffffff, 0x80000000, 0xffffffff};
    switch (pick(4)) {
      case 0: return current + 1;
      case 1: return current - 1;
      case 2: return static_cast<uint32_t>(rng_());
      default: return kBoundaries[pick(kBoundaries.size())];
    }
  }

  bool replaceNumber() {
    auto chosen = pickOperand([](const Operand& operand) { return isNumberOperand(operand.type); });
    if (!chosen) return false;
    auto& [instruction, operand] = *chosen;
    uint32_t& word = instruction->words[operand.offset + pick(operand.wordCount)];
    word = interestingNumber(word);
    return true;
  }

  // An enumerant another instruction uses for the same kind of operand, or a small number.
  bool replaceEnum() {
    auto chosen =
        pickOperand([](const Operand& operand) { return isEnumOperand(operand.type) && operand.wordCount == 1; });
    if (!chosen) return false;
    auto& [instruction, operand] = *chosen;
    const std::vector<uint32_t>& seen = enumValues_[operand.type];
    instruction->words[operand.offset] =
        pick(4) != 0 && !seen.empty() ? pickFrom(seen) : static_cast<uint32_t>(pick(8));
    return true;
  }

  bool swapIdOperands() {
    if (mutant_.instructions.empty()) return false;
    Instruction& instruction = mutant_.instructions[pick(mutant_.instructions.size())];
    std::vector<uint16_t> ids;
    for (const Operand& operand : instruction.operands) {
      if (operand.type == SPV_OPERAND_TYPE_ID) ids.push_back(operand.offset);
    }
    if (ids.size() < 2) return false;
    std::swap(instruction.words[pickFrom(ids)], instruction.words[pickFrom(ids)]);
    return true;
  }

  // The opcode of another instruction of the same length, so that the operands may still fit.
  bool changeOpcode() {
    if (mutant_.instructions.size() < 2) return false;
    Instruction& instruction = mutant_.instructions[pick(mutant_.instructions.size())];
    const Instruction& donor = mutant_.instructions[pick(mutant_.instructions.size())];
    if (donor.words.size() != instruction.words.size() || donor.opcode() == instruction.opcode()) return false;
    instruction.words[0] = (instruction.words[0] & 0xffff0000u) | donor.opcode();
    instruction.operands.clear();  // no longer known
    return true;
  }

  bool deleteInstruction() {
    if (mutant_.instructions.empty()) return false;
    mutant_.instructions.erase(mutant_.instructions.begin() +
                               static_cast<ptrdiff_t>(pick(mutant_.instructions.size())));
    return true;
  }

  // A copy right after the original; one with a result gets a fresh id from the bound, so that the
  // module stays valid and later mutations can wire the copy in.
  bool duplicateInstruction() {
    if (mutant_.instructions.empty()) return false;
    size_t at = pick(mutant_.instructions.size());
    Instruction copy = mutant_.instructions[at];
    if (copy.resultId != 0) {
      auto result = std::find_if(copy.operands.begin(), copy.operands.end(),
                                 [](const Operand& operand) { return operand.type == SPV_OPERAND_TYPE_RESULT_ID; });
      if (result == copy.operands.end()) return false;
      uint32_t fresh = mutant_.header[kBoundWord]++;
      copy.words[result->offset] = fresh;
      copy.resultId = fresh;
    }
    mutant_.instructions.insert(mutant_.instructions.begin() + static_cast<ptrdiff_t>(at) + 1, std::move(copy));
    return true;
  }

  // Nearby more often than not: reordering inside a block or a section is the interesting case.
  bool moveInstruction() {
    size_t count = mutant_.instructions.size();
    if (count < 2) return false;
    size_t from = pick(count);
    size_t to = pick(2) == 0 ? pick(count) : std::clamp<size_t>(from + pick(9), 4, count + 3) - 4;
    to = std::min(to, count - 1);
    Instruction moved = std::move(mutant_.instructions[from]);
    mutant_.instructions.erase(mutant_.instructions.begin() + static_cast<ptrdiff_t>(from));
    mutant_.instructions.insert(mutant_.instructions.begin() + static_cast<ptrdiff_t>(to), std::move(moved));
    return true;
  }

  // For modules that did not parse: any word after an instruction's first.
  bool replaceAnyWord() {
    if (mutant_.instructions.empty()) return false;
    Instruction& instruction = mutant_.instructions[pick(mutant_.instructions.size())];
    if (instruction.words.size() < 2) return false;
    uint32_t& word = instruction.words[1 + pick(instruction.words.size() - 1)];
    word = pick(2) == 0 && !definedIds_.empty() ? pick(mutant_.header[kBoundWord] + 1) : interestingNumber(word);
    return true;
  }

  void changeSelector() {
    mutant_.selector.resize(pick(3));
    for (uint8_t& byte : mutant_.selector) byte = static_cast<uint8_t>(rng_());
  }

  Mutant& mutant_;
  std::minstd_rand& rng_;
  std::vector<uint32_t> definedIds_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> idsOfType_;  // by type id; 0 for types and labels
  std::unordered_map<uint32_t, uint32_t> typeOf_;
  std::map<spv_operand_type_t, std::vector<uint32_t>> enumValues_;
};

}  // namespace

std::optional<std::vector<uint8_t>> mutateSpirv(std::span<const uint8_t> input, size_t maxSize, std::minstd_rand& rng) {
  std::optional<Mutant> mutant = decode(input);
  if (!mutant) return std::nullopt;
  Mutator(*mutant, rng).mutateOnce();
  std::vector<uint8_t> bytes = encode(*mutant);
  if (bytes.size() > maxSize) return std::nullopt;
  return bytes;
}

}  // namespace cl2vk::fuzz
