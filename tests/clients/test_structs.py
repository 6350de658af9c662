"""Arrays of structs through pyopencl: numpy record dtypes matched to OpenCL C structs
(pyopencl.tools.match_dtype_to_c_struct), registered types in element-wise kernels and
reductions, and cltypes vectors. Exact comparisons (integer data, or float copies).
"""

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.cltypes as cltypes
from pyopencl.elementwise import ElementwiseKernel
from pyopencl.tools import get_or_register_dtype, match_dtype_to_c_struct


def particle_type(device):
    dtype = np.dtype([("position", cltypes.float4), ("id", np.int32), ("mass", np.float32), ("flags", np.uint8),
                      ("charge", np.int16)])
    dtype, declaration = match_dtype_to_c_struct(device, "particle", dtype)
    return get_or_register_dtype("particle", dtype), declaration


def particles(dtype, n, seed=0):
    rng = np.random.default_rng(seed)
    host = np.zeros(n, dtype)
    for c in "xyzw":
        host["position"][c] = rng.uniform(-10, 10, n)
    host["id"] = np.arange(n)
    host["mass"] = rng.uniform(1, 2, n)
    host["flags"] = rng.integers(0, 256, n)
    host["charge"] = rng.integers(-1000, 1000, n)
    return host


def test_struct_layout_matches_the_device(ctx, device):
    dtype, declaration = particle_type(device)
    # match_dtype_to_c_struct asks the device for the offsets (it runs a kernel that reports them).
    assert "particle" in declaration
    assert dtype.fields["position"][1] == 0
    assert dtype.itemsize % 16 == 0


def test_struct_fields_in_elementwise_kernel(ctx, queue, device):
    dtype, declaration = particle_type(device)
    kernel = ElementwiseKernel(ctx, "particle *p, float dt", """
        p[i].position.xyz += dt * (float3)(1, 2, 3) * p[i].mass;
        p[i].flags ^= 0x0F;
        p[i].charge = -p[i].charge;
        p[i].id += 1000""", "advance", preamble=declaration)
    host = particles(dtype, 500)
    data = cla.to_device(queue, host)
    kernel(data, np.float32(0.5))
    result = data.get()
    for c, k in zip("xyz", (1, 2, 3)):
        np.testing.assert_allclose(result["position"][c],
                                   host["position"][c] + np.float32(0.5) * np.float32(k) * host["mass"], rtol=1e-6,
                                   atol=1e-6)
    np.testing.assert_array_equal(result["position"]["w"], host["position"]["w"])
    np.testing.assert_array_equal(result["flags"], host["flags"] ^ 0x0F)
    np.testing.assert_array_equal(result["charge"], -host["charge"])
    np.testing.assert_array_equal(result["id"], host["id"] + 1000)


def test_struct_copy_and_select(ctx, queue, device):
    dtype, declaration = particle_type(device)
    kernel = ElementwiseKernel(ctx, "particle *out, particle *in, int *order",
                               "particle q = in[order[i]]; q.mass *= 2; out[i] = q", "gather_particles",
                               preamble=declaration)
    host = particles(dtype, 300, seed=1)
    order = np.random.default_rng(2).permutation(300).astype(np.int32)
    out = cla.empty(queue, 300, dtype)
    kernel(out, cla.to_device(queue, host), cla.to_device(queue, order))
    result = out.get()
    expected = host[order]
    expected["mass"] *= 2
    for name in dtype.names:
        np.testing.assert_array_equal(result[name], expected[name], err_msg=name)


def test_struct_reduction(ctx, queue, device):
    from pyopencl.reduction import ReductionKernel
    dtype, declaration = particle_type(device)
    kernel = ReductionKernel(ctx, np.int64, neutral="0", reduce_expr="a+b",
                             map_expr="(long) p[i].charge * (p[i].flags & 1)", arguments="__global particle *p",
                             preamble=declaration)
    host = particles(dtype, 4000, seed=3)
    expected = (host["charge"].astype(np.int64) * (host["flags"] & 1)).sum()
    assert kernel(cla.to_device(queue, host)).get() == expected


def test_struct_array_of_pairs_by_value_argument(ctx, queue, device):
    dtype = np.dtype([("lo", np.int32), ("hi", np.int32)])
    dtype, declaration = match_dtype_to_c_struct(device, "range_pair", dtype)
    dtype = get_or_register_dtype("range_pair", dtype)
    program = cl.Program(ctx, declaration + """
        __kernel void clamp_all(__global int *x, range_pair r) {
            size_t i = get_global_id(0);
            x[i] = clamp(x[i], r.lo, r.hi);
        }""").build()
    x = np.random.default_rng(4).integers(-100, 100, 1000).astype(np.int32)
    dx = cla.to_device(queue, x)
    bounds = np.array((-20, 30), dtype=dtype)
    program.clamp_all(queue, (1000,), None, dx.data, bounds)
    np.testing.assert_array_equal(dx.get(), np.clip(x, -20, 30))


def test_cltypes_vectors_in_arrays(ctx, queue):
    host = np.zeros(333, cltypes.int4)
    for k, c in enumerate("xyzw"):
        host[c] = np.arange(333) * (k + 1)
    program = cl.Program(ctx, """
        __kernel void swizzle(__global int4 *v, __global int *sums) {
            size_t i = get_global_id(0);
            int4 a = v[i];
            v[i] = a.wzyx + (int4)(1);
            sums[i] = a.x + a.y + a.z + a.w;
        }""").build()
    dv, sums = cla.to_device(queue, host), cla.empty(queue, 333, np.int32)
    program.swizzle(queue, (333,), None, dv.data, sums.data)
    result = dv.get()
    for c, source in zip("xyzw", "wzyx"):
        np.testing.assert_array_equal(result[c], host[source] + 1)
    np.testing.assert_array_equal(sums.get(), np.arange(333) * 10)
    packed = cltypes.make_float3(1, 2, 3)
    assert packed.dtype == cltypes.float3
