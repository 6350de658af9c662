// half values through vload_half / vstore_half, and half arithmetic with cl_khr_fp16.
#pragma OPENCL EXTENSION cl_khr_fp16 : enable
kernel void half_storage(global const half* in, global float* widened, global half* narrowed) {
  size_t i = get_global_id(0);
  float x = vload_half(i, in);
  widened[i] = x;
  vstore_half(x * 2.0f, i, narrowed);
}

kernel void half_arithmetic(global const half* a, global const half* b, global half* out) {
  size_t i = get_global_id(0);
  out[i] = a[i] * b[i] + a[i];
}
