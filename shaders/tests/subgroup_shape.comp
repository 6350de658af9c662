#version 460
// For each invocation: the subgroup size it ran with, and the number of active invocations in its
// subgroup (a subgroupAdd of 1), so a test can check required subgroup sizes and full subgroups.
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_arithmetic : require

layout(local_size_x_id = 0) in;

layout(buffer_reference, std430, buffer_reference_align = 4) writeonly buffer Shape {
  uvec2 values[];
};

layout(push_constant, std430) uniform Arguments {
  Shape shape;
} args;

void main() {
  args.shape.values[gl_GlobalInvocationID.x] = uvec2(gl_SubgroupSize, subgroupAdd(1u));
}
