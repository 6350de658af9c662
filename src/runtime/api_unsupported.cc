// The entry points of the features that no device of the platform has, which return the errors the
// specification gives rather than leaving the ICD loader a null entry. A device query says each is
// absent: pipes (section 5.4 of the OpenCL 3.0 API specification; CL_DEVICE_PIPE_SUPPORT), shared
// virtual memory (5.6 and the kernels' SVM arguments; CL_DEVICE_SVM_CAPABILITIES), partitioning a
// device (4.3; CL_DEVICE_PARTITION_PROPERTIES), device-side queues
// (CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES), built-in kernels (CL_DEVICE_BUILT_IN_KERNELS) and native
// kernels (CL_DEVICE_EXECUTION_CAPABILITIES).
// An unsupported option of a supported object (clSetProgramSpecializationConstant, for one) stays
// with that object's entry points.
#include "runtime/api_util.h"
#include "runtime/kernel.h"
#include "runtime/memory.h"

using namespace cl2vk::runtime;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property*, cl_uint,
                                                   cl_device_id*, cl_uint*) {
  // CL_DEVICE_PARTITION_PROPERTIES is empty: no partition type is supported.
  return Device::find(in_device) == nullptr ? CL_INVALID_DEVICE : CL_INVALID_VALUE;
}

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id, cl_command_queue) {
  // No device supports device-side queues.
  return Context::find(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
}

// Pipes: not supported.

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags, cl_uint, cl_uint,
                                             const cl_pipe_properties*, cl_int* errcode_ret) {
  return withError<cl_mem>(errcode_ret, Context::find(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem, cl_pipe_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;  // no memory object is a pipe
}

// Shared virtual memory: CL_DEVICE_SVM_CAPABILITIES is 0.

CL_API_ENTRY void* CL_API_CALL clSVMAlloc(cl_context, cl_svm_mem_flags, size_t, cl_uint) { return nullptr; }
CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context, void*) {}

// Shared virtual memory commands: CL_DEVICE_SVM_CAPABILITIES is 0.

CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMFree(cl_command_queue command_queue, cl_uint, void*[],
                                                 void(CL_CALLBACK*)(cl_command_queue, cl_uint, void*[], void*), void*,
                                                 cl_uint, const cl_event*, cl_event*) {
  return CommandQueue::find(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemcpy(cl_command_queue command_queue, cl_bool, void*, const void*, size_t,
                                                   cl_uint, const cl_event*, cl_event*) {
  return CommandQueue::find(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMemFill(cl_command_queue command_queue, void*, const void*, size_t, size_t,
                                                    cl_uint, const cl_event*, cl_event*) {
  return CommandQueue::find(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMap(cl_command_queue command_queue, cl_bool, cl_map_flags, void*, size_t,
                                                cl_uint, const cl_event*, cl_event*) {
  return CommandQueue::find(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMUnmap(cl_command_queue command_queue, void*, cl_uint, const cl_event*,
                                                  cl_event*) {
  return CommandQueue::find(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueSVMMigrateMem(cl_command_queue command_queue, cl_uint, const void**,
                                                       const size_t*, cl_mem_migration_flags, cl_uint, const cl_event*,
                                                       cl_event*) {
  return CommandQueue::find(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelArgSVMPointer(cl_kernel kernel, cl_uint, const void*) {
  return Kernel::find(kernel) ? CL_INVALID_OPERATION : CL_INVALID_KERNEL;
}

CL_API_ENTRY cl_int CL_API_CALL clSetKernelExecInfo(cl_kernel kernel, cl_kernel_exec_info, size_t, const void*) {
  // The exec-info parameters of OpenCL 3.0 are about SVM, which no device supports.
  return Kernel::find(kernel) ? CL_INVALID_OPERATION : CL_INVALID_KERNEL;
}

CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithBuiltInKernels(cl_context context, cl_uint, const cl_device_id*,
                                                                      const char*, cl_int* errcode_ret) {
  // CL_DEVICE_BUILT_IN_KERNELS is empty, so every name is invalid.
  return withError<cl_program>(errcode_ret, Context::find(context) ? CL_INVALID_VALUE : CL_INVALID_CONTEXT, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNativeKernel(cl_command_queue command_queue, void(CL_CALLBACK*)(void*), void*,
                                                      size_t, cl_uint, const cl_mem*, const void**, cl_uint,
                                                      const cl_event*, cl_event*) {
  // CL_DEVICE_EXECUTION_CAPABILITIES has no CL_EXEC_NATIVE_KERNEL.
  return CommandQueue::find(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

}  // extern "C"
