// clGetDeviceInfo: what an OpenCL 3.0 device built on a Vulkan physical device reports. Where
// Vulkan has no such fact (clock frequency, cache sizes) the answer is 0, meaning unknown; where
// cl2vk does not support a feature (pipes, SVM, device-side enqueue) the answer
// says so.
#include <CL/cl_ext.h>

#include <algorithm>
#include <cmath>

#include "launch/printf_output.h"
#include "runtime/platform.h"
#include "runtime/source_compiler.h"

namespace cl2vk::runtime {
namespace {

// CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED for a device that has passed no official conformance
// submission: the earliest date of the required vYYYY-MM-DD-XX form.
constexpr const char* kNoConformanceVersionPassed = "v0000-01-01-00";

std::string vendorName(uint32_t vendorId) {
  switch (vendorId) {
    case 0x10DE: return "NVIDIA Corporation";
    case 0x1002: return "Advanced Micro Devices, Inc.";
    case 0x8086: return "Intel(R) Corporation";
    case 0x13B5: return "ARM";
    case 0x5143: return "Qualcomm";
    case 0x1010: return "Imagination Technologies";
    case 0x10005: return "Mesa";
    case 0x1AE0: return "Google";
    default: {
      char text[32];
      std::snprintf(text, sizeof text, "Vulkan vendor 0x%X", vendorId);
      return text;
    }
  }
}

cl_ulong largestDeviceHeap(const vulkan::DeviceLimits& limits) {
  cl_ulong largest = 0;
  for (const vulkan::MemoryHeap& heap : limits.memoryHeaps) {
    if (heap.deviceLocal) largest = std::max<cl_ulong>(largest, heap.size);
  }
  if (largest == 0) {
    for (const vulkan::MemoryHeap& heap : limits.memoryHeaps) largest = std::max<cl_ulong>(largest, heap.size);
  }
  return largest;
}

// The largest buffer the device allocates (Device::largestBuffer), no larger than its memory.
cl_ulong maxAllocation(cl_ulong largestBuffer, const vulkan::DeviceLimits& limits) {
  return std::min(largestBuffer, largestDeviceHeap(limits));
}

// The largest program-scope variable, and all of a program's together: they share one buffer
// whose layout the translator keeps in 32-bit offsets (GlobalVariablesLayout), so at most 2 GiB
// and no more than one allocation.
cl_ulong maxGlobalVariables(cl_ulong maxAllocation) {
  constexpr cl_ulong kLargestGlobalVariables = cl_ulong{1} << 31;
  return std::min(kLargestGlobalVariables, maxAllocation);
}

std::string joinNames(const std::vector<cl_name_version>& list) {
  std::string names;
  for (const cl_name_version& entry : list) names += std::string(names.empty() ? "" : " ") + entry.name;
  return names;
}

}  // namespace

cl_uint Device::newestSpirvMinor() const { return target_.vulkanEnv == SPV_ENV_VULKAN_1_1 ? 4 : 6; }

cl_ulong Device::maxAllocationSize() const { return maxAllocation(largestBuffer(), info_.limits); }

size_t Device::imageMaxBufferSize() const {
  // In texels of the largest format (16 bytes), within what the record's 32-bit width holds.
  return static_cast<size_t>(std::clamp<cl_ulong>(maxAllocationSize() / 16, 65536, cl_ulong{1} << 28));
}

cl_int Device::getInfo(cl_device_info param, const InfoOut& out) {
  const vulkan::DeviceLimits& limits = info_.limits;
  const uint32_t subgroupSize = std::max<uint32_t>(info_.subgroup.size, 1);
  // Asked for only by the queries that need it: on a CPU device it takes a probe (keepsFloatDenormals).
  auto singleConfig = [this] {
    return cl_device_fp_config{CL_FP_ROUND_TO_NEAREST | CL_FP_INF_NAN |
                               (keepsFloatDenormals() ? cl_device_fp_config{CL_FP_DENORM} : 0)};
  };
  // Every rounding mode: OpenCL 1.0 let a program choose the rounding of doubles, and the least
  // a device with doubles reports (OpenCL 3.0, CL_DEVICE_DOUBLE_FP_CONFIG) still lists each of
  // them; the CTS's math_brute_force refuses a device without. Since OpenCL 1.1 a program reaches
  // the other modes only through the conversions' _rtz, _rtp and _rtn forms, which cl2vk has.
  const cl_device_fp_config doubleConfig =
      CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
  const cl_device_atomic_capabilities atomics = CL_DEVICE_ATOMIC_ORDER_RELAXED | CL_DEVICE_ATOMIC_ORDER_ACQ_REL |
                                                CL_DEVICE_ATOMIC_SCOPE_WORK_ITEM | CL_DEVICE_ATOMIC_SCOPE_WORK_GROUP |
                                                CL_DEVICE_ATOMIC_SCOPE_DEVICE;
  switch (param) {
    // Identity.
    case CL_DEVICE_TYPE: return out.scalar<cl_device_type>(type());
    case CL_DEVICE_VENDOR_ID: return out.scalar<cl_uint>(info_.vendorId);
    case CL_DEVICE_NAME: return out.string(info_.name);
    case CL_DEVICE_VENDOR: return out.string(vendorName(info_.vendorId));
    case CL_DRIVER_VERSION: return out.string(kRuntimeVersion);
    case CL_DEVICE_PROFILE: return out.string("FULL_PROFILE");
    case CL_DEVICE_VERSION:
      return out.string(std::string("OpenCL 3.0 cl2vk ") + kRuntimeVersion + " (Vulkan " +
                        vulkan::versionString(info_.apiVersion) +
                        (info_.driverInfo.empty() ? "" : ", " + info_.driverInfo) + ")");
    case CL_DEVICE_NUMERIC_VERSION: return out.scalar<cl_version>(CL_MAKE_VERSION(3, 0, 0));
    case CL_DEVICE_OPENCL_C_VERSION: return out.string("OpenCL C 1.2 cl2vk");
    case CL_DEVICE_OPENCL_C_ALL_VERSIONS: {
      std::vector<cl_name_version> versions;
      for (cl_version v : {CL_MAKE_VERSION(1, 0, 0), CL_MAKE_VERSION(1, 1, 0), CL_MAKE_VERSION(1, 2, 0),
                           CL_MAKE_VERSION(2, 0, 0), CL_MAKE_VERSION(3, 0, 0)}) {
        versions.push_back(nameVersion("OpenCL C", v));
      }
      return out.array(versions);
    }
    case CL_DEVICE_OPENCL_C_FEATURES: return out.array(capabilities_.openclCFeatures());
    case CL_DEVICE_EXTENSIONS: return out.string(joinNames(capabilities_.extensions()));
    case CL_DEVICE_EXTENSIONS_WITH_VERSION: return out.array(capabilities_.extensions());
    case CL_DEVICE_IL_VERSION: {
      std::string versions;
      for (cl_uint minor = 0; minor <= newestSpirvMinor(); ++minor)
        versions += (minor ? " SPIR-V_1." : "SPIR-V_1.") + std::to_string(minor);
      return out.string(versions);
    }
    case CL_DEVICE_ILS_WITH_VERSION: {
      std::vector<cl_name_version> ils;
      for (cl_uint minor = 0; minor <= newestSpirvMinor(); ++minor)
        ils.push_back(nameVersion("SPIR-V", CL_MAKE_VERSION(1, minor, 0)));
      return out.array(ils);
    }
    // The value must have the vYYYY-MM-DD-XX form with a real month and day (the CTS checks it).
    case CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED: return out.string(kNoConformanceVersionPassed);
    case CL_DEVICE_PLATFORM: return out.scalar<cl_platform_id>(&platform_);
    case CL_DEVICE_PARENT_DEVICE: return out.scalar<cl_device_id>(nullptr);
    case CL_DEVICE_REFERENCE_COUNT: return out.scalar<cl_uint>(1);
    case CL_DEVICE_AVAILABLE: return out.scalar<cl_bool>(CL_TRUE);
    case CL_DEVICE_COMPILER_AVAILABLE: return out.scalar<cl_bool>(sourceCompilerAvailable() ? CL_TRUE : CL_FALSE);
    case CL_DEVICE_LINKER_AVAILABLE: return out.scalar<cl_bool>(CL_TRUE);  // SPIRV-Tools' linker, built in
    case CL_DEVICE_BUILT_IN_KERNELS: return out.string("");
    case CL_DEVICE_BUILT_IN_KERNELS_WITH_VERSION: return out.array(std::vector<cl_name_version>{});
    case CL_DEVICE_ENDIAN_LITTLE: return out.scalar<cl_bool>(CL_TRUE);
    case CL_DEVICE_ERROR_CORRECTION_SUPPORT: return out.scalar<cl_bool>(CL_FALSE);
    case CL_DEVICE_HOST_UNIFIED_MEMORY: return out.scalar<cl_bool>(type() == CL_DEVICE_TYPE_CPU);
    case CL_DEVICE_EXECUTION_CAPABILITIES: return out.scalar<cl_device_exec_capabilities>(CL_EXEC_KERNEL);

    // Compute.
    case CL_DEVICE_MAX_COMPUTE_UNITS: return out.scalar<cl_uint>(computeUnits());
    case CL_DEVICE_MAX_CLOCK_FREQUENCY: return out.scalar<cl_uint>(maxClockMegahertz());
    case CL_DEVICE_ADDRESS_BITS: return out.scalar<cl_uint>(64);
    case CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS: return out.scalar<cl_uint>(3);
    case CL_DEVICE_MAX_WORK_ITEM_SIZES: {
      std::vector<size_t> sizes(limits.maxComputeWorkGroupSize.begin(), limits.maxComputeWorkGroupSize.end());
      return out.array(sizes);
    }
    case CL_DEVICE_MAX_WORK_GROUP_SIZE: return out.scalar<size_t>(maxWorkGroupSize());
    case CL_DEVICE_MAX_NUM_SUB_GROUPS:
      return out.scalar<cl_uint>(capabilities_.subgroups ? static_cast<cl_uint>(maxSubgroups()) : 0);
    case CL_DEVICE_SUB_GROUP_SIZES_INTEL: return out.array(requestableSubgroupSizes());
    case CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS:
      return out.scalar<cl_bool>(capabilities_.subgroupForwardProgress ? CL_TRUE : CL_FALSE);
    case CL_DEVICE_PREFERRED_WORK_GROUP_SIZE_MULTIPLE: return out.scalar<size_t>(subgroupSize);
    case CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT: return out.scalar<cl_bool>(CL_TRUE);
    case CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT: return out.scalar<cl_bool>(CL_TRUE);
    case CL_DEVICE_GENERIC_ADDRESS_SPACE_SUPPORT: return out.scalar<cl_bool>(CL_TRUE);
    case CL_DEVICE_PROFILING_TIMER_RESOLUTION:
      return out.scalar<size_t>(
          static_cast<size_t>(std::max(1.0, std::ceil(static_cast<double>(limits.timestampPeriod)))));

    // Types.
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_INT:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_LONG:
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_FLOAT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_CHAR:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_SHORT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_INT:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_LONG:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_FLOAT: return out.scalar<cl_uint>(1);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_DOUBLE:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_DOUBLE: return out.scalar<cl_uint>(capabilities_.fp64 ? 1 : 0);
    case CL_DEVICE_PREFERRED_VECTOR_WIDTH_HALF:
    case CL_DEVICE_NATIVE_VECTOR_WIDTH_HALF: return out.scalar<cl_uint>(capabilities_.fp16 ? 1 : 0);
    case CL_DEVICE_SINGLE_FP_CONFIG: return out.scalar<cl_device_fp_config>(singleConfig());
    case CL_DEVICE_DOUBLE_FP_CONFIG: return out.scalar<cl_device_fp_config>(capabilities_.fp64 ? doubleConfig : 0);
    case CL_DEVICE_HALF_FP_CONFIG: return out.scalar<cl_device_fp_config>(capabilities_.fp16 ? singleConfig() : 0);

    // Memory.
    case CL_DEVICE_MAX_MEM_ALLOC_SIZE: return out.scalar<cl_ulong>(maxAllocationSize());
    case CL_DEVICE_GLOBAL_MEM_SIZE: return out.scalar<cl_ulong>(largestDeviceHeap(limits));
    case CL_DEVICE_GLOBAL_MEM_CACHE_TYPE: return out.scalar<cl_device_mem_cache_type>(CL_READ_WRITE_CACHE);
    case CL_DEVICE_GLOBAL_MEM_CACHELINE_SIZE: return out.scalar<cl_uint>(type() == CL_DEVICE_TYPE_CPU ? 64 : 128);
    case CL_DEVICE_GLOBAL_MEM_CACHE_SIZE: return out.scalar<cl_ulong>(0);
    case CL_DEVICE_MAX_CONSTANT_BUFFER_SIZE:
      return out.scalar<cl_ulong>(std::max<cl_ulong>(64 * 1024, maxAllocation(largestBuffer(), limits)));
    case CL_DEVICE_MAX_CONSTANT_ARGS: return out.scalar<cl_uint>(64);
    case CL_DEVICE_LOCAL_MEM_TYPE: return out.scalar<cl_device_local_mem_type>(CL_LOCAL);
    case CL_DEVICE_LOCAL_MEM_SIZE: return out.scalar<cl_ulong>(limits.maxComputeSharedMemorySize);
    case CL_DEVICE_MAX_PARAMETER_SIZE: return out.scalar<size_t>(4096);
    case CL_DEVICE_MEM_BASE_ADDR_ALIGN: return out.scalar<cl_uint>(8 * kBaseAddressAlignment);
    case CL_DEVICE_MIN_DATA_TYPE_ALIGN_SIZE: return out.scalar<cl_uint>(kBaseAddressAlignment);
    // A program's global variables are one buffer: any size one allocation may have.
    case CL_DEVICE_MAX_GLOBAL_VARIABLE_SIZE:
    case CL_DEVICE_GLOBAL_VARIABLE_PREFERRED_TOTAL_SIZE:
      return out.scalar<size_t>(maxGlobalVariables(maxAllocation(largestBuffer(), limits)));
    case CL_DEVICE_PREFERRED_PLATFORM_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_GLOBAL_ATOMIC_ALIGNMENT:
    case CL_DEVICE_PREFERRED_LOCAL_ATOMIC_ALIGNMENT: return out.scalar<cl_uint>(0);
    case CL_DEVICE_ATOMIC_MEMORY_CAPABILITIES:
    case CL_DEVICE_ATOMIC_FENCE_CAPABILITIES: return out.scalar<cl_device_atomic_capabilities>(atomics);
    case CL_DEVICE_SVM_CAPABILITIES: return out.scalar<cl_device_svm_capabilities>(0);

    // Queues.
    case CL_DEVICE_QUEUE_ON_HOST_PROPERTIES:
      return out.scalar<cl_command_queue_properties>(CL_QUEUE_PROFILING_ENABLE |
                                                     CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE);
    case CL_DEVICE_QUEUE_ON_DEVICE_PROPERTIES: return out.scalar<cl_command_queue_properties>(0);
    case CL_DEVICE_QUEUE_ON_DEVICE_PREFERRED_SIZE:
    case CL_DEVICE_QUEUE_ON_DEVICE_MAX_SIZE:
    case CL_DEVICE_MAX_ON_DEVICE_QUEUES:
    case CL_DEVICE_MAX_ON_DEVICE_EVENTS: return out.scalar<cl_uint>(0);
    case CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES: return out.scalar<cl_device_device_enqueue_capabilities>(0);
    case CL_DEVICE_PREFERRED_INTEROP_USER_SYNC: return out.scalar<cl_bool>(CL_TRUE);
    case CL_DEVICE_PRINTF_BUFFER_SIZE: return out.scalar<size_t>(launch::kPrintfBufferSize);

    // Images and samplers, in software on every device (docs/images.md): the argument block holds
    // any number of them, so the counts are OpenCL 3.0's minimums. Texels are loaded whole, so a
    // row pitch and a base address need only be multiples of the texel size: one pixel.
    case CL_DEVICE_IMAGE_SUPPORT: return out.scalar<cl_bool>(CL_TRUE);
    case CL_DEVICE_MAX_READ_IMAGE_ARGS: return out.scalar<cl_uint>(128);
    case CL_DEVICE_MAX_WRITE_IMAGE_ARGS:
    case CL_DEVICE_MAX_READ_WRITE_IMAGE_ARGS: return out.scalar<cl_uint>(64);
    case CL_DEVICE_MAX_SAMPLERS: return out.scalar<cl_uint>(16);
    case CL_DEVICE_IMAGE_PITCH_ALIGNMENT:
    case CL_DEVICE_IMAGE_BASE_ADDRESS_ALIGNMENT: return out.scalar<cl_uint>(1);
    case CL_DEVICE_IMAGE2D_MAX_WIDTH:
    case CL_DEVICE_IMAGE2D_MAX_HEIGHT: return out.scalar<size_t>(kImage2dMaxSize);
    case CL_DEVICE_IMAGE3D_MAX_WIDTH:
    case CL_DEVICE_IMAGE3D_MAX_HEIGHT:
    case CL_DEVICE_IMAGE3D_MAX_DEPTH: return out.scalar<size_t>(kImage3dMaxSize);
    case CL_DEVICE_IMAGE_MAX_BUFFER_SIZE: return out.scalar<size_t>(imageMaxBufferSize());
    case CL_DEVICE_IMAGE_MAX_ARRAY_SIZE: return out.scalar<size_t>(kImageMaxArraySize);

    // Pipes: not supported.
    case CL_DEVICE_MAX_PIPE_ARGS:
    case CL_DEVICE_PIPE_MAX_ACTIVE_RESERVATIONS:
    case CL_DEVICE_PIPE_MAX_PACKET_SIZE: return out.scalar<cl_uint>(0);
    case CL_DEVICE_PIPE_SUPPORT: return out.scalar<cl_bool>(CL_FALSE);

    // Partitioning: none.
    case CL_DEVICE_PARTITION_MAX_SUB_DEVICES: return out.scalar<cl_uint>(0);
    case CL_DEVICE_PARTITION_PROPERTIES: return out.array(std::vector<cl_device_partition_property>{0});
    case CL_DEVICE_PARTITION_AFFINITY_DOMAIN: return out.scalar<cl_device_affinity_domain>(0);
    case CL_DEVICE_PARTITION_TYPE: return out.array(std::vector<cl_device_partition_property>{});

    default: return CL_INVALID_VALUE;
  }
}

}  // namespace cl2vk::runtime
