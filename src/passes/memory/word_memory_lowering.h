// The parts of the word-addressed memory lowering (word_memory.h): which variables become word
// objects (word_memory_plan.cc), and typed reads and writes of words at a byte offset
// (word_access.cc). word_memory.cc builds the objects and rewrites pointers and accesses.
#pragma once

#include <cstdint>
#include <functional>
#include <unordered_map>
#include <vector>

#include "ir/builder.h"
#include "passes/memory/pointer_values.h"

namespace cl2vk::pointers {

// Variables of one storage class that pointers can move between, laid out in one word array.
struct WordObject {
  SC storage = SC::Function;
  Function* function = nullptr;     // the function a Function-storage object lives in
  std::vector<uint32_t> variables;  // the OpVariables it replaces
  // Pointers into it are stored in memory or made from integers: offset 0 stays unused so that a
  // null pointer never equals a valid one.
  bool escaped = false;
};

struct WordPlan {
  std::vector<WordObject> objects;
  // Every __local/__private pointer value (variables included) that points into an object.
  std::unordered_map<uint32_t, size_t> objectOf;
};

// Which variables cannot keep typed access, grouped by the pointers that move between them.
Expected<WordPlan> planWordObjects(Module& module);

// Typed access to one word object, at byte offsets given as 32-bit unsigned values. The object
// is an array of words in `storage`, or, for PhysicalStorageBuffer, the word a buffer pointer
// points at (lower-narrow-integers' buffers without 8/16-bit storage) and the words after it.
class WordAccess {
 public:
  // `words` is a pointer to the object's uint array in `storage`; in PhysicalStorageBuffer, a
  // pointer to uint with ArrayStride 4.
  WordAccess(ir::Builder& b, uint32_t words, SC storage) : b_(b), words_(words), storage_(storage) {}

  // Values as lower-narrow-integers holds them: `valueType` maps a type in memory to the type of
  // its value, and 8- and 16-bit integers travel as zero-extended 32-bit ones.
  void widenNarrowValues(std::function<uint32_t(uint32_t)> valueType) { valueType_ = std::move(valueType); }
  // `offset` is known to be below 4 (a byte's place in the word a buffer pointer points at), so
  // an access at it needs no step to another word.
  void setInWordOffset(uint32_t offset) { inWordOffset_ = offset; }

  // A value of `type` (a scalar, vector, struct or array of known layout; no logical pointers)
  // read at `offset`, which is aligned to `alignment` bytes.
  Expected<uint32_t> read(uint32_t type, uint32_t offset, uint32_t alignment);
  Status write(uint32_t value, uint32_t offset, uint32_t alignment) {
    return writeAs(b_.typeOf(value), value, offset, alignment);
  }
  // The same, laid out as `type`, which differs from the value's type when values are widened.
  Status writeAs(uint32_t type, uint32_t value, uint32_t offset, uint32_t alignment);

  // The pointer to the word that holds byte `offset`.
  uint32_t wordPointer(uint32_t offset);
  // An unsigned integer of 8, 16 or 32 bits (held in a 32-bit value) at `offset`, aligned to its size.
  uint32_t readBits(uint32_t offset, uint32_t width);
  void writeBits(uint32_t offset, uint32_t width, uint32_t bits32);

 private:
  uint32_t uint32();
  // Buffer accesses must say their alignment; variables' need not.
  uint32_t wordAlignment() const { return storage_ == SC::PhysicalStorageBuffer ? 4 : 0; }
  uint32_t valueTypeOf(uint32_t type) { return valueType_ ? valueType_(type) : type; }
  uint32_t readScalar(uint32_t type, uint32_t offset, uint32_t alignment);
  void writeScalar(uint32_t type, uint32_t value, uint32_t offset, uint32_t alignment);
  // Integer vectors of 8/16-bit components that fill whole aligned words: one access per word.
  bool fillsWords(uint32_t component, uint32_t count, uint32_t alignment);
  uint32_t readPacked(uint32_t type, uint32_t offset);
  void writePacked(uint32_t type, uint32_t value, uint32_t offset);
  uint32_t plus(uint32_t offset, uint32_t bytes);

  ir::Builder& b_;
  uint32_t words_;
  SC storage_;
  std::function<uint32_t(uint32_t)> valueType_;
  uint32_t inWordOffset_ = 0;
};

// The byte size of `type` in memory, and the stride between array or pointer-arithmetic elements.
Expected<uint32_t> sizeInMemory(const Module& module, uint32_t type);

// The steps an access chain (any of the four) takes from its base pointer, in order:
// `scaled(index, stride)` for an index into the pointer's own elements (the first index of a
// PtrAccessChain), an array or a vector, `bytes(offset)` for a struct member. The error says why
// a step has no byte offset (a member index that is not a constant, an unknown layout).
Status walkChainInBytes(const Module& module, const Instruction& chain,
                        const std::function<void(uint32_t index, uint32_t stride)>& scaled,
                        const std::function<void(uint32_t offset)>& bytes);

}  // namespace cl2vk::pointers
