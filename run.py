import numpy as np, pyopencl as cl, sys
ctx = cl.Context(cl.get_platforms()[0].get_devices()[:1]); q = cl.CommandQueue(ctx)
src = open(sys.argv[1]).read()
p = cl.Program(ctx, src).build(options="-cl-std=CL2.0")
n = 256
fd = np.zeros(1, np.int32); ov = np.zeros(n, np.int32)
mf = cl.mem_flags
bf = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=fd); bo = cl.Buffer(ctx, mf.READ_WRITE | mf.COPY_HOST_PTR, hostbuf=ov)
p.test_atomic_kernel(q, (n,), (n,), np.uint32(n), np.uint32(1), bf, bo)
cl.enqueue_copy(q, ov, bo); cl.enqueue_copy(q, fd, bf)
print("final", fd, "old sorted ok", sorted(ov.tolist()) == list(range(n)))
