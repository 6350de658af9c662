// cl2vk-opt: translates OpenCL-flavoured SPIR-V into Vulkan compute SPIR-V, in the manner of
// spirv-opt. With no pass flag it runs the whole pipeline; each pass flag runs just that pass.
//
// Exit codes: 0 success; 1 the input could not be read, translated or validated; 2 bad usage.

#include <spirv-tools/libspirv.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

#include "cl2vk/spirv.h"
#include "cl2vk/translator.h"

namespace {

using cl2vk::Error;
using cl2vk::Expected;

constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

struct Options {
  std::string input;
  std::string output = "-";
  bool emitText = false;
  bool validate = false;
  bool stats = false;
  bool roundTrip = false;
  std::string reflectPath;  // --reflect=<file>
  cl2vk::Target target;
  std::vector<std::string> passes;  // empty: the whole pipeline, through the translator
};

// "  --usage             summary", the summary in column 24 (on the next line after a long usage)
// and wrapped before column 100.
void printParagraph(const std::string& usage, const std::string& summary) {
  constexpr size_t kIndent = 24, kWidth = 100;
  std::string text = "  " + usage;
  if (text.size() + 2 > kIndent)
    text += "\n" + std::string(kIndent, ' ');
  else
    text.resize(kIndent, ' ');
  size_t column = kIndent;
  for (size_t start = 0; start < summary.size();) {
    const size_t end = std::min(summary.find(' ', start), summary.size());
    const size_t length = end - start;
    if (column > kIndent && column + 1 + length > kWidth) {
      text += "\n" + std::string(kIndent, ' ');
      column = kIndent;
    } else if (column > kIndent) {
      text += ' ';
      ++column;
    }
    text.append(summary, start, length);
    column += length;
    start = end + 1;
  }
  std::printf("%s\n", text.c_str());
}

void printHelp() {
  std::printf(
      "Usage: cl2vk-opt [options] <input> [-o <output>]\n"
      "\n"
      "Translates OpenCL-flavoured SPIR-V (Kernel execution model, as clang -target spir64 and\n"
      "llvm-spirv produce it) into Vulkan compute SPIR-V. The input may be a SPIR-V binary or SPIR-V\n"
      "assembly text (detected from its first bytes). '-' reads stdin or writes stdout.\n"
      "\n"
      "Options:\n"
      "  -o <file>             Write the result to <file> (default: stdout).\n"
      "  --emit=binary|text    Write a SPIR-V binary (default) or SPIR-V assembly text.\n"
      "  --validate            Validate the result with SPIRV-Tools and fail with its message. A module\n"
      "                        that still has the Kernel capability is checked as OpenCL SPIR-V\n"
      "                        (opencl2.0/2.1/2.2 for SPIR-V 1.0/1.1/1.2, the universal rules of\n"
      "                        its version above that); a translated one against --target-env.\n"
      "  --stats               Print a one-line summary of the result to stderr, and per kernel\n"
      "                        the collectives rewritten, barriers added and bytes of scratch.\n"
      "  --round-trip          Run no pass: read, (validate) and write the module as it is.\n"
      "  --reflect=<file>      Write the kernels' reflection as JSON: arguments and where they go\n"
      "                        (push constants or argument buffer), specialization constant ids for\n"
      "                        the work-group size and __local arguments, reqd_work_group_size, and\n"
      "                        the device features the module needs. '-' writes stdout.\n"
      "  --help                Print this help.\n"
      "  --version             Print the version.\n"
      "\n"
      "The device translated for (every field of cl2vk::Target; the defaults describe a capable\n"
      "desktop GPU; CL2VK_DUMP makes the runtime write the flags of the device it translated for):\n");
  for (const cl2vk::TargetFlagHelp& flag : cl2vk::targetFlagHelp()) printParagraph(flag.usage, flag.summary);
  std::printf(
      "\n"
      "Passes (each flag runs that pass alone; several run in the order given; none runs the\n"
      "whole pipeline in the order listed):\n");
  for (const cl2vk::PassDescription& pass : cl2vk::passes())
    std::printf("  --%-36s %s\n", pass.name.c_str(), pass.summary.c_str());
}

bool isPass(std::string_view name) {
  for (const cl2vk::PassDescription& pass : cl2vk::passes()) {
    if (pass.name == name) return true;
  }
  return false;
}

// Parses the command line. A std::nullopt result with `exitCode` set means "stop now".
std::optional<Options> parseArguments(int argc, char** argv, int& exitCode) {
  Options options;
  bool haveInput = false;
  auto usageError = [&exitCode](const std::string& message) -> std::optional<Options> {
    std::fprintf(stderr, "cl2vk-opt: %s (try --help)\n", message.c_str());
    exitCode = kExitUsage;
    return std::nullopt;
  };
  for (int i = 1; i < argc; ++i) {
    std::string_view arg = argv[i];
    if (arg == "--help" || arg == "-h") {
      printHelp();
      exitCode = 0;
      return std::nullopt;
    }
    if (arg == "--version") {
      std::printf("cl2vk-opt %s (%s)\n", CL2VK_VERSION, spvSoftwareVersionDetailsString());
      exitCode = 0;
      return std::nullopt;
    }
    if (arg == "-o") {
      if (i + 1 >= argc) return usageError("-o needs a file name");
      options.output = argv[++i];
    } else if (arg.starts_with("--emit=")) {
      std::string_view kind = arg.substr(7);
      if (kind != "binary" && kind != "text")
        return usageError("--emit must be binary or text, not '" + std::string(kind) + "'");
      options.emitText = kind == "text";
    } else if (arg == "--validate") {
      options.validate = true;
    } else if (arg == "--stats") {
      options.stats = true;
    } else if (arg.starts_with("--reflect=")) {
      options.reflectPath = arg.substr(10);
      if (options.reflectPath.empty()) return usageError("--reflect needs a file name");
    } else if (arg == "--round-trip") {
      options.roundTrip = true;
    } else if (Expected<bool> applied = cl2vk::applyTargetFlag(arg, options.target); !applied) {
      return usageError(applied.error().message());
    } else if (*applied) {
      continue;
    } else if (arg.starts_with("--")) {
      if (!isPass(arg.substr(2))) return usageError("unknown option '" + std::string(arg) + "'");
      options.passes.emplace_back(arg.substr(2));
    } else if (arg.starts_with("-") && arg != "-") {
      return usageError("unknown option '" + std::string(arg) + "'");
    } else {
      if (haveInput)
        return usageError("more than one input file ('" + options.input + "' and '" + std::string(arg) + "')");
      options.input = arg;
      haveInput = true;
    }
  }
  if (!haveInput) return usageError("no input file");
  if (options.roundTrip && !options.passes.empty()) return usageError("--round-trip runs no pass; drop the pass flags");
  return options;
}

Expected<std::vector<uint8_t>> readInput(const std::string& path) {
  std::vector<uint8_t> bytes;
  if (path == "-") {
    std::cin >> std::noskipws;
    bytes.assign(std::istreambuf_iterator<char>(std::cin), std::istreambuf_iterator<char>());
    return bytes;
  }
  std::ifstream file(path, std::ios::binary);
  if (!file) return Error("cannot open '" + path + "': " + std::strerror(errno));
  bytes.assign(std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>());
  if (file.bad()) return Error("cannot read '" + path + "'");
  return bytes;
}

cl2vk::Status writeOutput(const std::string& path, const std::string& data) {
  if (path == "-") {
    std::cout.write(data.data(), static_cast<std::streamsize>(data.size()));
    std::cout.flush();
    if (!std::cout) return Error("cannot write to stdout");
    return cl2vk::okStatus();
  }
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  if (!file) return Error("cannot open '" + path + "' for writing: " + std::strerror(errno));
  file.write(data.data(), static_cast<std::streamsize>(data.size()));
  if (!file.flush()) return Error("cannot write '" + path + "'");
  return cl2vk::okStatus();
}

int fail(const std::string& input, const Error& error) {
  std::fprintf(stderr, "cl2vk-opt: %s: %s\n", input.c_str(), error.message().c_str());
  return kExitFailure;
}

int run(const Options& options) {
  const std::string& name = options.input == "-" ? std::string("<stdin>") : options.input;
  auto bytes = readInput(options.input);
  if (!bytes) return fail(name, bytes.error());

  auto input = cl2vk::readSpirvBinaryOrAssembly(*bytes);
  if (!input) return fail(name, input.error());

  cl2vk::Translation result{std::move(*input), {}};
  if (!options.roundTrip) {
    // The whole pipeline is the translator: it validates input and output itself.
    auto translation = options.passes.empty() ? cl2vk::translate(result.spirv, options.target)
                                              : cl2vk::runPasses(result.spirv, options.passes, options.target);
    if (!translation) return fail(name, translation.error());
    result = std::move(*translation);
  }
  const std::vector<uint32_t>& spirv = result.spirv;

  std::string validity;
  if (options.validate) {
    auto env = cl2vk::validationEnvironment(spirv, options.target.vulkanEnv);
    if (!env) return fail(name, env.error());
    if (auto status = cl2vk::validate(spirv, *env); !status) return fail(name, status.error());
    validity = ", valid for " + cl2vk::environmentName(*env);
  }

  std::string data;
  if (options.emitText) {
    auto text = cl2vk::disassemble(spirv);
    if (!text) return fail(name, text.error());
    data = std::move(*text);
  } else {
    // A binary read in the other byte order is written back in it.
    std::vector<uint32_t> words = cl2vk::isByteSwappedBinary(*bytes) ? cl2vk::byteSwapped(spirv) : spirv;
    data.assign(reinterpret_cast<const char*>(words.data()), words.size() * sizeof(uint32_t));
  }
  if (auto status = writeOutput(options.output, data); !status) return fail(name, status.error());
  if (!options.reflectPath.empty()) {
    if (auto status = writeOutput(options.reflectPath, cl2vk::toJson(result.reflection)); !status)
      return fail(name, status.error());
  }

  if (options.stats) {
    auto summary = cl2vk::describe(spirv);
    if (!summary) return fail(name, summary.error());
    std::fprintf(stderr, "%s: %s%s\n", name.c_str(), summary->c_str(), validity.c_str());
    for (const cl2vk::KernelReflection& kernel : result.reflection.kernels) {
      const cl2vk::CollectiveStats& c = kernel.collectives;
      std::fprintf(stderr, "  kernel %s: %u collectives rewritten, %u work-group barriers added, %u bytes of scratch\n",
                   kernel.name.c_str(), c.collectives, c.barriers, c.scratchBytes);
    }
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  int exitCode = 0;
  std::optional<Options> options = parseArguments(argc, argv, exitCode);
  if (!options) return exitCode;
  return run(*options);
}
