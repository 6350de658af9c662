#version 460
// work_group_reduce_add (float), variant: every invocation adds the subgroup partials one after
// the other (as work_group_reduce_add must give every work-item the total), instead of a
// per-lane fold and a subgroup reduce; invocation 0 writes it.
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_arithmetic : require

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
  float sum = 0.0;
  for (uint i = 0; i < kSubgroups; ++i) sum += subgroupPartials[i];
  if (gl_LocalInvocationID.x == 0) args.destination.values[group] = sum;
}
