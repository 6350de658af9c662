// The benchmark kernels of kernels.cl through the OpenCL API, on the first device of a platform
// chosen by name: the cl2vk ICD, or a native implementation ("NVIDIA CUDA") for comparison. Times
// are event profiling's END - START on a profiling queue.
#pragma once

#define CL_TARGET_OPENCL_VERSION 300
#include <CL/cl.h>
#include <CL/cl_ext.h>

#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "runner.h"

namespace cl2vk::bench {

// An OpenCL object released when it goes out of scope.
template <typename Handle, cl_int (*Release)(Handle)>
class ClObject {
 public:
  ClObject() = default;
  explicit ClObject(Handle handle) : handle_(handle) {}
  ClObject(ClObject&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  ClObject& operator=(ClObject&& other) noexcept {
    std::swap(handle_, other.handle_);
    return *this;
  }
  ClObject(const ClObject&) = delete;
  ClObject& operator=(const ClObject&) = delete;
  ~ClObject() {
    if (handle_) Release(handle_);
  }
  Handle get() const { return handle_; }

 private:
  Handle handle_ = nullptr;
};

using ClContext = ClObject<cl_context, clReleaseContext>;
using ClQueue = ClObject<cl_command_queue, clReleaseCommandQueue>;
using ClProgramObject = ClObject<cl_program, clReleaseProgram>;
using ClKernel = ClObject<cl_kernel, clReleaseKernel>;
using ClBuffer = ClObject<cl_mem, clReleaseMemObject>;

class OpenClRunner : public Runner {
 public:
  // The first device of the platform whose name is `platformName` (or, failing that, contains it,
  // ignoring case); `implementation` names its results ("cl2vk", "native-opencl").
  static Expected<std::unique_ptr<OpenClRunner>> open(const std::string& platformName, std::string implementation);

  std::string name() const override { return implementation_; }
  std::string deviceName() const override { return deviceName_; }
  std::string platformName() const { return platformName_; }

  Status createBuffers(const InputShape& shape) override;
  Expected<uint32_t> subgroupSize(uint32_t workGroupSize) override;
  Status prepare(const LaunchSpec& spec) override;
  Expected<double> run(size_t inputIndex, uint64_t workItems) override;
  Expected<std::vector<uint32_t>> readOutput(uint64_t words) override;

  // Host nanoseconds from clEnqueueNDRangeKernel to the end of clFinish for an empty kernel of one
  // work-item, `count` times after `warmups` untimed launches; with `enqueueTimes`, also the host
  // nanoseconds of each timed clEnqueueNDRangeKernel alone.
  Expected<std::vector<double>> emptyLaunchHostTimes(size_t warmups, size_t count,
                                                     std::vector<double>* enqueueTimes = nullptr);

  // Host nanoseconds of a blocking clEnqueueMapBuffer for reading (`unmapAfterWrite` false) or of
  // clEnqueueUnmapMemObject + clFinish after a map for writing (true), of the whole of one
  // CL_MEM_ALLOC_HOST_PTR buffer of `bytes`, as clpeak's transfer section times them; `count` times
  // after `warmups`.
  Expected<std::vector<double>> mapHostTimes(size_t bytes, bool unmapAfterWrite, size_t warmups, size_t count);

 private:
  OpenClRunner() = default;

  // The program of kernels.cl holding `program`'s kernels, built once; its build error is kept.
  Expected<cl_program> program(ClProgram program);
  Expected<ClKernel> createKernel(ClProgram program, const std::string& kernel);
  Expected<double> launch(cl_kernel kernel, uint64_t workItems, uint32_t workGroupSize);

  std::string implementation_;
  std::string platformName_;
  std::string deviceName_;
  cl_device_id device_ = nullptr;
  ClContext context_;
  ClQueue queue_;
  std::map<ClProgram, Expected<std::shared_ptr<ClProgramObject>>> programs_;
  std::map<InputSet, std::vector<ClBuffer>> inputs_;
  std::map<uint32_t, uint32_t> subgroupSizes_;  // by work-group size
  ClBuffer output_;

  LaunchSpec spec_;
  ClKernel kernel_;
};

}  // namespace cl2vk::bench
