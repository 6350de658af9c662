// The OpenCL entry points for memory objects. Buffers are supported; images, pipes, samplers and
// shared virtual memory are not (CL_DEVICE_IMAGE_SUPPORT, CL_DEVICE_PIPE_SUPPORT and
// CL_DEVICE_SVM_CAPABILITIES say so), and their entry points return the errors the specification
// gives for a context whose devices lack them.
#include "runtime/api_util.h"
#include "runtime/memory.h"

using namespace cl2vk::runtime;

namespace {

cl_mem createBuffer(cl_context context, const cl_mem_properties* properties, cl_mem_flags flags, size_t size,
                    void* host_ptr, cl_int* errcode_ret) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  std::vector<cl_mem_properties> copy;
  if (properties != nullptr) {
    // No buffer property is supported; an empty list is fine.
    if (properties[0] != 0) return withError<cl_mem>(errcode_ret, CL_INVALID_PROPERTY, nullptr);
    copy.push_back(0);
  }
  cl_int error = CL_SUCCESS;
  std::shared_ptr<Memory> memory = Memory::createBuffer(found, flags, size, host_ptr, std::move(copy), &error);
  if (!memory) return withError<cl_mem>(errcode_ret, error, nullptr);
  return withError(errcode_ret, CL_SUCCESS, Memory::publish(memory));
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_mem CL_API_CALL clCreateBuffer(cl_context context, cl_mem_flags flags, size_t size, void* host_ptr,
                                               cl_int* errcode_ret) {
  return createBuffer(context, nullptr, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateBufferWithProperties(cl_context context, const cl_mem_properties* properties,
                                                             cl_mem_flags flags, size_t size, void* host_ptr,
                                                             cl_int* errcode_ret) {
  return createBuffer(context, properties, flags, size, host_ptr, errcode_ret);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateSubBuffer(cl_mem buffer, cl_mem_flags flags,
                                                  cl_buffer_create_type buffer_create_type,
                                                  const void* buffer_create_info, cl_int* errcode_ret) {
  std::shared_ptr<Memory> parent = Memory::find(buffer);
  if (!parent || parent->isSubBuffer()) return withError<cl_mem>(errcode_ret, CL_INVALID_MEM_OBJECT, nullptr);
  if (buffer_create_type != CL_BUFFER_CREATE_TYPE_REGION || buffer_create_info == nullptr)
    return withError<cl_mem>(errcode_ret, CL_INVALID_VALUE, nullptr);
  const auto* region = static_cast<const cl_buffer_region*>(buffer_create_info);
  cl_int error = CL_SUCCESS;
  std::shared_ptr<Memory> memory = Memory::createSubBuffer(parent, flags, region->origin, region->size, &error);
  if (!memory) return withError<cl_mem>(errcode_ret, error, nullptr);
  return withError(errcode_ret, CL_SUCCESS, Memory::publish(memory));
}

CL_API_ENTRY cl_int CL_API_CALL clRetainMemObject(cl_mem memobj) {
  return retainObject<Memory>(memobj, CL_INVALID_MEM_OBJECT);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseMemObject(cl_mem memobj) {
  return releaseObject<Memory>(memobj, CL_INVALID_MEM_OBJECT);
}

CL_API_ENTRY cl_int CL_API_CALL clGetMemObjectInfo(cl_mem memobj, cl_mem_info param_name, size_t param_value_size,
                                                   void* param_value, size_t* param_value_size_ret) {
  return objectInfo<Memory>(memobj, CL_INVALID_MEM_OBJECT,
                            param_name, param_value_size, param_value, param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj,
                                                                 MemoryDestructorCallback pfn_notify,
                                                                 void* user_data) {
  std::shared_ptr<Memory> found = Memory::find(memobj);
  if (!found) return CL_INVALID_MEM_OBJECT;
  if (pfn_notify == nullptr) return CL_INVALID_VALUE;
  found->addDestructorCallback(pfn_notify, user_data);
  return CL_SUCCESS;
}

// Images: no device of the platform supports them.

CL_API_ENTRY cl_int CL_API_CALL clGetSupportedImageFormats(cl_context context, cl_mem_flags, cl_mem_object_type,
                                                           cl_uint, cl_image_format*, cl_uint* num_image_formats) {
  if (!Context::find(context)) return CL_INVALID_CONTEXT;
  if (num_image_formats != nullptr) *num_image_formats = 0;
  return CL_SUCCESS;
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage(cl_context context, cl_mem_flags, const cl_image_format*,
                                              const cl_image_desc*, void*, cl_int* errcode_ret) {
  return withError<cl_mem>(errcode_ret, Context::find(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT, nullptr);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImageWithProperties(cl_context context, const cl_mem_properties*,
                                                            cl_mem_flags, const cl_image_format*,
                                                            const cl_image_desc*, void*, cl_int* errcode_ret) {
  return withError<cl_mem>(errcode_ret, Context::find(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT, nullptr);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage2D(cl_context context, cl_mem_flags, const cl_image_format*, size_t,
                                                size_t, size_t, void*, cl_int* errcode_ret) {
  return withError<cl_mem>(errcode_ret, Context::find(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT, nullptr);
}

CL_API_ENTRY cl_mem CL_API_CALL clCreateImage3D(cl_context context, cl_mem_flags, const cl_image_format*, size_t,
                                                size_t, size_t, size_t, size_t, void*, cl_int* errcode_ret) {
  return withError<cl_mem>(errcode_ret, Context::find(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clGetImageInfo(cl_mem, cl_image_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;  // every memory object is a buffer
}

// Pipes and samplers: not supported.

CL_API_ENTRY cl_mem CL_API_CALL clCreatePipe(cl_context context, cl_mem_flags, cl_uint, cl_uint,
                                             const cl_pipe_properties*, cl_int* errcode_ret) {
  return withError<cl_mem>(errcode_ret, Context::find(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPipeInfo(cl_mem, cl_pipe_info, size_t, void*, size_t*) {
  return CL_INVALID_MEM_OBJECT;  // every memory object is a buffer
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSamplerWithProperties(cl_context context, const cl_sampler_properties*,
                                                                  cl_int* errcode_ret) {
  return withError<cl_sampler>(errcode_ret, Context::find(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT,
                               nullptr);
}

CL_API_ENTRY cl_sampler CL_API_CALL clCreateSampler(cl_context context, cl_bool, cl_addressing_mode, cl_filter_mode,
                                                    cl_int* errcode_ret) {
  return withError<cl_sampler>(errcode_ret, Context::find(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT,
                               nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainSampler(cl_sampler) { return CL_INVALID_SAMPLER; }
CL_API_ENTRY cl_int CL_API_CALL clReleaseSampler(cl_sampler) { return CL_INVALID_SAMPLER; }
CL_API_ENTRY cl_int CL_API_CALL clGetSamplerInfo(cl_sampler, cl_sampler_info, size_t, void*, size_t*) {
  return CL_INVALID_SAMPLER;
}

// Shared virtual memory: CL_DEVICE_SVM_CAPABILITIES is 0.

CL_API_ENTRY void* CL_API_CALL clSVMAlloc(cl_context, cl_svm_mem_flags, size_t, cl_uint) { return nullptr; }
CL_API_ENTRY void CL_API_CALL clSVMFree(cl_context, void*) {}

}  // extern "C"
