// cl2vk-bench's command line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk::bench {

struct Options {
  std::string platform = "cl2vk";
  std::string nativePlatform;  // empty: no native OpenCL comparison
  uint64_t n = uint64_t{1} << 26;
  size_t runs = 20;
  size_t warmups = 3;
  size_t inputs = 3;
  std::vector<uint32_t> workGroupSizes{64, 256, 1024};
  std::string only;  // run only benchmarks whose "benchmark type" contains a match of this regex
  // Whether --only selects the benchmark "name type" (every one without --only).
  bool selects(const std::string& name) const { return std::regex_search(name, std::regex(only)); }
  std::string jsonPath;
  std::vector<std::string> mergePaths;
  std::string corpusList;
  std::string shaderDir;
  size_t launchIterations = 500;
  size_t corpusRepetitions = 3;
  bool skipLaunchOverhead = false;
  bool skipTranslation = false;
  // Run cl2vk as on a device without shaderInt64 (CL2VK_DEVICE_LACKS=int64): long, size_t and
  // addresses as pairs of 32-bit words, to compare with a run without the flag.
  bool noInt64 = false;
  // The size of the transfer experiment's buffers.
  size_t transferMiB = 2048;
  // "dispatch", "completion" or "transfer": run that experiment (dispatch_experiment.h,
  // completion_experiment.h, transfer_experiment.h) instead of the benchmarks.
  std::string experiment;
  bool help = false;
};

// Parses argv; an error names the bad argument. `defaults` supplies the build tree's paths.
Expected<Options> parseOptions(int argc, char** argv, Options defaults);

std::string usage();

}  // namespace cl2vk::bench
