// Pointers compared and subtracted, the way C code searches and walks arrays: a lower-bound
// search over a sorted __global array with pointers, and the same over a __local copy.

global const int* lower_bound(global const int* first, global const int* last, int value) {
  while (first < last) {
    global const int* middle = first + (last - first) / 2;
    if (*middle < value)
      first = middle + 1;
    else
      last = middle;
  }
  return first;
}

kernel void search(global const int* sorted, int count, global const int* keys, global int* found,
                   local int* copy) {
  size_t i = get_global_id(0), l = get_local_id(0);
  for (size_t k = l; k < (size_t)count; k += get_local_size(0)) copy[k] = sorted[k];
  barrier(CLK_LOCAL_MEM_FENCE);
  int key = keys[i];
  global const int* at = lower_bound(sorted, sorted + count, key);
  found[2 * i] = (int)(at - sorted);
  local const int* first = copy;
  local const int* last = copy + count;
  while (first != last) {
    local const int* middle = first + (last - first) / 2;
    if (*middle < key)
      first = middle + 1;
    else
      last = middle;
  }
  found[2 * i + 1] = first == copy + count ? -1 : (int)(first - copy);
}
