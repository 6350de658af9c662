// The environment variables cl2vk reads (CL2VK_*), in one place: each has a name here and a row in
// docs/runtime.md ("Environment"), and nothing else in src/ calls getenv for one
// (tests/architecture_test.cmake checks it). A setting's meaning and parsing stay with the code it
// steers; this says what exists and reads it.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace cl2vk::settings {

enum class Setting {
  kDevice,              // CL2VK_DEVICE
  kDeviceLacks,         // CL2VK_DEVICE_LACKS
  kNvidiaClocks,        // CL2VK_NVIDIA_CLOCKS
  kValidation,          // CL2VK_VALIDATION
  kQueue,               // CL2VK_QUEUE
  kSubgroupScans,       // CL2VK_SUBGROUP_SCANS
  kPipelineStatistics,  // CL2VK_PIPELINE_STATISTICS
  kLoopUnroll,          // CL2VK_LOOP_UNROLL
  kFreeWorkGroups,      // CL2VK_FREE_WORK_GROUPS
  kWait,                // CL2VK_WAIT
  kHangTimeout,         // CL2VK_HANG_TIMEOUT
  kIsolatedCompiles,    // CL2VK_ISOLATED_COMPILES
  kLog,                 // CL2VK_LOG
  kDump,                // CL2VK_DUMP
  kCache,               // CL2VK_CACHE
  kClang,               // CL2VK_CLANG
  kLlvmSpirv,           // CL2VK_LLVM_SPIRV (the last: settings.cc counts to it)
};

struct Description {
  Setting setting;
  std::string_view variable;  // "CL2VK_DEVICE"
  std::string_view summary;   // one line; docs/runtime.md has the whole story
};

// Every setting, in the order of docs/runtime.md's table.
std::span<const Description> all();

std::string_view variableOf(Setting setting);

// The variable's value; nullopt where it is unset or empty.
std::optional<std::string> read(Setting setting);

// Whether the variable is "1" (the on switches: CL2VK_VALIDATION, CL2VK_LOG ...).
bool isOn(Setting setting);

}  // namespace cl2vk::settings
