#include "launch/argument_block.h"

#include <algorithm>
#include <array>
#include <cstring>

#include "launch/kernel_launch.h"
#include "launch/printf_output.h"

namespace cl2vk::launch {
namespace {

// A printf buffer with an empty header: no words used, room for the rest of the buffer.
Expected<vulkan::Buffer> emptyPrintfBuffer(vulkan::Device& device) {
  Expected<vulkan::Buffer> buffer = vulkan::Buffer::create(device, kPrintfBufferSize);
  if (!buffer) return buffer.error();
  const std::array<uint32_t, 2> header = {0, kPrintfRecordWords};
  CL2VK_TRY(buffer->uploadValues(std::span<const uint32_t>(header)));
  return buffer;
}

}  // namespace

uint64_t privateScratchLimit(const vulkan::DeviceLimits& limits) {
  uint64_t heap = 0;
  for (const vulkan::MemoryHeap& h : limits.memoryHeaps) {
    if (h.deviceLocal) heap = std::max<uint64_t>(heap, h.size);
  }
  return std::min<uint64_t>(std::max<uint64_t>(heap / 16, uint64_t{256} << 20), limits.maxMemoryAllocationSize);
}

Expected<ArgumentBlock> packArguments(vulkan::Device& device, const KernelReflection& kernel,
                                      std::span<const KernelArg> args, uint64_t globalVariables,
                                      uint64_t privateScratch) {
  // Offsets in the reflection count from the start of the push constants; an argument buffer
  // holds the block from its own start.
  const uint32_t base = kernel.argumentBuffer ? 0 : kernel.argumentsOffset;
  std::vector<std::byte> block(kernel.argumentsSize);
  auto putAddress = [&](uint32_t offset, uint64_t address) {
    std::memcpy(block.data() + offset - base, &address, sizeof address);
  };
  for (size_t i = 0; i < args.size(); ++i) {
    const uint32_t offset = kernel.arguments[i].offset;
    if (args[i].kind == KernelArg::Kind::kBuffer) putAddress(offset, args[i].address);
    if (args[i].kind == KernelArg::Kind::kBytes)
      std::memcpy(block.data() + offset - base, args[i].bytes.data(), args[i].bytes.size());
  }
  ArgumentBlock packed;
  if (kernel.globalVariablesOffset) putAddress(*kernel.globalVariablesOffset, globalVariables);
  if (kernel.printfBufferOffset) {
    Expected<vulkan::Buffer> buffer = emptyPrintfBuffer(device);
    if (!buffer) return buffer.error();
    putAddress(*kernel.printfBufferOffset, buffer->deviceAddress());
    packed.printfBuffer = std::move(*buffer);
  }
  if (kernel.loopLimitFlagOffset) {
    Expected<vulkan::Buffer> buffer = vulkan::Buffer::create(device, 4);
    if (!buffer) return buffer.error();
    CL2VK_TRY(buffer->fill(0, 0, 4));
    putAddress(*kernel.loopLimitFlagOffset, buffer->deviceAddress());
    packed.loopLimitFlag = std::move(*buffer);
  }
  if (kernel.privateScratchOffset) putAddress(*kernel.privateScratchOffset, privateScratch);
  packed.pushConstants.resize(kernel.pushConstantSize);
  if (kernel.argumentBuffer) {
    Expected<vulkan::Buffer> buffer = vulkan::Buffer::create(device, std::max<size_t>(block.size(), 4));
    if (!buffer) return buffer.error();
    CL2VK_TRY(buffer->upload(block));
    const uint64_t address = buffer->deviceAddress();
    std::memcpy(packed.pushConstants.data() + kernel.argumentsOffset, &address, sizeof address);
    packed.argumentBuffer = std::move(*buffer);
  } else if (!block.empty()) {
    std::memcpy(packed.pushConstants.data() + kernel.argumentsOffset, block.data(), block.size());
  }
  return packed;
}

bool imageOffsetsAreNarrow(const std::array<uint64_t, 3>& extent, uint64_t texelBytes, uint64_t rowPitch,
                           uint64_t slicePitch) {
  // The last texel's offset, each term and sum checked against 2^32 (a pitch along a dimension of
  // one texel may be anything: it is never multiplied by more than 0).
  constexpr uint64_t kLimit = uint64_t{1} << 32;
  const uint64_t pitches[3] = {texelBytes, rowPitch, slicePitch};
  uint64_t last = 0;
  for (int d = 0; d < 3; ++d) {
    if (extent[d] <= 1) continue;
    if (pitches[d] >= kLimit || extent[d] - 1 >= kLimit / std::max<uint64_t>(pitches[d], 1)) return false;
    last += (extent[d] - 1) * pitches[d];
    if (last >= kLimit) return false;
  }
  return last + texelBytes <= kLimit;
}

std::vector<std::pair<uint32_t, uint32_t>> specializationByArguments(const KernelReflection& kernel,
                                                                     std::span<const KernelArg> args) {
  std::vector<std::pair<uint32_t, uint32_t>> specialization;
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArgument& param = kernel.arguments[i];
    if (param.kind == ArgumentKind::kLocalPointer) {
      size_t element = std::max<uint32_t>(param.localElementSize, 1);
      specialization.emplace_back(param.localSpecId,
                                  static_cast<uint32_t>((args[i].localSize + element - 1) / element));
    } else if (param.kind == ArgumentKind::kImage) {
      uint32_t order = 0, type = 0, narrow = 0;
      std::memcpy(&order, args[i].bytes.data() + ImageRecordLayout::kChannelOrder, 4);
      std::memcpy(&type, args[i].bytes.data() + ImageRecordLayout::kChannelType, 4);
      std::memcpy(&narrow, args[i].bytes.data() + ImageRecordLayout::kNarrowOffsets, 4);
      specialization.emplace_back(param.formatSpecId, order);
      specialization.emplace_back(param.formatSpecId + 1, type);
      specialization.emplace_back(param.formatSpecId + 2, narrow == 1 ? 1 : 2);
    }
  }
  return specialization;
}

}  // namespace cl2vk::launch
