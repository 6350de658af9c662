#version 460
// Byte processing as one would write it for a device without 8-bit storage: each invocation
// loads its word, transforms its four bytes (tools/bench/workloads.h's byteTransform) and stores
// the word.
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0) in;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Input {
  uint values[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer Output {
  uint values[];
};

layout(push_constant, std430) uniform Arguments {
  Input source;
  Output destination;
  uint groupOffset;  // of this dispatch's first work-group, when a launch needs several
} args;

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  uint word = args.source.values[item];
  uint result = 0u;
  for (uint k = 0u; k < 4u; ++k) {
    uint b = (word >> (8u * k)) & 0xffu;
    result |= ((((b * 3u + 7u) & 0xffu) ^ (b >> 1u)) << (8u * k));
  }
  args.destination.values[item] = result;
}
