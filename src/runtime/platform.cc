#include "runtime/platform.h"

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <set>
#include <string>
#include <thread>

#include "launch/kernel_launch.h"
#include "support/settings.h"
#include "vulkan/buffer.h"
#include "vulkan/device_selection.h"
#include "vulkan/float_denormal_probe.h"
#include "vulkan/gpu_clocks.h"

namespace cl2vk::runtime {
namespace {

constexpr cl_version kVersion10 = CL_MAKE_VERSION(1, 0, 0);

constexpr const char* kSubgroupExtensions[] = {
    "cl_khr_subgroup_extended_types",   "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",           "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",          "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce", "cl_khr_subgroup_rotate"};

// The macros of optional extensions and OpenCL C features that clang-15 may define for spir64,
// predefined or in its opencl-c-base.h: the header defines the sub-group extensions, the 2.0
// features and, for OpenCL C 3.0, seq_cst and all-devices atomics and read-write images whatever
// -cl-ext says.
constexpr const char* kCompilerDefinedMacros[] = {
    "cl_khr_subgroup_extended_types",
    "cl_khr_subgroup_non_uniform_vote",
    "cl_khr_subgroup_ballot",
    "cl_khr_subgroup_non_uniform_arithmetic",
    "cl_khr_subgroup_shuffle",
    "cl_khr_subgroup_shuffle_relative",
    "cl_khr_subgroup_clustered_reduce",
    "cl_khr_subgroup_rotate",
    "cl_khr_subgroups",
    "cl_khr_extended_bit_ops",
    "cl_khr_integer_dot_product",
    "cl_ext_float_atomics",
    "cl_khr_fp16",
    "cl_khr_fp64",
    "cl_khr_int64_base_atomics",
    "cl_khr_int64_extended_atomics",
    "cl_khr_3d_image_writes",
    "cl_khr_depth_images",
    "cl_khr_mipmap_image",
    "cl_khr_mipmap_image_writes",
    "cl_khr_srgb_image_writes",
    "cl_khr_gl_msaa_sharing",
    "cl_khr_gl_depth_images",
    "__opencl_c_images",
    "__opencl_c_read_write_images",
    "__opencl_c_3d_image_writes",
    "__opencl_c_pipes",
    "__opencl_c_device_enqueue",
    "__opencl_c_atomic_order_acq_rel",
    "__opencl_c_atomic_order_seq_cst",
    "__opencl_c_atomic_scope_device",
    "__opencl_c_atomic_scope_all_devices",
    "__opencl_c_generic_address_space",
    "__opencl_c_program_scope_global_variables",
    "__opencl_c_work_group_collective_functions",
    "__opencl_c_subgroups",
    "__opencl_c_fp64",
    "__opencl_c_int64",
    "__opencl_c_integer_dot_product_input_4x8bit",
    "__opencl_c_integer_dot_product_input_4x8bit_packed",
    "__opencl_c_ext_fp16_global_atomic_load_store",
    "__opencl_c_ext_fp16_local_atomic_load_store",
    "__opencl_c_ext_fp16_global_atomic_add",
    "__opencl_c_ext_fp16_local_atomic_add",
    "__opencl_c_ext_fp16_global_atomic_min_max",
    "__opencl_c_ext_fp16_local_atomic_min_max",
    "__opencl_c_ext_fp32_global_atomic_add",
    "__opencl_c_ext_fp32_local_atomic_add",
    "__opencl_c_ext_fp32_global_atomic_min_max",
    "__opencl_c_ext_fp32_local_atomic_min_max",
    "__opencl_c_ext_fp64_global_atomic_add",
    "__opencl_c_ext_fp64_local_atomic_add",
    "__opencl_c_ext_fp64_global_atomic_min_max",
    "__opencl_c_ext_fp64_local_atomic_min_max",
};

// The cl_khr_subgroup_* extensions a device's Vulkan subgroup operations allow. Clustered
// reductions without Vulkan's clustered operations are shuffle steps that skip inactive lanes
// (a ballot); rotations are always shuffles (OpenCL rotates modulo get_max_sub_group_size(),
// Vulkan's rotate modulo SubgroupSize). Extended types need shaderSubgroupExtendedTypes: 8/16-bit
// integers the device lacks are computed in 32 bits (lower-narrow-integers). The non-uniform
// arithmetic and clustered reductions include char, short, long and half whatever the other
// extensions say: the former needs shaderSubgroupExtendedTypes for them, the latter that or the
// shuffle steps, which move values as 32-bit words.
std::vector<std::string> subgroupExtensionsFor(const vulkan::DeviceInfo& info) {
  auto has = [&](VkSubgroupFeatureFlags bits) { return info.subgroup.supportsInCompute(bits); };
  const vulkan::DeviceFeatures& features = info.features;
  std::vector<std::string> list;
  if (features.shaderSubgroupExtendedTypes && has(VK_SUBGROUP_FEATURE_ARITHMETIC_BIT))
    list.push_back("cl_khr_subgroup_extended_types");
  if (has(VK_SUBGROUP_FEATURE_VOTE_BIT)) list.push_back("cl_khr_subgroup_non_uniform_vote");
  if (has(VK_SUBGROUP_FEATURE_BALLOT_BIT)) list.push_back("cl_khr_subgroup_ballot");
  if (has(VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) && features.shaderSubgroupExtendedTypes)
    list.push_back("cl_khr_subgroup_non_uniform_arithmetic");
  if (has(VK_SUBGROUP_FEATURE_SHUFFLE_BIT)) list.push_back("cl_khr_subgroup_shuffle");
  if (has(VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT)) list.push_back("cl_khr_subgroup_shuffle_relative");
  if (has(VK_SUBGROUP_FEATURE_ARITHMETIC_BIT) &&
      ((has(VK_SUBGROUP_FEATURE_CLUSTERED_BIT) && features.shaderSubgroupExtendedTypes) ||
       has(VK_SUBGROUP_FEATURE_SHUFFLE_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT)))
    list.push_back("cl_khr_subgroup_clustered_reduce");
  if (has(VK_SUBGROUP_FEATURE_SHUFFLE_BIT)) list.push_back("cl_khr_subgroup_rotate");
  return list;
}

// The options of a Vulkan device opened only to measure what its limits do not say: no clock
// hold, since no kernel of the program runs on it.
vulkan::DeviceOptions probeOptions() {
  vulkan::DeviceOptions options = vulkan::DeviceOptions::fromEnvironment();
  options.clocks = vulkan::ClockPolicy::kOff;
  return options;
}

}  // namespace

std::vector<cl_name_version> DeviceCapabilities::extensions() const {
  std::vector<cl_name_version> list = {
      nameVersion("cl_khr_byte_addressable_store", kVersion10),
      nameVersion("cl_khr_global_int32_base_atomics", kVersion10),
      nameVersion("cl_khr_global_int32_extended_atomics", kVersion10),
      nameVersion("cl_khr_local_int32_base_atomics", kVersion10),
      nameVersion("cl_khr_local_int32_extended_atomics", kVersion10),
      nameVersion("cl_khr_il_program", kVersion10),
      nameVersion("cl_khr_work_group_uniform_arithmetic", kVersion10),
      // Images in software (docs/images.md): 3D writes and 2D images from buffers come with them.
      nameVersion("cl_khr_3d_image_writes", kVersion10),
      nameVersion("cl_khr_image2d_from_buffer", kVersion10),
  };
  if (fp16) list.push_back(nameVersion("cl_khr_fp16", kVersion10));
  if (fp64) list.push_back(nameVersion("cl_khr_fp64", kVersion10));
  if (int64Atomics) {
    list.push_back(nameVersion("cl_khr_int64_base_atomics", kVersion10));
    list.push_back(nameVersion("cl_khr_int64_extended_atomics", kVersion10));
  }
  if (subgroupForwardProgress) list.push_back(nameVersion("cl_khr_subgroups", kVersion10));
  if (subgroups) list.push_back(nameVersion("cl_intel_required_subgroup_size", kVersion10));
  for (const std::string& name : subgroupExtensions) list.push_back(nameVersion(name.c_str(), kVersion10));
  return list;
}

std::vector<cl_name_version> DeviceCapabilities::openclCFeatures() const {
  constexpr cl_version kVersion30 = CL_MAKE_VERSION(3, 0, 0);
  std::vector<cl_name_version> list = {
      nameVersion("__opencl_c_int64", kVersion30),
      nameVersion("__opencl_c_work_group_collective_functions", kVersion30),
      nameVersion("__opencl_c_generic_address_space", kVersion30),
      nameVersion("__opencl_c_atomic_order_acq_rel", kVersion30),
      nameVersion("__opencl_c_atomic_scope_device", kVersion30),
      nameVersion("__opencl_c_program_scope_global_variables", kVersion30),
      nameVersion("__opencl_c_images", kVersion30),
      nameVersion("__opencl_c_read_write_images", kVersion30),
      nameVersion("__opencl_c_3d_image_writes", kVersion30),
  };
  if (fp64) list.push_back(nameVersion("__opencl_c_fp64", kVersion30));
  if (subgroups) list.push_back(nameVersion("__opencl_c_subgroups", kVersion30));
  return list;
}

std::vector<std::string> DeviceCapabilities::disabledForCompiler() const {
  // What clang-15 enables for spir64 and cl2vk does not run: depth, mipmapped and multisampled
  // images, sRGB writes, pipes, device-side enqueue, sequentially consistent and all-devices atomics.
  std::vector<std::string> list = {
      "__opencl_c_pipes",
      "__opencl_c_device_enqueue",
      "__opencl_c_atomic_order_seq_cst",
      "__opencl_c_atomic_scope_all_devices",
      "cl_khr_depth_images",
      "cl_khr_mipmap_image",
      "cl_khr_mipmap_image_writes",
      "cl_khr_srgb_image_writes",
      "cl_khr_gl_msaa_sharing",
      "cl_khr_gl_depth_images",
  };
  for (const char* name : kSubgroupExtensions) {
    if (std::find(subgroupExtensions.begin(), subgroupExtensions.end(), name) == subgroupExtensions.end())
      list.push_back(name);
  }
  if (!fp16) list.push_back("cl_khr_fp16");
  if (!fp64) {
    list.push_back("cl_khr_fp64");
    list.push_back("__opencl_c_fp64");
  }
  if (!int64Atomics) {
    list.push_back("cl_khr_int64_base_atomics");
    list.push_back("cl_khr_int64_extended_atomics");
  }
  if (!subgroupForwardProgress) list.push_back("cl_khr_subgroups");
  if (!subgroups) list.push_back("__opencl_c_subgroups");
  return list;
}

std::vector<std::string> DeviceCapabilities::definedForCompiler() const { return subgroupExtensions; }

std::vector<std::string> DeviceCapabilities::undefinedForCompiler() const {
  std::set<std::string> reported;
  for (const cl_name_version& extension : extensions()) reported.insert(extension.name);
  for (const cl_name_version& feature : openclCFeatures()) reported.insert(feature.name);
  std::vector<std::string> list;
  for (const char* name : kCompilerDefinedMacros) {
    if (!reported.contains(name)) list.push_back(name);
  }
  return list;
}

Device::Device(Platform& platform, vulkan::DeviceInfo info)
    : platform_(platform), info_(std::move(info)), target_(launch::targetFor(info_)) {
  this->dispatch = dispatchTable();
  const vulkan::DeviceFeatures& features = info_.features;
  capabilities_.fp16 = features.shaderFloat16 && features.storageBuffer16BitAccess;
  capabilities_.fp64 = features.shaderFloat64;
  capabilities_.int64Atomics = features.shaderInt64 && features.shaderBufferInt64Atomics;
  capabilities_.subgroups = info_.subgroup.supportsInCompute(
      VK_SUBGROUP_FEATURE_BASIC_BIT | VK_SUBGROUP_FEATURE_VOTE_BIT | VK_SUBGROUP_FEATURE_BALLOT_BIT);
  // The hardware of a GPU schedules the subgroups of a work-group independently (a subgroup
  // spinning on another's store still lets that one run); CPU drivers (llvmpipe, SwiftShader)
  // run a work-group's subgroups in turn on one thread, switching only at barriers.
  capabilities_.subgroupForwardProgress = capabilities_.subgroups && type() == CL_DEVICE_TYPE_GPU;
  if (capabilities_.subgroups) capabilities_.subgroupExtensions = subgroupExtensionsFor(info_);
}

size_t Device::subgroupCount(const std::vector<size_t>& local, size_t lanes) const {
  size_t items = 1;
  for (size_t size : local) items *= size;
  if (local.empty() || items == 0) return 0;
  if (target_.subgroupsByRow) return items / local[0] * ((local[0] + lanes - 1) / lanes);
  return (items + lanes - 1) / lanes;
}

size_t Device::maxSubgroupSize(const std::vector<size_t>& local, size_t lanes) const {
  size_t items = 1;
  for (size_t size : local) items *= size;
  if (local.empty()) return 0;
  return std::min(lanes, target_.subgroupsByRow ? local[0] : items);
}

std::vector<size_t> Device::requestableSubgroupSizes() const {
  if (!capabilities_.subgroups) return {};
  if (!target_.requiredSubgroupSize || target_.minSubgroupSize == target_.maxSubgroupSize) return {subgroupLanes()};
  std::vector<size_t> sizes;
  for (size_t size = std::max<uint32_t>(target_.minSubgroupSize, 1); size <= target_.maxSubgroupSize; size *= 2)
    sizes.push_back(size);
  return sizes;
}

// A work-group of one column (x = 1) has a sub-group per work-item where rows are packed apart.
size_t Device::maxSubgroups() const {
  if (target_.subgroupsByRow) return maxWorkGroupSize();
  size_t smallest = std::max<uint32_t>(target_.minSubgroupSize, 1);
  return (maxWorkGroupSize() + smallest - 1) / smallest;
}

Device* Device::find(cl_device_id handle) {
  if (handle == nullptr) return nullptr;
  for (const std::unique_ptr<Device>& device : Platform::get().devices()) {
    if (device.get() == handle) return device.get();
  }
  return nullptr;
}

cl_device_type Device::type() const {
  switch (info_.type) {
    case VK_PHYSICAL_DEVICE_TYPE_DISCRETE_GPU:
    case VK_PHYSICAL_DEVICE_TYPE_INTEGRATED_GPU:
    case VK_PHYSICAL_DEVICE_TYPE_VIRTUAL_GPU: return CL_DEVICE_TYPE_GPU;
    case VK_PHYSICAL_DEVICE_TYPE_CPU: return CL_DEVICE_TYPE_CPU;
    default: return CL_DEVICE_TYPE_ACCELERATOR;
  }
}

cl_uint Device::computeUnits() const {
  if (info_.computeUnits > 0) return info_.computeUnits;
  if (type() == CL_DEVICE_TYPE_CPU) return std::max(1u, std::thread::hardware_concurrency());
  return 1;
}

bool Device::keepsFloatDenormals() const {
  std::call_once(denormalsMeasured_, [this] {
    if (target_.denormPreserveFloat32) {
      keepsFloatDenormals_ = true;
    } else if (type() == CL_DEVICE_TYPE_CPU) {
      // A device that cannot be opened or probed is reported as flushing, which OpenCL allows.
      Expected<std::unique_ptr<vulkan::Device>> opened = openVulkanDevice(probeOptions());
      Expected<bool> kept = opened ? vulkan::measureFloat32DenormalsKept(**opened) : Expected<bool>(false);
      keepsFloatDenormals_ = kept && *kept;
    }
  });
  return keepsFloatDenormals_;
}

namespace {

// The highest clock (MHz) of the host's processors: cpufreq's maximum where the kernel has it,
// else the highest "cpu MHz" of /proc/cpuinfo (their current clocks: virtual machines often have
// no cpufreq); 0 where neither is readable.
cl_uint hostProcessorMegahertz() {
  std::ifstream maximum("/sys/devices/system/cpu/cpu0/cpufreq/cpuinfo_max_freq");
  uint64_t kilohertz = 0;
  if (maximum >> kilohertz && kilohertz > 0) return static_cast<cl_uint>(kilohertz / 1000);
  std::ifstream cpuinfo("/proc/cpuinfo");
  double highest = 0;
  for (std::string line; std::getline(cpuinfo, line);) {
    if (!line.starts_with("cpu MHz")) continue;
    size_t colon = line.find(':');
    if (colon != std::string::npos) highest = std::max(highest, std::atof(line.c_str() + colon + 1));
  }
  return static_cast<cl_uint>(highest + 0.5);
}

}  // namespace

cl_uint Device::maxClockMegahertz() const {
  std::call_once(clockAsked_, [this] {
    maxClockMegahertz_ =
        type() == CL_DEVICE_TYPE_CPU ? hostProcessorMegahertz() : vulkan::ClockHold::peakClockMegahertz(info_);
  });
  return maxClockMegahertz_;
}

cl_ulong Device::largestBuffer() const {
  std::call_once(largestBufferMeasured_, [this] {
    // A device that cannot be opened is reported with the limits Vulkan gives: allocations it
    // cannot make fail with CL_MEM_OBJECT_ALLOCATION_FAILURE.
    const vulkan::DeviceLimits& limits = info_.limits;
    largestBuffer_ = limits.maxMemoryAllocationSize;
    if (limits.maxBufferSize != 0) largestBuffer_ = std::min<cl_ulong>(largestBuffer_, limits.maxBufferSize);
    Expected<std::unique_ptr<vulkan::Device>> opened = openVulkanDevice(probeOptions());
    Expected<VkDeviceSize> largest = opened ? vulkan::Buffer::largestSize(**opened) : Expected<VkDeviceSize>(0);
    if (largest && *largest > 0) largestBuffer_ = *largest;
  });
  return largestBuffer_;
}

Expected<std::unique_ptr<vulkan::Device>> Device::openVulkanDevice(vulkan::DeviceOptions options) const {
  options.device = std::to_string(info_.index);
  Expected<std::unique_ptr<vulkan::Device>> opened = vulkan::Device::open(options);
  if (!opened) return opened.error().withContext("opening " + info_.name);
  return opened;
}

Expected<std::shared_ptr<vulkan::Device>> Device::vulkanDeviceForContext(std::string& shared) const {
  Expected<std::unique_ptr<vulkan::Device>> opened = openVulkanDevice();
  std::lock_guard lock(contextDevicesMutex_);
  std::erase_if(contextDevices_, [](const std::weak_ptr<vulkan::Device>& device) { return device.expired(); });
  if (opened) {
    std::shared_ptr<vulkan::Device> own = std::move(*opened);
    contextDevices_.push_back(own);
    return own;
  }
  std::shared_ptr<vulkan::Device> least;
  long sharers = 0;
  for (const std::weak_ptr<vulkan::Device>& open : contextDevices_) {
    std::shared_ptr<vulkan::Device> device = open.lock();
    // (Less one for `device`.)
    if (device && !device->lost() && (!least || device.use_count() - 1 < sharers)) {
      sharers = device.use_count() - 1;
      least = std::move(device);
    }
  }
  if (!least) return opened.error();
  shared = "clCreateContext: " + opened.error().message() + "; the context shares the Vulkan device of " +
           std::to_string(sharers) + " other context(s) instead, and a device lost fails them all";
  return least;
}

Platform::Platform() {
  this->dispatch = dispatchTable();
  Expected<std::unique_ptr<vulkan::Instance>> instance = vulkan::Instance::create(/*validation=*/false);
  if (!instance) {
    enumerationError_ = instance.error().message();
    return;
  }
  enumerationInstance_ = std::move(*instance);
  Expected<std::vector<vulkan::DeviceInfo>> infos = vulkan::enumerateDevices(*enumerationInstance_);
  if (!infos) {
    enumerationError_ = infos.error().message();
    return;
  }
  Expected<uint32_t> preferred = vulkan::selectDevice(*infos, settings::read(settings::Setting::kDevice).value_or(""));
  std::vector<vulkan::DeviceInfo> usable;
  for (vulkan::DeviceInfo& info : *infos) {
    if (checkUsable(info).ok()) usable.push_back(std::move(info));
  }
  if (preferred) {
    auto first = std::find_if(usable.begin(), usable.end(),
                              [&](const vulkan::DeviceInfo& info) { return info.index == *preferred; });
    if (first != usable.end()) std::rotate(usable.begin(), first, first + 1);
  }
  for (vulkan::DeviceInfo& info : usable) devices_.push_back(std::make_unique<Device>(*this, std::move(info)));
  if (devices_.empty()) enumerationError_ = "no Vulkan device has what cl2vk needs (Vulkan 1.2, buffer device address)";
}

Platform& Platform::get() {
  // Never destroyed: devices may be in use by other threads and atexit handlers until the end.
  static Platform* platform = new Platform();
  return *platform;
}

Platform* Platform::find(cl_platform_id handle) {
  Platform& platform = get();
  return handle == &platform ? &platform : nullptr;
}

cl_int Platform::getInfo(cl_platform_info param, const InfoOut& out) const {
  switch (param) {
    case CL_PLATFORM_PROFILE: return out.string("FULL_PROFILE");
    case CL_PLATFORM_VERSION: return out.string(std::string("OpenCL 3.0 cl2vk ") + kRuntimeVersion);
    case CL_PLATFORM_NUMERIC_VERSION: return out.scalar<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_PLATFORM_NAME: return out.string("cl2vk");
    case CL_PLATFORM_VENDOR: return out.string("cl2vk project");
    case CL_PLATFORM_ICD_SUFFIX_KHR: return out.string("CL2VK");
    case CL_PLATFORM_HOST_TIMER_RESOLUTION: return out.scalar<cl_ulong>(1);
    case CL_PLATFORM_EXTENSIONS:
    case CL_PLATFORM_EXTENSIONS_WITH_VERSION: {
      // cl_khr_icd, and the extensions every device has.
      std::vector<cl_name_version> common = {nameVersion("cl_khr_icd", kVersion10)};
      for (const cl_name_version& extension :
           devices_.empty() ? DeviceCapabilities{}.extensions() : devices_.front()->capabilities().extensions()) {
        bool everywhere = std::all_of(devices_.begin(), devices_.end(), [&](const std::unique_ptr<Device>& device) {
          auto all = device->capabilities().extensions();
          return std::any_of(all.begin(), all.end(),
                             [&](const cl_name_version& e) { return std::string(e.name) == extension.name; });
        });
        if (everywhere) common.push_back(extension);
      }
      if (param == CL_PLATFORM_EXTENSIONS_WITH_VERSION) return out.array(common);
      std::string names;
      for (const cl_name_version& extension : common) names += std::string(names.empty() ? "" : " ") + extension.name;
      return out.string(names);
    }
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace cl2vk::runtime
