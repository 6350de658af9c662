// freeze to bitcast, null casts between named spaces folded, inline definitions kept, narrowed
// switches widened, sub-group calls kept apart and kernel attributes read (llvm_ir_fixups.h): LLVM IR text read line by
// line, without an LLVM library.
#include "runtime/llvm_ir_fixups.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cstdint>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <vector>

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

// Whether an LLVM pointer type names the generic address space (OpenCL's is 4 on spir64).
bool isGenericPointerType(std::string_view type) { return type.find("addrspace(4)") != std::string_view::npos; }

// Every "addrspacecast (T* null to U*)" between two named spaces as "null", and an instruction
// "%x = addrspacecast T* null to U*" as "%x = bitcast U* null to U*"; nullopt for a line without
// either.
std::optional<std::string> namedNullCastsAsNull(std::string_view line) {
  constexpr std::string_view kCast = "addrspacecast ";
  std::string rewritten;
  size_t copied = 0;
  for (size_t at = line.find(kCast); at != std::string_view::npos; at = line.find(kCast, at + 1)) {
    size_t start = at + kCast.size();
    bool expression = start < line.size() && line[start] == '(';
    std::string_view operands = line.substr(start + (expression ? 1 : 0));
    std::optional<size_t> fromLength = llvmTypeLength(operands);
    if (!fromLength || !operands.substr(*fromLength).starts_with(" null to ")) continue;
    std::string_view from = operands.substr(0, *fromLength);
    std::string_view target = operands.substr(*fromLength + std::string_view(" null to ").size());
    std::optional<size_t> toLength = llvmTypeLength(target);
    if (!toLength) continue;
    std::string_view to = target.substr(0, *toLength);
    if (isGenericPointerType(from) || isGenericPointerType(to)) continue;  // llvm-spirv takes these
    size_t end = static_cast<size_t>(to.data() + to.size() - line.data()) + (expression ? 1 : 0);
    if (expression && (end > line.size() || line[end - 1] != ')')) continue;
    rewritten.append(line.substr(copied, at - copied));
    if (expression) {
      rewritten.append("null");
    } else {
      rewritten.append("bitcast ").append(to).append(" null to ").append(to);
    }
    copied = end;
  }
  if (copied == 0) return std::nullopt;
  return rewritten.append(line.substr(copied));
}

// "define available_externally ..." as "define internal ...", or nullopt for any other line.
std::optional<std::string> inlineDefinitionAsInternal(std::string_view line) {
  constexpr std::string_view kInlineDefinition = "define available_externally ";
  if (!line.starts_with(kInlineDefinition)) return std::nullopt;
  return "define internal " + std::string(line.substr(kInlineDefinition.size()));
}

// The switches of a function body on integers of odd widths, rewritten one line at a time: the
// switch line gets a `zext` of its condition before it, and each case line up to the closing
// bracket its value as the wider type's.
class SwitchWidening {
 public:
  std::optional<std::string> operator()(std::string_view line) {
    if (width_) return caseLine(line);
    return switchLine(line);
  }

 private:
  // "  switch iN COND, label %d [" (N not 8, 16, 32 or 64) as a zext and a switch on its result.
  std::optional<std::string> switchLine(std::string_view line) {
    size_t indent = line.find_first_not_of(" \t");
    if (indent == std::string_view::npos || !line.substr(indent).starts_with("switch i")) return std::nullopt;
    std::string_view rest = line.substr(indent + std::string_view("switch i").size());
    uint32_t width = 0;
    auto [end, error] = std::from_chars(rest.data(), rest.data() + rest.size(), width);
    if (error != std::errc() || end == rest.data() + rest.size() || *end != ' ') return std::nullopt;
    if (width == 8 || width == 16 || width == 32 || width == 64 || width == 0 || width > 64) return std::nullopt;
    rest.remove_prefix(end - rest.data() + 1);
    size_t label = findAtTopLevel(rest, ", label ");
    if (label == std::string_view::npos || !line.ends_with("[")) return std::nullopt;
    width_ = width;
    wide_ = width <= 32 ? 32 : 64;
    std::string indentation(line.substr(0, indent));
    std::string name = "%cl2vk.switch." + std::to_string(count_++);
    std::string type = "i" + std::to_string(wide_);
    return indentation + name + " = zext i" + std::to_string(width) + " " + std::string(rest.substr(0, label)) +
           " to " + type + "\n" + indentation + "switch " + type + " " + name + std::string(rest.substr(label));
  }

  // "    iN V, label %l" as "    iW V', label %l", V' the unsigned N-bit value of V (LLVM prints
  // case values signed, and i1 ones as true and false); the closing bracket ends the switch.
  std::optional<std::string> caseLine(std::string_view line) {
    size_t indent = line.find_first_not_of(" \t");
    std::string prefix = "i" + std::to_string(width_) + " ";
    if (indent == std::string_view::npos || !line.substr(indent).starts_with(prefix)) {
      width_ = 0;  // "  ]" (with any metadata after it), or something this rewrite does not know
      return std::nullopt;
    }
    std::string_view rest = line.substr(indent + prefix.size());
    size_t comma = rest.find(',');
    std::string_view text = rest.substr(0, comma);
    int64_t value = 0;
    if (text == "true" || text == "false") {
      value = text == "true";
    } else {
      auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
      if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
    }
    uint64_t bits = static_cast<uint64_t>(value) & ((uint64_t{1} << width_) - 1);
    return std::string(line.substr(0, indent)) + "i" + std::to_string(wide_) + " " + std::to_string(bits) +
           std::string(rest.substr(comma));
  }

  uint32_t width_ = 0;  // inside a widened switch's cases: the width of its condition
  uint32_t wide_ = 0;
  unsigned count_ = 0;  // names the zext results apart
};

// The function a "define" or "declare" line introduces: its name and the position just after
// its parameter list.
struct FunctionHeader {
  std::string_view name;
  size_t afterParameters;
};

bool isIdentifierCharacter(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '.' || c == '$' || c == '-';
}

// The identifier after the '@' at `at`, empty for a quoted one.
std::string_view globalNameAt(std::string_view line, size_t at) {
  size_t end = at + 1;
  while (end < line.size() && isIdentifierCharacter(line[end])) ++end;
  return line.substr(at + 1, end - at - 1);
}

std::optional<FunctionHeader> functionHeader(std::string_view line) {
  if (!line.starts_with("define ") && !line.starts_with("declare ")) return std::nullopt;
  size_t at = findAtTopLevel(line, "@");
  if (at == std::string_view::npos) return std::nullopt;
  std::string_view name = globalNameAt(line, at);
  size_t open = at + 1 + name.size();
  if (name.empty() || open >= line.size() || line[open] != '(') return std::nullopt;
  size_t close = findAtTopLevel(line.substr(open + 1), ")");
  if (close == std::string_view::npos) return std::nullopt;
  return FunctionHeader{name, open + 1 + close + 1};
}

// An OpenCL C sub-group function, by its mangled name: _Z<length>sub_group_...
bool isSubgroupFunction(std::string_view name) {
  if (!name.starts_with("_Z")) return false;
  size_t prefix = name.find_first_not_of("0123456789", 2);
  return prefix != 2 && prefix != std::string_view::npos && name.substr(prefix).starts_with("sub_group_");
}

// The header line with `nomerge` first among its function attributes, after any unnamed_addr and
// addrspace, which come before them; nullopt where it already has it.
std::optional<std::string> withNomerge(std::string_view line, const FunctionHeader& header) {
  size_t at = header.afterParameters;
  if (line.substr(at).find("nomerge") != std::string_view::npos) return std::nullopt;
  for (std::string_view skipped : {" unnamed_addr", " local_unnamed_addr"}) {
    if (line.substr(at).starts_with(skipped)) at += skipped.size();
  }
  if (line.substr(at).starts_with(" addrspace(")) at = std::min(line.find(')', at) + 1, line.size());
  std::string rewritten(line.substr(0, at));
  rewritten.append(" nomerge").append(line.substr(at));
  return rewritten;
}

// Calls `visit` with each line of `llvmIr`.
template <typename Visit>
void forEachLine(std::string_view llvmIr, Visit visit) {
  while (!llvmIr.empty()) {
    size_t lineEnd = std::min(llvmIr.find('\n'), llvmIr.size());
    visit(llvmIr.substr(0, lineEnd));
    llvmIr.remove_prefix(std::min(lineEnd + 1, llvmIr.size()));
  }
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

// The OpenCL C name of the type a vec_type_hint node holds ("<4 x i32> undef, i32 1" is int4: the
// second operand is 1 for a signed integer); empty for a type OpenCL C does not have.
std::string vectorTypeHintName(std::string_view operands) {
  std::string_view type = operands.substr(0, operands.find(" undef"));
  std::string count;
  if (type.starts_with('<')) {
    size_t x = type.find(" x ");
    if (x == std::string_view::npos || !type.ends_with('>')) return {};
    count = std::string(type.substr(1, x - 1));
    type = type.substr(x + 3, type.size() - x - 4);
  }
  bool isSigned = operands.ends_with("i32 1");
  static constexpr std::pair<std::string_view, std::string_view> kNames[] = {
      {"i8", "char"},   {"i16", "short"},   {"i32", "int"},      {"i64", "long"},
      {"half", "half"}, {"float", "float"}, {"double", "double"}};
  for (auto [llvmType, name] : kNames) {
    if (type != llvmType) continue;
    bool integer = llvmType.starts_with('i');
    return std::string(integer && !isSigned ? "u" : "") + std::string(name) + count;
  }
  return {};
}

// The operands of a metadata node line "!8 = !{...}", by its number.
std::unordered_map<std::string_view, std::string_view> metadataNodes(std::string_view llvmIr) {
  std::unordered_map<std::string_view, std::string_view> nodes;
  forEachLine(llvmIr, [&](std::string_view line) {
    size_t equals = line.find(" = !{");
    if (!line.starts_with('!') || equals == std::string_view::npos || !line.ends_with('}')) return;
    std::string_view number = line.substr(1, equals - 1);
    if (number.find_first_not_of("0123456789") != std::string_view::npos) return;
    nodes[number] = line.substr(equals + 5, line.size() - equals - 6);
  });
  return nodes;
}

// "i32 8, i32 1, i32 1" as "8,1,1".
std::string sizeTriple(std::string_view operands) {
  std::string sizes;
  while (!operands.empty()) {
    size_t end = std::min(operands.find(", "), operands.size());
    std::string_view operand = operands.substr(0, end);
    operand.remove_prefix(std::min(operand.find(' ') + 1, operand.size()));  // the type, "i32 "
    if (!sizes.empty()) sizes += ',';
    sizes += operand;
    operands.remove_prefix(std::min(end + 2, operands.size()));
  }
  return sizes;
}

}  // namespace

std::string replaceFreezeWithBitcast(std::string_view llvmIr) { return rewriteLines(llvmIr, freezeAsBitcast); }

std::string foldNullCastsBetweenNamedSpaces(std::string_view llvmIr) {
  return rewriteLines(llvmIr, namedNullCastsAsNull);
}

std::string keepInlineDefinitions(std::string_view llvmIr) { return rewriteLines(llvmIr, inlineDefinitionAsInternal); }

std::string widenOddWidthSwitches(std::string_view llvmIr) { return rewriteLines(llvmIr, SwitchWidening()); }

std::string keepSubgroupCallsApart(std::string_view llvmIr) {
  // The sub-group functions, and what each defined function refers to.
  std::unordered_set<std::string_view> apart;
  std::unordered_map<std::string_view, std::vector<std::string_view>> references;
  std::string_view current;
  forEachLine(llvmIr, [&](std::string_view line) {
    if (std::optional<FunctionHeader> header = functionHeader(line)) {
      if (isSubgroupFunction(header->name)) apart.insert(header->name);
      if (line.starts_with("define ")) current = header->name;
      return;
    }
    if (line.starts_with('}')) current = {};
    if (current.empty()) return;
    for (size_t at = line.find('@'); at != std::string_view::npos; at = line.find('@', at + 1)) {
      std::string_view name = globalNameAt(line, at);
      if (!name.empty()) references[current].push_back(name);
    }
  });
  // A function that calls one that must stay apart must too: clang merges the calls of a helper
  // function before it inlines them.
  for (bool grew = true; grew;) {
    grew = false;
    for (const auto& [function, names] : references) {
      if (apart.contains(function)) continue;
      if (std::any_of(names.begin(), names.end(), [&](std::string_view name) { return apart.contains(name); })) {
        apart.insert(function);
        grew = true;
      }
    }
  }
  return rewriteLines(llvmIr, [&](std::string_view line) -> std::optional<std::string> {
    std::optional<FunctionHeader> header = functionHeader(line);
    if (!header || !apart.contains(header->name)) return std::nullopt;
    return withNomerge(line, *header);
  });
}

KernelAttributeList kernelAttributes(std::string_view llvmIr) {
  std::unordered_map<std::string_view, std::string_view> nodes = metadataNodes(llvmIr);
  KernelAttributeList kernels;
  forEachLine(llvmIr, [&](std::string_view line) {
    std::optional<FunctionHeader> header = functionHeader(line);
    if (!header || !line.starts_with("define ") || line.find(" spir_kernel ") == std::string_view::npos) return;
    std::string attributes;
    // The attachments after the parameters, in clang's order: "!vec_type_hint !8".
    std::string_view rest = line.substr(header->afterParameters);
    for (size_t at = rest.find(" !"); at != std::string_view::npos; at = rest.find(" !", at + 1)) {
      size_t nameEnd = rest.find(' ', at + 2);
      if (nameEnd == std::string_view::npos || rest.substr(nameEnd).size() < 3 || rest[nameEnd + 1] != '!') continue;
      std::string_view name = rest.substr(at + 2, nameEnd - at - 2);
      size_t numberEnd = std::min(rest.find_first_not_of("0123456789", nameEnd + 2), rest.size());
      auto node = nodes.find(rest.substr(nameEnd + 2, numberEnd - nameEnd - 2));
      if (node == nodes.end()) continue;
      std::string attribute;
      if (name == "vec_type_hint") {
        std::string type = vectorTypeHintName(node->second);
        if (!type.empty()) attribute = "vec_type_hint(" + type + ")";
      } else if (name == "work_group_size_hint" || name == "reqd_work_group_size") {
        attribute = std::string(name) + "(" + sizeTriple(node->second) + ")";
      }
      if (attribute.empty()) continue;
      if (!attributes.empty()) attributes += ' ';
      attributes += attribute;
    }
    if (!attributes.empty()) kernels.emplace_back(std::string(header->name), std::move(attributes));
  });
  return kernels;
}

}  // namespace cl2vk::runtime
