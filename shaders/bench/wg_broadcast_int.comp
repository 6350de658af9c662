#version 460
// work_group_broadcast (int) of the last invocation's value: one value per invocation.
#extension GL_EXT_buffer_reference : require

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

shared int lastValue;

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  int x = args.source.values[item];
  if (gl_LocalInvocationID.x == gl_WorkGroupSize.x - 1) lastValue = x;
  barrier();
  args.destination.values[item] = lastValue;
}
