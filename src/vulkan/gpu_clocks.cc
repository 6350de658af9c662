#include "vulkan/gpu_clocks.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <string_view>

#include "vulkan/device_info.h"

namespace cl2vk::vulkan {

namespace {

constexpr uint32_t kNvidiaVendorId = 0x10de;

// The few CUDA driver API entry points used, declared by their documented signatures (cuda.h is
// not a build dependency). CUresult 0 is CUDA_SUCCESS.
using CuInit = int (*)(unsigned flags);
using CuDeviceGetCount = int (*)(int* count);
using CuDeviceGet = int (*)(int* device, int ordinal);
using CuDeviceGetUuid = int (*)(std::array<uint8_t, 16>* uuid, int device);
using CuDevicePrimaryCtxRetain = int (*)(void** context, int device);
using CuDevicePrimaryCtxRelease = int (*)(int device);

}  // namespace

struct ClockHold::Driver {
  void* library = nullptr;
  CuDevicePrimaryCtxRelease release = nullptr;
  ~Driver() {
    if (library) dlclose(library);
  }
};

ClockPolicy ClockHold::policyFromEnvironment() {
  const char* value = std::getenv("CL2VK_NVIDIA_CLOCKS");
  return value && std::string_view(value) == "off" ? ClockPolicy::kOff : ClockPolicy::kCudaContext;
}

std::unique_ptr<ClockHold> ClockHold::acquire(const DeviceInfo& info, ClockPolicy policy, std::string& why) {
  why.clear();
  if (info.vendorId != kNvidiaVendorId || policy == ClockPolicy::kOff) return nullptr;
  auto driver = std::make_unique<Driver>();
  driver->library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
  if (!driver->library) {
    why = "libcuda.so.1 (NVIDIA's CUDA driver library) could not be loaded";
    return nullptr;
  }
  auto symbol = [&](const char* name) { return dlsym(driver->library, name); };
  auto init = reinterpret_cast<CuInit>(symbol("cuInit"));
  auto count = reinterpret_cast<CuDeviceGetCount>(symbol("cuDeviceGetCount"));
  auto get = reinterpret_cast<CuDeviceGet>(symbol("cuDeviceGet"));
  auto uuidOf = reinterpret_cast<CuDeviceGetUuid>(symbol("cuDeviceGetUuid_v2"));
  if (!uuidOf) uuidOf = reinterpret_cast<CuDeviceGetUuid>(symbol("cuDeviceGetUuid"));
  auto retain = reinterpret_cast<CuDevicePrimaryCtxRetain>(symbol("cuDevicePrimaryCtxRetain"));
  driver->release = reinterpret_cast<CuDevicePrimaryCtxRelease>(symbol("cuDevicePrimaryCtxRelease_v2"));
  if (!driver->release)
    driver->release = reinterpret_cast<CuDevicePrimaryCtxRelease>(symbol("cuDevicePrimaryCtxRelease"));
  if (!init || !count || !get || !uuidOf || !retain || !driver->release) {
    why = "libcuda.so.1 lacks the CUDA driver API functions cl2vk needs";
    return nullptr;
  }
  int devices = 0;
  if (int result = init(0); result != 0) {
    why = "cuInit failed (CUresult " + std::to_string(result) + ")";
    return nullptr;
  }
  if (count(&devices) != 0) devices = 0;
  for (int ordinal = 0; ordinal < devices; ++ordinal) {
    int device = 0;
    std::array<uint8_t, 16> uuid{};
    if (get(&device, ordinal) != 0 || uuidOf(&uuid, device) != 0) continue;
    if (uuid != info.deviceUuid) continue;
    void* context = nullptr;
    if (int result = retain(&context, device); result != 0) {
      why = "cuDevicePrimaryCtxRetain failed (CUresult " + std::to_string(result) + ")";
      return nullptr;
    }
    std::unique_ptr<ClockHold> hold(new ClockHold());
    hold->driver_ = std::move(driver);
    hold->cudaDevice_ = device;
    return hold;
  }
  why = "CUDA lists no device with the Vulkan device's UUID";
  return nullptr;
}

ClockHold::~ClockHold() {
  if (driver_ && driver_->release) driver_->release(cudaDevice_);
}

}  // namespace cl2vk::vulkan
