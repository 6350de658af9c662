// cl_kernel: one kernel of a built program and its argument values as clSetKernelArg gave them. Its
// launcher (launch::LaunchableKernel: pipelines per work-group shape) on each device is the
// program's, shared by every cl_kernel of the same name (Program::launcher).
#pragma once

#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "launch/kernel_launch.h"
#include "runtime/memory.h"
#include "runtime/object.h"
#include "runtime/program.h"

namespace cl2vk::runtime {

// One argument's value.
struct ArgumentValue {
  bool set = false;
  std::shared_ptr<Memory> memory;  // a buffer or image argument; null for a NULL pointer
  bool image = false;              // `memory` is an image: its record is made at launch
  std::vector<std::byte> bytes;    // a value argument
  size_t localSize = 0;            // a __local argument
};

// One argument as the kernel keeps it. A buffer argument does not keep its buffer: OpenCL lets a
// program release a buffer that is a kernel's argument, and its destructor callbacks run then (the
// CTS's retain_mem_object_set_kernel_arg waits for them); an enqueued launch holds what it uses.
struct StoredArgument {
  bool set = false;
  bool buffer = false;  // a non-NULL buffer or an image was set
  bool image = false;
  std::weak_ptr<Memory> memory;
  std::vector<std::byte> bytes;
  size_t localSize = 0;
};

class Kernel : public Object<Kernel, _cl_kernel> {
 public:
  // The kernel `name` of `program`, which must be built for some device; CL_INVALID_KERNEL_NAME
  // when it has no such kernel.
  static std::shared_ptr<Kernel> create(std::shared_ptr<Program> program, const std::string& name, cl_int* error);
  ~Kernel() override;

  Program& program() { return *program_; }
  const std::string& name() const { return reflection_.name; }
  const KernelReflection& reflection() const { return reflection_; }

  cl_int setArgument(cl_uint index, size_t size, const void* value);
  // The arguments, each buffer held for the caller; nullopt when a buffer argument has been
  // released since it was set.
  std::optional<std::vector<ArgumentValue>> arguments() const;
  std::optional<cl_uint> firstUnsetArgument() const;
  // Bytes of __local memory the arguments ask for.
  size_t localArgumentBytes() const;
  std::shared_ptr<Kernel> clone(cl_int* error);

  // The program's launcher of this kernel for `device` (the program must be built for it).
  Expected<launch::LaunchableKernel*> launcher(Device& device);

  cl_int getInfo(cl_kernel_info param, const InfoOut& out);
  cl_int getArgInfo(cl_uint index, cl_kernel_arg_info param, const InfoOut& out);
  cl_int getWorkGroupInfo(Device& device, cl_kernel_work_group_info param, const InfoOut& out);
  cl_int getSubGroupInfo(Device& device, cl_kernel_sub_group_info param, size_t inputSize, const void* input,
                         const InfoOut& out);

 private:
  Kernel(std::shared_ptr<Program> program, KernelReflection reflection)
      : program_(std::move(program)), reflection_(std::move(reflection)) {}

  std::shared_ptr<Program> program_;
  KernelReflection reflection_;  // from one device's translation; arguments do not vary by device
  mutable std::mutex mutex_;
  std::vector<StoredArgument> arguments_;
};

}  // namespace cl2vk::runtime
