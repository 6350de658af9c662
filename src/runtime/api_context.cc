// The OpenCL entry points for contexts (section 4.4 of the OpenCL 3.0 API specification).
#include <algorithm>

#include "runtime/api_util.h"

using namespace cl2vk::runtime;

namespace {

// Checks a clCreateContext property list: only CL_CONTEXT_PLATFORM (this platform) and
// CL_CONTEXT_INTEROP_USER_SYNC, each at most once.
cl_int checkContextProperties(const cl_context_properties* properties, std::vector<cl_context_properties>* copy) {
  copy->clear();
  if (properties == nullptr) return CL_SUCCESS;
  bool platformSeen = false, syncSeen = false;
  for (const cl_context_properties* p = properties; *p != 0; p += 2) {
    if (p[0] == CL_CONTEXT_PLATFORM) {
      if (platformSeen) return CL_INVALID_PROPERTY;
      platformSeen = true;
      if (Platform::find(reinterpret_cast<cl_platform_id>(p[1])) == nullptr) return CL_INVALID_PLATFORM;
    } else if (p[0] == CL_CONTEXT_INTEROP_USER_SYNC) {
      // A cl_bool: CL_TRUE or CL_FALSE.
      if (syncSeen || (p[1] != CL_TRUE && p[1] != CL_FALSE)) return CL_INVALID_PROPERTY;
      syncSeen = true;
    } else {
      return CL_INVALID_PROPERTY;
    }
    copy->push_back(p[0]);
    copy->push_back(p[1]);
  }
  copy->push_back(0);
  return CL_SUCCESS;
}

cl_context createContext(const cl_context_properties* properties, std::vector<Device*> devices, ContextNotify notify,
                         void* userData, cl_int* error) {
  std::vector<cl_context_properties> copy;
  if (cl_int status = checkContextProperties(properties, &copy); status != CL_SUCCESS)
    return withError<cl_context>(error, status, nullptr);
  cl2vk::Expected<std::shared_ptr<Context>> context =
      Context::create(std::move(devices), std::move(copy), notify, userData);
  if (!context) {
    if (notify != nullptr) notify(context.error().message().c_str(), nullptr, 0, userData);
    return withError<cl_context>(error, CL_DEVICE_NOT_AVAILABLE, nullptr);
  }
  return withError(error, CL_SUCCESS, Context::publish(*context));
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_context CL_API_CALL clCreateContext(const cl_context_properties* properties, cl_uint num_devices,
                                                    const cl_device_id* devices, ContextNotify pfn_notify,
                                                    void* user_data, cl_int* errcode_ret) {
  if (devices == nullptr || num_devices == 0 || (pfn_notify == nullptr && user_data != nullptr))
    return withError<cl_context>(errcode_ret, CL_INVALID_VALUE, nullptr);
  std::vector<Device*> list;
  for (cl_uint i = 0; i < num_devices; ++i) {
    Device* device = Device::find(devices[i]);
    if (device == nullptr) return withError<cl_context>(errcode_ret, CL_INVALID_DEVICE, nullptr);
    if (std::find(list.begin(), list.end(), device) == list.end()) list.push_back(device);
  }
  return createContext(properties, std::move(list), pfn_notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_context CL_API_CALL clCreateContextFromType(const cl_context_properties* properties,
                                                            cl_device_type device_type, ContextNotify pfn_notify,
                                                            void* user_data, cl_int* errcode_ret) {
  if (pfn_notify == nullptr && user_data != nullptr)
    return withError<cl_context>(errcode_ret, CL_INVALID_VALUE, nullptr);
  cl_uint count = 0;
  cl_int status = clGetDeviceIDs(&Platform::get(), device_type, 0, nullptr, &count);
  if (status != CL_SUCCESS) return withError<cl_context>(errcode_ret, status, nullptr);
  std::vector<cl_device_id> handles(count);
  clGetDeviceIDs(&Platform::get(), device_type, count, handles.data(), nullptr);
  std::vector<Device*> list;
  for (cl_device_id handle : handles) list.push_back(Device::find(handle));
  return createContext(properties, std::move(list), pfn_notify, user_data, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainContext(cl_context context) {
  return retainObject<Context>(context, CL_INVALID_CONTEXT);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseContext(cl_context context) {
  return releaseObject<Context>(context, CL_INVALID_CONTEXT);
}

CL_API_ENTRY cl_int CL_API_CALL clGetContextInfo(cl_context context, cl_context_info param_name,
                                                 size_t param_value_size, void* param_value,
                                                 size_t* param_value_size_ret) {
  return objectInfo<Context>(context, CL_INVALID_CONTEXT, param_name, param_value_size, param_value,
                             param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context, ContextDestructorCallback pfn_notify,
                                                               void* user_data) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return CL_INVALID_CONTEXT;
  if (pfn_notify == nullptr) return CL_INVALID_VALUE;
  found->addDestructorCallback(pfn_notify, user_data);
  return CL_SUCCESS;
}

}  // extern "C"
