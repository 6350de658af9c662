// Common float math builtins: each work-item writes 16 results for its input.
kernel void math_builtins(global const float* in, global float* out) {
  size_t i = get_global_id(0);
  float x = in[i];
  float y = in[(i + 1) % get_global_size(0)];
  global float* o = out + 16 * i;
  o[0] = sqrt(fabs(x));
  o[1] = fabs(x);
  o[2] = floor(x);
  o[3] = ceil(x);
  o[4] = fmin(x, y);
  o[5] = fmax(x, y);
  o[6] = clamp(x, -1.0f, 1.0f);
  o[7] = mad(x, y, 1.0f);
  o[8] = exp(x * 0.01f);
  o[9] = log(fabs(x) + 1.0f);
  o[10] = sin(x);
  o[11] = cos(x);
  o[12] = pow(fabs(x) + 0.5f, 1.5f);
  o[13] = trunc(x);
  o[14] = round(x);
  o[15] = mix(x, y, 0.25f);
}
