"""pyopencl.elementwise: ElementwiseKernel with scalars, preambles, ranges, complex and integer math.

Integers compare exactly; float results with the tolerance each test states.
"""

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pytest
from pyopencl.elementwise import ElementwiseKernel

from conftest import skip_without_dtype

N = 777


def test_linear_combination(ctx, queue):
    kernel = ElementwiseKernel(ctx, "float a, float *x, float b, float *y, float *z", "z[i] = a*x[i] + b*y[i]",
                               "lin_comb")
    rng = np.random.default_rng(0)
    x, y = rng.uniform(-1, 1, N).astype(np.float32), rng.uniform(-1, 1, N).astype(np.float32)
    dx, dy = cla.to_device(queue, x), cla.to_device(queue, y)
    dz = cla.empty_like(dx)
    kernel(np.float32(2), dx, np.float32(-3), dy, dz)
    # Two products and a sum: a few ulp (a fused multiply-add is allowed).
    np.testing.assert_allclose(dz.get(), np.float32(2) * x - np.float32(3) * y, rtol=1e-6, atol=1e-6)


@pytest.mark.parametrize("dtype,ctype", [(np.int8, "char"), (np.uint8, "uchar"), (np.int16, "short"),
                                         (np.uint16, "ushort"), (np.int32, "int"), (np.uint32, "uint"),
                                         (np.int64, "long"), (np.uint64, "ulong")],
                         ids=["int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64"])
def test_integer_division_remainder_shifts(ctx, queue, dtype, ctype):
    kernel = ElementwiseKernel(
        ctx, f"{ctype} *q, {ctype} *r, {ctype} *s, {ctype} *a, {ctype} *b",
        "q[i] = a[i] / b[i]; r[i] = a[i] % b[i]; s[i] = (a[i] << 2) ^ (a[i] >> 1)", f"divmod_{ctype}")
    info = np.iinfo(dtype)
    rng = np.random.default_rng(1)
    a = rng.integers(max(info.min, -1000), min(info.max, 1000), N, endpoint=True).astype(dtype)
    b = rng.integers(1, min(info.max, 37), N, endpoint=True).astype(dtype)
    b[::3] = (-b[::3]).astype(dtype) if info.min < 0 else b[::3]
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    dq, dr, ds = cla.empty_like(da), cla.empty_like(da), cla.empty_like(da)
    kernel(dq, dr, ds, da, db)
    # C division truncates toward zero; numpy's floor-divides.
    expected_q = (np.trunc(a.astype(np.float64) / b.astype(np.float64))).astype(dtype)
    expected_r = (a - expected_q * b).astype(dtype)
    with np.errstate(over="ignore"):
        expected_s = ((a << dtype(2)) ^ (a >> dtype(1))).astype(dtype)
    np.testing.assert_array_equal(dq.get(), expected_q)
    np.testing.assert_array_equal(dr.get(), expected_r)
    np.testing.assert_array_equal(ds.get(), expected_s)


def test_preamble_helper_function(ctx, queue):
    kernel = ElementwiseKernel(ctx, "int *out, int *x", "out[i] = collatz_steps(x[i])", "collatz", preamble="""
        int collatz_steps(int n) {
            int steps = 0;
            while (n != 1) { n = (n % 2) ? 3 * n + 1 : n / 2; ++steps; }
            return steps;
        }""")
    x = np.arange(1, 301, dtype=np.int32)

    def steps(n):
        count = 0
        while n != 1:
            n = 3 * n + 1 if n % 2 else n // 2
            count += 1
        return count

    out = cla.empty(queue, x.shape, np.int32)
    kernel(out, cla.to_device(queue, x))
    np.testing.assert_array_equal(out.get(), [steps(int(n)) for n in x])


def test_range_and_slice(ctx, queue):
    kernel = ElementwiseKernel(ctx, "int *out", "out[i] = i * 2", "twice_index")
    out = cla.zeros(queue, 100, np.int32)
    kernel(out, range=slice(10, 90, 3))
    expected = np.zeros(100, np.int32)
    expected[10:90:3] = np.arange(10, 90, 3) * 2
    np.testing.assert_array_equal(out.get(), expected)
    out.fill(0)
    kernel(out, slice=slice(5, 20))
    expected = np.zeros(100, np.int32)
    expected[5:20] = np.arange(5, 20) * 2
    np.testing.assert_array_equal(out.get(), expected)


def test_loop_and_private_array(ctx, queue):
    # A private array indexed by a run-time value (a Function-storage array in Vulkan).
    kernel = ElementwiseKernel(ctx, "int *out, int *x", """
        int digits[10];
        for (int k = 0; k < 10; ++k) digits[k] = 0;
        int n = x[i];
        do { digits[n % 10] += 1; n /= 10; } while (n);
        int best = 0;
        for (int k = 1; k < 10; ++k) if (digits[k] > digits[best]) best = k;
        out[i] = best * 100 + digits[best]""", "digit_histogram")
    x = np.random.default_rng(2).integers(0, 10 ** 9, N).astype(np.int32)
    out = cla.empty(queue, N, np.int32)
    kernel(out, cla.to_device(queue, x))

    def expected(n):
        digits = [0] * 10
        for c in str(n):
            digits[int(c)] += 1
        best = max(range(10), key=lambda k: (digits[k], -k))
        return best * 100 + digits[best]

    np.testing.assert_array_equal(out.get(), [expected(int(n)) for n in x])


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=["complex64", "complex128"])
def test_complex_arithmetic(ctx, queue, device, dtype):
    skip_without_dtype(device, dtype)
    name = "cfloat" if dtype == np.complex64 else "cdouble"
    kernel = ElementwiseKernel(
        ctx, f"{name}_t *z, {name}_t *x, {name}_t *y",
        f"z[i] = {name}_add({name}_mul(x[i], y[i]), {name}_divide(x[i], y[i]))", f"complex_ops_{name}",
        preamble="#include <pyopencl-complex.h>")
    rng = np.random.default_rng(3)
    x = (rng.uniform(-3, 3, N) + 1j * rng.uniform(-3, 3, N)).astype(dtype)
    y = (rng.uniform(1, 3, N) + 1j * rng.uniform(-3, 3, N)).astype(dtype)
    dx, dy = cla.to_device(queue, x), cla.to_device(queue, y)
    dz = cla.empty_like(dx)
    kernel(dz, dx, dy)
    # A product and a quotient: a few ulp of the type, relative to the operands' magnitude.
    eps = np.finfo(dtype).eps
    np.testing.assert_allclose(dz.get(), x * y + x / y, rtol=64 * eps, atol=64 * eps * 10)


@pytest.mark.parametrize("dtype", [np.complex64, np.complex128], ids=["complex64", "complex128"])
def test_complex_functions(ctx, queue, device, dtype):
    skip_without_dtype(device, dtype)
    name = "cfloat" if dtype == np.complex64 else "cdouble"
    kernel = ElementwiseKernel(
        ctx, f"{name}_t *e, {name}_t *s, {name}_t *x",
        f"e[i] = {name}_exp(x[i]); s[i] = {name}_sqrt(x[i])", f"complex_fn_{name}",
        preamble="#include <pyopencl-complex.h>")
    rng = np.random.default_rng(4)
    x = (rng.uniform(-2, 2, N) + 1j * rng.uniform(-2, 2, N)).astype(dtype)
    dx = cla.to_device(queue, x)
    de, ds = cla.empty_like(dx), cla.empty_like(dx)
    kernel(de, ds, dx)
    # exp, sin, cos and sqrt: OpenCL's 3-4 ulp bounds, several of them combined.
    rtol = 1e-5 if dtype == np.complex64 else 1e-13
    np.testing.assert_allclose(de.get(), np.exp(x), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(ds.get(), np.sqrt(x), rtol=rtol, atol=rtol)


def test_vector_types(ctx, queue):
    import pyopencl.cltypes as cltypes
    kernel = ElementwiseKernel(ctx, "float4 *out, float4 *a, float *s",
                               "out[i] = a[i] * s[i] + (float4)(1, 2, 3, 4); out[i].w = dot(a[i], a[i])",
                               "vec4")
    rng = np.random.default_rng(5)
    a = np.zeros(N, cltypes.float4)
    for c in "xyzw":
        a[c] = rng.uniform(-2, 2, N)
    s = rng.uniform(-2, 2, N).astype(np.float32)
    out = cla.empty(queue, N, cltypes.float4)
    kernel(out, cla.to_device(queue, a), cla.to_device(queue, s))
    result = out.get()
    for c, k in zip("xyz", (1, 2, 3)):
        np.testing.assert_allclose(result[c], a[c] * s + k, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(result["w"], a["x"] ** 2 + a["y"] ** 2 + a["z"] ** 2 + a["w"] ** 2, rtol=1e-5)


def test_builtin_integer_functions(ctx, queue):
    kernel = ElementwiseKernel(ctx, "uint *out, uint *x", """
        out[5*i] = popcount(x[i]); out[5*i+1] = clz(x[i]); out[5*i+2] = rotate(x[i], 7u);
        out[5*i+3] = mul_hi(x[i], 0x9E3779B9u); out[5*i+4] = add_sat(x[i], 0xF0000000u)""", "int_builtins")
    x = np.random.default_rng(6).integers(0, 2 ** 32, N, dtype=np.uint64).astype(np.uint32)
    x[:3] = [0, 1, 0xFFFFFFFF]
    out = cla.empty(queue, 5 * N, np.uint32)
    kernel(out, cla.to_device(queue, x), range=slice(N))
    r = out.get().reshape(N, 5)
    xi = x.astype(np.uint64)
    np.testing.assert_array_equal(r[:, 0], [bin(int(v)).count("1") for v in x])
    np.testing.assert_array_equal(r[:, 1], [32 - int(v).bit_length() for v in x])
    np.testing.assert_array_equal(r[:, 2], ((xi << 7) | (xi >> 25)) & 0xFFFFFFFF)
    np.testing.assert_array_equal(r[:, 3], (xi * 0x9E3779B9) >> 32)
    np.testing.assert_array_equal(r[:, 4], np.minimum(xi + 0xF0000000, 0xFFFFFFFF))


def test_local_size_and_events(ctx, queue):
    kernel = ElementwiseKernel(ctx, "long *out", "out[i] = (long)i * i", "squares")
    out = cla.empty(queue, 5000, np.int64)
    event = kernel(out, wait_for=[])
    event.wait()
    assert event.command_execution_status == cl.command_execution_status.COMPLETE
    np.testing.assert_array_equal(out.get(), np.arange(5000, dtype=np.int64) ** 2)


def test_templates(ctx, queue):
    # The Template classes of elementwise, reduction and scan, instantiated with type aliases
    # (pairs in a tuple: pyopencl keys its build cache on them).
    from pyopencl.elementwise import ElementwiseTemplate
    from pyopencl.reduction import ReductionTemplate
    from pyopencl.scan import ScanTemplate

    saxpy = ElementwiseTemplate(arguments="scalar_t a, scalar_t *x, scalar_t *y", operation="y[i] += a * x[i]",
                                name="templated_axpy").build(ctx, type_aliases=(("scalar_t", np.int64),))
    x = cla.to_device(queue, np.arange(500, dtype=np.int64))
    y = cla.to_device(queue, np.full(500, 7, np.int64))
    saxpy(np.int64(3), x, y)
    np.testing.assert_array_equal(y.get(), 3 * np.arange(500) + 7)

    maximum = ReductionTemplate(arguments="item_t *x", neutral="-1", reduce_expr="max(a, b)",
                                map_expr="x[i]", name_prefix="templated_max").build(
        ctx, type_aliases=(("item_t", np.int32), ("reduction_t", np.int32)))
    values = np.random.default_rng(7).integers(0, 10 ** 6, 3000).astype(np.int32)
    assert maximum(cla.to_device(queue, values)).get() == values.max()

    prefix = ScanTemplate(arguments="item_t *x, item_t *out", input_expr="x[i]", scan_expr="a+b", neutral="0",
                          output_statement="out[i] = item", name_prefix="templated_prefix").build(
        ctx, type_aliases=(("item_t", np.int32), ("scan_t", np.int32)))
    out = cla.empty(queue, 3000, np.int32)
    prefix(cla.to_device(queue, values % 100), out)
    np.testing.assert_array_equal(out.get(), np.cumsum(values % 100))
