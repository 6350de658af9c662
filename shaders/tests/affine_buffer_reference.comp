#version 460
// out[i] = scale * in[i] + offset for i < count, with both arrays reached through buffer device
// addresses in push constants and the work-group size from specialization constant 0. Invocations
// past `count` (the partial last work-group) write nothing.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x_id = 0) in;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Ints {
  int values[];
};
layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer OutInts {
  int values[];
};

layout(push_constant, std430) uniform Arguments {
  Ints source;
  OutInts destination;
  int scale;
  int offset;
  uint count;
} args;

void main() {
  uint i = gl_GlobalInvocationID.x;
  if (i >= args.count) return;
  args.destination.values[i] = args.scale * args.source.values[i] + args.offset;
}
