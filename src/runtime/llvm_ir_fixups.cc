// freeze to bitcast and inline definitions kept (llvm_ir_fixups.h): LLVM IR text read line by line,
// without an LLVM library.
#include "runtime/llvm_ir_fixups.h"

#include <algorithm>
#include <optional>

namespace cl2vk::runtime {
namespace {

// +1 for an opening bracket of an LLVM type or constant, -1 for a closing one.
int bracketDepthChange(char c) {
  if (c == '<' || c == '[' || c == '{' || c == '(') return 1;
  if (c == '>' || c == ']' || c == '}' || c == ')') return -1;
  return 0;
}

// The first `needle` in `text` outside brackets and quoted names, or npos.
size_t findAtTopLevel(std::string_view text, std::string_view needle) {
  int depth = 0;
  bool quoted = false;
  for (size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '"') quoted = !quoted;
    if (quoted) continue;
    if (depth == 0 && text.substr(i).starts_with(needle)) return i;
    depth += bracketDepthChange(text[i]);
  }
  return std::string_view::npos;
}

// The length of the LLVM type that starts `text` ("i32", "<4 x i32>", "float addrspace(1)*",
// "ptr addrspace(1)"), or nullopt when it does not parse.
std::optional<size_t> llvmTypeLength(std::string_view text) {
  size_t end;
  if (!text.empty() && bracketDepthChange(text[0]) > 0) {
    int depth = 0;
    for (end = 0; end < text.size(); ++end) {
      depth += bracketDepthChange(text[end]);
      if (depth == 0) break;
    }
    if (end == text.size()) return std::nullopt;
    ++end;
  } else {
    end = text.find_first_of(" ,*");
    if (end == 0 || end == std::string_view::npos) return std::nullopt;
  }
  while (end < text.size()) {  // pointer suffixes
    if (text[end] == '*') {
      ++end;
    } else if (text.substr(end).starts_with(" addrspace(")) {
      size_t close = text.find(')', end);
      if (close == std::string_view::npos) return std::nullopt;
      end = close + 1;
    } else {
      break;
    }
  }
  return end;
}

// "%x = freeze T V[, !md !n]" as "%x = bitcast T V to T[, !md !n]", or nullopt for any other line.
std::optional<std::string> freezeAsBitcast(std::string_view line) {
  constexpr std::string_view kFreeze = " = freeze ";
  size_t at = line.find(kFreeze);
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view resultName = line.substr(0, at);
  resultName.remove_prefix(std::min(resultName.find_first_not_of(" \t"), resultName.size()));
  if (!resultName.starts_with('%') || resultName.find(' ') != std::string_view::npos) return std::nullopt;

  std::string_view operand = line.substr(at + kFreeze.size());
  std::optional<size_t> typeLength = llvmTypeLength(operand);
  if (!typeLength) return std::nullopt;
  std::string_view type = operand.substr(0, *typeLength);
  std::string_view value = operand.substr(*typeLength);  // " %v, !dbg !12"
  std::string_view metadata = value.substr(std::min(findAtTopLevel(value, ", !"), value.size()));
  value.remove_suffix(metadata.size());

  std::string rewritten(line.substr(0, at));
  rewritten.append(" = bitcast ").append(type).append(value).append(" to ").append(type).append(metadata);
  return rewritten;
}

// "define available_externally ..." as "define internal ...", or nullopt for any other line.
std::optional<std::string> inlineDefinitionAsInternal(std::string_view line) {
  constexpr std::string_view kInlineDefinition = "define available_externally ";
  if (!line.starts_with(kInlineDefinition)) return std::nullopt;
  return "define internal " + std::string(line.substr(kInlineDefinition.size()));
}

// `llvmIr` with every line that `rewrite` rewrites replaced.
template <typename Rewrite>
std::string rewriteLines(std::string_view llvmIr, Rewrite rewrite) {
  std::string result;
  result.reserve(llvmIr.size());
  while (!llvmIr.empty()) {
    size_t lineEnd = std::min(llvmIr.find('\n'), llvmIr.size());
    std::string_view line = llvmIr.substr(0, lineEnd);
    std::optional<std::string> rewritten = rewrite(line);
    result.append(rewritten ? std::string_view(*rewritten) : line);
    if (lineEnd < llvmIr.size()) result += '\n';
    llvmIr.remove_prefix(std::min(lineEnd + 1, llvmIr.size()));
  }
  return result;
}

}  // namespace

std::string replaceFreezeWithBitcast(std::string_view llvmIr) { return rewriteLines(llvmIr, freezeAsBitcast); }

std::string keepInlineDefinitions(std::string_view llvmIr) { return rewriteLines(llvmIr, inlineDefinitionAsInternal); }

}  // namespace cl2vk::runtime
