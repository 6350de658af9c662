// Uses a construct cl2vk does not support; the translator must refuse it with a clear error.
kernel void enqueue(global int* a) {
  queue_t q = get_default_queue();
  ndrange_t r = ndrange_1D(1);
  enqueue_kernel(q, CLK_ENQUEUE_FLAGS_NO_WAIT, r, ^{ a[0] = 1; });
}
