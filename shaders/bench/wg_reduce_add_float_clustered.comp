#version 460
// work_group_reduce_add (float), variant for work-groups of at most 8 subgroups: the partials
// joined by a clustered reduce over 8 lanes (3 steps) instead of a whole-subgroup reduce (5 at 32).
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_clustered : require

layout(local_size_x_id = 0) in;
// Subgroups per work-group: the host specializes it with the device's subgroup size.
layout(constant_id = 1) const uint kSubgroups = 1;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Input {
  float values[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer Output {
  float values[];
};

layout(push_constant, std430) uniform Arguments {
  Input source;
  Output destination;
  uint groupOffset;  // of this dispatch's first work-group, when a launch needs several
} args;

shared float subgroupPartials[kSubgroups];

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  float partial = subgroupAdd(args.source.values[item]);
  if (gl_SubgroupInvocationID == 0) subgroupPartials[gl_SubgroupID] = partial;
  barrier();
  if (gl_SubgroupID != 0) return;
  float partial8 = gl_SubgroupInvocationID < gl_NumSubgroups ? subgroupPartials[gl_SubgroupInvocationID] : 0.0;
  float sum = subgroupClusteredAdd(partial8, 8);
  if (gl_SubgroupInvocationID == 0) args.destination.values[group] = sum;
}
