#version 460
// sub_group_non_uniform_reduce_add (int) in the odd invocations of each subgroup, x in the even
// ones. One value per invocation.
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;

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

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  int x = args.source.values[item];
  int result = x;
  if ((gl_SubgroupInvocationID & 1) != 0) result = subgroupAdd(x);
  args.destination.values[item] = result;
}
