// The cl2vk platform and its devices: one OpenCL device per usable Vulkan physical device (Vulkan
// 1.2 with buffer device address and a compute queue), lavapipe included. The platform is created
// on first use and lives until the process ends; so do its devices, which are root devices whose
// retain and release do nothing.
#pragma once

#include <algorithm>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "cl2vk/expected.h"
#include "cl2vk/target.h"
#include "runtime/info.h"
#include "runtime/object.h"
#include "vulkan/device.h"
#include "vulkan/device_info.h"

namespace cl2vk::runtime {

class Platform;

// What the runtime offers on a device beyond the Vulkan facts: the OpenCL extensions and OpenCL C
// features it reports, derived from the Vulkan device's features.
struct DeviceCapabilities {
  bool fp16 = false;          // cl_khr_fp16: shaderFloat16 and 16-bit storage
  bool fp64 = false;          // cl_khr_fp64 / __opencl_c_fp64: shaderFloat64
  bool int64Atomics = false;  // cl_khr_int64_base/extended_atomics: shaderBufferInt64Atomics
  bool subgroups = false;     // __opencl_c_subgroups: basic, vote, ballot, arithmetic
  // cl_khr_subgroups as well, and CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS: a GPU, whose
  // subgroups the hardware schedules independently; not a CPU driver (docs/collectives.md).
  bool subgroupForwardProgress = false;
  // The cl_khr_subgroup_* extensions the device's subgroup operations allow ("cl_khr_subgroup_ballot").
  std::vector<std::string> subgroupExtensions;

  std::vector<cl_name_version> extensions() const;
  std::vector<cl_name_version> openclCFeatures() const;
  // The extensions and feature macros clang enables for spir64 that this device must not offer.
  std::vector<std::string> disabledForCompiler() const;
  // The extension macros clang must define for the device (-D<name>=1): the cl_khr_subgroup_*
  // ones, which clang-15's headers define only for OpenCL C 2.0 and later.
  std::vector<std::string> definedForCompiler() const;
  // The macros clang-15 may define for spir64 whatever -cl-ext says, which this device must not
  // have: every optional extension and OpenCL C feature it does not report (CL_DEVICE_EXTENSIONS,
  // CL_DEVICE_OPENCL_C_FEATURES).
  std::vector<std::string> undefinedForCompiler() const;
};

class Device : public _cl_device_id {
 public:
  Device(Platform& platform, vulkan::DeviceInfo info);
  Device(const Device&) = delete;
  Device& operator=(const Device&) = delete;

  // The device behind `handle`, or null when it is not one of the platform's.
  static Device* find(cl_device_id handle);

  Platform& platform() { return platform_; }
  const vulkan::DeviceInfo& info() const { return info_; }
  const DeviceCapabilities& capabilities() const { return capabilities_; }
  cl_device_type type() const;
  // What translated code may assume on this device.
  const Target& target() const { return target_; }
  // The newest SPIR-V 1.x its programs' IL may be (CL_DEVICE_IL_VERSION): 1.6, but 1.4 where the
  // translation is for Vulkan 1.1, whose SPIR-V 1.3 cannot say what 1.5 added (a broadcast from a
  // lane chosen at run time).
  cl_uint newestSpirvMinor() const;
  // The largest work-group, in work-items, that the runtime launches.
  size_t maxWorkGroupSize() const { return info_.limits.maxComputeWorkGroupInvocations; }
  // CL_DEVICE_MAX_COMPUTE_UNITS, which programs size their launches by: a CPU driver's threads
  // (lavapipe runs one per hardware thread), a GPU's multiprocessors where its vendor's Vulkan
  // extension reports them, else 1.
  cl_uint computeUnits() const;
  // The sub-groups of a work-group of `local` (1 to 3 sizes) and the largest of them, as the
  // kernels' get_num_sub_groups() and get_max_sub_group_size() compute them: runs of
  // SubgroupSize consecutive work-items, or of each row where the device packs rows
  // (Target::subgroupsByRow). The most a work-group can have (CL_DEVICE_MAX_NUM_SUB_GROUPS).
  size_t subgroupLanes() const { return std::max<uint32_t>(info_.subgroup.size, 1); }
  // `lanes`: the subgroup size, the device's or a kernel's intel_reqd_sub_group_size.
  size_t subgroupCount(const std::vector<size_t>& local, size_t lanes) const;
  size_t maxSubgroupSize(const std::vector<size_t>& local, size_t lanes) const;
  // The sizes a kernel may ask for with intel_reqd_sub_group_size (CL_DEVICE_SUB_GROUP_SIZES_INTEL).
  std::vector<size_t> requestableSubgroupSizes() const;
  size_t maxSubgroups() const;
  // The smallest alignment (bytes) of a sub-buffer origin: CL_DEVICE_MEM_BASE_ADDR_ALIGN / 8.
  static constexpr size_t kBaseAddressAlignment = 128;
  // Image limits (docs/images.md): an image is texels in a buffer, so its size is bounded by
  // CL_DEVICE_MAX_MEM_ALLOC_SIZE rather than by texture hardware. The dimensions reported are
  // OpenCL 3.0's minimums: at NVIDIA's 32768, a 2D image of the largest side and 8-byte texels is
  // 8 GiB, above the 4 GiB a Vulkan buffer may have there, which the CTS's imagedim tests create.
  static constexpr size_t kImage2dMaxSize = 16384;
  static constexpr size_t kImage3dMaxSize = 2048;
  static constexpr size_t kImageMaxArraySize = 2048;
  // The largest 1D buffer image, in texels (CL_DEVICE_IMAGE_MAX_BUFFER_SIZE).
  size_t imageMaxBufferSize() const;
  // CL_DEVICE_MAX_MEM_ALLOC_SIZE.
  cl_ulong maxAllocationSize() const;

  // A new Vulkan logical device on this physical device. `options` choose everything but the
  // device.
  Expected<std::unique_ptr<vulkan::Device>> openVulkanDevice(
      vulkan::DeviceOptions options = vulkan::DeviceOptions::fromEnvironment()) const;
  // The Vulkan device of a new context: one of its own, so that a device lost fails only that
  // context; or, where the driver opens no more (NVIDIA's stops at about 85 at once), the open
  // one that the fewest contexts share, not lost, with `shared` set to what the context is told.
  // Thread-safe.
  Expected<std::shared_ptr<vulkan::Device>> vulkanDeviceForContext(std::string& shared) const;

  cl_int getInfo(cl_device_info param, const InfoOut& out);

  // Whether the device keeps float denormals (CL_FP_DENORM): where kernels can ask for that
  // (Target::denormPreserveFloat32), or, on a CPU device, where a probe finds that it does
  // (vulkan/float_denormal_probe.h; measured on first use, with a Vulkan device of its own).
  bool keepsFloatDenormals() const;
  // The largest buffer (CL_DEVICE_MAX_MEM_ALLOC_SIZE) that the device allocates in one piece
  // (vulkan::Buffer::largestSize; measured on first use, with a Vulkan device of its own).
  cl_ulong largestBuffer() const;
  // CL_DEVICE_MAX_CLOCK_FREQUENCY (MHz), which Vulkan does not report: an NVIDIA GPU's peak SM
  // clock as CUDA gives it, a CPU device's processors' highest clock as Linux gives it; 0 where
  // nothing says (other GPUs), as OpenCL programs read "unknown". Asked on first use.
  cl_uint maxClockMegahertz() const;

 private:
  Platform& platform_;
  vulkan::DeviceInfo info_;
  DeviceCapabilities capabilities_;
  Target target_;
  mutable std::once_flag denormalsMeasured_;
  mutable bool keepsFloatDenormals_ = false;
  mutable std::once_flag largestBufferMeasured_;
  mutable cl_ulong largestBuffer_ = 0;
  mutable std::once_flag clockAsked_;
  mutable cl_uint maxClockMegahertz_ = 0;
  mutable std::mutex contextDevicesMutex_;
  mutable std::vector<std::weak_ptr<vulkan::Device>> contextDevices_;  // those contexts opened
};

class Platform : public _cl_platform_id {
 public:
  // The platform, enumerating the Vulkan devices on first call. Thread-safe.
  static Platform& get();
  static Platform* find(cl_platform_id handle);

  // The usable devices, the default one (CL2VK_DEVICE's choice, else the first GPU, else the
  // first device) first.
  const std::vector<std::unique_ptr<Device>>& devices() const { return devices_; }
  // Why there is no device, when there is none (no Vulkan loader, no usable device).
  const std::string& enumerationError() const { return enumerationError_; }

  cl_int getInfo(cl_platform_info param, const InfoOut& out) const;

 private:
  Platform();

  // The instance the devices were listed with, kept for the process's life (as the platform is):
  // destroying it would make the loader unload the drivers and load them again when a device
  // opens, and lavapipe's one-time allocations of the first load would be lost (LeakSanitizer
  // reports them, from frames it can no longer name).
  std::unique_ptr<vulkan::Instance> enumerationInstance_;
  std::vector<std::unique_ptr<Device>> devices_;
  std::string enumerationError_;
};

// The platform's version and cl2vk's, as the queries report them.
inline constexpr const char* kRuntimeVersion = "0.1";

}  // namespace cl2vk::runtime
