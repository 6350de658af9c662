// clBuildProgram's options, split as a shell would and checked (parseBuildOptions, source_compiler.h).
#include <algorithm>
#include <optional>
#include <utility>

#include "runtime/source_compiler.h"

namespace cl2vk::runtime {
namespace {

constexpr std::string_view kLanguageVersions[] = {"CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"};

// Options clang-15 understands for -target spir64, passed on as they are.
constexpr std::string_view kForwardedOptions[] = {
    "-cl-mad-enable",
    "-cl-no-signed-zeros",
    "-cl-unsafe-math-optimizations",
    "-cl-finite-math-only",
    "-cl-fast-relaxed-math",
    "-cl-single-precision-constant",
    "-cl-fp32-correctly-rounded-divide-sqrt",
    "-cl-uniform-work-group-size",
    "-w",
    "-Werror",
};

// Options that only permit something (or ask for debug information), accepted and not passed on:
// - -cl-denorms-are-zero lets denormals flush; clang-15 only uses it for AMDGPU and NVPTX and warns
//   "argument unused" for spir64. The translator hears of it (BuildOptions::denormsAreZero).
// - -cl-no-subgroup-ifp lets sub-groups lack independent forward progress; clang-15 rejects it.
// - -g: llvm-spirv-15's OpenCL.DebugInfo.100 does not pass SPIRV-Tools' validation, which the
//   translator requires of its input.
// - -cl-strict-aliasing is OpenCL 1.0's, deprecated since 1.1; clang-15 warns for any later version.
constexpr std::string_view kIgnoredOptions[] = {"-cl-denorms-are-zero", "-cl-no-subgroup-ifp", "-g",
                                                "-cl-strict-aliasing"};

template <size_t N>
bool contains(const std::string_view (&list)[N], std::string_view value) {
  return std::find(std::begin(list), std::end(list), value) != std::end(list);
}

bool isShellBlank(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }

// Appends the inside of a double-quoted string that starts at text[start] to `word`, as a POSIX
// shell reads it (a backslash escapes only ", \, $ and `); returns the index of the closing quote.
std::optional<size_t> appendDoubleQuoted(std::string_view text, size_t start, std::string& word) {
  constexpr std::string_view kEscapable = "\"\\$`";
  for (size_t i = start; i < text.size(); ++i) {
    if (text[i] == '"') return i;
    if (text[i] == '\\' && i + 1 < text.size() && kEscapable.find(text[i + 1]) != std::string_view::npos) ++i;
    word += text[i];
  }
  return std::nullopt;
}

// Splits `text` into words as a POSIX shell would (quotes and backslashes; no expansions).
Expected<std::vector<std::string>> splitLikeShell(std::string_view text) {
  std::vector<std::string> words;
  std::string word;
  bool inWord = false;  // "" is an empty word, so emptiness does not tell
  for (size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (isShellBlank(c)) {
      if (inWord) words.push_back(std::exchange(word, {}));
      inWord = false;
      continue;
    }
    inWord = true;
    if (c == '\\') {
      if (i + 1 < text.size()) ++i;  // a trailing backslash stays as it is
      word += text[i];
    } else if (c == '\'') {
      size_t close = text.find('\'', i + 1);
      if (close == std::string_view::npos) return Error("unterminated ' in the build options");
      word.append(text.substr(i + 1, close - i - 1));
      i = close;
    } else if (c == '"') {
      std::optional<size_t> close = appendDoubleQuoted(text, i + 1, word);
      if (!close) return Error("unterminated \" in the build options");
      i = *close;
    } else {
      word += c;
    }
  }
  if (inWord) words.push_back(std::move(word));
  return words;
}

Status checkLanguageVersion(std::string_view version) {
  if (contains(kLanguageVersions, version)) return okStatus();
  return Error("invalid build option '-cl-std=" + std::string(version) +
               "': the OpenCL C version must be CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0");
}

// -D and -I take their value joined ("-DN=1") or as the next word ("-D N=1"); clang gets it joined.
bool takesValue(std::string_view word) { return word.starts_with("-D") || word.starts_with("-I"); }

Status addValueOption(const std::vector<std::string>& words, size_t& index, BuildOptions& options) {
  std::string option = words[index].substr(0, 2);
  std::string value = words[index].substr(2);
  if (value.empty() && index + 1 < words.size()) value = words[++index];
  // An empty value would make clang take the next argument as the value.
  if (value.empty()) {
    return Error("build option '" + option + "' needs " + (option == "-D" ? "a macro name" : "a directory"));
  }
  options.clangArguments.push_back(option + value);
  return okStatus();
}

}  // namespace

Expected<BuildOptions> parseBuildOptions(std::string_view options) {
  Expected<std::vector<std::string>> words = splitLikeShell(options);
  if (!words) return words.error();
  BuildOptions result;
  for (size_t i = 0; i < words->size(); ++i) {
    const std::string& word = (*words)[i];
    if (takesValue(word)) {
      CL2VK_TRY(addValueOption(*words, i, result));
    } else if (word.starts_with("-cl-std=")) {
      result.languageVersion = word.substr(std::string_view("-cl-std=").size());
      CL2VK_TRY(checkLanguageVersion(result.languageVersion));
    } else if (word == "-cl-opt-disable") {
      result.optimize = false;  // compileSource passes -O0
    } else if (word == "-cl-kernel-arg-info") {
      result.kernelArgInfo = true;  // compileSource passes it always
    } else if (contains(kForwardedOptions, word)) {
      result.clangArguments.push_back(word);
      result.relaxedMath |= word == "-cl-fast-relaxed-math" || word == "-cl-unsafe-math-optimizations";
    } else if (!contains(kIgnoredOptions, word)) {
      return Error("unknown build option '" + word + "'");
    }
    result.denormsAreZero |= word == "-cl-denorms-are-zero";
  }
  return result;
}

}  // namespace cl2vk::runtime
