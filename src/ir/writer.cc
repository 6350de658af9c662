#include "ir/writer.h"

#include <spirv-tools/libspirv.hpp>

#include "support/byte_order.h"

namespace cl2vk::ir {
namespace {

void encodeList(const InstList& list, std::vector<uint32_t>& out) {
  for (const Instruction& inst : list) inst.encode(out);
}

}  // namespace

std::vector<uint32_t> writeBinary(const Module& module) {
  const Module::Header& header = module.header();
  std::vector<uint32_t> words = {spv::MagicNumber, header.version, header.generator, header.bound, header.schema};
  for (size_t s = 0; s < kSectionCount; ++s) encodeList(module.section(static_cast<Section>(s)), words);
  for (const Function& function : module.functions()) {
    encodeList(function.header(), words);
    for (const Block& block : function.blocks()) encodeList(block.instructions(), words);
    encodeList(function.end(), words);
  }
  if (module.byteSwapped()) {
    for (uint32_t& w : words) w = byteSwap(w);
  }
  return words;
}

Expected<std::string> disassemble(const std::vector<uint32_t>& words, TextOptions options) {
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_6);
  std::string diagnostics;
  tools.SetMessageConsumer(
      [&diagnostics](spv_message_level_t, const char*, const spv_position_t& position, const char* message) {
        diagnostics += "word " + std::to_string(position.index) + ": " + message;
      });
  uint32_t flags = SPV_BINARY_TO_TEXT_OPTION_INDENT;
  if (options.friendlyNames) flags |= SPV_BINARY_TO_TEXT_OPTION_FRIENDLY_NAMES;
  if (!options.header) flags |= SPV_BINARY_TO_TEXT_OPTION_NO_HEADER;
  std::string text;
  if (!tools.Disassemble(words, &text, flags)) return Error("cannot disassemble the module: " + diagnostics);
  return text;
}

Expected<std::string> writeAssembly(const Module& module, TextOptions options) {
  std::vector<uint32_t> words = writeBinary(module);
  return disassemble(words, options);
}

}  // namespace cl2vk::ir
