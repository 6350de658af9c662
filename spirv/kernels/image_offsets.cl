// Texel addresses from 32-bit and from 64-bit offsets (docs/images.md, "The image argument"): each
// work-item reads a 3D image through a clamp-to-edge sampler at a neighbour of its texel, keeps the
// value, and writes it to a second image with its channels reversed, so that a test can run the
// kernel with the image records' narrow-offsets flag set and clear and compare both with the CPU.
kernel void image_offsets(read_only image3d_t in, write_only image3d_t out, global float4* sampled) {
  const sampler_t edge = CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP_TO_EDGE | CLK_FILTER_NEAREST;
  int4 p = (int4)(get_global_id(0), get_global_id(1), get_global_id(2), 0);
  float4 v = read_imagef(in, edge, p + (int4)(1, -1, 1, 0));
  sampled[(p.z * get_image_height(in) + p.y) * get_image_width(in) + p.x] = v;
  write_imagef(out, p, v.wzyx);
}
