// cl2vk-bench --experiment dispatch: why a 4-byte copy through Vulkan trails CUDA at work-group
// 256 on NVIDIA (docs/PERFORMANCE.md). Times the hand-written GLSL copy, and some collectives, with
// one thing changed at a time in how Vulkan is asked to run them: the queue family, the index
// arithmetic, the grid's shape, the number of dispatches, the subgroup-size flags and the shared
// memory a work-group holds (which caps the work-groups resident on a multiprocessor). Prints a
// table and, where the driver reports them, each pipeline's statistics (registers, shared memory).
// On NVIDIA, run it while another process holds a CUDA context: a process whose only GPU work is
// Vulkan leaves the SM clock idle (345 MHz on the H200), which the benchmarks avoid by opening
// NVIDIA's OpenCL platform (docs/PERFORMANCE.md).
#pragma once

#include "options.h"

namespace cl2vk::bench {

// Returns the process's exit status: 0 when every variant ran and verified.
int runDispatchExperiment(const Options& options);

}  // namespace cl2vk::bench
