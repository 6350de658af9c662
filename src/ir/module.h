// The in-memory SPIR-V module every cl2vk pass works on: the logical sections of SPIR-V 2.4, the
// functions with their blocks, id allocation, and the indexes a pass asks for (def-use, names,
// decorations, structurally equal types and constants). All changes go through Module so that the
// indexes stay right.
#pragma once

#include <array>
#include <cstdint>
#include <list>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "cl2vk/expected.h"
#include "ir/instruction.h"

namespace cl2vk::ir {

// The module-level sections in their required order (SPIR-V 2.4 "Logical Layout of a Module").
// Functions follow them.
enum class Section {
  kCapability,
  kExtension,
  kExtInstImport,
  kMemoryModel,
  kEntryPoint,
  kExecutionMode,
  kDebug,       // OpString, OpSource*, OpName, OpMemberName, OpModuleProcessed
  kAnnotation,  // decorations
  kGlobal,      // types, constants, global variables, OpUndef, and debug lines among them
};
inline constexpr size_t kSectionCount = 9;

const char* sectionName(Section section);

class Block {
 public:
  explicit Block(Function* function) : function_(function), instructions_(function, this) {}

  Function* function() const { return function_; }
  // The block's OpLabel is its first instruction.
  uint32_t id() const { return instructions_.front().resultId(); }
  InstList& instructions() { return instructions_; }
  const InstList& instructions() const { return instructions_; }
  // The last instruction, which a complete block has as its terminator.
  Instruction* terminator() { return &instructions_.back(); }
  // Where code goes at the end of the block: before its merge instruction (OpSelectionMerge or
  // OpLoopMerge), else before its terminator.
  Instruction* endOfCode();

 private:
  friend class Module;

  Function* function_;
  InstList instructions_;
  std::list<Block>::iterator position_;  // where it is in its function's blocks
};

class Function {
 public:
  Function() : header_(this), end_(this) {}

  // OpFunction followed by its OpFunctionParameters.
  InstList& header() { return header_; }
  const InstList& header() const { return header_; }
  Instruction& definition() { return header_.front(); }
  const Instruction& definition() const { return header_.front(); }
  uint32_t id() const { return header_.front().resultId(); }
  uint32_t returnTypeId() const { return header_.front().typeId(); }
  std::list<Block>& blocks() { return blocks_; }
  const std::list<Block>& blocks() const { return blocks_; }
  // Holds the OpFunctionEnd.
  InstList& end() { return end_; }
  const InstList& end() const { return end_; }
  // A function without blocks is a declaration (an import, with LinkageAttributes).
  bool isDeclaration() const { return blocks_.empty(); }

 private:
  InstList header_;
  std::list<Block> blocks_;
  InstList end_;
};

// One use of an id: `user` refers to it in operand `operandIndex`, or in its result type when
// operandIndex is kResultType.
struct Use {
  static constexpr int kResultType = -1;
  Instruction* user;
  int operandIndex;
};

class Module {
 public:
  struct Header {
    uint32_t version = 0x00010000;
    uint32_t generator = 0;
    uint32_t bound = 1;
    uint32_t schema = 0;
  };

  Module() = default;
  Module(const Module&) = delete;
  Module& operator=(const Module&) = delete;

  const Header& header() const { return header_; }
  void setVersion(uint32_t version) { header_.version = version; }
  void setGenerator(uint32_t generator) { header_.generator = generator; }
  // Whether the module was read from a binary of the other byte order (written back the same way).
  bool byteSwapped() const { return byteSwapped_; }
  void setByteSwapped(bool swapped) { byteSwapped_ = swapped; }

  // Ids: every result id is below the bound. takeId() hands out a fresh one and raises the bound.
  uint32_t bound() const { return header_.bound; }
  uint32_t takeId() { return header_.bound++; }
  void setBound(uint32_t bound) { header_.bound = bound; }

  InstList& section(Section s) { return sections_[static_cast<size_t>(s)]; }
  const InstList& section(Section s) const { return sections_[static_cast<size_t>(s)]; }
  std::list<Function>& functions() { return functions_; }
  const std::list<Function>& functions() const { return functions_; }

  // --- Changes. Each keeps the def-use, name, decoration and global-value indexes right. ---

  Instruction* append(Section s, Instruction inst);
  Instruction* append(InstList& list, Instruction inst);
  Instruction* insertBefore(Instruction* position, Instruction inst);
  Instruction* insertAfter(Instruction* position, Instruction inst);
  // Appends a new, empty function at the end of the module (the caller adds OpFunction etc.).
  Function* addFunction();
  // Adds an empty block after `after` (or at the end of `function` when `after` is null).
  Block* addBlock(Function& function, Block* after = nullptr);
  // Adds `count` empty blocks, in order, where addBlock adds one.
  std::vector<Block*> addBlocks(Function& function, Block* after, size_t count);
  // Moves `first` and everything after it in its block into a new block after it, with a new
  // OpLabel. The old block is left without a terminator; the caller ends it.
  Block* splitBlockBefore(Instruction* first);

  // Removes `inst`. Its OpName and decorations go with it; any other remaining use of its result
  // is an error (the caller must rewrite the users first), and nothing is removed.
  Status remove(Instruction* inst);
  // Removes a set of instructions that may use one another (a phi and the access chain in its
  // loop, say). Uses from outside the set other than names and decorations are an error, and
  // nothing is removed.
  Status removeAll(const std::vector<Instruction*>& instructions);
  // Removes a block and everything in it. A remaining use of its label or of a value it defines
  // from outside the block is an error, and nothing is removed.
  Status removeBlock(Block* block);
  // Removes a whole function. Its OpName and decorations go with it; a remaining call or entry
  // point is an error, and nothing is removed.
  Status removeFunction(Function* function);
  // Removes a set of whole functions, which may call one another, as removeFunction removes one:
  // a use from outside the set other than a name or decoration is an error, and nothing is removed.
  Status removeFunctions(const std::vector<Function*>& functions);
  // Reorders the types, constants and global variables so that each comes after everything it
  // refers to (new types are appended at the end; retyping an older global can leave it ahead
  // of its new type). The order is otherwise kept.
  void sortGlobals();
  // Replaces what `inst` holds (opcode, type, result, operands) and re-indexes it.
  void update(Instruction* inst, Instruction replacement);
  // Replaces operand `index` of `inst` (an operand it has), moving only that operand's use.
  void setOperand(Instruction* inst, size_t index, Operand operand);
  // Rewrites every use of `from` into a use of `to`, except names and decorations, which describe
  // the instruction that defines `from` and stay with it.
  void replaceAllUses(uint32_t from, uint32_t to);

  // --- Lookups. ---

  // The instruction that defines `id`, or null.
  Instruction* def(uint32_t id) const;
  // Every use of `id`, in no particular order.
  const std::vector<Use>& uses(uint32_t id) const;
  // Whether anything other than its names and decorations uses `id`.
  bool isUsed(uint32_t id) const;
  // The OpName of `id`, or "" when it has none.
  std::string name(uint32_t id) const;
  // OpDecorate / OpDecorateId / OpDecorateString of `id`, including those applied through a
  // decoration group. Member decorations are not included.
  std::vector<const Instruction*> decorations(uint32_t id) const;
  // The first decoration of `id` with `decoration`, or null.
  const Instruction* findDecoration(uint32_t id, spv::Decoration decoration) const;
  // A global (type or constant) with the same opcode, type and operands as `value`, or null.
  Instruction* findGlobal(const Instruction& value) const;
  // Returns the id of the global equal to `value`, adding it (with a fresh id) if there is none.
  uint32_t getOrAddGlobal(spv::Op opcode, uint32_t typeId, std::vector<Operand> operands);
  // The function with result id `id`, or null.
  Function* function(uint32_t id) const;

  // "%22 = OpGroupIAdd in function 'k'": how diagnostics name an instruction.
  std::string describe(const Instruction& inst) const;
  // The name of a function for diagnostics: its entry point name, else its OpName, else "%id".
  std::string functionName(const Function& function) const;

 private:
  void index(Instruction* inst);
  void unindex(Instruction* inst);
  // unindex without dropping the instruction's uses of other ids (removeFunctions drops them all at once).
  void unindexDefinition(Instruction* inst);
  // Unindexes `inst` and deletes it from its list.
  void erase(Instruction* inst);
  void addUse(uint32_t id, Instruction* user, int operandIndex);
  void dropUse(uint32_t id, Instruction* user, int operandIndex);

  Header header_;
  bool byteSwapped_ = false;
  std::array<InstList, kSectionCount> sections_;
  std::list<Function> functions_;

  std::unordered_map<uint32_t, Instruction*> defs_;
  std::unordered_map<uint32_t, std::vector<Use>> uses_;
  std::unordered_map<uint32_t, Function*> functionsById_;
  // Types and constants that can be shared, keyed by a hash of their value.
  std::unordered_multimap<size_t, Instruction*> globalValues_;
};

// Whether instructions of this opcode define values that get-or-create may share: the
// non-aggregate types and the non-specialization constants.
bool isShareableGlobal(spv::Op opcode);

// The last OpVariable of `function`'s first block, or its OpLabel where it has none: code that
// goes first in the function goes after it, since a function's variables open its first block.
Instruction* lastVariable(Function& function);

}  // namespace cl2vk::ir
