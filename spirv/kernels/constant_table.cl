// A program-scope __constant table, and a __constant pointer argument.
constant int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};

kernel void constant_table(global int* out, constant int* weights) {
  size_t i = get_global_id(0);
  out[i] = primes[i % 8] * weights[i % 4];
}
