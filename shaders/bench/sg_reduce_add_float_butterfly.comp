#version 460
// sub_group_reduce_add (float), variant: shuffle-xor butterfly steps instead of subgroupAdd.
// One value per subgroup, by its invocation 0, at group * subgroups per group + subgroup id.
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_shuffle : require

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

// The subgroup sum in log2(SubgroupSize) butterfly steps, every lane ending with the total.
float butterflyAdd(float x) {
  for (uint mask = gl_SubgroupSize / 2; mask > 0; mask /= 2) x += subgroupShuffleXor(x, mask);
  return x;
}

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  float x = args.source.values[item];
  float sum = butterflyAdd(x);
  if (gl_SubgroupInvocationID == 0) args.destination.values[group * gl_NumSubgroups + gl_SubgroupID] = sum;
}
