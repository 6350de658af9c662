#version 460
// work_group_scan_inclusive_add (int), variant: every invocation adds the totals of the
// subgroups before its own one after the other (as CUB's BlockScan), instead of a per-lane fold
// and a subgroup reduce.
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require

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


void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  int inclusive = subgroupInclusiveAdd(args.source.values[item]);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1) subgroupPartials[gl_SubgroupID] = inclusive;
  barrier();
  int before = 0;
  for (uint i = 0; i < gl_SubgroupID; ++i) before += subgroupPartials[i];
  args.destination.values[item] = before + inclusive;
}
