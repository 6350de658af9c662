// One measurement: verify a launch against the CPU reference, then time it on the device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "report.h"
#include "runner.h"
#include "workloads.h"

namespace cl2vk::bench {

struct MeasureSettings {
  uint64_t n = 0;      // input words
  size_t warmups = 3;  // untimed launches before the timed ones
  size_t runs = 20;    // timed launches; the median is reported
  size_t inputs = 3;   // input buffers the launches rotate over
};

struct MeasureResult {
  Measurement measurement;
  std::string mismatch;  // why verification failed; empty when it passed
};

// The median of `values` (the mean of the middle two for an even count); 0 for none.
double median(std::vector<double> values);

// Runs `spec` (already prepared on `runner`) once on input 0 and compares its output with
// `reference`; when it matches, times `settings.runs` launches after `settings.warmups`, rotating
// over the input buffers. A mismatch is a result with verified = false and no time.
Expected<MeasureResult> measure(Runner& runner, const LaunchSpec& spec, const Reference& reference,
                                uint32_t subgroupSize, const MeasureSettings& settings);

}  // namespace cl2vk::bench
