// OpenCL C to SPIR-V with clang-15 and llvm-spirv-15 as child processes (see source_compiler.h).
#include "runtime/source_compiler.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <optional>
#include <system_error>
#include <utility>

namespace cl2vk::runtime {
namespace {

namespace fs = std::filesystem;

// ---------------------------------------------------------------------------------------------
// Build options

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
//   "argument unused" for spir64.
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

// ---------------------------------------------------------------------------------------------
// Files, with every descriptor close-on-exec so that no child of any thread inherits one.

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) close(fd_);
  }
  int get() const { return fd_; }

 private:
  int fd_;
};

std::string errnoMessage(int error) { return std::system_category().message(error); }

Status writeWholeFile(const fs::path& path, std::string_view contents) {
  FileDescriptor file(open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600));
  if (file.get() < 0) return Error("cannot create " + path.string() + ": " + errnoMessage(errno));
  while (!contents.empty()) {
    ssize_t written = write(file.get(), contents.data(), contents.size());
    if (written < 0 && errno == EINTR) continue;
    if (written < 0) return Error("cannot write " + path.string() + ": " + errnoMessage(errno));
    contents.remove_prefix(static_cast<size_t>(written));
  }
  return okStatus();
}

Expected<std::string> readWholeFile(const fs::path& path) {
  FileDescriptor file(open(path.c_str(), O_RDONLY | O_CLOEXEC));
  if (file.get() < 0) return Error("cannot open " + path.string() + ": " + errnoMessage(errno));
  std::string contents;
  char buffer[65536];
  while (true) {
    ssize_t count = read(file.get(), buffer, sizeof buffer);
    if (count < 0 && errno == EINTR) continue;
    if (count < 0) return Error("cannot read " + path.string() + ": " + errnoMessage(errno));
    if (count == 0) return contents;
    contents.append(buffer, static_cast<size_t>(count));
  }
}

// A private directory (mode 0700, from mkdtemp) for one compilation, removed with all it holds.
class TemporaryDirectory {
 public:
  static Expected<TemporaryDirectory> create() {
    const char* tmpdir = std::getenv("TMPDIR");
    std::error_code error;
    fs::path base = fs::absolute(tmpdir && *tmpdir ? tmpdir : "/tmp", error);
    if (error) return Error("cannot find the temporary directory: " + error.message());
    std::string pattern = (base / "cl2vk-XXXXXX").string();
    if (!mkdtemp(pattern.data())) return Error("cannot create a directory like " + pattern + ": " + errnoMessage(errno));
    return TemporaryDirectory(pattern);
  }
  TemporaryDirectory(TemporaryDirectory&& other) noexcept : path_(std::exchange(other.path_, {})) {}
  TemporaryDirectory& operator=(TemporaryDirectory&&) = delete;
  ~TemporaryDirectory() {
    std::error_code ignored;
    if (!path_.empty()) fs::remove_all(path_, ignored);
  }
  const fs::path& path() const { return path_; }

 private:
  explicit TemporaryDirectory(fs::path path) : path_(std::move(path)) {}
  fs::path path_;
};

// ---------------------------------------------------------------------------------------------
// The tools

struct Toolchain {
  fs::path clang;
  fs::path llvmSpirv;
};

bool isExecutableFile(const fs::path& path) {
  struct stat status;
  return stat(path.c_str(), &status) == 0 && S_ISREG(status.st_mode) && access(path.c_str(), X_OK) == 0;
}

std::optional<fs::path> findOnPath(std::string_view name) {
  const char* searchPath = std::getenv("PATH");
  if (!searchPath) return std::nullopt;
  std::string_view remaining = searchPath;
  while (true) {
    size_t colon = remaining.find(':');
    std::string_view directory = remaining.substr(0, colon);
    fs::path candidate = fs::path(directory.empty() ? "." : directory) / name;
    std::error_code ignored;
    if (isExecutableFile(candidate)) return fs::absolute(candidate, ignored);
    if (colon == std::string_view::npos) return std::nullopt;
    remaining.remove_prefix(colon + 1);
  }
}

// `variable` (an absolute path, or a name looked up on PATH) when set; else `name` on PATH; else
// `fallback`, where Debian's LLVM 15 packages put the tool.
Expected<fs::path> findTool(const char* variable, std::string_view name, const fs::path& fallback) {
  if (const char* chosen = std::getenv(variable); chosen && *chosen) {
    std::string_view value = chosen;
    std::error_code ignored;
    std::optional<fs::path> found = value.find('/') == std::string_view::npos
                                        ? findOnPath(value)
                                        : std::optional(fs::absolute(fs::path(value), ignored));
    if (found && isExecutableFile(*found)) return *found;
    return Error(std::string(variable) + " is set to '" + chosen + "', which is not an executable file");
  }
  if (std::optional<fs::path> found = findOnPath(name)) return *found;
  if (isExecutableFile(fallback)) return fallback;
  return Error(std::string(name) + " was not found (install Debian's clang-15 and llvm-spirv-15 packages, or set " +
               variable + ")");
}

Expected<Toolchain> findToolchain() {
  Expected<fs::path> clang = findTool("CL2VK_CLANG", "clang-15", "/usr/lib/llvm-15/bin/clang");
  if (!clang) return clang.error();
  Expected<fs::path> llvmSpirv = findTool("CL2VK_LLVM_SPIRV", "llvm-spirv-15", "/usr/lib/llvm-15/bin/llvm-spirv");
  if (!llvmSpirv) return llvmSpirv.error();
  return Toolchain{std::move(*clang), std::move(*llvmSpirv)};
}

// ---------------------------------------------------------------------------------------------
// Child processes

// The files of one compilation, relative to its directory, where the tools run. The source sits
// at the top so that diagnostics read "program.cl:3:5: error: ..."; clCompileProgram's headers sit
// beside it, under their own names; cl2vk's files live in a subdirectory no header may use.
constexpr const char* kSourceName = "program.cl";
constexpr const char* kOwnDirectory = "cl2vk";
constexpr const char* kCollectivesHeader = "cl2vk/cl2vk_collectives.h";
constexpr const char* kLlvmIr = "cl2vk/program.ll";
constexpr const char* kBitcode = "cl2vk/program.bc";
constexpr const char* kSpirv = "cl2vk/program.spv";
constexpr const char* kToolOutput = "cl2vk/tool-output.log";

constexpr std::string_view kEmbeddedCollectivesHeader =
#include "runtime/embedded_header.inc"
    ;

// posix_spawn's file actions and attributes, released on every path out.
class SpawnSetup {
 public:
  SpawnSetup() {
    posix_spawn_file_actions_init(&actions_);
    posix_spawnattr_init(&attributes_);
  }
  SpawnSetup(const SpawnSetup&) = delete;
  SpawnSetup& operator=(const SpawnSetup&) = delete;
  ~SpawnSetup() {
    posix_spawnattr_destroy(&attributes_);
    posix_spawn_file_actions_destroy(&actions_);
  }

  // The child runs in `directory` with stdin from /dev/null and stdout and stderr into `outputPath`.
  // It inherits no other descriptor, not even those the application left without close-on-exec
  // (a pipe held open by clang would delay the application's end of file), and starts with no
  // signal blocked: a runtime thread that blocks some should not change how clang runs. Returns 0
  // or the first error number.
  int prepare(const fs::path& directory, const std::string& outputPath) {
    sigset_t noSignals;
    sigemptyset(&noSignals);
    for (int error : {posix_spawn_file_actions_addchdir_np(&actions_, directory.c_str()),
                      posix_spawn_file_actions_addopen(&actions_, STDIN_FILENO, "/dev/null", O_RDONLY, 0),
                      posix_spawn_file_actions_addopen(&actions_, STDOUT_FILENO, outputPath.c_str(),
                                                       O_WRONLY | O_CREAT | O_TRUNC, 0600),
                      posix_spawn_file_actions_adddup2(&actions_, STDOUT_FILENO, STDERR_FILENO),
                      posix_spawn_file_actions_addclosefrom_np(&actions_, STDERR_FILENO + 1),
                      posix_spawnattr_setsigmask(&attributes_, &noSignals),
                      posix_spawnattr_setflags(&attributes_, POSIX_SPAWN_SETSIGMASK)}) {
      if (error) return error;
    }
    return 0;
  }
  const posix_spawn_file_actions_t* actions() const { return &actions_; }
  const posix_spawnattr_t* attributes() const { return &attributes_; }

 private:
  posix_spawn_file_actions_t actions_;
  posix_spawnattr_t attributes_;
};

std::string describeExit(const fs::path& tool, int status) {
  if (WIFEXITED(status)) return tool.string() + " exited with status " + std::to_string(WEXITSTATUS(status));
  if (WIFSIGNALED(status)) {
    const char* description = sigdescr_np(WTERMSIG(status));
    return tool.string() + " was killed by signal " + std::to_string(WTERMSIG(status)) +
           (description ? std::string(" (") + description + ")" : std::string());
  }
  return tool.string() + " stopped with wait status " + std::to_string(status);
}

// Runs `tool` with `arguments` in `directory` (no shell), stdin from /dev/null and stdout and
// stderr appended to `log`. Fails unless the tool exits with status 0.
Status runTool(const fs::path& tool, const std::vector<std::string>& arguments, const fs::path& directory,
               std::string& log) {
  std::string outputPath = (directory / kToolOutput).string();
  std::string toolPath = tool.string();
  SpawnSetup setup;
  if (int error = setup.prepare(directory, outputPath)) {
    return Error("cannot prepare to run " + toolPath + ": " + errnoMessage(error));
  }

  std::vector<char*> argv = {toolPath.data()};
  std::vector<std::string> argumentCopies = arguments;  // posix_spawn's argv is not const
  for (std::string& argument : argumentCopies) argv.push_back(argument.data());
  argv.push_back(nullptr);

  pid_t pid;
  if (int error = posix_spawn(&pid, toolPath.c_str(), setup.actions(), setup.attributes(), argv.data(), environ)) {
    return Error("cannot run " + toolPath + ": " + errnoMessage(error));
  }
  int status = 0;
  while (waitpid(pid, &status, 0) < 0) {
    if (errno != EINTR) return Error("cannot wait for " + toolPath + ": " + errnoMessage(errno));
  }
  Expected<std::string> output = readWholeFile(outputPath);
  if (!output) return output.error();
  log += *output;
  if (WIFEXITED(status) && WEXITSTATUS(status) == 0) return okStatus();
  return Error(describeExit(tool, status));
}

// ---------------------------------------------------------------------------------------------
// freeze to bitcast

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

// llvm-spirv-15 cannot translate LLVM's `freeze` (clang-15 -O2 adds it, for one, where a division
// and a remainder share their operands). It only stops poison from spreading, which nothing after
// clang relies on, so a bitcast to the same type, which llvm-spirv translates, stands in for it.
// (clang-15 freezes scalars and vectors; a frozen aggregate, which bitcast cannot take, would fail
// in the assembly step with LLVM's message in the log.)
std::string replaceFreezeWithBitcast(std::string_view llvmIr) {
  std::string result;
  result.reserve(llvmIr.size());
  while (!llvmIr.empty()) {
    size_t lineEnd = std::min(llvmIr.find('\n'), llvmIr.size());
    std::string_view line = llvmIr.substr(0, lineEnd);
    std::optional<std::string> bitcast = freezeAsBitcast(line);
    result.append(bitcast ? std::string_view(*bitcast) : line);
    if (lineEnd < llvmIr.size()) result += '\n';
    llvmIr.remove_prefix(std::min(lineEnd + 1, llvmIr.size()));
  }
  return result;
}

// ---------------------------------------------------------------------------------------------
// The compilation

// A header name must stay inside the compilation's directory and away from cl2vk's own files.
Status checkHeaderName(const std::string& name) {
  fs::path path(name);
  if (name.empty() || path.is_absolute()) {
    return Error("header name '" + name + "' is not a relative path");
  }
  for (const fs::path& component : path) {
    if (component == "..") return Error("header name '" + name + "' leaves the program's directory ('..')");
  }
  if (path.lexically_normal() == kSourceName || *path.lexically_normal().begin() == kOwnDirectory) {
    return Error("header name '" + name + "' is taken by a file cl2vk writes");
  }
  return okStatus();
}

Status writeInputs(const fs::path& directory, const CompileRequest& request) {
  std::error_code error;
  if (!fs::create_directory(directory / kOwnDirectory, error)) {
    return Error("cannot create " + (directory / kOwnDirectory).string() + ": " + error.message());
  }
  CL2VK_TRY(writeWholeFile(directory / kCollectivesHeader, kEmbeddedCollectivesHeader));
  CL2VK_TRY(writeWholeFile(directory / kSourceName, request.source));
  for (const SourceHeader& header : request.headers) {
    CL2VK_TRY(checkHeaderName(header.name));
    fs::path path = directory / header.name;
    fs::create_directories(path.parent_path(), error);
    if (error) return Error("cannot create " + path.parent_path().string() + ": " + error.message());
    CL2VK_TRY(writeWholeFile(path, header.source));
  }
  return okStatus();
}

// The tools run in the compilation's directory, so a relative -I (relative to where the
// application runs) is made absolute.
std::string withAbsoluteIncludeDirectory(const std::string& argument) {
  if (!argument.starts_with("-I")) return argument;
  fs::path directory = argument.substr(2);
  std::error_code error;
  fs::path absolute = fs::absolute(directory, error);
  return error ? argument : "-I" + absolute.string();
}

std::vector<std::string> frontEndArguments(const CompileRequest& request) {
  const BuildOptions& options = request.options;
  std::vector<std::string> arguments = {
      "-cl-std=" + options.languageVersion, "-target", "spir64", options.optimize ? "-O2" : "-O0",
      // The vectorizers emit llvm.vector.reduce.* intrinsics, which llvm-spirv-15 cannot translate.
      "-fno-vectorize", "-fno-slp-vectorize",
      // Always: the runtime reflects argument names whether or not the application asked.
      "-cl-kernel-arg-info",
      "-include", kCollectivesHeader, "-I."};
  for (const std::string& argument : options.clangArguments) {
    arguments.push_back(withAbsoluteIncludeDirectory(argument));
  }
  // The clang-15 driver drops -cl-ext ("argument unused"); only the front end (-cc1) reads it.
  for (const std::string& name : request.disabledExtensions) {
    arguments.insert(arguments.end(), {"-Xclang", "-cl-ext=-" + name});
  }
  arguments.insert(arguments.end(), {"-emit-llvm", "-S", kSourceName, "-o", kLlvmIr});
  return arguments;
}

Status replaceFreezeInFile(const fs::path& path) {
  Expected<std::string> llvmIr = readWholeFile(path);
  if (!llvmIr) return llvmIr.error();
  return writeWholeFile(path, replaceFreezeWithBitcast(*llvmIr));
}

Expected<std::vector<uint32_t>> readSpirvWords(const fs::path& path) {
  constexpr uint32_t kSpirvMagicNumber = 0x07230203;
  Expected<std::string> bytes = readWholeFile(path);
  if (!bytes) return bytes.error();
  if (bytes->empty() || bytes->size() % sizeof(uint32_t) != 0) {
    return Error("llvm-spirv wrote " + std::to_string(bytes->size()) + " bytes, not a whole number of SPIR-V words");
  }
  std::vector<uint32_t> words(bytes->size() / sizeof(uint32_t));
  std::memcpy(words.data(), bytes->data(), bytes->size());
  if (words[0] != kSpirvMagicNumber) return Error("llvm-spirv's output does not start with SPIR-V's magic number");
  return words;
}

Expected<std::vector<uint32_t>> compileIn(const fs::path& directory, const CompileRequest& request,
                                          const Toolchain& tools, std::string& log) {
  CL2VK_TRY(writeInputs(directory, request));
  CL2VK_TRY(runTool(tools.clang, frontEndArguments(request), directory, log));
  CL2VK_TRY(replaceFreezeInFile(directory / kLlvmIr));
  // Text IR back to bitcode for llvm-spirv; -disable-llvm-passes: assemble only, optimise nothing.
  CL2VK_TRY(runTool(tools.clang,
                    {"-target", "spir64", "-Xclang", "-disable-llvm-passes", "-c", "-emit-llvm", "-x", "ir",
                     kLlvmIr, "-o", kBitcode},
                    directory, log));
  CL2VK_TRY(runTool(tools.llvmSpirv,
                    // The OpenCL C type names and qualifiers of the arguments, for clGetKernelArgInfo,
                    // travel as OpString "kernel_arg_type.<kernel>.<types>".
                    {"--spirv-max-version=1.2", "--spirv-ext=+SPV_KHR_uniform_group_instructions",
                     "--preserve-ocl-kernel-arg-type-metadata-through-string", kBitcode, "-o", kSpirv},
                    directory, log));
  return readSpirvWords(directory / kSpirv);
}

Expected<std::vector<uint32_t>> compileToSpirv(const CompileRequest& request, std::string& log) {
  Expected<Toolchain> tools = findToolchain();
  if (!tools) return tools.error();
  Expected<TemporaryDirectory> directory = TemporaryDirectory::create();
  if (!directory) return directory.error();
  return compileIn(directory->path(), request, *tools, log);
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
    } else if (!contains(kIgnoredOptions, word)) {
      return Error("unknown build option '" + word + "'");
    }
  }
  return result;
}

bool sourceCompilerAvailable(std::string* reason) {
  Expected<Toolchain> toolchain = findToolchain();
  if (!toolchain && reason != nullptr) *reason = toolchain.error().message();
  return toolchain.ok();
}

CompileResult compileSource(const CompileRequest& request) {
  CompileResult result;
  Expected<std::vector<uint32_t>> spirv = compileToSpirv(request, result.log);
  if (spirv) {
    result.success = true;
    result.spirv = std::move(*spirv);
  } else {
    if (!result.log.empty() && !result.log.ends_with('\n')) result.log += '\n';
    result.log += "cl2vk: cannot compile OpenCL C: " + spirv.error().message() + "\n";
  }
  return result;
}

}  // namespace cl2vk::runtime
