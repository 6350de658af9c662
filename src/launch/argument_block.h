// A launch's arguments as the translated kernel reads them (docs/kernel-interface.md): the
// argument block, with the hidden arguments (the program's global variables, a fresh printf buffer,
// the loop-limit flag) at the offsets the reflection gives, in the push constants or, when it does
// not fit them, in a buffer of its own whose address the push constants hold; and the
// specialization constants the arguments decide.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <utility>
#include <vector>

#include "cl2vk/expected.h"
#include "cl2vk/reflection.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"

namespace cl2vk::launch {

struct KernelArg;

struct ArgumentBlock {
  std::vector<std::byte> pushConstants;  // the dispatch information left for each dispatch to write
  std::optional<vulkan::Buffer> argumentBuffer;
  std::optional<vulkan::Buffer> printfBuffer;
  std::optional<vulkan::Buffer> loopLimitFlag;
};

// `args` (checked against the kernel's arguments already) and `globalVariables` (the address of
// the program's buffer, where the kernel uses one) in the push constants or an argument buffer.
Expected<ArgumentBlock> packArguments(vulkan::Device& device, const KernelReflection& kernel,
                                      std::span<const KernelArg> args, uint64_t globalVariables);

// Whether every texel of an image of `extent` texels (along x, y and z, `texelBytes`, `rowPitch`
// and `slicePitch` apart) lies less than 2^32 bytes from texel (0, 0, 0): the image record's
// narrow-offsets flag (ImageRecordLayout::kNarrowOffsets).
bool imageOffsetsAreNarrow(const std::array<uint64_t, 3>& extent, uint64_t texelBytes, uint64_t rowPitch,
                           uint64_t slicePitch);

// (SpecId, value) for what the arguments decide: the __local arguments' element counts (their
// arrays' sizes) and the image arguments' channel orders, types and narrow-offsets flags (1
// narrow, 2 not), read from their records.
std::vector<std::pair<uint32_t, uint32_t>> specializationByArguments(const KernelReflection& kernel,
                                                                     std::span<const KernelArg> args);

}  // namespace cl2vk::launch
