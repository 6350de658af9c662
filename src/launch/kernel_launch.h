// Launching a translated kernel over an OpenCL NDRange on a Vulkan device: the part of the
// runtime that turns clEnqueueNDRangeKernel's arguments into dispatches. LaunchableKernel::prepare
// checks the work size and splits the NDRange into dispatches (ndrange_split.h), packs the
// arguments into the push constants or an argument buffer (argument_block.h), picks the
// specialization constants (work-group size, __local argument sizes, image formats), writes each
// dispatch's information, and caches a pipeline per shape.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cl2vk/expected.h"
#include "cl2vk/target.h"
#include "cl2vk/translator.h"
#include "vulkan/buffer.h"
#include "vulkan/device.h"
#include "vulkan/dispatch.h"
#include "vulkan/pipeline.h"

namespace cl2vk::launch {

// What translated code may assume about `info`'s device.
Target targetFor(const vulkan::DeviceInfo& info);

struct NDRange {
  uint32_t dimensions = 1;
  std::array<uint64_t, 3> globalSize{1, 1, 1};
  std::array<uint64_t, 3> globalOffset{0, 0, 0};
  std::optional<std::array<uint32_t, 3>> localSize;  // none: the launcher chooses
  // The program requires work-groups of equal size (-cl-uniform-work-group-size, OpenCL C 1.x): a
  // chosen local size divides the global size.
  bool uniformWorkGroups = false;
};

// One kernel argument, as clSetKernelArg gives it.
struct KernelArg {
  enum class Kind { kBuffer, kBytes, kLocal };
  Kind kind = Kind::kBytes;
  uint64_t address = 0;          // kBuffer: the buffer's device address (plus an offset)
  std::vector<std::byte> bytes;  // kBytes
  size_t localSize = 0;          // kLocal: bytes of __local memory

  static KernelArg buffer(const vulkan::Buffer& buffer, uint64_t offset = 0);
  static KernelArg local(size_t bytes);
  static KernelArg raw(const void* data, size_t size);
  template <typename T>
  static KernelArg value(const T& v) {
    return raw(&v, sizeof v);
  }
};

// The buffer of a program's global variables on `device`, holding their initial values (pointers
// relocated to the buffer's address); null when the program has none. It lives as long as the
// program: every kernel of the program gets its address (launch's `globalVariables`).
Expected<std::shared_ptr<vulkan::Buffer>> createGlobalVariables(vulkan::Device& device,
                                                                const GlobalVariablesLayout& layout);

class LaunchableKernel;

// A launch made ready to record: its dispatches, and the buffers that must live until they have
// run (the argument block when it is not in the push constants, printf's buffer, the loop-limit
// flag). LaunchableKernel::prepare makes one; the caller records dispatches() in a submission,
// which may hold other launches' too (the runtime's batches, queue.h), and calls finish() once it
// has completed. launch() is the three in a row.
class PreparedLaunch {
 public:
  std::vector<vulkan::Dispatch> dispatches() const;
  const std::string& kernelName() const;
  // After the dispatches have run: writes the kernel's printf output to stdout and fails when a
  // loop ran past the device's loop limit (both take a transfer of their own).
  Status finish();

 private:
  friend class LaunchableKernel;
  struct Part {
    const vulkan::Pipeline* pipeline;
    std::vector<std::byte> pushConstants;
    std::array<uint32_t, 3> groups;
  };
  const LaunchableKernel* kernel_ = nullptr;
  std::vector<Part> parts_;
  std::optional<vulkan::Buffer> argumentBuffer_, printfBuffer_, loopLimitFlag_;
  std::shared_ptr<vulkan::Buffer> privateScratch_;  // the kernel's, given back when this goes
};

class LaunchableKernel {
 public:
  static Expected<std::unique_ptr<LaunchableKernel>> create(vulkan::Device& device,
                                                            std::shared_ptr<const Translation> translation,
                                                            const std::string& name);

  const KernelReflection& reflection() const { return *reflection_; }

  // The work-group size the launcher uses when the caller gives none.
  std::array<uint32_t, 3> chooseLocalSize(const NDRange& range) const;

  // Runs the kernel over `range` and waits; one GPU time per dispatch. Thread-safe. A kernel that
  // uses program-scope variables needs the address of their buffer (createGlobalVariables).
  Expected<std::vector<vulkan::GpuTime>> launch(const NDRange& range, std::span<const KernelArg> args,
                                                uint64_t globalVariables = 0);
  // Everything of launch() up to recording: checks, pipelines, push constants, buffers.
  Expected<PreparedLaunch> prepare(const NDRange& range, std::span<const KernelArg> args, uint64_t globalVariables = 0);

 private:
  LaunchableKernel(vulkan::Device& device, std::shared_ptr<const Translation> translation,
                   const KernelReflection* reflection, std::vector<uint32_t> spirv)
      : device_(device), translation_(std::move(translation)), reflection_(reflection), spirv_(std::move(spirv)) {}

  // The pipeline of one work-group shape, with `arguments`' specialization constants (spec id,
  // value): the __local arguments' element counts and the image arguments' formats.
  // The hardware work-group size of a kernel with free work-groups (KernelReflection::
  // freeWorkGroups) for `range`; none for any other kernel.
  std::optional<std::array<uint32_t, 3>> freeWorkGroupSize(const NDRange& range) const;
  Expected<const vulkan::Pipeline*> pipelineFor(const std::array<uint32_t, 3>& local,
                                                const std::array<uint32_t, 3>& enqueued,
                                                const std::vector<std::pair<uint32_t, uint32_t>>& arguments);
  Status checkArguments(std::span<const KernelArg> args) const;
  // A private scratch buffer of at least `bytes` (KernelReflection::privateScratchStride): an idle
  // one of an earlier launch, or a new one. The device's buffer cache does not keep buffers of the
  // size such a launch may need (up to privateScratchLimit), so the kernel keeps those its
  // finished launches give back.
  Expected<std::shared_ptr<vulkan::Buffer>> takeScratch(uint64_t bytes);

  friend class PreparedLaunch;

  vulkan::Device& device_;
  std::shared_ptr<const Translation> translation_;
  const KernelReflection* reflection_;
  std::vector<uint32_t> spirv_;  // the kernel's own module (kernelModule)
  // One shape's pipeline, created by the first launch that needs it; later launches of that shape
  // wait on `mutex` while it compiles, launches of other shapes do not.
  struct PipelineSlot {
    std::mutex mutex;
    std::unique_ptr<vulkan::Pipeline> pipeline;
  };
  // Several threads may launch the same kernel (the runtime's command queues, and every cl_kernel
  // of a program's kernel name shares one launcher); slots are never removed, so the pointers
  // handed out stay valid.
  std::mutex pipelinesMutex_;
  std::map<std::vector<uint32_t>, std::unique_ptr<PipelineSlot>> pipelines_;
  std::mutex scratchMutex_;
  std::vector<std::unique_ptr<vulkan::Buffer>> idleScratch_;  // smallest first
};

}  // namespace cl2vk::launch
