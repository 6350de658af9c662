#version 460
// Invocation 0 writes the subgroup size the work-group runs with (the source is unused).
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_basic : require

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
  if (gl_LocalInvocationIndex == 0) args.destination.values[0] = gl_SubgroupSize;
}
