#include "dispatch_experiment.h"

#include <cstdio>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "measure.h"
#include "vulkan_runner.h"
#include "workloads.h"

namespace cl2vk::bench {
namespace {

// One row group of the table: a way of running the GLSL shaders, against the benchmarks' way.
struct Variant {
  std::string name;
  std::string queue;   // CL2VK_QUEUE's choice: "graphics" (the benchmarks') or "compute"
  std::string shader;  // replaces the workload's shader; empty keeps it
  DispatchVariant dispatch;
  std::vector<std::string> workloads;    // "benchmark type"
  std::vector<uint32_t> workGroupSizes;  // empty: every size of the run
  std::string reference;                 // the variant whose rows the ratios are taken against; empty: the first row
};

const std::vector<std::string> kCopy{"copy uint"};
const std::vector<std::string> kScansAndReduces{"work_group_scan_inclusive_add float",
                                                "work_group_scan_inclusive_add int", "work_group_reduce_add float",
                                                "sub_group_scan_inclusive_add float", "sub_group_reduce_add float"};
const std::vector<std::string> kCollectives{"copy uint", "copy uint4", "work_group_reduce_add int",
                                            "work_group_scan_inclusive_add float", "sub_group_reduce_add int"};

std::vector<Variant> variants() {
  std::vector<Variant> list{
      {"graphics queue (as benchmarked)", "graphics", "", {}, kCollectives, {}, ""},
      {"compute-only queue family", "compute", "", {}, kCollectives, {}, ""},
      {"64-bit index (as translated)", "graphics", "copy_uint_index64", {}, kCopy, {}, ""},
      {"2D grid, 512 wide", "graphics", "copy_uint_grid2d", {.gridWidth = 512}, kCopy, {}, ""},
      {"4 dispatches", "graphics", "", {.dispatches = 4}, kCopy, {}, ""},
      {"required subgroup size, full subgroups",
       "graphics",
       "",
       {.requireFullSubgroups = true},
       {"copy uint", "work_group_reduce_add int"},
       {},
       ""},
  };
  // Other ways to write the collectives that trail CUB at 256 (shaders/bench/*_serial.comp ...),
  // each against the shader as benchmarked on the same queue.
  const std::string asBenchmarked = "collectives as benchmarked, compute queue";
  const std::vector<uint32_t> sizes{256, 1024};
  list.push_back({asBenchmarked, "compute", "", {}, kScansAndReduces, sizes, asBenchmarked});
  struct Rewrite {
    const char* name;
    const char* shader;
    const char* workload;
    std::vector<uint32_t> sizes = {256, 1024};
  };
  const Rewrite rewrites[] = {
      {"scan: serial combine", "wg_scan_inclusive_add_float_serial", "work_group_scan_inclusive_add float"},
      {"scan: serial combine", "wg_scan_inclusive_add_int_serial", "work_group_scan_inclusive_add int"},
      {"scan: serial combine, unrollable", "wg_scan_inclusive_add_float_unrolled",
       "work_group_scan_inclusive_add float"},
      {"scan: shuffle-up subgroup scan", "wg_scan_inclusive_add_float_shuffle", "work_group_scan_inclusive_add float"},
      {"scan: shuffle-up, serial combine", "wg_scan_inclusive_add_float_shuffle_serial",
       "work_group_scan_inclusive_add float"},
      {"subgroup scan: shuffle-up", "sg_scan_inclusive_add_float_shuffle", "sub_group_scan_inclusive_add float"},
      {"reduce: serial combine in one invocation", "wg_reduce_add_float_serial", "work_group_reduce_add float"},
      {"reduce: serial combine in every invocation", "wg_reduce_add_float_serial_all", "work_group_reduce_add float"},
      {"reduce: shuffle-xor butterflies", "wg_reduce_add_float_butterfly", "work_group_reduce_add float"},
      {"subgroup reduce: shuffle-xor butterflies", "sg_reduce_add_float_butterfly", "sub_group_reduce_add float"},
      {"reduce: partials joined by an 8-lane clustered reduce",
       "wg_reduce_add_float_clustered",
       "work_group_reduce_add float",
       {256}},
  };
  for (const Rewrite& rewrite : rewrites)
    list.push_back({rewrite.name, "compute", rewrite.shader, {}, {rewrite.workload}, rewrite.sizes, asBenchmarked});
  // Shared memory per work-group: the work-groups a multiprocessor holds, set from outside.
  for (const char* queue : {"graphics", "compute"}) {
    for (uint32_t kib : {1, 16, 24, 28, 32, 40, 48}) {
      list.push_back({"shared " + std::to_string(kib) + " KiB, " + queue + " queue",
                      queue,
                      "copy_uint_shared",
                      {.sharedBytes = kib * 1024},
                      kCopy,
                      {256},
                      ""});
    }
  }
  return list;
}

const Workload* findWorkload(const std::string& name) {
  for (const Workload& workload : workloads()) {
    if (workload.benchmark + " " + workload.type == name) return &workload;
  }
  return nullptr;
}

// The table and statistics so far, and how many variants failed.
struct Results {
  std::map<std::string, std::vector<uint32_t>> inputs;  // input 0 of each workload, for the references
  std::map<std::string, double> baseline;               // GB/s of the first row, by "workload wg"
  std::map<std::string, double> byVariant;              // GB/s by "variant: workload wg"
  std::map<std::string, std::string> statistics;        // the driver's report, by pipeline
  // "vs": against the first row of the workload and size, or the variant's reference's row.
  std::string table = "| variant | benchmark | type | wg | GB/s | vs |\n|---|---|---|--:|--:|--:|\n";
  int failures = 0;
};

// Times `variant` on `runner` (a device opened with the variant's queue choice).
void runVariant(const Variant& variant, VulkanRunner& runner, const Options& options, Results& results) {
  MeasureSettings settings{options.n, options.warmups, options.runs, options.inputs};
  runner.setVariant(variant.dispatch);
  for (const std::string& name : variant.workloads) {
    const Workload* workload = findWorkload(name);
    if (!workload || !options.selects(name)) continue;
    const std::vector<uint32_t>& sizes =
        variant.workGroupSizes.empty() ? options.workGroupSizes : variant.workGroupSizes;
    for (uint32_t workGroupSize : sizes) {
      LaunchSpec spec{variant.shader.empty() ? workload->kernel : variant.shader, workload, workGroupSize, 0};
      std::string label = variant.name + ": " + name + " wg " + std::to_string(workGroupSize);
      auto fail = [&](const std::string& why) {
        std::fprintf(stderr, "  FAILED %s: %s\n", label.c_str(), why.c_str());
        ++results.failures;
      };
      uint32_t subgroupSize = 0;
      if (workload->scope != Scope::kNone) {
        Expected<uint32_t> size = runner.subgroupSize(workGroupSize);
        if (!size) {
          fail(size.error().message());
          continue;
        }
        if (workload->scope == Scope::kSubGroup) subgroupSize = *size;
      }
      Status prepared = runner.prepare(spec);
      if (!prepared) {
        fail(prepared.error().message());
        continue;
      }
      std::string pipeline = spec.kernel + " wg " + std::to_string(workGroupSize);
      if (variant.dispatch.sharedBytes) pipeline += " shared " + std::to_string(variant.dispatch.sharedBytes);
      if (variant.dispatch.requireFullSubgroups) pipeline += " full subgroups";
      auto reported = runner.preparedStatistics();
      if (reported && !reported->empty() && !results.statistics.count(pipeline)) {
        std::string line;
        for (const std::string& statistic : *reported) line += (line.empty() ? "" : "; ") + statistic;
        results.statistics[pipeline] = line;
      }
      auto input = results.inputs.find(name);
      if (input == results.inputs.end()) {
        input = results.inputs.emplace(name, generateInput(workload->inputSet(), 0, options.n)).first;
      }
      Reference reference = computeReference(*workload, input->second, workGroupSize, subgroupSize);
      Expected<MeasureResult> result = measure(runner, spec, reference, subgroupSize, settings);
      if (!result) {
        fail(result.error().message());
        continue;
      }
      if (!result->mismatch.empty()) {
        fail(result->mismatch);
        continue;
      }
      double gbps = result->measurement.gbps;
      std::string key = name + " wg " + std::to_string(workGroupSize);
      if (!results.baseline.count(key)) results.baseline[key] = gbps;
      results.byVariant[variant.name + ": " + key] = gbps;
      auto referenceRow = results.byVariant.find(variant.reference + ": " + key);
      double base = referenceRow != results.byVariant.end() ? referenceRow->second : results.baseline[key];
      char row[256];
      std::snprintf(row, sizeof row, "| %s | %s | %s | %u | %.1f | %.3f |\n", variant.name.c_str(),
                    workload->benchmark.c_str(), workload->type.c_str(), workGroupSize, gbps, gbps / base);
      results.table += row;
      std::fprintf(stderr, "  %-70s %9.2f GB/s\n", label.c_str(), gbps);
    }
  }
}

}  // namespace

int runDispatchExperiment(const Options& options) {
  Results results;
  // One device at a time, each with its own inputs: a device per queue choice.
  for (const char* queue : {"graphics", "compute"}) {
    vulkan::DeviceOptions deviceOptions = vulkan::DeviceOptions::fromEnvironment();
    deviceOptions.queue = queue;
    auto runner = VulkanRunner::open(options.shaderDir, deviceOptions);
    if (!runner) {
      std::fprintf(stderr, "cl2vk-bench: cannot open the Vulkan device (%s queue): %s\n", queue,
                   runner.error().message().c_str());
      return 1;
    }
    Status created = (*runner)->createBuffers(InputShape{options.inputs, options.n});
    if (!created) {
      std::fprintf(stderr, "cl2vk-bench: buffers: %s\n", created.error().message().c_str());
      return 1;
    }
    std::fprintf(stderr, "cl2vk-bench: %s queue: family %u of \"%s\"\n", queue, (*runner)->device().queue().family(),
                 (*runner)->deviceName().c_str());
    for (const Variant& variant : variants()) {
      if (variant.queue == queue) runVariant(variant, **runner, options, results);
    }
  }
  std::printf("%s\nPipeline statistics (VK_KHR_pipeline_executable_properties):\n", results.table.c_str());
  for (const auto& [pipeline, line] : results.statistics) std::printf("- %s: %s\n", pipeline.c_str(), line.c_str());
  if (results.statistics.empty()) std::printf("- none reported\n");
  std::printf("\n%d failed\n", results.failures);
  return results.failures == 0 ? 0 : 1;
}

}  // namespace cl2vk::bench
