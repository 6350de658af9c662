// What the measurement loop asks of an implementation: the OpenCL runners (cl2vk, a native
// platform) and the Vulkan runner of hand-written GLSL all hold the same input buffers and one
// output buffer, and launch one prepared kernel at a time.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cl2vk/expected.h"
#include "workloads.h"

namespace cl2vk::bench {

// The inputs every runner uploads: `count` buffers of each set, `words` 32-bit words each. The
// integer set holds ints in [-1000, 1000] (about one in 2000 is zero, so work_group_all and the
// logical xor see both answers), the float set floats in [-1, 1), the double set doubles in [-1, 1).
struct InputShape {
  size_t count = 3;
  uint64_t words = 0;
};

// `index`-th buffer of `set`: the same words for the same arguments on every call.
std::vector<uint32_t> generateInput(InputSet set, size_t index, uint64_t words);

struct LaunchSpec {
  std::string kernel;  // An OpenCL kernel of kernels.cl, or a shader of shaders/bench/.
  const Workload* workload = nullptr;
  uint32_t workGroupSize = 0;
  size_t localBytes = 0;  // A __local argument of this many bytes (the local-tree kernel).
};

class Runner {
 public:
  virtual ~Runner() = default;

  // The implementation's name in the results: "cl2vk", "glsl", "native-opencl".
  virtual std::string name() const = 0;
  virtual std::string deviceName() const = 0;

  // Creates the inputs of `shape` (generateInput) and an output buffer of `shape.words` words.
  virtual Status createBuffers(const InputShape& shape) = 0;

  // The sub-group size kernels run with at `workGroupSize`; an error when the implementation has
  // no sub-groups.
  virtual Expected<uint32_t> subgroupSize(uint32_t workGroupSize) = 0;

  // Makes `spec` the launch that run() repeats. An error says why it cannot run here: the
  // measurement is then skipped with that reason.
  virtual Status prepare(const LaunchSpec& spec) = 0;
  // Runs the prepared kernel over `workItems` work-items, reading input buffer `inputIndex`, waits,
  // and returns the device's time for it in nanoseconds.
  virtual Expected<double> run(size_t inputIndex, uint64_t workItems) = 0;
  // The first `words` words of the output buffer.
  virtual Expected<std::vector<uint32_t>> readOutput(uint64_t words) = 0;
};

}  // namespace cl2vk::bench
