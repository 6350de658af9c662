// OpenCL C's data layout for the types of a module: sizes, alignments and struct member offsets
// as the host sees them (C rules with OpenCL's vectors: a 3-component vector is sized and aligned
// like the 4-component one; a CPacked struct has no padding; an array decorated Alignment is aligned
// to at least that, as lower-wide-vectors' stand-ins for 8- and 16-component vectors are). Buffers, push constants and
// argument buffers are laid out with it so that host and kernel agree byte for byte.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "cl2vk/expected.h"
#include "ir/module.h"

namespace cl2vk {

// `value` rounded up to a multiple of `alignment` (which is not 0).
constexpr uint32_t alignUp(uint32_t value, uint32_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}

struct TypeLayout {
  uint32_t size = 0;
  uint32_t alignment = 1;
};

// Fails for types without a memory layout (opaque types, bool, runtime arrays, arrays whose
// length is not a constant).
Expected<TypeLayout> layoutOf(const ir::Module& module, uint32_t type);

// The byte offset of each member of an OpTypeStruct.
Expected<std::vector<uint32_t>> memberOffsets(const ir::Module& module, uint32_t structType);

// The value of an OpConstant of integer type (up to 64 bits), or nothing for anything else.
std::optional<uint64_t> constantValue(const ir::Module& module, uint32_t id);
// `bits` as a `width`-bit two's-complement number (a signed index, an arithmetic shift's operand).
int64_t signExtend(uint64_t bits, uint32_t width);

}  // namespace cl2vk
