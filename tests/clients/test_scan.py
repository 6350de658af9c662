"""pyopencl.scan: inclusive and exclusive scans, segmented scans, fetches at offsets, output statements.

Integer scans compare exactly. Sizes cross pyopencl's work-group and interval boundaries (it splits
the input into intervals per work-group and scans those in local memory).
"""

import numpy as np
import pyopencl.array as cla
import pytest
from pyopencl.scan import ExclusiveScanKernel, GenericScanKernel, InclusiveScanKernel

SIZES = [1, 10, 255, 256, 257, 1000, 4097, 70000]


@pytest.mark.parametrize("n", SIZES)
def test_inclusive_sum(ctx, queue, n):
    kernel = InclusiveScanKernel(ctx, np.int32, "a+b", neutral="0")
    x = np.random.default_rng(n).integers(-100, 100, n).astype(np.int32)
    dx = cla.to_device(queue, x)
    kernel(dx)
    np.testing.assert_array_equal(dx.get(), np.cumsum(x, dtype=np.int32))


@pytest.mark.parametrize("n", SIZES)
def test_exclusive_sum(ctx, queue, n):
    kernel = ExclusiveScanKernel(ctx, np.int64, "a+b", "0")
    x = np.random.default_rng(n).integers(-10 ** 6, 10 ** 6, n).astype(np.int64)
    dx = cla.to_device(queue, x)
    kernel(dx)
    expected = np.concatenate([[0], np.cumsum(x)[:-1]]).astype(np.int64)
    np.testing.assert_array_equal(dx.get(), expected)


@pytest.mark.parametrize("dtype,neutral", [(np.int32, "INT_MIN"), (np.uint32, "0"), (np.float32, "-INFINITY"),
                                           (np.float64, "-INFINITY")],
                         ids=["int32", "uint32", "float32", "float64"])
def test_inclusive_max_into_output(ctx, queue, device, dtype, neutral):
    from conftest import skip_without_dtype
    skip_without_dtype(device, dtype)
    kernel = InclusiveScanKernel(ctx, dtype, "max(a, b)", neutral=neutral)
    x = np.random.default_rng(7).integers(0, 10 ** 6, 5000).astype(dtype)
    dx, out = cla.to_device(queue, x), cla.empty(queue, 5000, dtype)
    kernel(dx, out)
    # max is exact in every type; the input is left alone.
    np.testing.assert_array_equal(out.get(), np.maximum.accumulate(x))
    np.testing.assert_array_equal(dx.get(), x)


def test_float_inclusive_sum(ctx, queue):
    kernel = InclusiveScanKernel(ctx, np.float32, "a+b", neutral="0")
    x = np.random.default_rng(8).uniform(0, 1, 3000).astype(np.float32)
    dx = cla.to_device(queue, x)
    kernel(dx)
    # Partial sums in another order: up to n ulp of the running total.
    np.testing.assert_allclose(dx.get(), np.cumsum(x.astype(np.float64)), rtol=3000 * 1.2e-7)


@pytest.mark.parametrize("n", [1, 100, 1000, 10000])
def test_segmented_inclusive_sum(ctx, queue, n):
    kernel = GenericScanKernel(
        ctx, np.int32, arguments="__global int *ary, __global char *segflags, __global int *out",
        input_expr="ary[i]", scan_expr="across_seg_boundary ? b : (a+b)", neutral="0",
        is_segment_start_expr="segflags[i]", output_statement="out[i] = item;")
    rng = np.random.default_rng(n)
    x = rng.integers(0, 10, n).astype(np.int32)
    flags = (rng.uniform(0, 1, n) < 0.05).astype(np.int8)
    out = cla.empty(queue, n, np.int32)
    kernel(cla.to_device(queue, x), cla.to_device(queue, flags), out)
    expected = np.empty(n, np.int32)
    total = 0
    for i in range(n):
        total = x[i] if (flags[i] or i == 0) else total + x[i]
        expected[i] = total
    np.testing.assert_array_equal(out.get(), expected)


def test_segmented_exclusive_via_prev_item(ctx, queue):
    # output_statement sees prev_item: the exclusive value within the segment.
    kernel = GenericScanKernel(
        ctx, np.int32, arguments="__global int *ary, __global char *segflags, __global int *out",
        input_expr="ary[i]", scan_expr="across_seg_boundary ? b : (a+b)", neutral="0",
        is_segment_start_expr="segflags[i]",
        output_statement="out[i] = segflags[i] ? 0 : prev_item;")
    n = 3000
    rng = np.random.default_rng(9)
    x = rng.integers(1, 5, n).astype(np.int32)
    flags = (rng.uniform(0, 1, n) < 0.1).astype(np.int8)
    flags[0] = 1
    out = cla.empty(queue, n, np.int32)
    kernel(cla.to_device(queue, x), cla.to_device(queue, flags), out)
    expected = np.empty(n, np.int32)
    total = 0
    for i in range(n):
        if flags[i]:
            total = 0
        expected[i] = total
        total += x[i]
    np.testing.assert_array_equal(out.get(), expected)


def test_input_fetch_at_offset(ctx, queue):
    # input_fetch_exprs fetches ary[i-1] into a variable (vector arguments with offsets).
    kernel = GenericScanKernel(
        ctx, np.int32, arguments="__global int *ary, __global int *out",
        input_fetch_exprs=[("ary_prev", "ary", -1), ("ary_here", "ary", 0)],
        input_expr="(i == 0) ? 0 : (ary_here != ary_prev)", scan_expr="a+b", neutral="0",
        output_statement="out[i] = item;")
    x = np.repeat(np.arange(50, dtype=np.int32), np.random.default_rng(10).integers(1, 8, 50))
    out = cla.empty(queue, len(x), np.int32)
    kernel(cla.to_device(queue, x), out)
    changes = np.concatenate([[0], (x[1:] != x[:-1]).astype(np.int32)])
    np.testing.assert_array_equal(out.get(), np.cumsum(changes))


def test_scan_with_offset_arrays(ctx, queue):
    # Arrays that are slices of larger buffers (non-zero offsets) as scan arguments. Arguments
    # given as a string drop the offsets (pyopencl passes base_data alone); VectorArg with
    # with_offset=True passes each offset as an argument of its own, applied in the kernel.
    from pyopencl.tools import VectorArg
    kernel = GenericScanKernel(
        ctx, np.int64, arguments=[VectorArg(np.int32, "ary", with_offset=True),
                                  VectorArg(np.int64, "out", with_offset=True)], input_expr="ary[i]",
        scan_expr="a+b", neutral="0", output_statement="out[i] = item;")
    base = np.arange(500, dtype=np.int32)
    dbase = cla.to_device(queue, base)
    out = cla.zeros(queue, 500, np.int64)
    kernel(dbase[100:400], out[50:350])
    expected = np.zeros(500, np.int64)
    expected[50:350] = np.cumsum(base[100:400])
    np.testing.assert_array_equal(out.get(), expected)


def test_vector_type_scan(ctx, queue):
    import pyopencl.cltypes as cltypes
    kernel = GenericScanKernel(
        ctx, cltypes.int2, arguments="__global int *ary, __global int2 *out",
        input_expr="(int2)(ary[i], 1)", scan_expr="a+b", neutral="(int2)(0, 0)",
        output_statement="out[i] = item;")
    x = np.random.default_rng(11).integers(0, 100, 2000).astype(np.int32)
    out = cla.empty(queue, 2000, cltypes.int2)
    kernel(cla.to_device(queue, x), out)
    result = out.get()
    np.testing.assert_array_equal(result["x"], np.cumsum(x))
    np.testing.assert_array_equal(result["y"], np.arange(1, 2001))


def test_scan_output_compaction(ctx, queue):
    # The shape copy_if uses: an exclusive count decides where each kept item goes.
    kernel = GenericScanKernel(
        ctx, np.int32, arguments="__global int *ary, __global int *out, __global int *count",
        input_expr="(ary[i] % 3 == 0) ? 1 : 0", scan_expr="a+b", neutral="0",
        output_statement="if (prev_item != item) out[item - 1] = ary[i]; if (i + 1 == N) *count = item;")
    x = np.random.default_rng(12).integers(0, 1000, 5000).astype(np.int32)
    out, count = cla.zeros(queue, 5000, np.int32), cla.zeros(queue, 1, np.int32)
    kernel(cla.to_device(queue, x), out, count)
    kept = x[x % 3 == 0]
    assert count.get()[0] == len(kept)
    np.testing.assert_array_equal(out.get()[:len(kept)], kept)


def test_cumsum_types(queue):
    # pyopencl's cumsum has no kernel for 8- and 16-bit inputs.
    for dtype in (np.int32, np.uint64, np.float32):
        x = np.random.default_rng(13).integers(0, 3, 1500).astype(dtype)
        result = cla.cumsum(cla.to_device(queue, x)).get()
        np.testing.assert_array_equal(result, np.cumsum(x, dtype=result.dtype), err_msg=str(dtype))
