#include "measure.h"

#include <algorithm>
#include <cstdio>

namespace cl2vk::bench {

double median(std::vector<double> values) {
  if (values.empty()) return 0;
  size_t middle = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + middle, values.end());
  double upper = values[middle];
  if (values.size() % 2 == 1) return upper;
  return (upper + *std::max_element(values.begin(), values.begin() + middle)) / 2;
}

Expected<std::vector<double>> repeat(size_t warmups, size_t count, const std::function<Expected<double>()>& once) {
  std::vector<double> times;
  for (size_t i = 0; i < warmups + count; ++i) {
    Expected<double> time = once();
    if (!time) return time.error();
    if (i >= warmups) times.push_back(*time);
  }
  return times;
}

double VariantTimes::Row::percentile(double fraction) const {
  if (times.empty()) return 0;
  return times[static_cast<size_t>(fraction * static_cast<double>(times.size() - 1))];
}

void VariantTimes::add(const std::string& name, Expected<std::vector<double>> times) {
  if (!times) return fail(name, times.error().message());
  std::sort(times->begin(), times->end());
  double middle = median(*times);
  rows_.push_back({name, std::move(*times), middle});
  std::fprintf(stderr, "  %-80s %9.3f %s\n", name.c_str(), middle / unit_, unitName_.c_str());
}

void VariantTimes::fail(const std::string& name, const std::string& why) {
  std::fprintf(stderr, "  FAILED %s: %s\n", name.c_str(), why.c_str());
  ++failures_;
}

Expected<MeasureResult> measure(Runner& runner, const LaunchSpec& spec, const Reference& reference,
                                uint32_t subgroupSize, const MeasureSettings& settings) {
  const Workload& workload = *spec.workload;
  uint64_t workItems = workload.workItems(settings.n);
  MeasureResult result;
  Measurement& m = result.measurement;
  m.device = runner.deviceName();
  m.benchmark = workload.benchmark;
  m.type = workload.type;
  m.workGroup = spec.workGroupSize;
  m.n = settings.n;
  m.bytes = workload.bytesMoved(settings.n, spec.workGroupSize, subgroupSize);

  Expected<double> first = runner.run(0, workItems);
  if (!first) return first.error();
  auto output = runner.readOutput(workload.outputWords(settings.n, spec.workGroupSize, subgroupSize));
  if (!output) return output.error();
  result.mismatch = compareOutput(workload, reference, *output);
  if (!result.mismatch.empty()) return result;
  m.verified = true;

  for (size_t i = 0; i < settings.warmups; ++i) {
    Expected<double> time = runner.run(i, workItems);
    if (!time) return time.error();
  }
  std::vector<double> times;
  for (size_t i = 0; i < settings.runs; ++i) {
    Expected<double> time = runner.run(i % settings.inputs, workItems);
    if (!time) return time.error();
    times.push_back(*time);
  }
  m.medianNs = median(std::move(times));
  m.gbps = m.medianNs > 0 ? static_cast<double>(m.bytes) / m.medianNs : 0;
  return result;
}

}  // namespace cl2vk::bench
