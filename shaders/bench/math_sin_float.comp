#version 460
// The GLSL.std.450 instruction cl2vk's OpenCL sin is measured against: sin(x * 100.0), one
// float per invocation, on the arguments of tools/bench/kernels.cl.
#extension GL_EXT_buffer_reference : require

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
  args.destination.values[item] = sin(x * 100.0);
}
