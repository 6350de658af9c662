// A __private array indexed with values known only at run time.
kernel void private_array(global const int* in, global int* out) {
  int window[5];
  size_t i = get_global_id(0);
  for (int k = 0; k < 5; ++k) window[k] = in[i + k] * (k + 1);
  int pick = in[i] & 3;
  out[i] = window[pick] + window[4 - pick];
}
