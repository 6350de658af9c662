"""pyopencl.clrandom: Ranlux, Philox and Threefry generators, every dtype they offer.

Random numbers have no exact reference, so each test checks properties that a wrong translation
breaks and a right one keeps with overwhelming probability: the range, the mean and variance of
n = 2^16 samples within 6 standard errors of the distribution's, that all values are not equal,
and that the same seed gives the same numbers twice (the generators are deterministic).
"""

import warnings

import numpy as np
import pyopencl.array as cla
import pyopencl.clrandom as clrandom
import pyopencl.cltypes as cltypes
import pytest

from conftest import skip_without_dtype

N = 2 ** 16

GENERATORS = ["philox", "threefry"]
FLOAT_TYPES = [np.float32, np.float64]
VECTOR_TYPES = [cltypes.float2, cltypes.float3, cltypes.float4]


def make_generator(kind, ctx, queue, seed=17):
    if kind == "philox":
        return clrandom.PhiloxGenerator(ctx, seed=seed)
    if kind == "threefry":
        return clrandom.ThreefryGenerator(ctx, seed=seed)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # Ranlux is deprecated in pyopencl
        return clrandom.RanluxGenerator(queue, num_work_items=256, seed=seed)


def scalar_values(array):
    host = array.get()
    if host.dtype.names:
        # pyopencl's generators write size * components scalars one after the other, also for
        # float3, whose elements are four floats wide: the numbers are the first 3n floats.
        components = {cltypes.float2: 2, cltypes.float3: 3, cltypes.float4: 4}[host.dtype]
        host = host.view(np.float32)[:components * array.size]
    return host.astype(np.float64)


def check_uniform(values, a, b, distinct=True):
    assert values.min() >= a and values.max() <= b, f"outside [{a}, {b}]: {values.min()} .. {values.max()}"
    mean, variance = (a + b) / 2, (b - a) ** 2 / 12
    standard_error = np.sqrt(variance / len(values))
    assert abs(values.mean() - mean) < 6 * standard_error, f"mean {values.mean()}, expected {mean}"
    assert abs(values.var() - variance) < 0.05 * variance, f"variance {values.var()}, expected {variance}"
    if distinct:
        assert len(np.unique(values)) > len(values) // 2


def check_normal(values, mu, sigma):
    standard_error = sigma / np.sqrt(len(values))
    assert abs(values.mean() - mu) < 6 * standard_error, f"mean {values.mean()}, expected {mu}"
    assert abs(values.std() - sigma) < 0.05 * sigma, f"sigma {values.std()}, expected {sigma}"
    within_one = np.mean(np.abs(values - mu) < sigma)
    assert abs(within_one - 0.6827) < 0.02, f"{within_one} within one sigma, expected 0.6827"


def ids(types):
    return [np.dtype(t).name if np.dtype(t).names is None else str(t).split(".")[-1] for t in types]


@pytest.mark.parametrize("dtype", FLOAT_TYPES + VECTOR_TYPES, ids=["float32", "float64", "float2", "float3", "float4"])
@pytest.mark.parametrize("kind", GENERATORS + ["ranlux"])
def test_uniform_floats(ctx, queue, device, kind, dtype):
    skip_without_dtype(device, dtype)
    generator = make_generator(kind, ctx, queue)
    array = cla.empty(queue, N, dtype)
    generator.fill_uniform(array, a=-2, b=5)
    check_uniform(scalar_values(array), -2, 5)


@pytest.mark.parametrize("dtype", FLOAT_TYPES + VECTOR_TYPES, ids=["float32", "float64", "float2", "float3", "float4"])
@pytest.mark.parametrize("kind", GENERATORS + ["ranlux"])
def test_normal_floats(ctx, queue, device, kind, dtype):
    skip_without_dtype(device, dtype)
    generator = make_generator(kind, ctx, queue)
    array = cla.empty(queue, N, dtype)
    generator.fill_normal(array, mu=3, sigma=2)
    check_normal(scalar_values(array), 3, 2)


@pytest.mark.parametrize("dtype", [np.int32, np.int64], ids=["int32", "int64"])
@pytest.mark.parametrize("kind", GENERATORS + ["ranlux"])
def test_uniform_integers(ctx, queue, kind, dtype):
    generator = make_generator(kind, ctx, queue)
    array = cla.empty(queue, N, dtype)
    generator.fill_uniform(array, a=-1000, b=1000)
    values = array.get()
    assert values.min() >= -1000 and values.max() < 1000
    # Discrete uniform: the centre of each unit bin; 2000 values, so repeats are expected.
    check_uniform(values.astype(np.float64) + 0.5, -1000, 1000, distinct=False)
    # Every residue modulo 7 occurs about equally often.
    counts = np.bincount(np.mod(values, 7), minlength=7)
    assert counts.min() > N / 7 * 0.9


@pytest.mark.parametrize("kind", GENERATORS)
def test_same_seed_same_numbers(ctx, queue, kind):
    first = make_generator(kind, ctx, queue, seed=5).uniform(queue, 1000, np.float32).get()
    second = make_generator(kind, ctx, queue, seed=5).uniform(queue, 1000, np.float32).get()
    other = make_generator(kind, ctx, queue, seed=6).uniform(queue, 1000, np.float32).get()
    np.testing.assert_array_equal(first, second)
    assert not np.array_equal(first, other)


def philox4x32_10(counter, key):
    """The Philox4x32-10 block function (Salmon et al., SC'11), for the reference values."""
    c, k = [int(v) & 0xFFFFFFFF for v in counter], [int(v) & 0xFFFFFFFF for v in key]
    for _ in range(10):
        p0, p1 = 0xD2511F53 * c[0], 0xCD9E8D57 * c[2]
        c = [(p1 >> 32) ^ c[1] ^ k[0], p1 & 0xFFFFFFFF, (p0 >> 32) ^ c[3] ^ k[1], p0 & 0xFFFFFFFF]
        k = [(k[0] + 0x9E3779B9) & 0xFFFFFFFF, (k[1] + 0xBB67AE85) & 0xFFFFFFFF]
    return c


def test_philox_bits_match_the_reference(ctx, queue):
    # Bit operations and 32x32->64 products: a statistical test cannot see a wrong bit here.
    # Known answer first: Random123's test vector for a zero key and counter.
    assert philox4x32_10([0, 0, 0, 0], [0, 0]) == [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]
    # The generator takes key and counter words as int32 arguments.
    counter, k1 = [0x243F6A88, 0x05A308D3, 0x13198A2E, 0x03707344], 0x1BADB002
    generator = clrandom.PhiloxGenerator(ctx, key=[k1], counter=list(counter))
    array = cla.empty(queue, 4, np.float32)
    generator.fill_uniform(array, a=0, b=1)
    # Work-item 0 alone writes four values: its key is (global id 0, k1); each value is the 32-bit
    # word times 2^-32, rounded to float (relative error below 2^-24).
    expected = np.array(philox4x32_10(counter, [0, k1]), dtype=np.float64) / 2 ** 32
    np.testing.assert_allclose(array.get(), expected, rtol=2 ** -23)


def test_module_level_rand(queue):
    for dtype in (np.float32, np.int32, np.int64):
        values = clrandom.rand(queue, N, dtype, a=0, b=10).get()
        assert values.dtype == dtype
        assert values.min() >= 0 and values.max() <= 10
        assert abs(values.astype(np.float64).mean() - (5 if dtype == np.float32 else 4.5)) < 0.2
