#version 460
// copy_uint.comp holding kSharedWords words of shared memory per work-group (the dispatch
// experiment, --experiment dispatch), which caps how many work-groups a multiprocessor holds. The
// shared array is only touched for a value the inputs never contain (0x7fffffff; they are ints in
// [-1000, 1000]), so that the compiler keeps it while the copy stays a copy.
#extension GL_EXT_buffer_reference : require

layout(local_size_x_id = 0) in;
layout(constant_id = 2) const uint kSharedWords = 1;

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

shared uint reserved[kSharedWords];

void main() {
  uint group = args.groupOffset + gl_WorkGroupID.x;
  uint item = group * gl_WorkGroupSize.x + gl_LocalInvocationID.x;
  uint value = args.source.values[item];
  if (value == 0x7fffffffu) {
    reserved[gl_LocalInvocationID.x % kSharedWords] = value;
    value = reserved[(gl_LocalInvocationID.x + 1) % kSharedWords];
  }
  args.destination.values[item] = value;
}
