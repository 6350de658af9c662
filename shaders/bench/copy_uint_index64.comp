#version 460
// copy_uint.comp with the index arithmetic of a translated OpenCL kernel (the dispatch experiment,
// --experiment dispatch): get_global_id(0) is a 64-bit (group + groupOffset) * size + local id,
// and the addresses are 64-bit base + index * 4.
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require

layout(local_size_x_id = 0) in;

layout(buffer_reference, std430, buffer_reference_align = 4) readonly buffer Word {
  uint value;
};

layout(push_constant, std430) uniform Arguments {
  uint64_t source;
  uint64_t destination;
  uint groupOffset;
} args;

void main() {
  uint64_t group = uint64_t(gl_WorkGroupID.x + args.groupOffset);
  uint64_t item = group * uint64_t(gl_WorkGroupSize.x) + uint64_t(gl_LocalInvocationID.x);
  Word(args.destination + item * 4ul).value = Word(args.source + item * 4ul).value;
}
