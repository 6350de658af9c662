// New cause (pyopencl.algorithm.ListOfListsBuilder with two lists): a select between pointers to
// two different private variables.
//
// ListOfListsBuilder's counting stage passes each list's private counter by pointer to the user's
// generate() function, whose APPEND_<list> macros increment it. With an if/else between two lists,
// clang-15 -O2 inlines generate() and sinks the two increments into one through
//   %p = select i1 %even, i32* %evens, i32* %odds
// which lower-pointers refuses (its documented limit: pointer phis and selects must differ in the
// last index only):
//   lower-pointers: kernel 'count_parity': %78 = OpSelect in function 'count_parity': selects
//   between __local or __private pointers into different objects
// At -O0 the same source translates. A fix: rewrite a load/store through such a select (or phi) as
// a select of the values loaded from each object, and a store into each object guarded by the
// condition (or keep a small object-index variable and switch on it at each access).
// Reproduce: clang-15 -cl-std=CL1.2 -target spir64 -O2 -c -emit-llvm select_private_pointers.cl -o s.bc
//   && llvm-spirv-15 --spirv-max-version=1.2 s.bc -o s.spv && cl2vk-opt s.spv
void tally(int *evens, int *odds, int v) {
  if (v % 2 == 0) {
    ++*evens;
  } else {
    ++*odds;
  }
}

__kernel void count_parity(__global int *evens_out, __global int *odds_out, __global const int *data) {
  size_t i = get_global_id(0);
  int evens = 0, odds = 0;
  tally(&evens, &odds, data[i]);
  if (evens_out) evens_out[i] = evens;
  if (odds_out) odds_out[i] = odds;
}
