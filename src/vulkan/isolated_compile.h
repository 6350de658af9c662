// Some drivers end the process on a shader they cannot compile rather than return an error:
// SwiftShader's Subzero calls exit(1) ("LLVM ERROR: Local variable exceeds stack size limit") once
// a shader's stack frame passes its limit, which a kernel with a few thousand memory accesses
// reaches (docs/RELIABILITY.md, "Known process exit"). Where the driver is one of those and the
// shader large, the pipeline is first created in a forked child process: when the child dies, the
// launch fails with the driver's last words and the application goes on.
#pragma once

#include <volk.h>

#include <chrono>
#include <cstdint>
#include <functional>
#include <span>
#include <string>

#include "cl2vk/expected.h"
#include "vulkan/device_info.h"

namespace cl2vk::vulkan {

// Whether a pipeline of `spirv` on `info`'s device is first created in a child process:
// CL2VK_ISOLATED_COMPILES=always or never decides; otherwise (auto) SwiftShader's modules with
// more than kIsolatedMemoryAccesses loads, stores and atomics are.
bool compilesInChildFirst(const DeviceInfo& info, std::span<const uint32_t> spirv);

inline constexpr uint32_t kIsolatedMemoryAccesses = 2000;

// Runs `create` in a forked child process with its stderr captured. Fails, naming `driver`, the
// way the child ended and what it wrote last, when the child was killed by a signal or ended
// through exit() (which drivers call on a fatal error); succeeds when `create` returned, whatever
// it returned (the caller creates the pipeline itself and reports its result), and when the child
// could not be started or ran past `limit` (then nothing is known, and the caller goes on).
Status tryInChildProcess(const std::string& driver, const std::function<VkResult()>& create,
                         std::chrono::seconds limit);

}  // namespace cl2vk::vulkan
