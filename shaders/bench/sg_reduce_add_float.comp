#version 460
// sub_group_reduce_add (float).
// One value per subgroup, by its invocation 0, at group * subgroups per group + subgroup id.
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;

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

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  float x = args.source.values[item];
  float sum = subgroupAdd(x);
  if (gl_SubgroupInvocationID == 0) args.destination.values[group * gl_NumSubgroups + gl_SubgroupID] = sum;
}
