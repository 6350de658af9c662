#include "runtime/program_binary.h"

#include <cstring>
#include <string>
#include <string_view>

namespace cl2vk::runtime {
namespace {

constexpr uint32_t kHeaderWords = 5;
constexpr uint32_t kOpSourceExtension = 4;
constexpr std::string_view kMarkPrefix = "cl2vk.binary_type=";

// The instructions that SPIR-V's logical layout puts before the debug instructions (where the mark
// goes): capabilities, extensions, imports, the memory model, entry points, execution modes.
bool precedesDebugInstructions(uint32_t opcode) {
  constexpr uint32_t kOpExtension = 10, kOpExtInstImport = 11, kOpMemoryModel = 14, kOpEntryPoint = 15,
                     kOpExecutionMode = 16, kOpCapability = 17, kOpExecutionModeId = 331;
  switch (opcode) {
    case kOpExtension:
    case kOpExtInstImport:
    case kOpMemoryModel:
    case kOpEntryPoint:
    case kOpExecutionMode:
    case kOpCapability:
    case kOpExecutionModeId: return true;
    default: return false;
  }
}

const char* markName(cl_program_binary_type type) {
  switch (type) {
    case CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT: return "compiled_object";
    case CL_PROGRAM_BINARY_TYPE_LIBRARY: return "library";
    default: return nullptr;
  }
}

// The literal string of an OpSourceExtension at `at`.
std::string_view extensionText(const std::vector<uint32_t>& words, size_t at, uint32_t count) {
  const char* text = reinterpret_cast<const char*>(&words[at + 1]);
  return std::string_view(text, strnlen(text, 4 * (count - 1)));
}

}  // namespace

std::vector<uint32_t> markedBinary(const std::vector<uint32_t>& il, cl_program_binary_type type) {
  const char* name = markName(type);
  if (!name || il.size() < kHeaderWords) return il;
  const std::string mark = std::string(kMarkPrefix) + name;
  // The literal with its terminating NUL, padded to whole words.
  std::vector<uint32_t> literal((mark.size() + 1 + 3) / 4, 0);
  std::memcpy(literal.data(), mark.data(), mark.size());
  size_t at = kHeaderWords;
  while (at < il.size()) {
    uint32_t count = il[at] >> 16;
    if (count == 0 || at + count > il.size() || !precedesDebugInstructions(il[at] & 0xFFFF)) break;
    at += count;
  }
  std::vector<uint32_t> marked(il.begin(), il.begin() + static_cast<std::ptrdiff_t>(at));
  marked.push_back(static_cast<uint32_t>(1 + literal.size()) << 16 | kOpSourceExtension);
  marked.insert(marked.end(), literal.begin(), literal.end());
  marked.insert(marked.end(), il.begin() + static_cast<std::ptrdiff_t>(at), il.end());
  return marked;
}

ReadBinary readBinary(std::vector<uint32_t> words) {
  ReadBinary binary;
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t count = words[at] >> 16;
    if (count == 0 || at + count > words.size()) break;
    if ((words[at] & 0xFFFF) == kOpSourceExtension && count > 1) {
      std::string_view text = extensionText(words, at, count);
      if (text.starts_with(kMarkPrefix)) {
        text.remove_prefix(kMarkPrefix.size());
        if (text == markName(CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT))
          binary.type = CL_PROGRAM_BINARY_TYPE_COMPILED_OBJECT;
        if (text == markName(CL_PROGRAM_BINARY_TYPE_LIBRARY)) binary.type = CL_PROGRAM_BINARY_TYPE_LIBRARY;
        words.erase(words.begin() + static_cast<std::ptrdiff_t>(at),
                    words.begin() + static_cast<std::ptrdiff_t>(at + count));
        continue;
      }
    }
    at += count;
  }
  binary.il = std::move(words);
  return binary;
}

}  // namespace cl2vk::runtime
