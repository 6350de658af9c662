// A struct passed by value, with members of several sizes and a vector that needs padding.
typedef struct {
  char tag;
  int scale;
  float4 offset;
  long big;
  short small;
} Params;

kernel void struct_argument(Params p, global float4* out, global long* wide) {
  size_t i = get_global_id(0);
  out[i] = (float4)((float)i * (float)p.scale) + p.offset;
  wide[i] = p.big + (long)p.tag * 1000 + (long)p.small + (long)i;
}
