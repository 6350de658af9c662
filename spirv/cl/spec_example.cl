// The worked example of the OpenCL C specification: with a work-group of 8 and input
// [3 1 7 0 4 1 6 3], the inclusive add scan is [3 4 11 11 15 16 22 25] and the exclusive one
// [0 3 4 11 11 15 16 22] (the spec text prints 14 for the fifth inclusive value: a typo).
kernel void spec_example(global const int* p, global int* inclusive, global int* exclusive) {
  size_t i = get_local_id(0);
  inclusive[i] = work_group_scan_inclusive_add(p[i]);
  exclusive[i] = work_group_scan_exclusive_add(p[i]);
}
