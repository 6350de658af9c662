#include "support/settings.h"

#include <cstdlib>
#include <iterator>

namespace cl2vk::settings {
namespace {

constexpr Description kSettings[] = {
    {Setting::kDevice, "CL2VK_DEVICE", "which Vulkan device comes first: an index or a name substring"},
    {Setting::kDeviceLacks, "CL2VK_DEVICE_LACKS", "Vulkan features every device is treated as lacking"},
    {Setting::kNvidiaClocks, "CL2VK_NVIDIA_CLOCKS", "off: do not hold CUDA's context to keep an NVIDIA GPU's clock"},
    {Setting::kValidation, "CL2VK_VALIDATION", "1: run every device under the Khronos validation layer"},
    {Setting::kQueue, "CL2VK_QUEUE", "compute or graphics: which queue family takes the work"},
    {Setting::kSubgroupScans, "CL2VK_SUBGROUP_SCANS", "shuffle-up or native: how subgroup scans are translated"},
    {Setting::kPipelineStatistics, "CL2VK_PIPELINE_STATISTICS", "1: print the driver's statistics of each pipeline"},
    {Setting::kLoopUnroll, "CL2VK_LOOP_UNROLL", "1 to 16: the most loop iterations unrolled per pass"},
    {Setting::kFreeWorkGroups, "CL2VK_FREE_WORK_GROUPS",
     "0: one pipeline per local size also for the kernels that do not depend on their work-groups"},
    {Setting::kWait, "CL2VK_WAIT", "poll or sleep: how a submission is waited for"},
    {Setting::kHangTimeout, "CL2VK_HANG_TIMEOUT", "seconds after which a running submission is taken to hang"},
    {Setting::kIsolatedCompiles, "CL2VK_ISOLATED_COMPILES",
     "always, never or auto: which pipelines are first compiled in a child process"},
    {Setting::kLog, "CL2VK_LOG", "1: print the runtime's error explanations on stderr"},
    {Setting::kDump, "CL2VK_DUMP", "a directory: write each translation and the cl2vk-opt command that repeats it"},
    {Setting::kCache, "CL2VK_CACHE", "a directory, or off: where OpenCL C compilations are kept"},
    {Setting::kClang, "CL2VK_CLANG", "the OpenCL C compiler (default clang-15)"},
    {Setting::kLlvmSpirv, "CL2VK_LLVM_SPIRV", "the SPIR-V translator (default llvm-spirv-15)"},
};

// The table is indexed by the enum: one row per Setting, in its order.
constexpr bool inEnumOrder() {
  for (size_t i = 0; i < std::size(kSettings); ++i) {
    if (kSettings[i].setting != static_cast<Setting>(i)) return false;
  }
  return std::size(kSettings) == static_cast<size_t>(Setting::kLlvmSpirv) + 1;
}
static_assert(inEnumOrder(), "kSettings needs one row per Setting, in the enum's order");

}  // namespace

std::span<const Description> all() { return kSettings; }

std::string_view variableOf(Setting setting) { return kSettings[static_cast<size_t>(setting)].variable; }

std::optional<std::string> read(Setting setting) {
  const char* value = std::getenv(std::string(variableOf(setting)).c_str());
  if (value == nullptr || *value == '\0') return std::nullopt;
  return std::string(value);
}

bool isOn(Setting setting) { return read(setting) == "1"; }

}  // namespace cl2vk::settings
