// The ICD dispatch table: the first member of every handle the library gives out points to it
// (object.h), and the ICD loader calls the entry points through it.
#include "runtime/api_util.h"

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
