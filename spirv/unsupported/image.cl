// Uses a construct cl2vk does not support; the translator must refuse it with a clear error.
kernel void images(read_only image2d_t img, global float4* out) { out[0] = read_imagef(img, (int2)(0, 0)); }
