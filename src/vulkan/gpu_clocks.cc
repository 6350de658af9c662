#include "vulkan/gpu_clocks.h"

#include <dlfcn.h>

#include <cstdlib>
#include <cstring>
#include <optional>
#include <string_view>

#include "support/settings.h"
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
using CuDeviceGetAttribute = int (*)(int* value, int attribute, int device);
// CU_DEVICE_ATTRIBUTE_CLOCK_RATE: the peak SM clock in kHz (what NVIDIA's OpenCL reports as
// CL_DEVICE_MAX_CLOCK_FREQUENCY).
constexpr int kClockRateAttribute = 13;

}  // namespace

struct ClockHold::Driver {
  void* library = nullptr;
  CuDevicePrimaryCtxRelease release = nullptr;
  ~Driver() {
    if (library) dlclose(library);
  }
  void* symbol(const char* name) const { return dlsym(library, name); }

  // Loads libcuda.so.1 and initializes CUDA; null with `why` where it cannot.
  static std::unique_ptr<Driver> open(std::string& why) {
    auto driver = std::make_unique<Driver>();
    driver->library = dlopen("libcuda.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!driver->library) {
      why = "libcuda.so.1 (NVIDIA's CUDA driver library) could not be loaded";
      return nullptr;
    }
    auto init = reinterpret_cast<CuInit>(driver->symbol("cuInit"));
    if (!init) {
      why = "libcuda.so.1 lacks the CUDA driver API functions cl2vk needs";
      return nullptr;
    }
    if (int result = init(0); result != 0) {
      why = "cuInit failed (CUresult " + std::to_string(result) + ")";
      return nullptr;
    }
    return driver;
  }

  // The CUDA device whose UUID is the Vulkan device's; nullopt with `why` where there is none.
  std::optional<int> deviceOf(const DeviceInfo& info, std::string& why) const {
    auto count = reinterpret_cast<CuDeviceGetCount>(symbol("cuDeviceGetCount"));
    auto get = reinterpret_cast<CuDeviceGet>(symbol("cuDeviceGet"));
    auto uuidOf = reinterpret_cast<CuDeviceGetUuid>(symbol("cuDeviceGetUuid_v2"));
    if (!uuidOf) uuidOf = reinterpret_cast<CuDeviceGetUuid>(symbol("cuDeviceGetUuid"));
    if (!count || !get || !uuidOf) {
      why = "libcuda.so.1 lacks the CUDA driver API functions cl2vk needs";
      return std::nullopt;
    }
    int devices = 0;
    if (count(&devices) != 0) devices = 0;
    for (int ordinal = 0; ordinal < devices; ++ordinal) {
      int device = 0;
      std::array<uint8_t, 16> uuid{};
      if (get(&device, ordinal) == 0 && uuidOf(&uuid, device) == 0 && uuid == info.deviceUuid) return device;
    }
    why = "CUDA lists no device with the Vulkan device's UUID";
    return std::nullopt;
  }
};

ClockPolicy ClockHold::policyFromEnvironment() {
  return settings::read(settings::Setting::kNvidiaClocks) == "off" ? ClockPolicy::kOff : ClockPolicy::kCudaContext;
}

std::unique_ptr<ClockHold> ClockHold::acquire(const DeviceInfo& info, ClockPolicy policy, std::string& why) {
  why.clear();
  if (info.vendorId != kNvidiaVendorId || policy == ClockPolicy::kOff) return nullptr;
  std::unique_ptr<Driver> driver = Driver::open(why);
  if (!driver) return nullptr;
  auto retain = reinterpret_cast<CuDevicePrimaryCtxRetain>(driver->symbol("cuDevicePrimaryCtxRetain"));
  driver->release = reinterpret_cast<CuDevicePrimaryCtxRelease>(driver->symbol("cuDevicePrimaryCtxRelease_v2"));
  if (!driver->release)
    driver->release = reinterpret_cast<CuDevicePrimaryCtxRelease>(driver->symbol("cuDevicePrimaryCtxRelease"));
  if (!retain || !driver->release) {
    why = "libcuda.so.1 lacks the CUDA driver API functions cl2vk needs";
    return nullptr;
  }
  std::optional<int> device = driver->deviceOf(info, why);
  if (!device) return nullptr;
  void* context = nullptr;
  if (int result = retain(&context, *device); result != 0) {
    why = "cuDevicePrimaryCtxRetain failed (CUresult " + std::to_string(result) + ")";
    return nullptr;
  }
  std::unique_ptr<ClockHold> hold(new ClockHold());
  hold->driver_ = std::move(driver);
  hold->cudaDevice_ = *device;
  return hold;
}

uint32_t ClockHold::peakClockMegahertz(const DeviceInfo& info) {
  if (info.vendorId != kNvidiaVendorId) return 0;
  std::string why;
  std::unique_ptr<Driver> driver = Driver::open(why);
  if (!driver) return 0;
  auto attribute = reinterpret_cast<CuDeviceGetAttribute>(driver->symbol("cuDeviceGetAttribute"));
  std::optional<int> device = driver->deviceOf(info, why);
  int kilohertz = 0;
  if (!attribute || !device || attribute(&kilohertz, kClockRateAttribute, *device) != 0 || kilohertz <= 0) return 0;
  return static_cast<uint32_t>(kilohertz / 1000);
}

ClockHold::~ClockHold() {
  if (driver_ && driver_->release) driver_->release(cudaDevice_);
}

}  // namespace cl2vk::vulkan
