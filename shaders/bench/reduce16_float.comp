#version 460
// reduce16: each invocation sums 16 values (coalesced: element group*16*wg + k*wg + lid), then
// the work-group reduces them as wg_reduce_add_float does; one value per work-group.
#extension GL_EXT_buffer_reference : require
#extension GL_KHR_shader_subgroup_arithmetic : require

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

float sixteenValues(uint group) {
  uint base = group * 16 * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  float sum = 0.0;
  for (uint k = 0; k < 16; ++k) sum += args.source.values[base + k * gl_WorkGroupSize.x];
  return sum;
}

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  float partial = subgroupAdd(sixteenValues(group));
  if (gl_SubgroupInvocationID == 0) subgroupPartials[gl_SubgroupID] = partial;
  barrier();
  if (gl_SubgroupID != 0) return;
  float sum = 0.0;
  for (uint i = gl_SubgroupInvocationID; i < gl_NumSubgroups; i += gl_SubgroupSize) sum += subgroupPartials[i];
  sum = subgroupAdd(sum);
  if (gl_SubgroupInvocationID == 0) args.destination.values[group] = sum;
}
