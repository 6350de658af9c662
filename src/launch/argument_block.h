// A launch's arguments as the translated kernel reads them (docs/kernel-interface.md): the
// argument block, with the hidden arguments (the program's global variables, a fresh printf buffer,
// the loop-limit flag, the private scratch buffer) at the offsets the reflection gives, in the push constants or, when
// it does not fit them, in a buffer of its own whose address the push constants hold; and the specialization constants
// the arguments decide.
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

// The most bytes of private scratch one launch allocates (KernelReflection::privateScratchStride)
// on a device with `limits`: a sixteenth of its largest device-local heap, at least 256 MiB, within
// one allocation. A launch whose invocations need more runs in dispatches of as many as fit, one
// after another (on an H200, 8.8 GB: 270 000 blocks of 32 KB, as many invocations as it keeps
// resident).
uint64_t privateScratchLimit(const vulkan::DeviceLimits& limits);

struct ArgumentBlock {
  std::vector<std::byte> pushConstants;  // the dispatch information left for each dispatch to write
  std::optional<vulkan::Buffer> argumentBuffer;
  std::optional<vulkan::Buffer> printfBuffer;
  std::optional<vulkan::Buffer> loopLimitFlag;
};

// `args` (checked against the kernel's arguments already) and `globalVariables` (the address of
// the program's buffer, where the kernel uses one) in the push constants or an argument buffer,
// with `privateScratch` (the address of the launch's private scratch buffer) where the kernel
// has one.
Expected<ArgumentBlock> packArguments(vulkan::Device& device, const KernelReflection& kernel,
                                      std::span<const KernelArg> args, uint64_t globalVariables,
                                      uint64_t privateScratch = 0);

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
