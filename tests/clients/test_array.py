"""pyopencl.array against numpy: arithmetic, comparisons, reductions, dtypes, slicing, views.

Integers compare exactly. Float results compare with a relative tolerance of a few units in the
last place of the type (float32: 1e-6 for one operation; float64: 1e-14), looser only where the
test says why (division and pow go through OpenCL's precision rules, which allow 2.5 to 16 ulp).
"""

import numpy as np
import pyopencl.array as cla
import pytest

from conftest import skip_without_dtype

INTEGER_TYPES = [np.int8, np.uint8, np.int16, np.uint16, np.int32, np.uint32, np.int64, np.uint64]
FLOAT_TYPES = [np.float32, np.float64]
COMPLEX_TYPES = [np.complex64, np.complex128]
ALL_TYPES = INTEGER_TYPES + FLOAT_TYPES + COMPLEX_TYPES

N = 1000  # not a multiple of any work-group size, so remainder work-items run too


def rtol_for(dtype, ulps=4):
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        return 0
    return ulps * np.finfo(dtype).eps


def sample(dtype, n=N, seed=0, low=None, high=None):
    """Values of dtype that no tested operation overflows."""
    rng = np.random.default_rng(seed)
    dtype = np.dtype(dtype)
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        low = max(info.min, -100) if low is None else low
        high = min(info.max, 100) if high is None else high
        return rng.integers(low, high, n, endpoint=True).astype(dtype)
    low = -10 if low is None else low
    high = 10 if high is None else high
    if dtype.kind == "c":
        return (rng.uniform(low, high, n) + 1j * rng.uniform(low, high, n)).astype(dtype)
    return rng.uniform(low, high, n).astype(dtype)


def assert_equal_or_close(actual, expected, rtol, atol=0):
    assert actual.dtype == expected.dtype, f"dtype {actual.dtype}, numpy gives {expected.dtype}"
    if rtol == 0 and atol == 0:
        np.testing.assert_array_equal(actual, expected)
    else:
        np.testing.assert_allclose(actual, expected, rtol=rtol, atol=atol)


def ids(types):
    return [np.dtype(t).name for t in types]


# {{{ element-wise arithmetic

@pytest.mark.parametrize("dtype", ALL_TYPES, ids=ids(ALL_TYPES))
def test_add_sub_mul(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a, b = sample(dtype, seed=1, low=0, high=10), sample(dtype, seed=2, low=0, high=10)
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    rtol = rtol_for(dtype)
    assert_equal_or_close((da + db).get(), a + b, rtol)
    assert_equal_or_close((da - db).get(), a - b, rtol)
    assert_equal_or_close((da * db).get(), a * b, rtol)
    # Python scalars keep the array's type (numpy's rule for a scalar operand of the same kind).
    assert_equal_or_close((da + 3).get(), a + dtype(3), rtol)
    assert_equal_or_close((3 - da).get(), dtype(3) - a, rtol)
    assert_equal_or_close((da * 2).get(), a * dtype(2), rtol)


@pytest.mark.parametrize("dtype", ALL_TYPES, ids=ids(ALL_TYPES))
def test_in_place(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a, b = sample(dtype, seed=3, low=0, high=10), sample(dtype, seed=4, low=0, high=10)
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    da += db
    da *= 2
    da -= db
    expected = ((a + b) * dtype(2)) - b
    assert_equal_or_close(da.get(), expected, rtol_for(dtype, 8))


@pytest.mark.parametrize("dtype", INTEGER_TYPES, ids=ids(INTEGER_TYPES))
def test_integer_bitwise(queue, dtype):
    a = sample(dtype, seed=5, low=0)
    b = sample(dtype, seed=6, low=1, high=20)
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    # pyopencl.array has no // or % (test_elementwise.py divides integers).
    np.testing.assert_array_equal((da & db).get(), a & b)
    np.testing.assert_array_equal((da | db).get(), a | b)
    np.testing.assert_array_equal((da ^ db).get(), a ^ b)
    np.testing.assert_array_equal((~da).get(), ~a)


@pytest.mark.parametrize("dtype", [np.int8, np.int16, np.int32, np.int64], ids=ids([np.int8, np.int16, np.int32, np.int64]))
def test_negative_and_abs_signed(queue, dtype):
    a = sample(dtype, seed=7)
    da = cla.to_device(queue, a)
    np.testing.assert_array_equal((-da).get(), -a)
    np.testing.assert_array_equal(abs(da).get(), np.abs(a))


@pytest.mark.parametrize("dtype", FLOAT_TYPES + COMPLEX_TYPES, ids=ids(FLOAT_TYPES + COMPLEX_TYPES))
def test_division(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a, b = sample(dtype, seed=8), sample(dtype, seed=9, low=1, high=5)
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    # OpenCL allows 2.5 ulp for float division; complex division is several operations.
    rtol = rtol_for(dtype, 16)
    assert_equal_or_close((da / db).get(), a / b, rtol)
    assert_equal_or_close((da / 4).get(), a / dtype(4), rtol)
    assert_equal_or_close((2 / db).get(), dtype(2) / b, rtol)


@pytest.mark.parametrize("dtype", FLOAT_TYPES + COMPLEX_TYPES, ids=ids(FLOAT_TYPES + COMPLEX_TYPES))
def test_abs_and_negative(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a = sample(dtype, seed=10)
    da = cla.to_device(queue, a)
    assert_equal_or_close((-da).get(), -a, 0)
    expected = np.abs(a)
    assert_equal_or_close(abs(da).get(), expected, rtol_for(expected.dtype, 4))


@pytest.mark.parametrize("dtype", FLOAT_TYPES, ids=ids(FLOAT_TYPES))
def test_pow(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a, b = sample(dtype, seed=11, low=0.5, high=4), sample(dtype, seed=12, low=-2, high=3)
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    # pow has a 16 ulp bound in OpenCL C.
    rtol = rtol_for(dtype, 32)
    assert_equal_or_close((da ** db).get(), a ** b, rtol)
    assert_equal_or_close((da ** 2).get(), a ** dtype(2), rtol)
    assert_equal_or_close((2 ** db).get(), dtype(2) ** b, rtol)


@pytest.mark.parametrize("types", [(np.int32, np.float32), (np.int8, np.int32), (np.uint8, np.int16),
                                   (np.int32, np.int64), (np.float32, np.float64), (np.float32, np.complex64),
                                   (np.int64, np.float64), (np.complex64, np.complex128)],
                         ids=lambda t: f"{np.dtype(t[0]).name}-{np.dtype(t[1]).name}")
def test_mixed_type_arithmetic(queue, device, types):
    for t in types:
        skip_without_dtype(device, t)
    a, b = sample(types[0], seed=13, low=0, high=10), sample(types[1], seed=14, low=1, high=10)
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    expected = a * b + a
    result = (da * db + da).get()
    assert result.dtype == expected.dtype
    # pyopencl computes int32 * float32 in float (C's rule) and stores the float64 numpy asks for,
    # so the precision is that of the narrowest float operand.
    floats = [np.dtype(t) for t in types if np.dtype(t).kind in "fc"]
    precision = min(floats, key=lambda t: t.itemsize) if floats else expected.dtype
    np.testing.assert_allclose(result, expected, rtol=rtol_for(precision, 8))


@pytest.mark.parametrize("dtype", ALL_TYPES, ids=ids(ALL_TYPES))
def test_astype(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a = sample(np.int16, seed=15, low=0, high=100)
    da = cla.to_device(queue, a)
    converted = da.astype(dtype)
    np.testing.assert_array_equal(converted.get(), a.astype(dtype))
    # pyopencl converts complex to real types through .real only.
    back = (converted.real if np.dtype(dtype).kind == "c" else converted).astype(np.int16)
    np.testing.assert_array_equal(back.get(), a)


def test_float_to_integer_conversion_truncates(queue):
    a = np.array([-3.7, -0.5, 0.0, 0.5, 2.5, 3.99, 100.2], dtype=np.float32)
    da = cla.to_device(queue, a)
    np.testing.assert_array_equal(da.astype(np.int32).get(), a.astype(np.int32))
    np.testing.assert_array_equal(abs(da).astype(np.uint8).get(), np.abs(a).astype(np.uint8))


@pytest.mark.parametrize("dtype", COMPLEX_TYPES, ids=ids(COMPLEX_TYPES))
def test_complex_parts(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a = sample(dtype, seed=16)
    da = cla.to_device(queue, a)
    np.testing.assert_array_equal(da.real.get(), a.real)
    np.testing.assert_array_equal(da.imag.get(), a.imag)
    np.testing.assert_array_equal(da.conj().get(), a.conj())


# }}}

# {{{ comparisons, selection

@pytest.mark.parametrize("dtype", INTEGER_TYPES + FLOAT_TYPES, ids=ids(INTEGER_TYPES + FLOAT_TYPES))
def test_comparisons(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a, b = sample(dtype, seed=17, low=0, high=5), sample(dtype, seed=18, low=0, high=5)
    if np.dtype(dtype).kind == "f":
        a, b = np.round(a), np.round(b)  # equal values occur
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    for name, op in [("==", np.equal), ("!=", np.not_equal), ("<", np.less), ("<=", np.less_equal),
                     (">", np.greater), (">=", np.greater_equal)]:
        result = eval(f"da {name} db").get()
        np.testing.assert_array_equal(result.astype(bool), op(a, b), err_msg=f"array {name} array")
        result = eval(f"da {name} 2").get()
        np.testing.assert_array_equal(result.astype(bool), op(a, dtype(2)), err_msg=f"array {name} scalar")


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64],
                         ids=ids([np.int32, np.int64, np.float32, np.float64]))
def test_minimum_maximum_where(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a, b = sample(dtype, seed=19), sample(dtype, seed=20)
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    np.testing.assert_array_equal(cla.minimum(da, db).get(), np.minimum(a, b))
    np.testing.assert_array_equal(cla.maximum(da, db).get(), np.maximum(a, b))
    # A scalar of the array's type: a Python int arrives as long, and OpenCL C has no max(int, long).
    np.testing.assert_array_equal(cla.maximum(da, dtype(0)).get(), np.maximum(a, dtype(0)))
    np.testing.assert_array_equal(cla.if_positive(da, da, db).get(), np.where(a > 0, a, b))
    condition = cla.to_device(queue, (a > b).astype(np.int8))
    np.testing.assert_array_equal(cla.if_positive(condition, da, db).get(), np.where(a > b, a, b))


# }}}

# {{{ reductions

REDUCE_TYPES = [np.int8, np.uint8, np.int16, np.int32, np.uint32, np.int64, np.uint64, np.float32, np.float64,
                np.complex64, np.complex128]


@pytest.mark.parametrize("size", [1, 7, 1000, 5000])
@pytest.mark.parametrize("dtype", REDUCE_TYPES, ids=ids(REDUCE_TYPES))
def test_sum(queue, device, dtype, size):
    skip_without_dtype(device, dtype)
    a = sample(dtype, n=size, seed=23, low=0, high=3)
    result = cla.sum(cla.to_device(queue, a)).get()
    expected = a.sum(dtype=result.dtype)
    # A float sum in another order differs by about n ulp of the largest partial sum.
    if np.dtype(dtype).kind in "fc":
        np.testing.assert_allclose(result, expected, rtol=size * np.finfo(dtype).eps)
    else:
        assert result == expected


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint32, np.int64, np.float32, np.float64],
                         ids=ids([np.int8, np.uint16, np.int32, np.uint32, np.int64, np.float32, np.float64]))
def test_min_max(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a = sample(dtype, n=3001, seed=24)
    da = cla.to_device(queue, a)
    assert cla.min(da).get() == a.min()
    assert cla.max(da).get() == a.max()


@pytest.mark.parametrize("dtype", [np.int32, np.int64, np.float32, np.float64, np.complex64, np.complex128],
                         ids=ids([np.int32, np.int64, np.float32, np.float64, np.complex64, np.complex128]))
def test_dot_and_vdot(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a, b = sample(dtype, seed=25, low=0, high=4), sample(dtype, seed=26, low=0, high=4)
    da, db = cla.to_device(queue, a), cla.to_device(queue, b)
    rtol = N * np.finfo(dtype).eps if np.dtype(dtype).kind in "fc" else 0
    np.testing.assert_allclose(cla.dot(da, db).get(), np.dot(a, b), rtol=rtol)
    np.testing.assert_allclose(cla.vdot(da, db).get(), np.vdot(a, b), rtol=rtol)


def test_subset_reductions(queue):
    a = sample(np.float32, seed=27)
    b = sample(np.float32, seed=28)
    subset = np.array(sorted(np.random.default_rng(29).choice(N, 300, replace=False)), dtype=np.int32)
    da, db, ds = cla.to_device(queue, a), cla.to_device(queue, b), cla.to_device(queue, subset)
    np.testing.assert_allclose(cla.subset_dot(ds, da, db).get(), np.dot(a[subset], b[subset]), rtol=1e-4)
    assert cla.subset_min(ds, da).get() == a[subset].min()
    assert cla.subset_max(ds, da).get() == a[subset].max()


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.float32], ids=ids([np.int8, np.int32, np.float32]))
def test_any_all(queue, dtype):
    zeros = np.zeros(N, dtype=dtype)
    ones = np.ones(N, dtype=dtype)
    one_set = zeros.copy()
    one_set[N - 3] = 1
    for host in (zeros, ones, one_set):
        device_array = cla.to_device(queue, host)
        assert bool(device_array.any().get()) == bool(host.any())
        assert bool(device_array.all().get()) == bool(host.all())


# }}}

# {{{ layout: slicing, strides, views, concatenation

def test_slices_and_offsets(queue):
    a = np.arange(100, dtype=np.float32)
    da = cla.to_device(queue, a)
    np.testing.assert_array_equal(da[10:50].get(), a[10:50])
    np.testing.assert_array_equal((da[10:50] * 2).get(), a[10:50] * 2)
    np.testing.assert_array_equal((da[10:50] + da[50:90]).get(), a[10:50] + a[50:90])
    np.testing.assert_array_equal(da[-7:].get(), a[-7:])
    assert cla.sum(da[3:17]).get() == a[3:17].sum()
    assert da[42].get() == a[42]


def test_setitem(queue):
    a = np.zeros(100, dtype=np.int32)
    da = cla.to_device(queue, a)
    da[10:20] = 7
    a[10:20] = 7
    da[30:40] = cla.to_device(queue, np.arange(10, dtype=np.int32))
    a[30:40] = np.arange(10, dtype=np.int32)
    da[50:60] = np.arange(10, 20, dtype=np.int32)
    a[50:60] = np.arange(10, 20, dtype=np.int32)
    np.testing.assert_array_equal(da.get(), a)


def test_two_dimensional_layouts(queue):
    # pyopencl 2022.3 runs kernels on C- or Fortran-contiguous arrays only (a column slice or a
    # stepped view raises NotImplementedError in the library, whatever the device): these are the
    # strided layouts it has, each element at its own byte offset.
    a = np.arange(12 * 17, dtype=np.float32).reshape(12, 17)
    da = cla.to_device(queue, a)
    np.testing.assert_array_equal(da[3:7].get(), a[3:7])
    np.testing.assert_array_equal((da[3:7] * 2).get(), a[3:7] * 2)
    assert da.T.flags.f_contiguous
    np.testing.assert_array_equal(da.T.get(), a.T)
    np.testing.assert_array_equal((da.T + 1).get(), a.T + 1)
    np.testing.assert_array_equal(cla.transpose(da).get(), a.T)
    np.testing.assert_array_equal(da.reshape(17, 12).get(), a.reshape(17, 12))
    np.testing.assert_array_equal(da.ravel().get(), a.ravel())
    np.testing.assert_array_equal((da * 2 + da).get(), a * 3)
    f = np.asfortranarray(a)
    df = cla.to_device(queue, f)
    assert (df + 1).flags.f_contiguous
    np.testing.assert_array_equal((df + 1).get(), f + 1)
    np.testing.assert_array_equal((df * df).get(), f * f)
    b = np.arange(2 * 3 * 4, dtype=np.int64).reshape(2, 3, 4)
    np.testing.assert_array_equal((cla.to_device(queue, b)[1] - 5).get(), b[1] - 5)


def test_strided_views_refused_by_pyopencl(queue):
    # The library's own limit, checked so that a newer pyopencl that lifts it is noticed here.
    da = cla.to_device(queue, np.arange(200, dtype=np.int32))
    with pytest.raises(NotImplementedError):
        da[::2] + 1


def test_view_as_another_type(queue):
    a = np.arange(64, dtype=np.uint32)
    da = cla.to_device(queue, a)
    np.testing.assert_array_equal(da.view(np.uint8).get(), a.view(np.uint8))
    np.testing.assert_array_equal((da.view(np.int16) + 1).get(), a.view(np.int16) + 1)
    f = np.linspace(-2, 2, 64).astype(np.float32)
    np.testing.assert_array_equal(cla.to_device(queue, f).view(np.int32).get(), f.view(np.int32))


def test_concatenate_stack_diff(queue):
    parts = [np.arange(n, dtype=np.float32) + n for n in (5, 17, 1, 40)]
    device_parts = [cla.to_device(queue, p) for p in parts]
    np.testing.assert_array_equal(cla.concatenate(device_parts).get(), np.concatenate(parts))
    a = np.arange(12, dtype=np.int32).reshape(3, 4)
    b = a * 10
    np.testing.assert_array_equal(cla.concatenate([cla.to_device(queue, a), cla.to_device(queue, b)]).get(),
                                  np.concatenate([a, b]))
    np.testing.assert_array_equal(cla.hstack([cla.to_device(queue, a[0]), cla.to_device(queue, b[1])]).get(),
                                  np.hstack([a[0], b[1]]))
    np.testing.assert_array_equal(cla.stack([cla.to_device(queue, a), cla.to_device(queue, b)]).get(),
                                  np.stack([a, b]))
    c = (np.arange(30, dtype=np.int32) ** 2)
    np.testing.assert_array_equal(cla.diff(cla.to_device(queue, c)).get(), np.diff(c))


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.int64, np.float32, np.float64, np.complex64],
                         ids=ids([np.int8, np.int32, np.int64, np.float32, np.float64, np.complex64]))
def test_fill_zeros_arange_reverse(queue, device, dtype):
    skip_without_dtype(device, dtype)
    filled = cla.empty(queue, 123, dtype).fill(5)
    np.testing.assert_array_equal(filled.get(), np.full(123, 5, dtype=dtype))
    np.testing.assert_array_equal(cla.zeros(queue, 77, dtype).get(), np.zeros(77, dtype))
    if np.dtype(dtype).kind != "c":
        arange = cla.arange(queue, 3, 100, 2, dtype=dtype)
        np.testing.assert_array_equal(arange.get(), np.arange(3, 100, 2, dtype=dtype))
        np.testing.assert_array_equal(cla.arange(queue, 3, 100, 2, dtype=dtype).reverse().get(),
                                      np.arange(3, 100, 2, dtype=dtype)[::-1])


@pytest.mark.parametrize("dtype", [np.int16, np.float32, np.float64, np.complex128],
                         ids=ids([np.int16, np.float32, np.float64, np.complex128]))
def test_take_and_multi_put(queue, device, dtype):
    skip_without_dtype(device, dtype)
    a = sample(dtype, seed=30)
    indices = np.random.default_rng(31).integers(0, N, 333).astype(np.int32)
    da, di = cla.to_device(queue, a), cla.to_device(queue, indices)
    np.testing.assert_array_equal(cla.take(da, di).get(), a[indices])
    np.testing.assert_array_equal(da[di].get(), a[indices])
    # multi_take_put: out[dest[i]] = in[src[i]] for two arrays at once.
    dest = np.arange(333, dtype=np.int32)[::-1].copy()
    out = [cla.zeros(queue, 333, dtype) for _ in range(2)]
    cla.multi_take_put([da, da * 2], cla.to_device(queue, dest), di, out=out)
    expected = np.zeros(333, dtype)
    expected[dest] = a[indices]
    np.testing.assert_array_equal(out[0].get(), expected)
    np.testing.assert_array_equal(out[1].get(), expected * dtype(2))


def test_put_through_indexing(queue):
    a = np.zeros(50, dtype=np.int64)
    indices = np.array([3, 9, 27, 44], dtype=np.int32)
    values = np.array([10, -20, 30, -40], dtype=np.int64)
    da = cla.to_device(queue, a)
    da[cla.to_device(queue, indices)] = cla.to_device(queue, values)
    a[indices] = values
    np.testing.assert_array_equal(da.get(), a)


def test_cumsum(queue):
    a = sample(np.int32, n=2000, seed=32)
    np.testing.assert_array_equal(cla.cumsum(cla.to_device(queue, a)).get(), np.cumsum(a, dtype=np.int32))


def test_sizes_across_work_group_boundaries(queue):
    for n in (1, 2, 31, 255, 256, 257, 4097):
        a = np.arange(n, dtype=np.int32)
        da = cla.to_device(queue, a)
        np.testing.assert_array_equal((da * 3 - 1).get(), a * 3 - 1, err_msg=f"n={n}")
        assert cla.sum(da).get() == a.sum(), f"n={n}"

# }}}

# vim: foldmethod=marker


@pytest.mark.parametrize("dtype", [np.int8, np.int32, np.uint32, np.int64], ids=ids([np.int8, np.int32, np.uint32, np.int64]))
def test_integer_true_division_gives_float64(queue, dtype):
    a, b = sample(dtype, seed=40, low=0, high=100), sample(dtype, seed=41, low=1, high=100)
    result = (cla.to_device(queue, a) / cla.to_device(queue, b)).get()
    assert result.dtype == np.float64  # numpy's rule, which pyopencl follows
    np.testing.assert_allclose(result, a / b, rtol=rtol_for(np.float64, 16))


def test_sum_with_wider_accumulator_and_scalars(queue):
    ones = cla.to_device(queue, np.ones(1000, np.int8))
    # int8 would wrap at 127: the accumulator is the requested type.
    assert cla.sum(ones, dtype=np.int32).get() == 1000
    x = cla.to_device(queue, np.arange(100, dtype=np.int32))
    assert x[-1].get() == 99
    assert x[-10:].get().tolist() == list(range(90, 100))
    flags = np.array([1, 0, 1, 1, 0], dtype=np.bool_)
    np.testing.assert_array_equal(cla.to_device(queue, flags).get(), flags)


def test_library_limits_that_are_not_cl2vk(queue):
    # pyopencl 2022.3 itself: no float16 arrays and no == on complex arrays (its kernel compares two
    # structs, which OpenCL C refuses). Checked so that a pyopencl that lifts them is noticed here.
    with pytest.raises(ValueError):
        cla.to_device(queue, np.zeros(4, np.float16)) + 1
    c = cla.to_device(queue, np.ones(4, np.complex64))
    with pytest.raises(Exception, match="cfloat_t"):
        (c == c).get()
