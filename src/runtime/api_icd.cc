// The ICD side of the library: the dispatch table every handle points to, the extension function
// lookup, and the entry points of features no device of the platform has (images, SVM), which
// return the specification's errors rather than leaving the loader a null entry.
#include <cstring>

#include "runtime/api_util.h"

using namespace cl2vk::runtime;

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint, cl_platform_id*, cl_uint*);
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel, cl_device_id, cl_kernel_sub_group_info, size_t,
                                                           const void*, size_t, void*, size_t*);
CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context, const void*, size_t, cl_int*);

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties,
                                                          cl_bool, cl_command_queue_properties*) {
  // Deprecated since OpenCL 1.1: properties are set when the queue is created.
  return CommandQueue::find(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

// Image commands: every memory object is a buffer, so no image argument is valid.

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue, cl_mem, cl_bool, const size_t*, const size_t*,
                                                   size_t, size_t, void*, cl_uint, const cl_event*, cl_event*) {
  return CL_INVALID_MEM_OBJECT;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue, cl_mem, cl_bool, const size_t*, const size_t*,
                                                    size_t, size_t, const void*, cl_uint, const cl_event*, cl_event*) {
  return CL_INVALID_MEM_OBJECT;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue, cl_mem, const void*, const size_t*, const size_t*,
                                                   cl_uint, const cl_event*, cl_event*) {
  return CL_INVALID_MEM_OBJECT;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue, cl_mem, cl_mem, const size_t*, const size_t*,
                                                   const size_t*, cl_uint, const cl_event*, cl_event*) {
  return CL_INVALID_MEM_OBJECT;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue, cl_mem, cl_mem, const size_t*,
                                                           const size_t*, size_t, cl_uint, const cl_event*, cl_event*) {
  return CL_INVALID_MEM_OBJECT;
}
CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue, cl_mem, cl_mem, size_t, const size_t*,
                                                           const size_t*, cl_uint, const cl_event*, cl_event*) {
  return CL_INVALID_MEM_OBJECT;
}
CL_API_ENTRY void* CL_API_CALL clEnqueueMapImage(cl_command_queue, cl_mem, cl_bool, cl_map_flags, const size_t*,
                                                 const size_t*, size_t*, size_t*, cl_uint, const cl_event*, cl_event*,
                                                 cl_int* errcode_ret) {
  return withError<void*>(errcode_ret, CL_INVALID_MEM_OBJECT, nullptr);
}

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

// Extension functions: those of cl_khr_il_program and cl_khr_subgroups, and the ICD's own.
CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddress(const char* func_name) {
  if (func_name == nullptr) return nullptr;
  struct Entry {
    const char* name;
    void* function;
  };
  static const Entry kEntries[] = {
      {"clIcdGetPlatformIDsKHR", reinterpret_cast<void*>(&clIcdGetPlatformIDsKHR)},
      {"clCreateProgramWithILKHR", reinterpret_cast<void*>(&clCreateProgramWithILKHR)},
      {"clGetKernelSubGroupInfoKHR", reinterpret_cast<void*>(&clGetKernelSubGroupInfoKHR)},
  };
  for (const Entry& entry : kEntries) {
    if (std::strcmp(entry.name, func_name) == 0) return entry.function;
  }
  return nullptr;
}

CL_API_ENTRY void* CL_API_CALL clGetExtensionFunctionAddressForPlatform(cl_platform_id platform,
                                                                        const char* func_name) {
  return Platform::find(platform) ? clGetExtensionFunctionAddress(func_name) : nullptr;
}

}  // extern "C"

namespace cl2vk::runtime {

const cl_icd_dispatch* dispatchTable() {
  static const cl_icd_dispatch table = [] {
    cl_icd_dispatch t{};
#define CL2VK_ENTRY(name) t.name = name
    CL2VK_ENTRY(clGetPlatformIDs);
    CL2VK_ENTRY(clGetPlatformInfo);
    CL2VK_ENTRY(clGetDeviceIDs);
    CL2VK_ENTRY(clGetDeviceInfo);
    CL2VK_ENTRY(clCreateContext);
    CL2VK_ENTRY(clCreateContextFromType);
    CL2VK_ENTRY(clRetainContext);
    CL2VK_ENTRY(clReleaseContext);
    CL2VK_ENTRY(clGetContextInfo);
    CL2VK_ENTRY(clCreateCommandQueue);
    CL2VK_ENTRY(clRetainCommandQueue);
    CL2VK_ENTRY(clReleaseCommandQueue);
    CL2VK_ENTRY(clGetCommandQueueInfo);
    CL2VK_ENTRY(clSetCommandQueueProperty);
    CL2VK_ENTRY(clCreateBuffer);
    CL2VK_ENTRY(clCreateImage2D);
    CL2VK_ENTRY(clCreateImage3D);
    CL2VK_ENTRY(clRetainMemObject);
    CL2VK_ENTRY(clReleaseMemObject);
    CL2VK_ENTRY(clGetSupportedImageFormats);
    CL2VK_ENTRY(clGetMemObjectInfo);
    CL2VK_ENTRY(clGetImageInfo);
    CL2VK_ENTRY(clCreateSampler);
    CL2VK_ENTRY(clRetainSampler);
    CL2VK_ENTRY(clReleaseSampler);
    CL2VK_ENTRY(clGetSamplerInfo);
    CL2VK_ENTRY(clCreateProgramWithSource);
    CL2VK_ENTRY(clCreateProgramWithBinary);
    CL2VK_ENTRY(clRetainProgram);
    CL2VK_ENTRY(clReleaseProgram);
    CL2VK_ENTRY(clBuildProgram);
    CL2VK_ENTRY(clUnloadCompiler);
    CL2VK_ENTRY(clGetProgramInfo);
    CL2VK_ENTRY(clGetProgramBuildInfo);
    CL2VK_ENTRY(clCreateKernel);
    CL2VK_ENTRY(clCreateKernelsInProgram);
    CL2VK_ENTRY(clRetainKernel);
    CL2VK_ENTRY(clReleaseKernel);
    CL2VK_ENTRY(clSetKernelArg);
    CL2VK_ENTRY(clGetKernelInfo);
    CL2VK_ENTRY(clGetKernelWorkGroupInfo);
    CL2VK_ENTRY(clWaitForEvents);
    CL2VK_ENTRY(clGetEventInfo);
    CL2VK_ENTRY(clRetainEvent);
    CL2VK_ENTRY(clReleaseEvent);
    CL2VK_ENTRY(clGetEventProfilingInfo);
    CL2VK_ENTRY(clFlush);
    CL2VK_ENTRY(clFinish);
    CL2VK_ENTRY(clEnqueueReadBuffer);
    CL2VK_ENTRY(clEnqueueWriteBuffer);
    CL2VK_ENTRY(clEnqueueCopyBuffer);
    CL2VK_ENTRY(clEnqueueReadImage);
    CL2VK_ENTRY(clEnqueueWriteImage);
    CL2VK_ENTRY(clEnqueueCopyImage);
    CL2VK_ENTRY(clEnqueueCopyImageToBuffer);
    CL2VK_ENTRY(clEnqueueCopyBufferToImage);
    CL2VK_ENTRY(clEnqueueMapBuffer);
    CL2VK_ENTRY(clEnqueueMapImage);
    CL2VK_ENTRY(clEnqueueUnmapMemObject);
    CL2VK_ENTRY(clEnqueueNDRangeKernel);
    CL2VK_ENTRY(clEnqueueTask);
    CL2VK_ENTRY(clEnqueueNativeKernel);
    CL2VK_ENTRY(clEnqueueMarker);
    CL2VK_ENTRY(clEnqueueWaitForEvents);
    CL2VK_ENTRY(clEnqueueBarrier);
    CL2VK_ENTRY(clGetExtensionFunctionAddress);
    CL2VK_ENTRY(clSetEventCallback);
    CL2VK_ENTRY(clCreateSubBuffer);
    CL2VK_ENTRY(clSetMemObjectDestructorCallback);
    CL2VK_ENTRY(clCreateUserEvent);
    CL2VK_ENTRY(clSetUserEventStatus);
    CL2VK_ENTRY(clEnqueueReadBufferRect);
    CL2VK_ENTRY(clEnqueueWriteBufferRect);
    CL2VK_ENTRY(clEnqueueCopyBufferRect);
    CL2VK_ENTRY(clCreateSubDevices);
    CL2VK_ENTRY(clRetainDevice);
    CL2VK_ENTRY(clReleaseDevice);
    CL2VK_ENTRY(clCreateImage);
    CL2VK_ENTRY(clCreateProgramWithBuiltInKernels);
    CL2VK_ENTRY(clCompileProgram);
    CL2VK_ENTRY(clLinkProgram);
    CL2VK_ENTRY(clUnloadPlatformCompiler);
    CL2VK_ENTRY(clGetKernelArgInfo);
    CL2VK_ENTRY(clEnqueueFillBuffer);
    CL2VK_ENTRY(clEnqueueFillImage);
    CL2VK_ENTRY(clEnqueueMigrateMemObjects);
    CL2VK_ENTRY(clEnqueueMarkerWithWaitList);
    CL2VK_ENTRY(clEnqueueBarrierWithWaitList);
    CL2VK_ENTRY(clGetExtensionFunctionAddressForPlatform);
    CL2VK_ENTRY(clCreateCommandQueueWithProperties);
    CL2VK_ENTRY(clCreatePipe);
    CL2VK_ENTRY(clGetPipeInfo);
    CL2VK_ENTRY(clSVMAlloc);
    CL2VK_ENTRY(clSVMFree);
    CL2VK_ENTRY(clEnqueueSVMFree);
    CL2VK_ENTRY(clEnqueueSVMMemcpy);
    CL2VK_ENTRY(clEnqueueSVMMemFill);
    CL2VK_ENTRY(clEnqueueSVMMap);
    CL2VK_ENTRY(clEnqueueSVMUnmap);
    CL2VK_ENTRY(clCreateSamplerWithProperties);
    CL2VK_ENTRY(clSetKernelArgSVMPointer);
    CL2VK_ENTRY(clSetKernelExecInfo);
    CL2VK_ENTRY(clGetKernelSubGroupInfoKHR);
    CL2VK_ENTRY(clCloneKernel);
    CL2VK_ENTRY(clCreateProgramWithIL);
    CL2VK_ENTRY(clEnqueueSVMMigrateMem);
    CL2VK_ENTRY(clGetDeviceAndHostTimer);
    CL2VK_ENTRY(clGetHostTimer);
    CL2VK_ENTRY(clGetKernelSubGroupInfo);
    CL2VK_ENTRY(clSetDefaultDeviceCommandQueue);
    CL2VK_ENTRY(clSetProgramReleaseCallback);
    CL2VK_ENTRY(clSetProgramSpecializationConstant);
    CL2VK_ENTRY(clCreateBufferWithProperties);
    CL2VK_ENTRY(clCreateImageWithProperties);
    CL2VK_ENTRY(clSetContextDestructorCallback);
#undef CL2VK_ENTRY
    return t;
  }();
  return &table;
}

}  // namespace cl2vk::runtime
