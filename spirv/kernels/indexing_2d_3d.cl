// 2D and 3D indexing, with global offsets: every work-item writes what identifies it.
kernel void index_2d(global uint* out) {
  size_t x = get_global_id(0), y = get_global_id(1);
  size_t ox = get_global_offset(0), oy = get_global_offset(1);
  size_t w = get_global_size(0);
  out[(y - oy) * w + (x - ox)] = (uint)(x * 1000 + y);
}

kernel void index_3d(global uint* out) {
  size_t x = get_global_id(0) - get_global_offset(0);
  size_t y = get_global_id(1) - get_global_offset(1);
  size_t z = get_global_id(2) - get_global_offset(2);
  size_t w = get_global_size(0), h = get_global_size(1);
  out[(z * h + y) * w + x] = (uint)(get_global_id(0) + 100 * get_global_id(1) + 10000 * get_global_id(2));
}
