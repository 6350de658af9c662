// The OpenCL entry points for platforms (section 4.1 of the OpenCL 3.0 API specification) and the
// extension function lookup (clGetExtensionFunctionAddress*). clIcdGetPlatformIDsKHR, cl_khr_icd's
// entry point, is here too: it is how the ICD loader asks for the platforms, the same question as
// clGetPlatformIDs. The ICD dispatch table is in dispatch_table.cc.
#include <cstring>

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
