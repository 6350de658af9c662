// Several kernels in one module, sharing a helper.
int twice(int v) { return 2 * v; }

kernel void fill(global int* out, int value) { out[get_global_id(0)] = value; }

kernel void scale(global int* out, int factor) { out[get_global_id(0)] *= factor; }

kernel void add_twice(global int* out, global const int* in) { out[get_global_id(0)] += twice(in[get_global_id(0)]); }
