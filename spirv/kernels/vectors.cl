// Vectors of 2, 3 and 4 components: arithmetic, swizzles and component access.
kernel void vectors_int4(global const int4* a, global int4* out) {
  size_t i = get_global_id(0);
  int4 v = a[i];
  out[i] = v.wzyx + (int4)(v.x) * v;
}

kernel void vectors_float2(global const float2* a, global float2* out) {
  size_t i = get_global_id(0);
  out[i] = a[i].yx - a[i];
}

kernel void vectors_uint3(global const uint* a, global uint* out) {
  size_t i = get_global_id(0);
  uint3 v = (uint3)(a[3 * i], a[3 * i + 1], a[3 * i + 2]);
  v = v.zxy ^ (v << 1);
  out[3 * i] = v.x;
  out[3 * i + 1] = v.y;
  out[3 * i + 2] = v.z;
}

kernel void vectors_uchar4(global const uchar4* a, global uchar4* out) {
  size_t i = get_global_id(0);
  out[i] = a[i] + (uchar4)(1, 2, 3, 4);
}
