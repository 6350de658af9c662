// One SPIR-V instruction: opcode, result type, result id and typed operands, exactly as they are
// encoded, so that writing an unmodified instruction reproduces its words bit for bit.
#pragma once

#include <spirv-tools/libspirv.h>

#include <cstdint>
#include <list>
#include <string>
#include <string_view>
#include <vector>

#define SPV_ENABLE_UTILITY_CODE
#include <spirv/unified1/spirv.hpp11>

namespace cl2vk::ir {

class Block;
class Function;
class InstList;

// The name SPIR-V gives an opcode ("OpGroupIAdd"), or "Op<number>" for one the headers lack.
std::string opcodeName(spv::Op opcode);

// The name SPIR-V gives a capability ("Int64"), or the number for one the headers lack.
std::string capabilityName(spv::Capability capability);

// Whether the grammar gives `opcode` a result id and a result type.
bool hasResultId(spv::Op opcode);
bool hasResultType(spv::Op opcode);

// Whether an operand of this kind names an id (and so is a use in the def-use index).
bool isIdKind(spv_operand_type_t kind);
// The kind that equality and hashing go by: every id kind becomes SPV_OPERAND_TYPE_ID.
spv_operand_type_t normalizedKind(spv_operand_type_t kind);

// An operand after the result type and result id: its grammar kind and its words.
struct Operand {
  spv_operand_type_t kind = SPV_OPERAND_TYPE_NONE;
  std::vector<uint32_t> words;

  static Operand id(uint32_t id);
  static Operand literal(uint32_t value);
  // A literal number of a constant (OpConstant and OpSpecConstant): one or two words.
  static Operand number(std::vector<uint32_t> words);
  static Operand string(std::string_view text);
  // An enumerant such as a storage class or decoration, with the kind that names its operand
  // type (SPV_OPERAND_TYPE_STORAGE_CLASS, SPV_OPERAND_TYPE_DECORATION, ...).
  static Operand enumerant(spv_operand_type_t kind, uint32_t value);

  bool isId() const { return isIdKind(kind); }
  // The operand's literal string (up to its terminating NUL).
  std::string asString() const;

  // Equal words and the same kind of operand; all id kinds count as one (the parser reports a
  // type reference as TYPE_ID where a builder writes ID).
  bool operator==(const Operand& other) const;
};

class Instruction {
 public:
  Instruction(spv::Op opcode, uint32_t typeId, uint32_t resultId, std::vector<Operand> operands = {});

  spv::Op opcode() const { return opcode_; }
  uint32_t typeId() const { return typeId_; }      // 0 when the opcode has no result type
  uint32_t resultId() const { return resultId_; }  // 0 when the opcode has no result

  const std::vector<Operand>& operands() const { return operands_; }
  size_t numOperands() const { return operands_.size(); }
  const Operand& operand(size_t index) const { return operands_.at(index); }
  // The id of operand `index`, which must be an id operand.
  uint32_t idOperand(size_t index) const;
  // The first word of operand `index` (a literal or an enumerant).
  uint32_t wordOperand(size_t index) const;
  std::string stringOperand(size_t index) const { return operand(index).asString(); }

  // Number of words the instruction encodes to, including its first word.
  uint32_t wordCount() const;
  void encode(std::vector<uint32_t>& out) const;

  // Where the instruction lives; null while it is not part of a module.
  const InstList* list() const { return list_; }
  Function* function() const;
  Block* block() const;
  // The instruction after this one in its list; null for the last one or one outside a module.
  Instruction* next();

  // Same opcode, type and operands; the result id is not compared.
  bool sameValueAs(const Instruction& other) const;

 private:
  friend class InstList;
  friend class Module;

  spv::Op opcode_;
  uint32_t typeId_;
  uint32_t resultId_;
  std::vector<Operand> operands_;

  InstList* list_ = nullptr;
  std::list<Instruction>::iterator position_;
};

// An ordered list of instructions owned by a module section, a function or a block. Pointers to
// its instructions stay valid until they are removed. Changes go through Module, which keeps its
// indexes in step.
class InstList {
 public:
  using Storage = std::list<Instruction>;
  using iterator = Storage::iterator;
  using const_iterator = Storage::const_iterator;

  InstList(Function* function = nullptr, Block* block = nullptr) : function_(function), block_(block) {}
  InstList(const InstList&) = delete;
  InstList& operator=(const InstList&) = delete;

  iterator begin() { return items_.begin(); }
  iterator end() { return items_.end(); }
  const_iterator begin() const { return items_.begin(); }
  const_iterator end() const { return items_.end(); }
  size_t size() const { return items_.size(); }
  bool empty() const { return items_.empty(); }
  Instruction& front() { return items_.front(); }
  Instruction& back() { return items_.back(); }
  const Instruction& front() const { return items_.front(); }
  const Instruction& back() const { return items_.back(); }

  Function* function() const { return function_; }
  Block* block() const { return block_; }

 private:
  friend class Instruction;
  friend class Module;

  // Places `inst` before `position` and returns it where it now lives.
  Instruction* insert(iterator position, Instruction inst);
  // Moves every instruction from `position` to the end of `from` onto the end of this list.
  void spliceTail(InstList& from, iterator position);

  Storage items_;
  Function* function_;
  Block* block_;
};

// `switchInstruction` (an OpSwitch) on `selector`, the zero-extension to a wider integer of its
// selector of `width` bits: each case literal keeps its word count and is held zero-extended
// like the selector (a literal written sign-extended for a narrow selector is masked).
Instruction switchOnWidened(const Instruction& switchInstruction, uint32_t selector, uint32_t width);

}  // namespace cl2vk::ir
