// Images and samplers (docs/images.md): every image type, reads with and without samplers (literal,
// program-scope and argument samplers; float and integer coordinates), writes of each result type,
// read_imageh/write_imageh, read-write images and the queries. Needs OpenCL C 2.0 (read_write).
#pragma OPENCL EXTENSION cl_khr_fp16 : enable

constant sampler_t kLinearRepeat = CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT | CLK_FILTER_LINEAR;

kernel void images_2d(read_only image2d_t in, write_only image2d_t out, sampler_t s, global float4* sampled) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float2 f = convert_float2(p) + 0.5f;
  float4 v = read_imagef(in, p) + read_imagef(in, s, f) + read_imagef(in, s, p) + read_imagef(in, kLinearRepeat, f);
  v += read_imagef(in, CLK_NORMALIZED_COORDS_FALSE | CLK_ADDRESS_CLAMP | CLK_FILTER_NEAREST, f);
  write_imagef(out, p, v);
  sampled[p.y * get_image_width(in) + p.x] = v;
}

kernel void images_integer(read_only image2d_t in, write_only image2d_t out, read_only image2d_t uin,
                           write_only image2d_t uout, sampler_t s) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imagei(out, p, read_imagei(in, p) + read_imagei(in, s, p));
  write_imageui(uout, p, read_imageui(uin, p) + read_imageui(uin, s, convert_float2(p)));
}

kernel void images_half(read_only image2d_t in, write_only image2d_t out) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  write_imageh(out, p, read_imageh(in, p) * (half)2);
}

kernel void images_geometries(read_only image1d_t a, read_only image1d_array_t b, read_only image2d_array_t c,
                              read_only image3d_t d, read_only image1d_buffer_t e, write_only image3d_t f,
                              sampler_t s, global float4* out) {
  int i = get_global_id(0);
  out[i] = read_imagef(a, i) + read_imagef(b, (int2)(i, 1)) + read_imagef(c, (int4)(i, 0, 1, 0)) +
           read_imagef(d, (int4)(i, 0, 0, 0)) + read_imagef(e, i) + read_imagef(a, s, (float)i) +
           read_imagef(b, s, (float2)(i, 1)) + read_imagef(c, s, (float4)(i, 0, 1, 0)) +
           read_imagef(d, s, (float4)(i, 0, 0, 0));
  write_imagef(f, (int4)(i, 0, 0, 0), out[i]);
}

kernel void images_read_write(read_write image2d_t img) {
  int2 p = (int2)(get_global_id(0), get_global_id(1));
  float4 v = read_imagef(img, p);
  atomic_work_item_fence(CLK_IMAGE_MEM_FENCE, memory_order_acq_rel, memory_scope_work_item);
  write_imagef(img, p, v * 2.0f);
}

kernel void images_queries(read_only image2d_t a, read_only image3d_t b, read_only image2d_array_t c,
                           read_only image1d_buffer_t d, global int* out) {
  out[0] = get_image_width(a);
  out[1] = get_image_height(a);
  out[2] = get_image_depth(b);
  out[3] = (int)get_image_array_size(c);
  out[4] = get_image_dim(c).y;
  out[5] = get_image_channel_data_type(a);
  out[6] = get_image_channel_order(b);
  out[7] = get_image_width(d);
  out[8] = get_image_dim(b).z;
}
