// cl2vk-opt: translates OpenCL-flavoured SPIR-V into Vulkan compute SPIR-V, in the manner of
// spirv-opt. With no pass flag it runs the whole pipeline; each pass flag runs just that pass.
//
// Exit codes: 0 success; 1 the input could not be read, translated or validated; 2 bad usage.

#include <spirv-tools/libspirv.h>

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
      "  --target-env=<env>    vulkan1.1, vulkan1.2 (default) or vulkan1.3.\n"
      "  --validate            Validate the result with SPIRV-Tools and fail with its message. A module\n"
      "                        that still has the Kernel capability is checked as OpenCL SPIR-V\n"
      "                        (opencl2.0/2.1/2.2 for SPIR-V 1.0/1.1/1.2, the universal rules of\n"
      "                        its version above that); a translated one against --target-env.\n"
      "  --no-subgroup-arithmetic  Translate for a device without subgroup arithmetic: collectives\n"
      "                        run in Workgroup memory and barriers alone.\n"
      "  --no-int8, --no-int16  Translate for a device without shaderInt8 / shaderInt16: 8- and\n"
      "                        16-bit integers are computed as 32-bit ones (lower-narrow-integers).\n"
      "  --no-storage8, --no-storage16  Translate for a device without 8/16-bit buffer storage:\n"
      "                        char and short in buffers are read and written through 32-bit words.\n"
      "  --no-int64            Translate for a device without shaderInt64: long, size_t and\n"
      "                        pointer arithmetic on pairs of 32-bit words (lower-int64).\n"
      "  --no-float16, --no-float64  Translate for a device without shaderFloat16 / shaderFloat64:\n"
      "                        half is moved and converted as its bits; half or double arithmetic\n"
      "                        is refused naming kernel and instruction.\n"
      "  --subgroup-scans=native|shuffle-up  Subgroup scans as OpGroupNonUniform* scans (default)\n"
      "                        or as shuffle-up steps (faster on NVIDIA; needs shuffle-relative\n"
      "                        subgroup operations).\n"
      "  --flush-float-denormals  Test-only: compute as a device that flushes float denormals does\n"
      "                        (zero for a denormal operand or result of float arithmetic, compares\n"
      "                        and conversions) on one that keeps them (emulate-denormal-flush).\n"
      "  --loop-iteration-limit=<n>  Translate for a driver that ends loops after <n> loop-header\n"
      "                        executions per invocation (lavapipe: 65536): exceeding it is reported.\n"
      "  --loop-unroll=<n>     Run up to <n> iterations per pass of a loop whose coming iterations\n"
      "                        can be counted ahead (unroll-loops; default 8, half for a body of\n"
      "                        over 16 instructions; 1 unrolls nothing; at most 16).\n"
      "  --loop-exit-phis      Translate for a SIMD driver that keeps a value of a loop read after\n"
      "                        it only in a phi of the loop's merge (SwiftShader, llvmpipe; the\n"
      "                        runtime detects them): such values go through merge phis that\n"
      "                        SwiftShader's optimizer keeps.\n"
      "  --no-pointer-phis     Translate for a driver that cannot run a phi of buffer pointers\n"
      "                        (SwiftShader): such phis merge the addresses as uvec2 instead.\n"
      "  --no-double-rounding  Translate for a driver that rounds doubles wrong (llvmpipe on a\n"
      "                        CPU without AVX-512): RoundEven and Trunc of doubles from Floor.\n"
      "  --no-fused-fma        Translate for a driver whose Fma rounds the product and the sum\n"
      "                        separately (llvmpipe, SwiftShader): OpenCL's fma is computed\n"
      "                        exactly on the integer significands.\n"
      "  --no-computed-broadcast-first  Translate for a driver that cannot compile a\n"
      "                        broadcast-first of a computed float (llvmpipe on a CPU without\n"
      "                        AVX-512): a broadcast from the lane a broadcast-first of the lane\n"
      "                        ids names instead.\n"
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
      "Passes (each flag runs that pass alone; several run in the order given; none runs the\n"
      "whole pipeline in the order listed):\n");
  for (const cl2vk::PassDescription& pass : cl2vk::passes())
    std::printf("  --%-36s %s\n", pass.name.c_str(), pass.summary.c_str());
}

// A decimal number that fits uint32_t with room to spare (at most nine digits).
bool isSmallNumber(const std::string& value) {
  return !value.empty() && value.find_first_not_of("0123456789") == std::string::npos && value.size() <= 9;
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
    } else if (arg.starts_with("--target-env=")) {
      auto env = cl2vk::parseVulkanEnvironment(arg.substr(13));
      if (!env) return usageError(env.error().message());
      options.target.vulkanEnv = *env;
    } else if (arg == "--validate") {
      options.validate = true;
    } else if (arg == "--no-subgroup-arithmetic") {
      options.target.subgroupArithmetic = false;
    } else if (arg == "--no-int8") {
      options.target.int8 = false;
    } else if (arg == "--no-int16") {
      options.target.int16 = false;
    } else if (arg == "--no-storage8") {
      options.target.storage8 = false;
    } else if (arg == "--no-storage16") {
      options.target.storage16 = false;
    } else if (arg == "--no-int64") {
      options.target.int64 = false;
    } else if (arg == "--no-float16") {
      options.target.float16 = false;
    } else if (arg == "--no-float64") {
      options.target.float64 = false;
    } else if (arg.starts_with("--subgroup-scans=")) {
      std::string_view scans = arg.substr(17);
      if (scans != "native" && scans != "shuffle-up")
        return usageError("--subgroup-scans must be native or shuffle-up, not '" + std::string(scans) + "'");
      options.target.shuffleScans = scans == "shuffle-up";
    } else if (arg == "--flush-float-denormals") {
      options.target.emulateFloat32DenormalFlush = true;
    } else if (arg.starts_with("--loop-iteration-limit=")) {
      std::string value(arg.substr(23));
      if (!isSmallNumber(value)) return usageError("--loop-iteration-limit needs a number, not '" + value + "'");
      options.target.loopIterationLimit = static_cast<uint32_t>(std::stoul(value));
    } else if (arg.starts_with("--loop-unroll=")) {
      std::string value(arg.substr(14));
      if (!isSmallNumber(value) || std::stoul(value) == 0 || std::stoul(value) > 16)
        return usageError("--loop-unroll needs a count from 1 to 16, not '" + value + "'");
      options.target.loopUnroll = static_cast<uint32_t>(std::stoul(value));
    } else if (arg == "--loop-exit-phis") {
      options.target.loopExitPhis = true;
    } else if (arg == "--no-pointer-phis") {
      options.target.pointerPhis = false;
    } else if (arg == "--no-double-rounding") {
      options.target.float64Rounding = false;
    } else if (arg == "--no-fused-fma") {
      options.target.fusedFma = false;
    } else if (arg == "--no-computed-broadcast-first") {
      options.target.broadcastFirstOfComputedFloats = false;
    } else if (arg == "--stats") {
      options.stats = true;
    } else if (arg.starts_with("--reflect=")) {
      options.reflectPath = arg.substr(10);
      if (options.reflectPath.empty()) return usageError("--reflect needs a file name");
    } else if (arg == "--round-trip") {
      options.roundTrip = true;
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
