#include "launch/ndrange_split.h"

#include <algorithm>

#include "launch/kernel_launch.h"

namespace cl2vk::launch {

Expected<std::array<uint32_t, 3>> checkedLocalSize(const NDRange& range, std::array<uint32_t, 3> local,
                                                   const vulkan::DeviceLimits& limits, const KernelReflection& kernel) {
  if (range.dimensions < 1 || range.dimensions > 3) return Error("work_dim must be 1, 2 or 3");
  uint64_t invocations = 1;
  for (uint32_t d = 0; d < 3; ++d) {
    uint64_t global = d < range.dimensions ? range.globalSize[d] : 1;
    if (d >= range.dimensions) local[d] = 1;
    if (global == 0 || local[d] == 0) return Error("global and local sizes must not be zero");
    if (global > UINT32_MAX || range.globalOffset[d] + global > (uint64_t{1} << 32))
      return Error("dimension " + std::to_string(d) + ": the global size and offset must stay below 2^32");
    if (local[d] > limits.maxComputeWorkGroupSize[d])
      return Error("dimension " + std::to_string(d) + ": local size " + std::to_string(local[d]) +
                   " is above the device's " + std::to_string(limits.maxComputeWorkGroupSize[d]));
    invocations *= local[d];
  }
  if (invocations > limits.maxComputeWorkGroupInvocations)
    return Error("a work-group of " + std::to_string(invocations) + " work-items is above the device's " +
                 std::to_string(limits.maxComputeWorkGroupInvocations));
  if (kernel.requiredWorkGroupSize && local != *kernel.requiredWorkGroupSize)
    return Error("kernel '" + kernel.name + "' requires its reqd_work_group_size");
  return local;
}

std::vector<DispatchRegion> splitIntoDispatches(const NDRange& range, const std::array<uint32_t, 3>& local,
                                                const vulkan::DeviceLimits& limits) {
  // One region per shape: full work-groups and the remainder, in each dimension.
  std::vector<DispatchRegion> regions = {DispatchRegion{{1, 1, 1}, {1, 1, 1}, {0, 0, 0}}};
  for (uint32_t d = 0; d < 3; ++d) {
    uint64_t global = d < range.dimensions ? range.globalSize[d] : 1;
    uint32_t full = static_cast<uint32_t>(global / local[d]);
    uint32_t remainder = static_cast<uint32_t>(global % local[d]);
    std::vector<DispatchRegion> next;
    for (const DispatchRegion& region : regions) {
      if (full > 0) {
        DispatchRegion r = region;
        r.local[d] = local[d];
        r.groups[d] = full;
        r.groupOffset[d] = 0;
        next.push_back(r);
      }
      if (remainder > 0) {
        DispatchRegion r = region;
        r.local[d] = remainder;
        r.groups[d] = 1;
        r.groupOffset[d] = full;
        next.push_back(r);
      }
    }
    regions = std::move(next);
  }

  // A dimension with more work-groups than one dispatch may have is split into several
  // dispatches, each starting at its own group offset.
  for (uint32_t d = 0; d < 3; ++d) {
    std::vector<DispatchRegion> next;
    for (const DispatchRegion& region : regions) {
      for (uint64_t start = 0; start < region.groups[d]; start += limits.maxComputeWorkGroupCount[d]) {
        DispatchRegion r = region;
        r.groups[d] =
            static_cast<uint32_t>(std::min<uint64_t>(region.groups[d] - start, limits.maxComputeWorkGroupCount[d]));
        r.groupOffset[d] = region.groupOffset[d] + static_cast<uint32_t>(start);
        next.push_back(r);
      }
    }
    regions = std::move(next);
  }
  return regions;
}

uint64_t invocationsOf(const DispatchRegion& region) {
  uint64_t invocations = 1;
  for (uint32_t d = 0; d < 3; ++d) invocations *= uint64_t{region.local[d]} * region.groups[d];
  return invocations;
}

std::vector<DispatchRegion> limitInvocations(const std::vector<DispatchRegion>& regions, uint64_t maxInvocations) {
  std::vector<DispatchRegion> limited;
  for (const DispatchRegion& region : regions) {
    const uint64_t groupSize = uint64_t{region.local[0]} * region.local[1] * region.local[2];
    const uint64_t most = std::max<uint64_t>(1, maxInvocations / groupSize);  // work-groups per dispatch
    // The pieces' extent in work-groups: whole planes of z while one fits, else whole rows of y in
    // one plane, else part of a row.
    std::array<uint64_t, 3> piece = {region.groups[0], region.groups[1], region.groups[2]};
    const uint64_t plane = piece[0] * piece[1];
    if (plane * piece[2] <= most) {
      limited.push_back(region);
      continue;
    }
    if (plane <= most) {
      piece[2] = most / plane;
    } else if (piece[0] <= most) {
      piece = {piece[0], most / piece[0], 1};
    } else {
      piece = {most, 1, 1};
    }
    for (uint64_t z = 0; z < region.groups[2]; z += piece[2]) {
      for (uint64_t y = 0; y < region.groups[1]; y += piece[1]) {
        for (uint64_t x = 0; x < region.groups[0]; x += piece[0]) {
          DispatchRegion r = region;
          const std::array<uint64_t, 3> start = {x, y, z};
          for (uint32_t d = 0; d < 3; ++d) {
            r.groups[d] = static_cast<uint32_t>(std::min<uint64_t>(piece[d], region.groups[d] - start[d]));
            r.groupOffset[d] = region.groupOffset[d] + static_cast<uint32_t>(start[d]);
          }
          limited.push_back(r);
        }
      }
    }
  }
  return limited;
}

}  // namespace cl2vk::launch
