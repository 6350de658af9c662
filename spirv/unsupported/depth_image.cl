// Uses a construct cl2vk does not support; the translator must refuse it with a clear error.
#pragma OPENCL EXTENSION cl_khr_depth_images : enable
kernel void depth_images(read_only image2d_depth_t img, global float* out) { out[0] = read_imagef(img, (int2)(0, 0)); }
