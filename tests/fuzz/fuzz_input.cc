#include "fuzz_input.h"

#include <array>
#include <cstring>

namespace cl2vk::fuzz {
namespace {

struct SubgroupSizes {
  uint32_t min, max;
};

// Sizes real devices report: a range under VK_EXT_subgroup_size_control, else one size.
constexpr std::array<SubgroupSizes, 8> kSubgroupSizes{
    {{1, 128}, {4, 4}, {8, 8}, {16, 16}, {32, 32}, {64, 64}, {128, 128}, {4, 64}}};

constexpr std::array<spv_target_env, 4> kVulkanEnvironments{SPV_ENV_VULKAN_1_2, SPV_ENV_VULKAN_1_1, SPV_ENV_VULKAN_1_3,
                                                            SPV_ENV_VULKAN_1_2};

// Selector byte 0: bits 0-1 the Vulkan version, bits 2-4 the subgroup sizes, bit 5 no subgroup
// arithmetic, bit 6 no extended subgroup types, bit 7 a small device without 8-bit integers,
// 64-bit integers or doubles, loop-closing phis and no pointer phis (as SwiftShader).
void applyDeviceByte(uint8_t bits, Target& target) {
  target.vulkanEnv = kVulkanEnvironments[bits & 3];
  SubgroupSizes sizes = kSubgroupSizes[(bits >> 2) & 7];
  target.minSubgroupSize = sizes.min;
  target.maxSubgroupSize = sizes.max;
  target.subgroupArithmetic = !(bits & 0x20);
  target.subgroupExtendedTypes = !(bits & 0x40);
  if (bits & 0x80) {
    target.int8 = target.int64 = target.float64 = target.storage8 = target.pointerPhis = false;
    target.loopExitPhis = true;
  }
}

// Selector byte 1: bit 0 no 16-bit integers, bit 1 no half floats, bit 2 no 16-bit storage,
// bit 3 256 bytes of push constants instead of 128, bits 4-5 the work-group invocation limit,
// bit 6 subgroup scans in shuffle-up steps, bit 7 llvmpipe's code generation: loop-closing phis,
// doubles rounded from Floor, broadcast-first by lane, fma from the builtin library.
void applyLimitsByte(uint8_t bits, Target& target) {
  constexpr std::array<uint32_t, 4> kMaxInvocations{1024, 128, 256, 2048};
  if (bits & 1) target.int16 = false;
  if (bits & 2) target.float16 = false;
  if (bits & 4) target.storage16 = false;
  target.maxPushConstantsSize = (bits & 8) ? 256 : 128;
  target.maxWorkGroupInvocations = kMaxInvocations[(bits >> 4) & 3];
  target.shuffleScans = bits & 0x40;
  if (bits & 0x80) {
    target.loopExitPhis = true;
    target.float64Rounding = target.broadcastFirstOfComputedFloats = target.fusedFma = target.memoryBarriers = false;
  }
}

}  // namespace

FuzzInput decodeFuzzInput(std::span<const uint8_t> bytes) {
  FuzzInput input;
  size_t wordCount = bytes.size() / sizeof(uint32_t);
  input.words.resize(wordCount);
  if (wordCount != 0) std::memcpy(input.words.data(), bytes.data(), wordCount * sizeof(uint32_t));

  std::span<const uint8_t> selector = bytes.subspan(wordCount * sizeof(uint32_t));
  if (selector.size() > 0) applyDeviceByte(selector[0], input.target);
  if (selector.size() > 1) applyLimitsByte(selector[1], input.target);
  return input;  // a third trailing byte is ignored
}

}  // namespace cl2vk::fuzz
