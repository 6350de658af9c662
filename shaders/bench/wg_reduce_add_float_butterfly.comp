#version 460
// work_group_reduce_add (float), variant: the subgroup sums as shuffle-xor butterflies instead of
// subgroupAdd.
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_shuffle : require

layout(local_size_x_id = 0) in;
// Subgroups per work-group: the host specializes it with the device's subgroup size.
layout(constant_id = 1) const uint kSubgroups = 1;

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

shared float subgroupPartials[kSubgroups];

// The subgroup sum in log2(SubgroupSize) butterfly steps, every lane ending with the total.
float butterflyAdd(float x) {
  for (uint mask = gl_SubgroupSize / 2; mask > 0; mask /= 2) x += subgroupShuffleXor(x, mask);
  return x;
}

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  float partial = butterflyAdd(args.source.values[item]);
  if (gl_SubgroupInvocationID == 0) subgroupPartials[gl_SubgroupID] = partial;
  barrier();
  if (gl_SubgroupID != 0) return;
  float sum = 0.0;
  for (uint i = gl_SubgroupInvocationID; i < gl_NumSubgroups; i += gl_SubgroupSize) sum += subgroupPartials[i];
  sum = butterflyAdd(sum);
  if (gl_SubgroupInvocationID == 0) args.destination.values[group] = sum;
}
