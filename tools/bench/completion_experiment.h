// cl2vk-bench --experiment completion: where the host time of a small launch goes (issue 27's
// launch latency: a 4096-float saxpy call through cl2vk took 21-24 us on the H200 against 13-14
// through NVIDIA's OpenCL). Times one empty work-item from the host's submission to the host
// seeing it done, in raw Vulkan with one thing changed at a time (recording each time or once,
// polling the fence with or without yielding, sleeping on it, polling a word the device writes to
// host memory after the dispatch), beside cl2vk's own path (vulkan::dispatch, and
// clEnqueueNDRangeKernel + clFinish through the ICD) and NVIDIA's OpenCL (--native-platform), all
// in one process. Prints a table of medians and their ratio to the native OpenCL launch.
#pragma once

#include "options.h"

namespace cl2vk::bench {

// Returns the process's exit status: 0 when every variant ran.
int runCompletionExperiment(const Options& options);

}  // namespace cl2vk::bench
