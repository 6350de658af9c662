#version 460
// read16: clpeak's global memory bandwidth kernel (global_bandwidth_v4_local_offset): each
// invocation sums 16 vec4s, coalesced across the work-group (vec4 group*16*wg + k*wg + lid), and
// writes the sum of their lanes.
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0) in;

layout(buffer_reference, std430, buffer_reference_align = 16) readonly buffer Input {
  vec4 values[];
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
  uint base = group * 16 * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  vec4 sum = vec4(0.0);
  for (uint k = 0; k < 16; ++k) sum += args.source.values[base + k * gl_WorkGroupSize.x];
  args.destination.values[group * gl_WorkGroupSize.x + gl_LocalInvocationID.x] = (sum.x + sum.y) + (sum.z + sum.w);
}
