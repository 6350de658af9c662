// OpenCL C 2.0 atomics on a work-item's private memory, through generic pointers: Vulkan allows
// atomics only on shared and buffer memory, and a private object has no other work-item to race
// with, so each becomes the plain read-modify-write it means. Every operation, each result kept.
// Needs OpenCL C 2.0 (atomic types in private memory).
int update(atomic_int* a, atomic_uint* u, int i) {
  int r = atomic_fetch_add(a, 3);             // i      -> i+3
  r += 10 * atomic_fetch_sub(a, 1);           // i+3    -> i+2
  r += 100 * atomic_fetch_max(a, 50);         // i+2    -> max(i+2, 50)
  r += 1000 * atomic_fetch_min(a, -i);        //        -> -i
  r ^= (int)atomic_fetch_or(u, 0xf0u);        // 0x0f   -> 0xff
  r ^= (int)atomic_fetch_and(u, 0x3cu) << 8;  // 0xff   -> 0x3c
  r ^= (int)atomic_fetch_xor(u, 0x81u) << 16; // 0x3c   -> 0xbd
  r += atomic_exchange(a, 7 * i);             // -i     -> 7i
  int expected = 7 * i;
  r += atomic_compare_exchange_strong(a, &expected, i + 1) ? 1 : 0;  // succeeds -> i+1
  expected = 0;
  r += atomic_compare_exchange_strong(a, &expected, 99) ? 2 : 0;     // fails unless i+1 == 0
  r += 3 * expected;                                                  // the value it found
  return r;
}

kernel void private_atomics(global int* out) {
  int i = (int)get_global_id(0);
  atomic_int a;
  atomic_uint u;
  atomic_init(&a, i);
  atomic_init(&u, 0x0fu);
  out[4 * i] = update(&a, &u, i);
  out[4 * i + 1] = atomic_load(&a);
  atomic_store(&a, i * i);
  out[4 * i + 2] = atomic_load(&a) + (int)atomic_load(&u);
  atomic_flag flag;
  atomic_flag_clear(&flag);
  int first = atomic_flag_test_and_set(&flag);
  int second = atomic_flag_test_and_set(&flag);
  atomic_flag_clear(&flag);
  int third = atomic_flag_test_and_set(&flag);
  out[4 * i + 3] = first + 2 * second + 4 * third;
}
