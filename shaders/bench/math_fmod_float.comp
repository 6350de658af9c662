#version 460
// The GLSL baseline of cl2vk's OpenCL fmod: x - y * trunc(x / y) (OpFRem's definition; GLSL.std.450
// has no fmod instruction) on the arguments of tools/bench/kernels.cl, one float per invocation.
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

// OpenCL's fmod truncates the quotient (GLSL's mod floors it): x - y * trunc(x / y), the
// formula OpFRem is defined by.
float fmodOf(float x, float y) { return x - y * trunc(x / y); }

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  float x = args.source.values[item];
  args.destination.values[item] = fmodOf(x * 1000.0, abs(x) + 0.25);
}
