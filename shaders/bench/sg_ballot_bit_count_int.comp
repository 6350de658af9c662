#version 460
// sub_group_ballot_bit_count(sub_group_ballot(x > 0)) (int). One value per invocation.
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_ballot : require

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
  args.destination.values[item] = int(subgroupBallotBitCount(subgroupBallot(x > 0)));
}
