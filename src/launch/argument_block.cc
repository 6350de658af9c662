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

Expected<ArgumentBlock> packArguments(vulkan::Device& device, const KernelReflection& kernel,
                                      std::span<const KernelArg> args, uint64_t globalVariables) {
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
      uint32_t order = 0, type = 0;
      std::memcpy(&order, args[i].bytes.data() + ImageRecordLayout::kChannelOrder, 4);
      std::memcpy(&type, args[i].bytes.data() + ImageRecordLayout::kChannelType, 4);
      specialization.emplace_back(param.formatSpecId, order);
      specialization.emplace_back(param.formatSpecId + 1, type);
    }
  }
  return specialization;
}

}  // namespace cl2vk::launch
