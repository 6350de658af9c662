// Uses a construct cl2vk does not support; the translator must refuse it with a clear error.
int fib(int n) { return n < 2 ? n : fib(n - 1) + fib(n - 2); }
kernel void recursion(global int* a) { a[0] = fib(a[1]); }
