// The classic n-body step: a float3 acceleration accumulated in a loop. At -O1 and above
// llvm-spirv-15 writes the loop's exit block, which uses the accumulator, before the loop that
// defines it ("ID has not been defined"); cl2vk's repair-llvm-spirv puts it back after the loop.
kernel void nbody_accelerations(global const float4* bodies, global float4* accelerations, int count,
                                float softening) {
  int i = get_global_id(0);
  float3 position = bodies[i].xyz;
  float3 acceleration = (float3)(0.0f);
  for (int j = 0; j < count; ++j) {
    float3 d = bodies[j].xyz - position;
    float distanceSquared = dot(d, d) + softening;
    float inverse = rsqrt(distanceSquared);
    acceleration += d * (bodies[j].w * inverse * inverse * inverse);
  }
  accelerations[i] = (float4)(acceleration, 0.0f);
}
