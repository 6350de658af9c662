#include "options.h"

#include <algorithm>
#include <regex>
#include <sstream>
#include <type_traits>

namespace cl2vk::bench {
namespace {

// "16777216", "2^24" or "1<<24".
Expected<uint64_t> parseCount(const std::string& text) {
  try {
    size_t used = 0;
    for (const char* power : {"^", "<<"}) {
      size_t at = text.find(power);
      if (at == std::string::npos) continue;
      uint64_t base = std::stoull(text.substr(0, at));
      uint64_t exponent = std::stoull(text.substr(at + std::string(power).size()), &used);
      if (std::string(power) == "^" && base != 2) break;
      if (exponent > 40) break;
      return std::string(power) == "^" ? uint64_t{1} << exponent : base << exponent;
    }
    uint64_t value = std::stoull(text, &used);
    if (used == text.size()) return value;
  } catch (const std::exception&) {
  }
  return Error("\"" + text + "\" is not a count (write 16777216, 2^24 or 1<<24)");
}

Expected<std::vector<uint32_t>> parseSizes(const std::string& text) {
  std::vector<uint32_t> sizes;
  std::stringstream list(text);
  std::string item;
  while (std::getline(list, item, ',')) {
    auto size = parseCount(item);
    if (!size || *size == 0 || *size > 1024) return Error("bad work-group size \"" + item + "\" (1 to 1024)");
    sizes.push_back(static_cast<uint32_t>(*size));
  }
  if (sizes.empty()) return Error("--work-groups needs at least one size");
  return sizes;
}

}  // namespace

std::string usage() {
  return R"(usage: cl2vk-bench [options]

Runs OpenCL collectives and copies through the cl2vk platform, the same work as hand-written GLSL
through cl2vk's Vulkan executor, and optionally through a native OpenCL platform; verifies each
against the CPU, times it with device timestamps and prints a Markdown table per device, the launch
overhead and the translator's speed on the corpus.

  --platform NAME          the OpenCL platform to test (default "cl2vk"; exact or substring)
  --native-platform NAME   also run the kernels on this platform ("NVIDIA CUDA")
  --n COUNT                input elements (32-bit words); 2^24 and 1<<24 work (default 2^26);
                           a multiple of 16 times the largest work-group size
  --runs R                 timed runs per measurement, median reported (default 20)
  --warmups W              untimed runs before them (default 3)
  --inputs K               distinct input buffers the runs rotate over (default 3)
  --work-groups LIST       work-group sizes, comma-separated (default 64,256,1024)
  --only REGEX             only benchmarks whose "name type" contains a match of REGEX
  --quick                  a smoke run: --n 2^16 unless given, 3 runs, 1 warm-up, 50 launches,
                           one pass over the corpus
  --json FILE              write every measurement as JSON, one object per line
  --merge FILE             add measurements from FILE (JSON lines, e.g. CUB's) to the tables;
                           may be repeated
  --corpus FILE            the corpus list for the translation timing (default: the build tree's)
  --shader-dir DIR         the compiled GLSL baselines (default: the build tree's shaders/bench)
  --launch-iterations N    empty launches timed for the launch overhead (default 500)
  --no-launch-overhead     skip the launch-overhead measurement
  --no-translation         skip the translation timing
  --no-int64               run cl2vk as on a device without shaderInt64 (sets CL2VK_DEVICE_LACKS=int64
                           before the platform loads): 64-bit integers emulated with 32-bit pairs;
                           compare with a run without it (transpose uint and hash ulong measure it)
  --experiment dispatch    instead of the benchmarks, time the GLSL copy and some collectives
                           under variants of how Vulkan runs them (queue family, index width,
                           grid shape, dispatch count, subgroup flags, shared memory per group)
  --experiment completion  instead of the benchmarks, time an empty launch from submission to the
                           host seeing it done: raw Vulkan with one thing changed at a time (record
                           once or each time; poll the fence, sleep on it, poll a host word the
                           device writes), cl2vk's path and the native OpenCL's; --launch-iterations
                           times each
  --experiment transfer    instead of the benchmarks, time copies of --transfer-mib MiB between
                           device and host memory: the native OpenCL's and cl2vk's map and unmap,
                           and raw vkCmdCopyBuffer on every queue family, to cached and uncached
                           host memory; --runs and --warmups apply
  --transfer-mib N         the transfer experiment's buffer size in MiB (default 2048)
  --help
)";
}

Expected<Options> parseOptions(int argc, char** argv, Options options) {
  bool quick = false;
  std::vector<std::string> given;  // the flags on the command line, which --quick leaves alone
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    given.push_back(arg);
    auto value = [&]() -> Expected<std::string> {
      if (i + 1 >= argc) return Error(arg + " needs a value");
      return std::string(argv[++i]);
    };
    auto count = [&](auto& field) -> Status {
      auto text = value();
      if (!text) return text.error();
      auto parsed = parseCount(*text);
      if (!parsed) return parsed.error().withContext(arg);
      field = static_cast<std::remove_reference_t<decltype(field)>>(*parsed);
      return okStatus();
    };
    auto text = [&](std::string& field) -> Status {
      auto given = value();
      if (!given) return given.error();
      field = *given;
      return okStatus();
    };
    if (arg == "--platform")
      CL2VK_TRY(text(options.platform));
    else if (arg == "--native-platform")
      CL2VK_TRY(text(options.nativePlatform));
    else if (arg == "--n")
      CL2VK_TRY(count(options.n));
    else if (arg == "--runs")
      CL2VK_TRY(count(options.runs));
    else if (arg == "--warmups")
      CL2VK_TRY(count(options.warmups));
    else if (arg == "--inputs")
      CL2VK_TRY(count(options.inputs));
    else if (arg == "--work-groups") {
      auto list = value();
      if (!list) return list.error();
      auto sizes = parseSizes(*list);
      if (!sizes) return sizes.error();
      options.workGroupSizes = *sizes;
    } else if (arg == "--only") {
      CL2VK_TRY(text(options.only));
      try {
        std::regex check(options.only);
      } catch (const std::regex_error& error) {
        return Error("--only \"" + options.only + "\" is not a regular expression: " + error.what());
      }
    } else if (arg == "--quick")
      quick = true;
    else if (arg == "--json")
      CL2VK_TRY(text(options.jsonPath));
    else if (arg == "--merge") {
      std::string path;
      CL2VK_TRY(text(path));
      options.mergePaths.push_back(path);
    } else if (arg == "--corpus")
      CL2VK_TRY(text(options.corpusList));
    else if (arg == "--shader-dir")
      CL2VK_TRY(text(options.shaderDir));
    else if (arg == "--launch-iterations")
      CL2VK_TRY(count(options.launchIterations));
    else if (arg == "--transfer-mib")
      CL2VK_TRY(count(options.transferMiB));
    else if (arg == "--no-launch-overhead")
      options.skipLaunchOverhead = true;
    else if (arg == "--no-translation")
      options.skipTranslation = true;
    else if (arg == "--no-int64")
      options.noInt64 = true;
    else if (arg == "--experiment") {
      CL2VK_TRY(text(options.experiment));
      if (options.experiment != "dispatch" && options.experiment != "completion" && options.experiment != "transfer")
        return Error("unknown experiment \"" + options.experiment + "\" (dispatch, completion, transfer)");
    } else if (arg == "--help" || arg == "-h")
      options.help = true;
    else
      return Error("unknown argument \"" + arg + "\" (--help lists them)");
  }
  if (quick) {
    auto byDefault = [&](const char* flag) { return std::find(given.begin(), given.end(), flag) == given.end(); };
    if (byDefault("--n")) options.n = uint64_t{1} << 16;
    if (byDefault("--runs")) options.runs = 3;
    if (byDefault("--warmups")) options.warmups = 1;
    if (byDefault("--launch-iterations")) options.launchIterations = 50;
    options.corpusRepetitions = 1;
  }
  if (options.runs == 0 || options.inputs == 0) return Error("--runs and --inputs must be at least 1");
  if (options.transferMiB == 0) return Error("--transfer-mib must be at least 1");
  for (uint32_t size : options.workGroupSizes) {
    if (options.n == 0 || options.n % (64ull * size) != 0) {
      return Error("--n " + std::to_string(options.n) + " must be a non-zero multiple of 64 * " + std::to_string(size) +
                   " (read16, reduce16 and the uint4 copy need whole work-groups)");
    }
  }
  return options;
}

}  // namespace cl2vk::bench
