// The OpenCL entry points for platforms, devices and contexts.
#include <algorithm>

#include "runtime/api_util.h"

using namespace cl2vk::runtime;

namespace {

cl_int platformIds(cl_uint entries, cl_platform_id* platforms, cl_uint* count) {
  if ((entries == 0 && platforms != nullptr) || (platforms == nullptr && count == nullptr)) return CL_INVALID_VALUE;
  Platform& platform = Platform::get();
  if (platforms != nullptr) platforms[0] = &platform;
  if (count != nullptr) *count = 1;
  return CL_SUCCESS;
}

bool matchesType(const Device& device, bool isDefault, cl_device_type type) {
  if (type == CL_DEVICE_TYPE_ALL) return true;
  if ((type & CL_DEVICE_TYPE_DEFAULT) && isDefault) return true;
  return (type & device.type()) != 0;
}

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
      if (syncSeen) return CL_INVALID_PROPERTY;
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
  cl2vk::Expected<std::shared_ptr<Context>> context = Context::create(std::move(devices), std::move(copy), notify, userData);
  if (!context) {
    if (notify != nullptr) notify(context.error().message().c_str(), nullptr, 0, userData);
    return withError<cl_context>(error, CL_DEVICE_NOT_AVAILABLE, nullptr);
  }
  return withError(error, CL_SUCCESS, Context::publish(*context));
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint num_entries, cl_platform_id* platforms,
                                                       cl_uint* num_platforms) {
  return platformIds(num_entries, platforms, num_platforms);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformIDs(cl_uint num_entries, cl_platform_id* platforms,
                                                 cl_uint* num_platforms) {
  return platformIds(num_entries, platforms, num_platforms);
}

CL_API_ENTRY cl_int CL_API_CALL clGetPlatformInfo(cl_platform_id platform, cl_platform_info param_name,
                                                  size_t param_value_size, void* param_value,
                                                  size_t* param_value_size_ret) {
  Platform* found = platform == nullptr ? &Platform::get() : Platform::find(platform);
  if (found == nullptr) return CL_INVALID_PLATFORM;
  return found->getInfo(param_name, InfoOut{param_value_size, param_value, param_value_size_ret});
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type,
                                               cl_uint num_entries, cl_device_id* devices, cl_uint* num_devices) {
  Platform* found = platform == nullptr ? &Platform::get() : Platform::find(platform);
  if (found == nullptr) return CL_INVALID_PLATFORM;
  constexpr cl_device_type kKnown = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                    CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  if (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~kKnown) != 0) return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices != nullptr) || (devices == nullptr && num_devices == nullptr)) return CL_INVALID_VALUE;
  std::vector<cl_device_id> matching;
  const auto& all = found->devices();
  for (size_t i = 0; i < all.size(); ++i) {
    if (matchesType(*all[i], i == 0, device_type)) matching.push_back(all[i].get());
  }
  if (matching.empty()) return CL_DEVICE_NOT_FOUND;
  if (devices != nullptr) {
    for (cl_uint i = 0; i < num_entries && i < matching.size(); ++i) devices[i] = matching[i];
  }
  if (num_devices != nullptr) *num_devices = static_cast<cl_uint>(matching.size());
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name,
                                                size_t param_value_size, void* param_value,
                                                size_t* param_value_size_ret) {
  Device* found = Device::find(device);
  if (found == nullptr) return CL_INVALID_DEVICE;
  return found->getInfo(param_name, InfoOut{param_value_size, param_value, param_value_size_ret});
}

CL_API_ENTRY cl_int CL_API_CALL clCreateSubDevices(cl_device_id in_device, const cl_device_partition_property*,
                                                   cl_uint, cl_device_id*, cl_uint*) {
  // CL_DEVICE_PARTITION_PROPERTIES is empty: no partition type is supported.
  return Device::find(in_device) == nullptr ? CL_INVALID_DEVICE : CL_INVALID_VALUE;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainDevice(cl_device_id device) {
  return Device::find(device) == nullptr ? CL_INVALID_DEVICE : CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseDevice(cl_device_id device) {
  return Device::find(device) == nullptr ? CL_INVALID_DEVICE : CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetHostTimer(cl_device_id device, cl_ulong* host_timestamp) {
  if (Device::find(device) == nullptr) return CL_INVALID_DEVICE;
  if (host_timestamp == nullptr) return CL_INVALID_VALUE;
  *host_timestamp = hostNanoseconds();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceAndHostTimer(cl_device_id device, cl_ulong* device_timestamp,
                                                        cl_ulong* host_timestamp) {
  // Event profiling times are host steady-clock times (event.h), so the two timers are one.
  if (Device::find(device) == nullptr) return CL_INVALID_DEVICE;
  if (device_timestamp == nullptr || host_timestamp == nullptr) return CL_INVALID_VALUE;
  *host_timestamp = *device_timestamp = hostNanoseconds();
  return CL_SUCCESS;
}

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
  if (pfn_notify == nullptr && user_data != nullptr) return withError<cl_context>(errcode_ret, CL_INVALID_VALUE, nullptr);
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
  return objectInfo<Context>(context, CL_INVALID_CONTEXT,
                             param_name, param_value_size, param_value, param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clSetContextDestructorCallback(cl_context context,
                                                               ContextDestructorCallback pfn_notify,
                                                               void* user_data) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return CL_INVALID_CONTEXT;
  if (pfn_notify == nullptr) return CL_INVALID_VALUE;
  found->addDestructorCallback(pfn_notify, user_data);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadPlatformCompiler(cl_platform_id platform) {
  return Platform::find(platform) == nullptr ? CL_INVALID_PLATFORM : CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clUnloadCompiler(void) { return CL_SUCCESS; }

}  // extern "C"
