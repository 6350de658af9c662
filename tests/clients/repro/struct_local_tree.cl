// Wrong answer, not a refusal (pyopencl.reduction with a struct value type, reduced in __local
// memory): struct copies into and out of a __local array of structs.
//
// Seen with the ICD built in /work/main/build-rel at 19:59 UTC (main with 71ef3b2, "lower-pointers:
// reinterpreted __local and __private memory as word-addressed objects"): the kernel builds, and
// out[g] holds zeros and stray values instead of the group's minimum and maximum (for example
// {0, 0, -265556} where the CPU gives {-989295, 994419, *}); test_reduction.py::
// test_struct_reduction_min_and_max_together fails the same way (min 0 or 28, expected -999912).
// At c84399f it is refused instead ("lower-pointers: OpCopyMemorySized ... copies memory between
// objects of different types"). clang-15 -O2 turns each struct assignment into an llvm.memcpy of
// 12 bytes through i8 pointers, so the copies reach the translator as OpCopyMemorySized between a
// uchar view and the struct array. Run: 512 work-items in groups of 64, in[] random ints; expected
// out[g].cur_min/cur_max = min/max of in[64g .. 64g+63].
typedef struct {
  int cur_min;
  int cur_max;
  int pad;
} minmax_t;

__kernel void minmax_tree(__global minmax_t *out, __global const int *in) {
  __local minmax_t partial[64];
  size_t l = get_local_id(0);
  int v = in[get_global_id(0)];
  minmax_t mine;
  mine.cur_min = v;
  mine.cur_max = v;
  mine.pad = 0;
  partial[l] = mine;
  barrier(CLK_LOCAL_MEM_FENCE);
  for (size_t stride = 32; stride > 0; stride /= 2) {
    if (l < stride) {
      minmax_t a = partial[l], b = partial[l + stride];
      a.cur_min = min(a.cur_min, b.cur_min);
      a.cur_max = max(a.cur_max, b.cur_max);
      partial[l] = a;
    }
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  if (l == 0) out[get_group_id(0)] = partial[0];
}
