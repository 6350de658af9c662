// A work-group sum and an inclusive scan: collectives Vulkan has at subgroup scope only.
kernel void reduce(global const int* in, global int* sums, global int* scans) {
  const size_t i = get_global_id(0);
  const int total = work_group_reduce_add(in[i]);
  scans[i] = work_group_scan_inclusive_add(in[i]);
  if (get_local_id(0) == 0) sums[get_group_id(0)] = total;
}
