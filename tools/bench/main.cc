// cl2vk-bench: OpenCL collectives and copies through cl2vk against hand-written GLSL, a native
// OpenCL and (merged from its own program) CUB; cl2vk's launch overhead against a raw Vulkan
// submission; the translator's speed on the corpus. `cl2vk-bench --help` says how to run it.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include "completion_experiment.h"
#include "dispatch_experiment.h"
#include "launch/kernel_launch.h"
#include "measure.h"
#include "opencl_runner.h"
#include "options.h"
#include "report.h"
#include "transfer_experiment.h"
#include "translation_speed.h"
#include "vulkan_runner.h"
#include "workloads.h"

namespace cl2vk::bench {
namespace {

// What a run found besides the measurements: every skip and failure, printed at the end too.
struct Findings {
  std::vector<std::string> skipped;
  std::vector<std::string> failed;
};

struct Implementation {
  Runner* runner;
  std::string name;    // in the results
  std::string kernel;  // "" for the workload's own kernel
  size_t localBytesPerItem = 0;
  bool required;  // a skip is a failure (cl2vk and GLSL must run everything)
};

class Benchmark {
 public:
  Benchmark(const Options& options, Findings& findings) : options_(options), findings_(findings) {
    settings_ = MeasureSettings{options.n, options.warmups, options.runs, options.inputs};
  }

  // Verifies and times `workload` at `workGroupSize` on each implementation.
  void run(const Workload& workload, uint32_t workGroupSize, const std::vector<Implementation>& implementations,
           std::vector<Measurement>& results) {
    std::map<uint32_t, Reference> references;  // by sub-group size (0 for work-group scope)
    for (const Implementation& implementation : implementations) {
      LaunchSpec spec{implementation.kernel.empty() ? workload.kernel : implementation.kernel, &workload, workGroupSize,
                      implementation.localBytesPerItem * workGroupSize};
      std::string label =
          implementation.name + " " + workload.benchmark + " " + workload.type + " wg " + std::to_string(workGroupSize);
      auto skip = [&](const Error& error) {
        std::string line = label + ": " + error.message();
        (implementation.required ? findings_.failed : findings_.skipped).push_back(line);
        std::fprintf(stderr, "  %s: %s\n", implementation.required ? "FAILED" : "skipped", line.c_str());
      };
      uint32_t subgroupSize = 0;
      if (workload.scope == Scope::kSubGroup) {
        Expected<uint32_t> size = implementation.runner->subgroupSize(workGroupSize);
        if (!size) {
          skip(size.error().withContext("no sub-group size"));
          continue;
        }
        subgroupSize = *size;
      }
      Status prepared = implementation.runner->prepare(spec);
      if (!prepared) {
        skip(prepared.error());
        continue;
      }
      auto reference = references.find(subgroupSize);
      if (reference == references.end()) {
        reference = references
                        .emplace(subgroupSize,
                                 computeReference(workload, input(workload.inputSet()), workGroupSize, subgroupSize))
                        .first;
      }
      Expected<MeasureResult> result =
          measure(*implementation.runner, spec, reference->second, subgroupSize, settings_);
      if (!result) {
        skip(result.error());
        continue;
      }
      result->measurement.implementation = implementation.name;
      if (!result->mismatch.empty()) {
        findings_.failed.push_back(label + ": verification failed: " + result->mismatch);
        std::fprintf(stderr, "  WRONG %s: %s\n", label.c_str(), result->mismatch.c_str());
      } else {
        std::fprintf(stderr, "  %-60s %9.2f GB/s  (%.1f us)\n", label.c_str(), result->measurement.gbps,
                     result->measurement.medianNs / 1000);
      }
      results.push_back(result->measurement);
    }
  }

 private:
  // Input 0 of `set` on the host, for the references.
  const std::vector<uint32_t>& input(InputSet set) {
    auto found = inputs_.find(set);
    if (found == inputs_.end()) found = inputs_.emplace(set, generateInput(set, 0, options_.n)).first;
    return found->second;
  }

  const Options& options_;
  Findings& findings_;
  MeasureSettings settings_;
  std::map<InputSet, std::vector<uint32_t>> inputs_;
};

std::string formatMicroseconds(double ns) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f us", ns / 1000);
  return text;
}

// Host time of an empty kernel through cl2vk against a raw Vulkan submit-and-wait.
std::string measureLaunchOverhead(OpenClRunner& cl2vk, VulkanRunner& glsl, const Options& options,
                                  std::vector<Measurement>& results, Findings& findings) {
  size_t warmups = std::max<size_t>(options.launchIterations / 10, 5);
  auto opencl = cl2vk.emptyLaunchHostTimes(warmups, options.launchIterations);
  auto vulkan = glsl.emptyDispatchHostTimes(warmups, options.launchIterations);
  if (!opencl || !vulkan) {
    findings.failed.push_back("launch overhead: " + (!opencl ? opencl.error() : vulkan.error()).message());
    return "Launch overhead: failed (" + findings.failed.back() + ")\n";
  }
  double openclNs = median(*opencl);
  double vulkanNs = median(*vulkan);
  for (auto [implementation, ns, device] :
       {std::tuple{"cl2vk", openclNs, cl2vk.deviceName()}, std::tuple{"vulkan", vulkanNs, glsl.deviceName()}}) {
    Measurement m;
    m.device = device;
    m.implementation = implementation;
    m.benchmark = kLaunchOverheadBenchmark;
    m.type = "empty";
    m.workGroup = 1;
    m.n = 1;
    m.medianNs = ns;
    m.verified = true;
    results.push_back(m);
  }
  char ratio[32];
  std::snprintf(ratio, sizeof ratio, "%.2fx", openclNs / vulkanNs);
  return "Launch overhead (host time, enqueue to completion of an empty kernel, 1 work-item, median of " +
         std::to_string(options.launchIterations) + "): cl2vk clEnqueueNDRangeKernel + clFinish " +
         formatMicroseconds(openclNs) + ", raw Vulkan submit-and-wait (vulkan::dispatch) " +
         formatMicroseconds(vulkanNs) + ", ratio " + ratio + "\n";
}

std::string measureTranslation(VulkanRunner& glsl, const Options& options, std::vector<Measurement>& results,
                               Findings& findings) {
  auto timing = timeCorpus(options.corpusList, launch::targetFor(glsl.device().info()), options.corpusRepetitions);
  if (!timing) {
    findings.failed.push_back("translation speed: " + timing.error().message());
    return "Translation speed: failed (" + timing.error().message() + ")\n";
  }
  for (const std::string& line : timing->unexpected) findings.failed.push_back("translation: " + line);
  for (auto [implementation, ns] :
       {std::pair{"cl2vk-translate", timing->translateNs}, std::pair{"spirv-val", timing->validateNs}}) {
    Measurement m;
    m.device = "host";
    m.implementation = implementation;
    m.benchmark = kCorpusBenchmark;
    m.type = "modules";
    m.n = timing->modules;
    m.medianNs = ns;
    m.verified = timing->unexpected.empty();
    results.push_back(m);
  }
  char line[512];
  std::snprintf(line, sizeof line,
                "Translation speed (%zu corpus modules, in process, median of %zu passes): cl2vk::translate %.1f ms "
                "(%.2f ms/module; %zu translated, %zu refused as expected (unsupported/), %zu unexpected), "
                "SPIRV-Tools validation alone %.1f ms (%zu invalid); translate/validate %.1fx\n",
                timing->modules, options.corpusRepetitions, timing->translateNs / 1e6,
                timing->translateNs / 1e6 / static_cast<double>(std::max<size_t>(timing->modules, 1)),
                timing->translated, timing->refusedAsExpected, timing->unexpected.size(), timing->validateNs / 1e6,
                timing->invalid, timing->translateNs / timing->validateNs);
  return line;
}

int runBenchmarks(const Options& options) {
  Findings findings;
  auto glsl = VulkanRunner::open(options.shaderDir);
  if (!glsl) {
    std::fprintf(stderr, "cl2vk-bench: cannot open the Vulkan device: %s\n", glsl.error().message().c_str());
    return 1;
  }
  auto cl2vk = OpenClRunner::open(options.platform, "cl2vk");
  if (!cl2vk) {
    std::fprintf(stderr, "cl2vk-bench: %s\n", cl2vk.error().message().c_str());
    return 1;
  }
  std::unique_ptr<OpenClRunner> native;
  if (!options.nativePlatform.empty()) {
    auto opened = OpenClRunner::open(options.nativePlatform, "native-opencl");
    if (opened) {
      native = std::move(*opened);
    } else {
      findings.skipped.push_back("native OpenCL: " + opened.error().message());
      std::fprintf(stderr, "cl2vk-bench: skipping the native platform: %s\n", opened.error().message().c_str());
    }
  }
  std::fprintf(
      stderr,
      "cl2vk-bench: %s on \"%s\" (%s), GLSL on \"%s\"%s; n = %llu, %zu runs after %zu warm-ups over %zu inputs\n",
      options.platform.c_str(), (*cl2vk)->deviceName().c_str(), (*cl2vk)->platformName().c_str(),
      (*glsl)->deviceName().c_str(),
      native ? (", native OpenCL on \"" + native->deviceName() + "\" (" + native->platformName() + ")").c_str() : "",
      static_cast<unsigned long long>(options.n), options.runs, options.warmups, options.inputs);

  std::vector<Runner*> runners{cl2vk->get(), glsl->get()};
  if (native) runners.push_back(native.get());
  for (Runner* runner : runners) {
    Status created = runner->createBuffers(InputShape{options.inputs, options.n});
    if (!created) {
      std::fprintf(stderr, "cl2vk-bench: %s buffers: %s\n", runner->name().c_str(), created.error().message().c_str());
      return 1;
    }
  }

  std::vector<Measurement> results;
  Benchmark benchmark(options, findings);
  for (const Workload& workload : workloads()) {
    if (!options.selects(workload.benchmark + " " + workload.type)) continue;
    std::vector<Implementation> implementations{{cl2vk->get(), "cl2vk", "", 0, true}};
    // GLSL.std.450 has its transcendental instructions for 16- and 32-bit floats only.
    if (workload.element != ElementType::kDouble && workload.hasGlsl)
      implementations.push_back({glsl->get(), "glsl", "", 0, true});
    if (native) implementations.push_back({native.get(), "native-opencl", "", 0, false});
    if (!workload.nativeKernel.empty())
      implementations.push_back({cl2vk->get(), "cl2vk-native", workload.nativeKernel, 0, true});
    if (workload.hasLocalTree) {
      implementations.push_back({cl2vk->get(), "local-tree", kLocalTreeKernel, sizeof(float), true});
      implementations.push_back({cl2vk->get(), "local-tree-words", kLocalTreeWordsKernel, sizeof(float), true});
      if (native)
        implementations.push_back({native.get(), "native-local-tree", kLocalTreeKernel, sizeof(float), false});
    }
    for (uint32_t workGroupSize : options.workGroupSizes)
      benchmark.run(workload, workGroupSize, implementations, results);
  }

  std::string summary;
  if (!options.skipLaunchOverhead) summary += measureLaunchOverhead(**cl2vk, **glsl, options, results, findings);
  if (!options.skipTranslation) summary += measureTranslation(**glsl, options, results, findings);

  std::vector<Measurement> tables = results;
  for (const std::string& path : options.mergePaths) {
    auto merged = readJsonLines(path);
    if (!merged) {
      std::fprintf(stderr, "cl2vk-bench: --merge: %s\n", merged.error().message().c_str());
      return 1;
    }
    tables.insert(tables.end(), merged->begin(), merged->end());
  }
  std::printf("%s%s", markdownTables(tables).c_str(), summary.c_str());
  if (!options.jsonPath.empty()) {
    Status written = writeJson(options.jsonPath, tables);
    if (!written) {
      std::fprintf(stderr, "cl2vk-bench: %s\n", written.error().message().c_str());
      return 1;
    }
  }

  size_t verified = 0;
  for (const Measurement& m : results) verified += m.verified ? 1 : 0;
  std::printf("\n%zu measurements, %zu verified; %zu skipped, %zu failed\n", results.size(), verified,
              findings.skipped.size(), findings.failed.size());
  for (const std::string& line : findings.skipped) std::printf("skipped: %s\n", line.c_str());
  for (const std::string& line : findings.failed) std::printf("FAILED: %s\n", line.c_str());
  return findings.failed.empty() ? 0 : 1;
}

}  // namespace
}  // namespace cl2vk::bench

int main(int argc, char** argv) {
  cl2vk::bench::Options defaults;
  defaults.shaderDir = CL2VK_BENCH_SHADER_DIR;
  defaults.corpusList = CL2VK_BENCH_CORPUS_LIST;
  auto options = cl2vk::bench::parseOptions(argc, argv, defaults);
  if (!options) {
    std::fprintf(stderr, "cl2vk-bench: %s\n", options.error().message().c_str());
    return 2;
  }
  if (options->help) {
    std::printf("%s", cl2vk::bench::usage().c_str());
    return 0;
  }
  if (options->noInt64) {
    // Read when the platform and the Vulkan devices open, so it is set before either.
    const char* lacks = std::getenv("CL2VK_DEVICE_LACKS");
    std::string features = lacks && *lacks ? std::string(lacks) + ",int64" : "int64";
    setenv("CL2VK_DEVICE_LACKS", features.c_str(), 1);
  }
  if (options->experiment == "dispatch") return cl2vk::bench::runDispatchExperiment(*options);
  if (options->experiment == "completion") return cl2vk::bench::runCompletionExperiment(*options);
  if (options->experiment == "transfer") return cl2vk::bench::runTransferExperiment(*options);
  return cl2vk::bench::runBenchmarks(*options);
}
