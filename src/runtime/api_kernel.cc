// The OpenCL entry points for kernels (section 5.9 of the OpenCL 3.0 API specification): creating
// and cloning them, setting their arguments, and the kernel, argument, work-group and sub-group
// queries. Their shared virtual memory parts (clSetKernelArgSVMPointer, clSetKernelExecInfo) are in
// api_unsupported.cc; enqueueing a kernel is in api_enqueue_kernel.cc.
#include "runtime/api_util.h"
#include "runtime/kernel.h"
#include "runtime/program.h"

using namespace cl2vk::runtime;

extern "C" {

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

CL_API_ENTRY cl_int CL_API_CALL clGetKernelInfo(cl_kernel kernel, cl_kernel_info param_name, size_t param_value_size,
                                                void* param_value, size_t* param_value_size_ret) {
  return objectInfo<Kernel>(kernel, CL_INVALID_KERNEL, param_name, param_value_size, param_value, param_value_size_ret);
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
                                                           cl_kernel_sub_group_info param_name, size_t input_value_size,
                                                           const void* input_value, size_t param_value_size,
                                                           void* param_value, size_t* param_value_size_ret) {
  return clGetKernelSubGroupInfo(kernel, device, param_name, input_value_size, input_value, param_value_size,
                                 param_value, param_value_size_ret);
}

}  // extern "C"
