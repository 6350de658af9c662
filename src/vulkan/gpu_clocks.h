// Why a Vulkan-only process runs at idle clocks on NVIDIA's data-centre GPUs, and what cl2vk does
// about it (docs/PERFORMANCE.md, "Clocks").
//
// Measured on an H100 and an H200 (driver 580.159): a process whose only GPU work is Vulkan compute
// leaves the SM clock at its idle value (345 MHz on the H200) however busy it keeps the GPU, while
// any process holding a CUDA context lifts it to the boost clock (1980 MHz). NVIDIA's own OpenCL is
// built on CUDA, so its users never see this; a cl2vk user would run up to 10x slower. The clock
// follows the CUDA context, not the load, so cl2vk holds one: CUDA's primary context on the same
// GPU (matched by UUID), retained through the driver's public API (libcuda.so.1, loaded at run
// time; cl2vk does not link against CUDA) for as long as the Vulkan device is open.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>

namespace cl2vk::vulkan {

struct DeviceInfo;

// What CL2VK_NVIDIA_CLOCKS asks for: "cuda" (hold a CUDA context on NVIDIA devices: the default),
// "off" (do not; the device may stay at its idle clock).
enum class ClockPolicy { kCudaContext, kOff };

class ClockHold {
 public:
  // Retains the CUDA primary context of the GPU whose UUID the Vulkan device reports, when the
  // device is NVIDIA's, the policy allows it and libcuda.so.1 can be loaded. Returns null where
  // nothing is held; `why` then says why (empty for a device that is not NVIDIA's or a policy of
  // off, where nothing was to be done).
  static std::unique_ptr<ClockHold> acquire(const DeviceInfo& info, ClockPolicy policy, std::string& why);
  ~ClockHold();
  ClockHold(const ClockHold&) = delete;
  ClockHold& operator=(const ClockHold&) = delete;

  // CL2VK_NVIDIA_CLOCKS; unset or empty is the default.
  static ClockPolicy policyFromEnvironment();

  // The peak SM clock (MHz) of an NVIDIA device, as CUDA reports it (Vulkan has no such query);
  // 0 for another vendor's device or where CUDA cannot be asked.
  static uint32_t peakClockMegahertz(const DeviceInfo& info);

 private:
  ClockHold() = default;
  struct Driver;
  std::unique_ptr<Driver> driver_;
  int cudaDevice_ = 0;
};

}  // namespace cl2vk::vulkan
