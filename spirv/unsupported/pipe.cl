// Uses a construct cl2vk does not support; the translator must refuse it with a clear error.
kernel void pipes(read_only pipe int p, global int* out) { read_pipe(p, out); }
