// The results: one Measurement per (device, implementation, benchmark, type, work-group size), as
// JSON (the schema the CUB program prints too, so its lines merge in) and as Markdown tables.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "cl2vk/expected.h"

namespace cl2vk::bench {

struct Measurement {
  std::string device;
  std::string implementation;  // "cl2vk", "glsl", "native-opencl", "local-tree", "cub", ...
  std::string benchmark;
  std::string type;
  uint32_t workGroup = 0;
  uint64_t n = 0;      // input elements (32-bit words)
  uint64_t bytes = 0;  // bytes read plus bytes written
  double medianNs = 0;
  double gbps = 0;  // bytes / median time
  bool verified = false;
};

// Launch overhead and translation speed are Measurements too, under these benchmark names, with no
// bytes; the tables leave them out.
inline constexpr const char* kLaunchOverheadBenchmark = "launch_overhead";
inline constexpr const char* kCorpusBenchmark = "corpus";

// One line: {"device":...,"verified":true}.
std::string toJson(const Measurement& measurement);

// `measurements` as a JSON array, one object per line.
Status writeJson(const std::string& path, const std::vector<Measurement>& measurements);

// The measurements in `path`: JSON lines in the schema above (a JSON array with one object per
// line, as writeJson writes, also reads).
Expected<std::vector<Measurement>> readJsonLines(const std::string& path);

// A Markdown table per device: a row per benchmark, type and work-group size; GB/s of cl2vk, its
// fraction of the device's copy bandwidth (the best 16-byte GLSL copy), and cl2vk's ratio to each
// other implementation present (GLSL, native OpenCL, the __local tree, CUB).
std::string markdownTables(const std::vector<Measurement>& measurements);

}  // namespace cl2vk::bench
