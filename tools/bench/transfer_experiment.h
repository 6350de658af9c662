// cl2vk-bench --experiment transfer: how fast Vulkan moves a large buffer between device memory and
// pinned host memory, the ceiling of a map's or unmap's copy (issue 27: cl2vk's maps ran at 0.91-0.95
// of NVIDIA's OpenCL). Times, in one process, the native OpenCL's and cl2vk's map for reading and
// unmap after writing of a CL_MEM_ALLOC_HOST_PTR buffer of --transfer-mib MiB, and raw
// vkCmdCopyBuffer copies of the same size between device-local memory and host memory (cached and
// uncached) on one queue of every queue family that can copy, each submission polled to its end.
// Prints a table of medians and their bandwidth.
#pragma once

#include "options.h"

namespace cl2vk::bench {

// Returns the process's exit status: 0 when every variant ran.
int runTransferExperiment(const Options& options);

}  // namespace cl2vk::bench
