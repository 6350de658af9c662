// The OpenCL entry points for memory objects: creating buffers and sub-buffers (section 5.2 of the
// OpenCL 3.0 API specification) and retaining, releasing and querying memory objects (5.5). The
// commands on buffers are in api_enqueue_memory.cc and api_enqueue_rect.cc; images are made in
// api_image.cc. Pipes and shared virtual memory are not supported (api_unsupported.cc).
#include "runtime/api_util.h"
#include "runtime/memory.h"

using namespace cl2vk::runtime;

namespace {

cl_mem createBuffer(cl_context context, const cl_mem_properties* properties, cl_mem_flags flags, size_t size,
                    void* host_ptr, cl_int* errcode_ret) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return withError<cl_mem>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  std::vector<cl_mem_properties> copy;
  cl_int error = keptMemoryProperties(properties, &copy);
  if (error != CL_SUCCESS) return withError<cl_mem>(errcode_ret, error, nullptr);
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
  if (!parent || parent->isSubBuffer() || parent->image())
    return withError<cl_mem>(errcode_ret, CL_INVALID_MEM_OBJECT, nullptr);
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
  return objectInfo<Memory>(memobj, CL_INVALID_MEM_OBJECT, param_name, param_value_size, param_value,
                            param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clSetMemObjectDestructorCallback(cl_mem memobj, MemoryDestructorCallback pfn_notify,
                                                                 void* user_data) {
  std::shared_ptr<Memory> found = Memory::find(memobj);
  if (!found) return CL_INVALID_MEM_OBJECT;
  if (pfn_notify == nullptr) return CL_INVALID_VALUE;
  found->addDestructorCallback(pfn_notify, user_data);
  return CL_SUCCESS;
}

}  // extern "C"
