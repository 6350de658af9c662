// Float division over the whole range of divisors, 2^126 and beyond included (where Vulkan
// leaves OpFDiv's error unbounded: full-range-division).
kernel void divide(global const float* x, global const float* y, global float* q) {
  size_t i = get_global_id(0);
  q[i] = x[i] / y[i];
}
