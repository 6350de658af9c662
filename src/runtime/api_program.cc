// The OpenCL entry points for programs (section 5.8 of the OpenCL 3.0 API specification): creating
// them from source, IL or binaries, building, compiling and linking them, their queries, and
// unloading the compiler. No device has built-in kernels (clCreateProgramWithBuiltInKernels is in
// api_unsupported.cc); the kernels of a program are in api_kernel.cc.
#include <cstring>

#include "cl2vk/spirv.h"
#include "runtime/api_util.h"
#include "runtime/program.h"
#include "runtime/program_binary.h"

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
  ReadBinary binary = readBinary(std::move(words));
  std::shared_ptr<Program> created = Program::fromIL(found, std::move(binary.il), Program::Origin::kBinary);
  created->loadedBinary(devices, binary.type);
  return publishProgram(std::move(created), errcode_ret);
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
  if ((num_input_headers == 0) != (input_headers == nullptr) ||
      (num_input_headers == 0) != (header_include_names == nullptr))
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
    if (!input || &input->context() != found.get())
      return withError<cl_program>(errcode_ret, CL_INVALID_PROGRAM, nullptr);
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
  return objectInfo<Program>(program, CL_INVALID_PROGRAM, param_name, param_value_size, param_value,
                             param_value_size_ret);
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

CL_API_ENTRY cl_int CL_API_CALL clSetProgramSpecializationConstant(cl_program program, cl_uint spec_id,
                                                                   size_t spec_size, const void* spec_value) {
  std::shared_ptr<Program> found = Program::find(program);
  if (!found) return CL_INVALID_PROGRAM;
  return found->setSpecializationConstant(spec_id, std::span(static_cast<const uint8_t*>(spec_value), spec_size));
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return Platform::find(platform) == nullptr ? CL_INVALID_PLATFORM : CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

}  // extern "C"
