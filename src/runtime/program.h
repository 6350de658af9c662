// cl_program: OpenCL C source or OpenCL-flavoured SPIR-V (the IL), built for each device by
// compiling the source (source_compiler.h) and translating the IL for the device's Target. The
// program's binary is its IL: clGetProgramInfo(CL_PROGRAM_BINARIES) returns it, and
// clCreateProgramWithBinary accepts it back. clCompileProgram keeps the compiled IL (of source,
// or the program's own IL once checked); clLinkProgram joins IL modules with SPIRV-Tools' linker.
// An IL program's specialization constants take the values set for them at each build.
#pragma once

#include <atomic>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "cl2vk/translator.h"
#include "launch/kernel_launch.h"
#include "runtime/context.h"
#include "runtime/object.h"
#include "runtime/source_compiler.h"
#include "vulkan/buffer.h"

namespace cl2vk::runtime {

class Program : public Object<Program, _cl_program> {
 public:
  enum class Origin { kSource, kIL, kBinary, kLinked };

  Program(std::shared_ptr<Context> context, Origin origin) : context_(std::move(context)), origin_(origin) {}

  static std::shared_ptr<Program> fromSource(std::shared_ptr<Context> context, std::string source);
  // `words` must start with the SPIR-V magic number (the caller checks).
  static std::shared_ptr<Program> fromIL(std::shared_ptr<Context> context, std::vector<uint32_t> words, Origin origin);
  // Links `inputs` (compiled objects or libraries) for `devices`; the result is a new program whose
  // per-device status and log say how the link went. Null only for invalid options.
  static std::shared_ptr<Program> link(std::shared_ptr<Context> context, const std::vector<Device*>& devices,
                                       const std::string& options, const std::vector<std::shared_ptr<Program>>& inputs,
                                       cl_int* error);

  Context& context() { return *context_; }
  const std::shared_ptr<Context>& sharedContext() const { return context_; }
  Origin origin() const { return origin_; }

  // clBuildProgram and clCompileProgram for `devices`: CL_SUCCESS, CL_INVALID_BUILD_OPTIONS,
  // CL_BUILD_PROGRAM_FAILURE / CL_COMPILE_PROGRAM_FAILURE (with the log), CL_INVALID_OPERATION.
  cl_int build(const std::vector<Device*>& devices, const std::string& options);
  cl_int compile(const std::vector<Device*>& devices, const std::string& options,
                 const std::vector<SourceHeader>& headers);

  // clSetProgramSpecializationConstant: the value a later build gives SpecId `id`. CL_SUCCESS,
  // CL_INVALID_PROGRAM (not from IL), CL_INVALID_SPEC_ID, CL_INVALID_VALUE (the wrong size).
  cl_int setSpecializationConstant(uint32_t id, std::span<const uint8_t> value);

  // The translation for `device`, when the program is built for it.
  std::shared_ptr<const Translation> translation(Device* device) const;
  // A translation of some device, for what does not depend on the device (kernel names, arguments).
  std::shared_ptr<const Translation> anyTranslation() const;
  bool uniformWorkGroups(Device* device) const;
  // The buffer of the program-scope variables on `device`; null when the program has none.
  std::shared_ptr<vulkan::Buffer> globalVariables(Device* device) const;
  // The launcher of kernel `name` on `device` (the program must be built for it), created on first
  // use and shared by every cl_kernel of that name, so that each pipeline (one per work-group shape
  // and __local sizes, launch::LaunchableKernel) is compiled once per program: CLBlast creates a
  // cl_kernel for every call. The pointer stays valid while a kernel of the program lives (a
  // program with kernels cannot be built again).
  Expected<launch::LaunchableKernel*> launcher(Device& device, const std::string& name);
  // What the IL says of a kernel's arguments in llvm-spirv's "kernel_arg_type.<kernel>.<list>"
  // strings: `what` "kernel_arg_type" gives the OpenCL C type names ("float*", "int4"),
  // "kernel_arg_type_qual" the qualifiers ("restrict const"); empty when the IL has none.
  std::vector<std::string> argumentMetadata(const std::string& what, const std::string& kernel) const;
  // CL_KERNEL_ATTRIBUTES: the kernel's `__attribute__` list as the source compiler recorded it
  // (OpString "kernel_attributes.<kernel>.<list>", llvm_ir_fixups.h). Empty for a program made
  // from IL or a binary, as OpenCL specifies for kernels not created from OpenCL C source.
  std::string kernelAttributes(const std::string& kernel) const;

  // clCreateProgramWithBinary: the binary loaded for `devices` is of `type` (program_binary.h).
  void loadedBinary(const std::vector<Device*>& devices, cl_program_binary_type type);

  void attachKernel() { ++attachedKernels_; }
  void detachKernel() { --attachedKernels_; }

  cl_int getInfo(cl_program_info param, const InfoOut& out);
  cl_int getBuildInfo(Device* device, cl_program_build_info param, const InfoOut& out);

 private:
  struct DeviceBuild {
    cl_build_status status = CL_BUILD_NONE;
    cl_program_binary_type binaryType = CL_PROGRAM_BINARY_TYPE_NONE;
    std::string options;
    std::string log;
    bool uniformWorkGroups = false;
    // The math options that reach the translator (Target::relaxedMath, and no DenormPreserve).
    bool relaxedMath = false;
    bool denormsAreZero = false;
    std::shared_ptr<const Translation> translation;
    std::shared_ptr<vulkan::Buffer> globalVariables;
    // By kernel name; dropped with the build (a rebuild, the program's end). Pipelines released
    // after exit began are left to the process (vulkan/process_exit.h): CLBlast's cached programs
    // go when libclblast is finalized.
    std::map<std::string, std::unique_ptr<launch::LaunchableKernel>> launchers;
  };
  // CL_PROGRAM_BINARIES for `device`: il_, marked with the build's binary type. Needs mutex_.
  std::vector<uint32_t> binaryFor(Device* device) const;
  // Translates il_ for `device` into `build`; false (with the log) on failure.
  bool translateFor(Device& device, DeviceBuild& build);
  // clCompileProgram of an IL program: the IL, as the translator repairs it, must be valid SPIR-V;
  // false on failure, the log in every device's build.
  bool checkIL(const std::vector<Device*>& devices);
  // Compiles source_ into il_ for `devices`; false on failure, the log in every device's build.
  bool compileSource(const std::vector<Device*>& devices, const BuildOptions& options,
                     const std::vector<SourceHeader>& headers);

  std::shared_ptr<Context> context_;
  Origin origin_;
  std::string source_;
  mutable std::mutex mutex_;
  std::vector<uint32_t> il_;
  // clSetProgramSpecializationConstant's values by SpecId, written into the IL at each build.
  std::map<uint32_t, std::vector<uint8_t>> specializations_;
  std::map<Device*, DeviceBuild> builds_;
  std::atomic<int> attachedKernels_{0};
};

}  // namespace cl2vk::runtime
