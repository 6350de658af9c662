// Uses a construct cl2vk does not support; the translator must refuse it with a clear error.
kernel void prints(global int* out) { printf("%d\n", (int)get_global_id(0)); out[0] = 1; }
