#include "cl2vk/spirv.h"

#include <cstring>

#include "ir/reader.h"
#include "ir/summary.h"
#include "ir/validate.h"
#include "ir/writer.h"
#include "support/byte_order.h"

namespace cl2vk {
namespace {

// The module's words in the host's byte order, whichever order it was read in.
std::vector<uint32_t> hostOrderWords(const ir::Module& module) {
  std::vector<uint32_t> words = ir::writeBinary(module);
  return module.byteSwapped() ? byteSwapped(words) : words;
}

}  // namespace

Expected<std::vector<uint32_t>> readSpirvBinary(std::span<const uint8_t> bytes) {
  auto module = ir::readBinary(bytes);
  if (!module) return module.error();
  return hostOrderWords(**module);
}

Expected<std::vector<uint32_t>> readSpirvBinaryOrAssembly(std::span<const uint8_t> bytes) {
  auto module = ir::readBinaryOrAssembly(bytes);
  if (!module) return module.error();
  return hostOrderWords(**module);
}

bool isByteSwappedBinary(std::span<const uint8_t> bytes) {
  uint32_t first = 0;
  if (bytes.size() >= sizeof first) std::memcpy(&first, bytes.data(), sizeof first);
  return first == byteSwap(spv::MagicNumber);
}

std::vector<uint32_t> byteSwapped(std::span<const uint32_t> words) {
  std::vector<uint32_t> swapped(words.begin(), words.end());
  for (uint32_t& word : swapped) word = byteSwap(word);
  return swapped;
}

Expected<std::string> disassemble(std::span<const uint32_t> spirv) {
  return ir::disassemble(std::vector<uint32_t>(spirv.begin(), spirv.end()));
}

Expected<spv_target_env> validationEnvironment(std::span<const uint32_t> spirv, spv_target_env vulkanEnv) {
  auto module = ir::readBinary(spirv);
  if (!module) return module.error();
  return ir::validationEnvironment(**module, vulkanEnv);
}

spv_target_env universalEnvironment(uint32_t version) { return ir::universalEnvironment(version); }

Status validate(std::span<const uint32_t> spirv, spv_target_env env) {
  auto module = ir::readBinary(spirv);
  if (!module) return module.error();
  return ir::validate(**module, env);
}

Expected<spv_target_env> parseVulkanEnvironment(std::string_view name) { return ir::parseVulkanEnvironment(name); }

std::string environmentName(spv_target_env env) { return ir::environmentName(env); }

Expected<std::string> describe(std::span<const uint32_t> spirv) {
  auto module = ir::readBinary(spirv);
  if (!module) return module.error();
  return ir::formatSummary(ir::summarize(**module));
}

}  // namespace cl2vk
