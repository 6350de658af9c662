// One measurement: verify a launch against the CPU reference, then time it on the device.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
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

// Runs `once` (one timed step, returning its time) `warmups` + `count` times; the last `count`
// times, or the first error.
Expected<std::vector<double>> repeat(size_t warmups, size_t count, const std::function<Expected<double>()>& once);

// An experiment's variants (--experiment completion, transfer): each one's times in nanoseconds,
// sorted, or its failure, which add() reports on stderr as it comes, as it does each median.
class VariantTimes {
 public:
  struct Row {
    std::string name;
    std::vector<double> times;  // sorted
    double median = 0;
    double percentile(double fraction) const;  // 0.1 for the 10th
  };

  // The progress line shows each median divided by `unit` and followed by `unitName`.
  VariantTimes(double unit, std::string unitName) : unit_(unit), unitName_(std::move(unitName)) {}

  void add(const std::string& name, Expected<std::vector<double>> times);
  void fail(const std::string& name, const std::string& why);
  const std::vector<Row>& rows() const { return rows_; }
  int failures() const { return failures_; }

 private:
  double unit_;
  std::string unitName_;
  std::vector<Row> rows_;
  int failures_ = 0;
};

// Runs `spec` (already prepared on `runner`) once on input 0 and compares its output with
// `reference`; when it matches, times `settings.runs` launches after `settings.warmups`, rotating
// over the input buffers. A mismatch is a result with verified = false and no time.
Expected<MeasureResult> measure(Runner& runner, const LaunchSpec& spec, const Reference& reference,
                                uint32_t subgroupSize, const MeasureSettings& settings);

}  // namespace cl2vk::bench
