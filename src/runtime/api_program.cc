// The OpenCL entry points for programs and kernels.
#include <cstring>

#include "cl2vk/spirv.h"
#include "runtime/api_util.h"
#include "runtime/kernel.h"
#include "runtime/program.h"

using namespace cl2vk::runtime;

namespace {

using ProgramNotify = void(CL_CALLBACK*)(cl_program program, void* user_data);

// The IL's words when they are a well-formed SPIR-V module (one the reader takes: header, every
// instruction whole, ids within the bound and defined); else why not. Whether the module is valid
// and translatable is the build's question, answered in its log.
cl2vk::Expected<std::vector<uint32_t>> readSpirv(const void* bytes, size_t length) {
  if (bytes == nullptr || length == 0) return cl2vk::Error("no IL was given");
  return cl2vk::readSpirvBinary(std::span(static_cast<const uint8_t*>(bytes), length));
}

cl_program publishProgram(const std::shared_ptr<Program>& program, cl_int* errcode_ret) {
  return withError(errcode_ret, CL_SUCCESS, Program::publish(program));
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithSource(cl_context context, cl_uint count, const char** strings,
                                                              const size_t* lengths, cl_int* errcode_ret) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  if (count == 0 || strings == nullptr) return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  std::string source;
  for (cl_uint i = 0; i < count; ++i) {
    if (strings[i] == nullptr) return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
    bool terminated = lengths == nullptr || lengths[i] == 0;
    source += terminated ? std::string(strings[i]) : std::string(strings[i], lengths[i]);
  }
  return publishProgram(Program::fromSource(found, std::move(source)), errcode_ret);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithIL(cl_context context, const void* il, size_t length,
                                                          cl_int* errcode_ret) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  cl2vk::Expected<std::vector<uint32_t>> words = readSpirv(il, length);
  if (!words) {
    found->report("clCreateProgramWithIL: the IL is not a SPIR-V module: " + words.error().message());
    return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  }
  return publishProgram(Program::fromIL(found, std::move(*words), Program::Origin::kIL), errcode_ret);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context context, const void* il, size_t length,
                                                             cl_int* errcode_ret) {
  return clCreateProgramWithIL(context, il, length, errcode_ret);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBinary(cl_context context, cl_uint num_devices,
                                                              const cl_device_id* device_list, const size_t* lengths,
                                                              const unsigned char** binaries, cl_int* binary_status,
                                                              cl_int* errcode_ret) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  std::vector<Device*> devices;
  if (device_list == nullptr || num_devices == 0) return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  if (cl_int status = resolveDevices(*found, num_devices, device_list, &devices); status != CL_SUCCESS)
    return withError<cl_program>(errcode_ret, status, nullptr);
  if (lengths == nullptr || binaries == nullptr) return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  // cl2vk's binaries are the program's IL; every device gets the first one that is valid SPIR-V.
  std::vector<uint32_t> words;
  bool allValid = true;
  for (cl_uint i = 0; i < num_devices; ++i) {
    if (binaries[i] == nullptr || lengths[i] == 0) return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
    cl2vk::Expected<std::vector<uint32_t>> candidate = readSpirv(binaries[i], lengths[i]);
    if (binary_status != nullptr) binary_status[i] = candidate ? CL_SUCCESS : CL_INVALID_BINARY;
    if (!candidate) {
      found->report("clCreateProgramWithBinary: binary " + std::to_string(i) +
                    " is not a cl2vk program binary (a SPIR-V module): " + candidate.error().message());
    }
    allValid &= candidate.ok();
    if (candidate && words.empty()) words = std::move(*candidate);
  }
  if (!allValid) return withError<cl_program>(errcode_ret, CL_INVALID_BINARY, nullptr);
  return publishProgram(Program::fromIL(found, std::move(words), Program::Origin::kBinary), errcode_ret);
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint, const cl_device_id*,
                                                                      const char*, cl_int* errcode_ret) {
  // CL_DEVICE_BUILT_IN_KERNELS is empty, so every name is invalid.
  return withError<cl_program>(errcode_ret, Context::find(context) ? CL_INVALID_VALUE : CL_INVALID_CONTEXT, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainProgram(cl_program program) {
  return retainObject<Program>(program, CL_INVALID_PROGRAM);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseProgram(cl_program program) {
  return releaseObject<Program>(program, CL_INVALID_PROGRAM);
}

CL_API_ENTRY cl_int CL_API_CALL clBuildProgram(cl_program program, cl_uint num_devices, const cl_device_id* device_list,
                                               const char* options, ProgramNotify pfn_notify, void* user_data) {
  std::shared_ptr<Program> found = Program::find(program);
  if (!found) return CL_INVALID_PROGRAM;
  if (pfn_notify == nullptr && user_data != nullptr) return CL_INVALID_VALUE;
  std::vector<Device*> devices;
  if (cl_int status = resolveDevices(found->context(), num_devices, device_list, &devices); status != CL_SUCCESS)
    return status;
  cl_int status = found->build(devices, options != nullptr ? options : "");
  // The build is synchronous; the notification comes once it is done, as the specification allows.
  if (pfn_notify != nullptr) pfn_notify(program, user_data);
  return status;
}

CL_API_ENTRY cl_int CL_API_CALL clCompileProgram(cl_program program, cl_uint num_devices,
                                                 const cl_device_id* device_list, const char* options,
                                                 cl_uint num_input_headers, const cl_program* input_headers,
                                                 const char** header_include_names, ProgramNotify pfn_notify,
                                                 void* user_data) {
  std::shared_ptr<Program> found = Program::find(program);
  if (!found) return CL_INVALID_PROGRAM;
  if (pfn_notify == nullptr && user_data != nullptr) return CL_INVALID_VALUE;
  if ((num_input_headers == 0) != (input_headers == nullptr) || (num_input_headers == 0) != (header_include_names == nullptr))
    return CL_INVALID_VALUE;
  std::vector<Device*> devices;
  if (cl_int status = resolveDevices(found->context(), num_devices, device_list, &devices); status != CL_SUCCESS)
    return status;
  std::vector<SourceHeader> headers;
  for (cl_uint i = 0; i < num_input_headers; ++i) {
    std::shared_ptr<Program> header = Program::find(input_headers[i]);
    if (!header || header->origin() != Program::Origin::kSource) return CL_INVALID_PROGRAM;
    size_t length = 0;
    header->getInfo(CL_PROGRAM_SOURCE, InfoOut{0, nullptr, &length});
    std::string text(length, '\0');
    header->getInfo(CL_PROGRAM_SOURCE, InfoOut{length, text.data(), nullptr});
    if (!text.empty()) text.pop_back();  // the terminating NUL
    headers.push_back(SourceHeader{header_include_names[i] ? header_include_names[i] : "", std::move(text)});
  }
  cl_int status = found->compile(devices, options != nullptr ? options : "", headers);
  if (pfn_notify != nullptr) pfn_notify(program, user_data);
  return status;
}

CL_API_ENTRY cl_program CL_API_CALL clLinkProgram(cl_context context, cl_uint num_devices,
                                                  const cl_device_id* device_list, const char* options,
                                                  cl_uint num_input_programs, const cl_program* input_programs,
                                                  ProgramNotify pfn_notify, void* user_data, cl_int* errcode_ret) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return withError<cl_program>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  if ((pfn_notify == nullptr && user_data != nullptr) || num_input_programs == 0 || input_programs == nullptr)
    return withError<cl_program>(errcode_ret, CL_INVALID_VALUE, nullptr);
  std::vector<Device*> devices;
  if (cl_int status = resolveDevices(*found, num_devices, device_list, &devices); status != CL_SUCCESS)
    return withError<cl_program>(errcode_ret, status, nullptr);
  std::vector<std::shared_ptr<Program>> inputs;
  for (cl_uint i = 0; i < num_input_programs; ++i) {
    std::shared_ptr<Program> input = Program::find(input_programs[i]);
    if (!input || &input->context() != found.get()) return withError<cl_program>(errcode_ret, CL_INVALID_PROGRAM, nullptr);
    inputs.push_back(std::move(input));
  }
  cl_int error = CL_SUCCESS;
  std::shared_ptr<Program> linked = Program::link(found, devices, options != nullptr ? options : "", inputs, &error);
  if (!linked) return withError<cl_program>(errcode_ret, error, nullptr);
  cl_program handle = Program::publish(linked);
  if (pfn_notify != nullptr) pfn_notify(handle, user_data);
  return withError(errcode_ret, error, handle);
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramInfo(cl_program program, cl_program_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) {
  return objectInfo<Program>(program, CL_INVALID_PROGRAM,
                             param_name, param_value_size, param_value, param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetProgramBuildInfo(cl_program program, cl_device_id device,
                                                      cl_program_build_info param_name, size_t param_value_size,
                                                      void* param_value, size_t* param_value_size_ret) {
  std::shared_ptr<Program> found = Program::find(program);
  if (!found) return CL_INVALID_PROGRAM;
  Device* foundDevice = Device::find(device);
  if (foundDevice == nullptr || !found->context().hasDevice(foundDevice)) return CL_INVALID_DEVICE;
  return found->getBuildInfo(foundDevice, param_name, InfoOut{param_value_size, param_value, param_value_size_ret});
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramReleaseCallback(cl_program program, ProgramNotify, void*) {
  // Deprecated in OpenCL 3.0; cl2vk has no program-scope destructors to run.
  return Program::find(program) ? CL_INVALID_OPERATION : CL_INVALID_PROGRAM;
}

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint, size_t, const void*) {
  // OpenCL C has no specialization constants; IL programs with them are not supported.
  return Program::find(program) ? CL_INVALID_OPERATION : CL_INVALID_PROGRAM;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCreateKernel(cl_program program, const char* kernel_name, cl_int* errcode_ret) {
  std::shared_ptr<Program> found = Program::find(program);
  if (!found) return withError<cl_kernel>(errcode_ret, CL_INVALID_PROGRAM, nullptr);
  if (kernel_name == nullptr) return withError<cl_kernel>(errcode_ret, CL_INVALID_VALUE, nullptr);
  cl_int error = CL_SUCCESS;
  std::shared_ptr<Kernel> kernel = Kernel::create(found, kernel_name, &error);
  if (!kernel) return withError<cl_kernel>(errcode_ret, error, nullptr);
  return withError(errcode_ret, CL_SUCCESS, Kernel::publish(kernel));
}

CL_API_ENTRY cl_int CL_API_CALL clCreateKernelsInProgram(cl_program program, cl_uint num_kernels, cl_kernel* kernels,
                                                         cl_uint* num_kernels_ret) {
  std::shared_ptr<Program> found = Program::find(program);
  if (!found) return CL_INVALID_PROGRAM;
  std::shared_ptr<const cl2vk::Translation> translation = found->anyTranslation();
  if (!translation) return CL_INVALID_PROGRAM_EXECUTABLE;
  const auto& reflections = translation->reflection.kernels;
  if (kernels != nullptr && num_kernels < reflections.size()) return CL_INVALID_VALUE;
  if (kernels != nullptr) {
    for (size_t i = 0; i < reflections.size(); ++i) {
      cl_int error = CL_SUCCESS;
      std::shared_ptr<Kernel> kernel = Kernel::create(found, reflections[i].name, &error);
      if (!kernel) return error;
      kernels[i] = Kernel::publish(kernel);
    }
  }
  if (num_kernels_ret != nullptr) *num_kernels_ret = static_cast<cl_uint>(reflections.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_kernel CL_API_CALL clCloneKernel(cl_kernel source_kernel, cl_int* errcode_ret) {
  std::shared_ptr<Kernel> found = Kernel::find(source_kernel);
  if (!found) return withError<cl_kernel>(errcode_ret, CL_INVALID_KERNEL, nullptr);
  cl_int error = CL_SUCCESS;
  std::shared_ptr<Kernel> copy = found->clone(&error);
  return withError(errcode_ret, CL_SUCCESS, Kernel::publish(copy));
}

CL_API_ENTRY cl_int CL_API_CALL clRetainKernel(cl_kernel kernel) {
  return retainObject<Kernel>(kernel, CL_INVALID_KERNEL);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseKernel(cl_kernel kernel) {
  return releaseObject<Kernel>(kernel, CL_INVALID_KERNEL);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArg(cl_kernel kernel, cl_uint arg_index, size_t arg_size,
                                               const void* arg_value) {
  std::shared_ptr<Kernel> found = Kernel::find(kernel);
  if (!found) return CL_INVALID_KERNEL;
  return found->setArgument(arg_index, arg_size, arg_value);
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint, const void*) {
  return Kernel::find(kernel) ? CL_INVALID_OPERATION : CL_INVALID_KERNEL;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info, size_t, const void*) {
  // The exec-info parameters of OpenCL 3.0 are about SVM, which no device supports.
  return Kernel::find(kernel) ? CL_INVALID_OPERATION : CL_INVALID_KERNEL;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                                void* param_value, size_t* param_value_size_ret) {
  return objectInfo<Kernel>(kernel, CL_INVALID_KERNEL,
                            param_name, param_value_size, param_value, param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelArgInfo(cl_kernel kernel, cl_uint arg_indx, cl_kernel_arg_info param_name,
                                                   size_t param_value_size, void* param_value,
                                                   size_t* param_value_size_ret) {
  std::shared_ptr<Kernel> found = Kernel::find(kernel);
  if (!found) return CL_INVALID_KERNEL;
  return found->getArgInfo(arg_indx, param_name, InfoOut{param_value_size, param_value, param_value_size_ret});
}

// The device a per-device kernel query is about: `device`, or the only device of the kernel's
// context when it is NULL.
static Device* kernelDevice(Kernel& kernel, cl_device_id device) {
  const auto& devices = kernel.program().context().devices();
  if (device == nullptr) return devices.size() == 1 ? devices.front() : nullptr;
  Device* found = Device::find(device);
  return found != nullptr && kernel.program().context().hasDevice(found) ? found : nullptr;
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelWorkGroupInfo(cl_kernel kernel, cl_device_id device,
                                                         cl_kernel_work_group_info param_name, size_t param_value_size,
                                                         void* param_value, size_t* param_value_size_ret) {
  std::shared_ptr<Kernel> found = Kernel::find(kernel);
  if (!found) return CL_INVALID_KERNEL;
  Device* target = kernelDevice(*found, device);
  if (target == nullptr) return CL_INVALID_DEVICE;
  return found->getWorkGroupInfo(*target, param_name, InfoOut{param_value_size, param_value, param_value_size_ret});
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfo(cl_kernel kernel, cl_device_id device,
                                                        cl_kernel_sub_group_info param_name, size_t input_value_size,
                                                        const void* input_value, size_t param_value_size,
                                                        void* param_value, size_t* param_value_size_ret) {
  std::shared_ptr<Kernel> found = Kernel::find(kernel);
  if (!found) return CL_INVALID_KERNEL;
  Device* target = kernelDevice(*found, device);
  if (target == nullptr) return CL_INVALID_DEVICE;
  return found->getSubGroupInfo(*target, param_name, input_value_size, input_value,
                                InfoOut{param_value_size, param_value, param_value_size_ret});
}

CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel kernel, cl_device_id device,
                                                           cl_kernel_sub_group_info param_name,
                                                           size_t input_value_size, const void* input_value,
                                                           size_t param_value_size, void* param_value,
                                                           size_t* param_value_size_ret) {
  return clGetKernelSubGroupInfo(kernel, device, param_name, input_value_size, input_value, param_value_size,
                                 param_value, param_value_size_ret);
}

}  // extern "C"
