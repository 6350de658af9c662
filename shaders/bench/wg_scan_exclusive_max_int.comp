#version 460
// work_group_scan_exclusive_max (int): one value per invocation, INT_MIN for the first. Each
// subgroup scans its values; after one barrier every subgroup folds in the maxima before it.
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;
// Subgroups per work-group: the host specializes it with the device's subgroup size.
layout(constant_id = 1) const uint kSubgroups = 1;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Input {
  int values[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer Output {
  int values[];
};

layout(push_constant, std430) uniform Arguments {
  Input source;
  Output destination;
  uint groupOffset;  // of this dispatch's first work-group, when a launch needs several
} args;

shared int subgroupPartials[kSubgroups];

const int kIntMin = -2147483647 - 1;

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  int x = args.source.values[item];
  int exclusive = subgroupExclusiveMax(x);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1) subgroupPartials[gl_SubgroupID] = max(exclusive, x);
  barrier();
  int before = kIntMin;
  for (uint i = gl_SubgroupInvocationID; i < gl_SubgroupID; i += gl_SubgroupSize) before = max(before, subgroupPartials[i]);
  args.destination.values[item] = max(subgroupMax(before), exclusive);
}
