// What lower-wide-vectors knows about the vectors of 8 and 16 components of a module and the
// 4-component parts that stand for them: the wide types and the array type each has in memory,
// the parts of each wide value, and the small builders that take parts apart and put them
// together (components, shuffles, 32-bit words for bit casts, pointers to parts).
#pragma once

#include <cstdint>
#include <map>
#include <unordered_map>
#include <utility>
#include <vector>

#include "cl2vk/expected.h"
#include "ir/builder.h"
#include "ir/module.h"

namespace cl2vk {

struct WideType {
  uint32_t component = 0;  // the scalar type
  uint32_t count = 0;      // 8 or 16
  uint32_t part = 0;       // the 4-component vector of `component`
  uint32_t memory = 0;     // the array of count / 4 parts that stands for it in memory (0 until needed)
  uint32_t parts() const { return count / 4; }
};

// One component of a value: component `index` of the vector `vector`, the scalar `vector`
// (index kScalar), or undefined (vector 0).
struct Component {
  static constexpr uint32_t kScalar = 0xFFFFFFFF;
  uint32_t vector = 0;
  uint32_t index = kScalar;
  static Component undefined() { return {}; }
  bool operator==(const Component&) const = default;
};

class WideParts {
 public:
  explicit WideParts(ir::Module& module) : module_(module) {}

  void collectWideTypes();
  bool anyWideType() const { return !wideTypes_.empty(); }
  std::vector<uint32_t> wideTypeIds() const;
  bool isWideType(uint32_t type) const { return wideTypes_.contains(type); }
  const WideType& wideType(uint32_t type) const { return wideTypes_.at(type); }
  // The array of parts standing for wide `type` in memory, made on first need.
  uint32_t memoryType(uint32_t type);
  bool isMemoryType(uint32_t type) const { return memoryComponents_.contains(type); }
  // The scalar component of a memory type.
  uint32_t memoryComponent(uint32_t type) const { return memoryComponents_.at(type); }

  // A value of a wide type, or one that has been given parts (a parameter, a global constant).
  bool isWide(uint32_t value) const;
  Expected<std::vector<uint32_t>> partsOf(uint32_t value) const;
  void setParts(uint32_t value, std::vector<uint32_t> parts) { parts_[value] = std::move(parts); }
  // The value as an array of its parts (how aggregates and memory hold it), built on first need.
  uint32_t memoryValue(ir::Builder& b, uint32_t value);
  void setMemoryValue(uint32_t value, uint32_t array) { memoryValues_[value] = array; }

  uint32_t pointee(uint32_t pointerType) const;
  // The type of member or element `index` of an aggregate or vector type.
  uint32_t elementType(uint32_t type, uint32_t index) const;
  bool pointsToWideMemory(uint32_t pointer) const;
  // A pointer to part `k` of the wide vector `pointer` points to.
  uint32_t partPointer(ir::Builder& b, uint32_t pointer, uint32_t k);
  // The memory operands from `first` on, for an access of `partType` instead of the whole vector.
  std::vector<ir::Operand> partMemoryAccess(const std::vector<ir::Operand>& operands, size_t first,
                                            uint32_t partType) const;
  // index >> 2 and index & 3: the part and the component in it.
  std::pair<uint32_t, uint32_t> splitIndex(ir::Builder& b, uint32_t index);
  // Gives `to` the decorations of `from` (FPRoundingMode, SaturatedConversion, NoSignedWrap...).
  void copyDecorations(uint32_t from, uint32_t to);

  // The components of a value, wide or not.
  Expected<std::vector<Component>> components(uint32_t value) const;
  // The scalar value of one component.
  uint32_t scalar(ir::Builder& b, const Component& component);
  // A vector of `type` made of `components`: the source itself, one shuffle, or a construct.
  uint32_t assemble(ir::Builder& b, const std::vector<Component>& components, uint32_t type);

  // The bits of a value (wide or not) as 32-bit words, lowest address first.
  Expected<std::vector<uint32_t>> words(ir::Builder& b, uint32_t value);
  // A value of the non-wide `type` made of the words from `first` on.
  Expected<uint32_t> fromWords(ir::Builder& b, const std::vector<uint32_t>& words, size_t first, uint32_t type);

 private:
  Expected<std::vector<uint32_t>> pieceWords(ir::Builder& b, uint32_t piece);

  ir::Module& module_;
  std::map<uint32_t, WideType> wideTypes_;
  std::unordered_map<uint32_t, uint32_t> memoryComponents_;
  std::unordered_map<uint32_t, std::vector<uint32_t>> parts_;
  std::unordered_map<uint32_t, uint32_t> memoryValues_;
};

}  // namespace cl2vk
