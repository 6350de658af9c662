"""pyopencl.reduction: ReductionKernel with map expressions, several arguments, types and structs.

Integers compare exactly; float sums with a relative tolerance of n ulp (another summation order).
"""

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pytest
from pyopencl.reduction import ReductionKernel

from conftest import skip_without_dtype


@pytest.mark.parametrize("n", [1, 100, 4097, 100000])
def test_sum_of_squares(ctx, queue, n):
    kernel = ReductionKernel(ctx, np.float32, neutral="0", reduce_expr="a+b", map_expr="x[i]*x[i]",
                             arguments="__global float *x")
    x = np.random.default_rng(0).uniform(-1, 1, n).astype(np.float32)
    result = kernel(cla.to_device(queue, x)).get()
    np.testing.assert_allclose(result, np.sum(x.astype(np.float64) ** 2), rtol=max(n, 16) * 1.2e-7)


@pytest.mark.parametrize("dtype,ctype", [(np.int32, "int"), (np.uint32, "unsigned int"), (np.int64, "long"),
                                         (np.uint64, "unsigned long"), (np.float64, "double")],
                         ids=["int32", "uint32", "int64", "uint64", "float64"])
def test_dot_product_types(ctx, queue, device, dtype, ctype):
    skip_without_dtype(device, dtype)
    kernel = ReductionKernel(ctx, dtype, neutral="0", reduce_expr="a+b", map_expr="x[i]*y[i]",
                             arguments=f"__global {ctype} *x, __global {ctype} *y")
    rng = np.random.default_rng(1)
    x, y = rng.integers(0, 1000, 3333).astype(dtype), rng.integers(0, 1000, 3333).astype(dtype)
    result = kernel(cla.to_device(queue, x), cla.to_device(queue, y)).get()
    assert result == np.dot(x, y)


@pytest.mark.parametrize("what", ["min", "max"])
def test_min_max_with_map(ctx, queue, what):
    neutral = "INT_MAX" if what == "min" else "INT_MIN"
    kernel = ReductionKernel(ctx, np.int32, neutral=neutral, reduce_expr=f"{what}(a, b)",
                             map_expr="(int) abs(x[i] - 500)", arguments="__global int *x")
    x = np.random.default_rng(2).integers(-10000, 10000, 12345).astype(np.int32)
    expected = getattr(np.abs(x - 500), what)()
    assert kernel(cla.to_device(queue, x)).get() == expected


def test_count_with_scalar_argument(ctx, queue):
    kernel = ReductionKernel(ctx, np.int64, neutral="0", reduce_expr="a+b", map_expr="(x[i] > threshold) ? 1 : 0",
                             arguments="__global float *x, float threshold")
    x = np.random.default_rng(3).uniform(0, 1, 20000).astype(np.float32)
    assert kernel(cla.to_device(queue, x), np.float32(0.3)).get() == np.count_nonzero(x > np.float32(0.3))


def test_reduction_over_a_range(ctx, queue):
    kernel = ReductionKernel(ctx, np.int32, neutral="0", reduce_expr="a+b", map_expr="x[i]",
                             arguments="__global int *x")
    x = np.arange(1000, dtype=np.int32)
    assert kernel(cla.to_device(queue, x), range=slice(100, 900)).get() == x[100:900].sum()
    assert kernel(cla.to_device(queue, x), slice=slice(10, 20)).get() == x[10:20].sum()


def test_struct_reduction_min_and_max_together(ctx, queue):
    # The reduced value is a struct: pyopencl's own example (min and max in one pass).
    from pyopencl.tools import get_or_register_dtype, match_dtype_to_c_struct

    dtype = np.dtype([("cur_min", np.int32), ("cur_max", np.int32), ("pad", np.int32)])
    dtype, c_decl = match_dtype_to_c_struct(device_of(ctx), "minmax_t", dtype)
    dtype = get_or_register_dtype("minmax_t", dtype)
    preamble = c_decl + """
        minmax_t mmc_neutral() { minmax_t r; r.cur_min = INT_MAX; r.cur_max = INT_MIN; return r; }
        minmax_t mmc_from_scalar(int x) { minmax_t r; r.cur_min = x; r.cur_max = x; return r; }
        minmax_t agg_mmc(minmax_t a, minmax_t b) {
            minmax_t r = a; r.cur_min = min(a.cur_min, b.cur_min); r.cur_max = max(a.cur_max, b.cur_max);
            return r;
        }"""
    kernel = ReductionKernel(ctx, dtype, neutral="mmc_neutral()", reduce_expr="agg_mmc(a, b)",
                             map_expr="mmc_from_scalar(x[i])", arguments="__global int *x", preamble=preamble)
    x = np.random.default_rng(4).integers(-10 ** 6, 10 ** 6, 30000).astype(np.int32)
    result = kernel(cla.to_device(queue, x)).get()
    assert result["cur_min"] == x.min()
    assert result["cur_max"] == x.max()


def test_two_stage_reduction_large(ctx, queue):
    # Large enough that pyopencl's two-stage reduction runs both stages with many groups.
    x = np.random.default_rng(5).integers(0, 100, 300000).astype(np.int32)
    assert cla.sum(cla.to_device(queue, x)).get() == x.sum()


def device_of(ctx):
    return ctx.devices[0]


def test_reduction_with_get_or_register_dtype_cltypes(ctx, queue):
    import pyopencl.cltypes as cltypes
    kernel = ReductionKernel(ctx, cltypes.float2, neutral="(float2)(0, 0)", reduce_expr="a+b",
                             map_expr="(float2)(x[i], x[i]*x[i])", arguments="__global float *x")
    x = np.random.default_rng(6).uniform(-1, 1, 5000).astype(np.float32)
    result = kernel(cla.to_device(queue, x)).get()
    np.testing.assert_allclose(result["x"], x.sum(dtype=np.float64), rtol=1e-4, atol=1e-4)
    np.testing.assert_allclose(result["y"], (x.astype(np.float64) ** 2).sum(), rtol=1e-4)


def test_reduction_on_a_queue_with_profiling(ctx):
    queue = cl.CommandQueue(ctx, properties=cl.command_queue_properties.PROFILING_ENABLE)
    kernel = ReductionKernel(ctx, np.int64, neutral="0", reduce_expr="a+b", map_expr="x[i]",
                             arguments="__global long *x")
    x = np.arange(10000, dtype=np.int64)
    result, event = kernel(cla.to_device(queue, x), return_event=True)
    event.wait()
    assert event.profile.end >= event.profile.start
    assert result.get() == x.sum()
