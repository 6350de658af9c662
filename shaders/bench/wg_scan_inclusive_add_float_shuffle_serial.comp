#version 460
// work_group_scan_inclusive_add (float), variant: shuffle-up subgroup scan and the serial
// combine of wg_scan_inclusive_add_float_serial (the structure of CUB's BlockScan).
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_arithmetic : require
#extension GL_KHR_shader_subgroup_shuffle_relative : require

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


// The subgroup inclusive add as log2(SubgroupSize) shuffle-up steps, as CUB's warp scan does.
float shuffleUpInclusiveAdd(float x) {
  for (uint delta = 1; delta < gl_SubgroupSize; delta *= 2) {
    float before = subgroupShuffleUp(x, delta);
    if (gl_SubgroupInvocationID >= delta) x += before;
  }
  return x;
}

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  float inclusive = shuffleUpInclusiveAdd(args.source.values[item]);
  if (gl_SubgroupInvocationID == gl_SubgroupSize - 1) subgroupPartials[gl_SubgroupID] = inclusive;
  barrier();
  float before = 0.0;
  for (uint i = 0; i < gl_SubgroupID; ++i) before += subgroupPartials[i];
  args.destination.values[item] = before + inclusive;
}
