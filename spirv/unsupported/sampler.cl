// Uses a construct cl2vk does not support; the translator must refuse it with a clear error.
kernel void samplers(sampler_t s, global int* out) { out[0] = 1; }
