// An OpenCL NDRange as Vulkan dispatches: the work-size checks against the device, and the split
// of a non-uniform NDRange into up to eight regions (the full work-groups and the remainders of
// each dimension, each with its own work-group size), each region with more work-groups than one
// dispatch may have split again, each piece starting at its own work-group offset.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cl2vk/expected.h"
#include "cl2vk/reflection.h"
#include "vulkan/device_info.h"

namespace cl2vk::launch {

struct NDRange;

// The local size `chosen` (the caller's or the launcher's), with the unused dimensions set to 1,
// checked against the range, the device's limits and the kernel's reqd_work_group_size.
Expected<std::array<uint32_t, 3>> checkedLocalSize(const NDRange& range, std::array<uint32_t, 3> chosen,
                                                   const vulkan::DeviceLimits& limits, const KernelReflection& kernel);

// One dispatch: its work-group size, count and the offset of its first work-group in the range.
struct DispatchRegion {
  std::array<uint32_t, 3> local, groups, groupOffset;
};

std::vector<DispatchRegion> splitIntoDispatches(const NDRange& range, const std::array<uint32_t, 3>& local,
                                                const vulkan::DeviceLimits& limits);

// `regions` again, each split into dispatches of at most `maxInvocations` invocations (but at
// least one work-group), along z, then y, then x: what a kernel whose invocations each use a block
// of one scratch buffer needs (KernelReflection::privateScratchStride), the buffer holding a block
// for every invocation of one dispatch and the dispatches running one after another.
std::vector<DispatchRegion> limitInvocations(const std::vector<DispatchRegion>& regions, uint64_t maxInvocations);

// How many invocations `region` runs.
uint64_t invocationsOf(const DispatchRegion& region);

}  // namespace cl2vk::launch
