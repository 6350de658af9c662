// The OpenCL entry points for devices: the device queries and timers (section 4.2 of the OpenCL 3.0
// API specification) and retaining and releasing devices (4.3). No device can be partitioned
// (clCreateSubDevices is in api_unsupported.cc).
#include "runtime/api_util.h"

using namespace cl2vk::runtime;

namespace {

bool matchesType(const Device& device, bool isDefault, cl_device_type type) {
  if (type == CL_DEVICE_TYPE_ALL) return true;
  if ((type & CL_DEVICE_TYPE_DEFAULT) && isDefault) return true;
  return (type & device.type()) != 0;
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceIDs(cl_platform_id platform, cl_device_type device_type, cl_uint num_entries,
                                               cl_device_id* devices, cl_uint* num_devices) {
  Platform* found = platform == nullptr ? &Platform::get() : Platform::find(platform);
  if (found == nullptr) return CL_INVALID_PLATFORM;
  constexpr cl_device_type kKnown = CL_DEVICE_TYPE_DEFAULT | CL_DEVICE_TYPE_CPU | CL_DEVICE_TYPE_GPU |
                                    CL_DEVICE_TYPE_ACCELERATOR | CL_DEVICE_TYPE_CUSTOM;
  // No type at all (0) is not a valid value either.
  if (device_type == 0 || (device_type != CL_DEVICE_TYPE_ALL && (device_type & ~kKnown) != 0))
    return CL_INVALID_DEVICE_TYPE;
  if ((num_entries == 0 && devices != nullptr) || (devices == nullptr && num_devices == nullptr))
    return CL_INVALID_VALUE;
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

CL_API_ENTRY cl_int CL_API_CALL clGetDeviceInfo(cl_device_id device, cl_device_info param_name, size_t param_value_size,
                                                void* param_value, size_t* param_value_size_ret) {
  Device* found = Device::find(device);
  if (found == nullptr) return CL_INVALID_DEVICE;
  return found->getInfo(param_name, InfoOut{param_value_size, param_value, param_value_size_ret});
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

}  // extern "C"
