#version 460
// copy_uint.comp over a 2D grid of work-groups (the dispatch experiment, --experiment dispatch):
// work-group (x, y) is number y * width + x.
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
  uint groupOffset;
} args;

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  args.destination.values[item] = args.source.values[item];
}
