// C = A * B for n x n int matrices, with TILE x TILE tiles staged in __local memory given as
// kernel arguments, and barriers between the phases. Integers keep the result exact.
#define TILE 8
kernel void tiled_matmul(global const int* A, global const int* B, global int* C, uint n,
                         local int* tileA, local int* tileB) {
  size_t col = get_global_id(0), row = get_global_id(1);
  size_t lx = get_local_id(0), ly = get_local_id(1);
  int sum = 0;
  for (uint t = 0; t < n / TILE; ++t) {
    tileA[ly * TILE + lx] = A[row * n + t * TILE + lx];
    tileB[ly * TILE + lx] = B[(t * TILE + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (int k = 0; k < TILE; ++k) sum += tileA[ly * TILE + k] * tileB[k * TILE + lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = sum;
}
