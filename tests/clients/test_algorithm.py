"""pyopencl.algorithm and pyopencl.bitonic_sort: stream compaction, partition, unique, sorts and
the list-of-lists builder. Every result is integer or ordering data: exact comparison.
"""

import numpy as np
import pyopencl.array as cla
import pytest
from pyopencl.algorithm import RadixSort, copy_if, partition, remove_if, unique

SIZES = [1, 100, 1000, 20000]


@pytest.mark.parametrize("n", SIZES)
def test_copy_if(ctx, queue, n):
    x = np.random.default_rng(n).integers(0, 100, n).astype(np.int32)
    result, count, _ = copy_if(cla.to_device(queue, x), "ary[i] < 42")
    count = int(count.get())
    expected = x[x < 42]
    assert count == len(expected)
    np.testing.assert_array_equal(result.get()[:count], expected)


def test_copy_if_with_extra_argument(ctx, queue):
    x = np.random.default_rng(1).integers(0, 1000, 5000).astype(np.int64)
    result, count, _ = copy_if(cla.to_device(queue, x), "ary[i] > limit", extra_args=[("limit", np.int64(600))])
    count = int(count.get())
    np.testing.assert_array_equal(result.get()[:count], x[x > 600])


@pytest.mark.parametrize("n", SIZES)
def test_remove_if(ctx, queue, n):
    x = np.random.default_rng(n + 1).integers(0, 100, n).astype(np.int32)
    result, count, _ = remove_if(cla.to_device(queue, x), "ary[i] % 2 == 0")
    count = int(count.get())
    np.testing.assert_array_equal(result.get()[:count], x[x % 2 != 0])


@pytest.mark.parametrize("n", SIZES)
def test_partition(ctx, queue, n):
    x = np.random.default_rng(n + 2).uniform(-1, 1, n).astype(np.float32)
    true_part, false_part, count, _ = partition(cla.to_device(queue, x), "ary[i] > 0.25f")
    count = int(count.get())
    np.testing.assert_array_equal(true_part.get()[:count], x[x > 0.25])
    # The false items are kept in order (pyopencl writes them in scan order).
    np.testing.assert_array_equal(false_part.get()[:n - count], x[~(x > 0.25)])


@pytest.mark.parametrize("n", SIZES)
def test_unique(ctx, queue, n):
    x = np.sort(np.random.default_rng(n + 3).integers(0, max(n // 4, 2), n)).astype(np.int32)
    result, count, _ = unique(cla.to_device(queue, x))
    count = int(count.get())
    expected = np.unique(x)
    assert count == len(expected)
    np.testing.assert_array_equal(result.get()[:count], expected)


@pytest.mark.parametrize("n", [1, 100, 10000])
@pytest.mark.parametrize("dtype", [np.uint32, np.int32, np.uint64], ids=["uint32", "int32", "uint64"])
def test_radix_sort(ctx, queue, dtype, n):
    sort = RadixSort(ctx, "__global %s *keys" % {np.uint32: "uint", np.int32: "int", np.uint64: "ulong"}[dtype],
                     key_expr="keys[i]", sort_arg_names=["keys"], key_dtype=dtype)
    rng = np.random.default_rng(n + 4)
    info = np.iinfo(dtype)
    keys = rng.integers(0 if info.min < 0 else 0, min(info.max, 2 ** 31 - 1), n).astype(dtype)
    (sorted_keys,), _ = sort(cla.to_device(queue, keys), key_bits=32 if dtype != np.uint64 else 40)
    np.testing.assert_array_equal(sorted_keys.get(), np.sort(keys))


def test_radix_sort_key_value_stable(ctx, queue):
    sort = RadixSort(ctx, "__global uint *keys, __global int *values", key_expr="keys[i]",
                     sort_arg_names=["keys", "values"], key_dtype=np.uint32)
    rng = np.random.default_rng(5)
    keys = rng.integers(0, 64, 5000).astype(np.uint32)
    values = np.arange(5000, dtype=np.int32)
    (sorted_keys, sorted_values), _ = sort(cla.to_device(queue, keys), cla.to_device(queue, values), key_bits=6)
    order = np.argsort(keys, kind="stable")
    np.testing.assert_array_equal(sorted_keys.get(), keys[order])
    np.testing.assert_array_equal(sorted_values.get(), values[order])


@pytest.mark.parametrize("n", [2, 64, 1024, 4096])
@pytest.mark.parametrize("dtype", [np.int32, np.uint32, np.float32, np.int64], ids=["int32", "uint32", "float32",
                                                                                  "int64"])
def test_bitonic_sort(ctx, queue, dtype, n):
    from pyopencl.bitonic_sort import BitonicSort
    sorter = BitonicSort(ctx)
    rng = np.random.default_rng(n + 6)
    x = (rng.uniform(-1000, 1000, n) if dtype == np.float32 else rng.integers(0, 10 ** 6, n)).astype(dtype)
    dx = cla.to_device(queue, x)
    sorted_array, event = sorter(dx, axis=0)
    event.wait()
    np.testing.assert_array_equal(sorted_array.get(), np.sort(x))


def test_bitonic_sort_with_indices(ctx, queue):
    from pyopencl.bitonic_sort import BitonicSort
    sorter = BitonicSort(ctx)
    x = np.random.default_rng(7).permutation(512).astype(np.int32)
    idx = cla.arange(queue, 0, 512, dtype=np.int32)
    sorted_array, event = sorter(cla.to_device(queue, x), idx=idx, axis=0)
    event.wait()
    np.testing.assert_array_equal(sorted_array.get(), np.arange(512))
    np.testing.assert_array_equal(x[idx.get()], np.arange(512))


def test_list_of_lists_builder(ctx, queue):
    from pyopencl.algorithm import ListOfListsBuilder
    # Item i emits the numbers i*10 .. i*10 + (i % 4) - 1: lists of 0 to 3 entries.
    builder = ListOfListsBuilder(ctx, [("mylist", np.int32)], """
        //CL//
        void generate(LIST_ARG_DECL USER_ARG_DECL index_type i)
        {
            for (int j = 0; j < i % 4; ++j)
                APPEND_mylist(i * 10 + j);
        }""", arg_decls=[])
    n = 2000
    result, event = builder(queue, n)
    lists = result["mylist"]
    starts, items = lists.starts.get(), lists.lists.get()
    expected_counts = np.arange(n) % 4
    assert lists.count == expected_counts.sum()
    np.testing.assert_array_equal(np.diff(starts), expected_counts)
    for i in (0, 1, 3, 7, 1234, n - 1):
        np.testing.assert_array_equal(items[starts[i]:starts[i + 1]], i * 10 + np.arange(i % 4))


def test_list_of_lists_builder_with_argument_and_two_lists(ctx, queue):
    from pyopencl.algorithm import ListOfListsBuilder
    from pyopencl.tools import VectorArg
    builder = ListOfListsBuilder(ctx, [("evens", np.int32), ("odds", np.int64)], """
        //CL//
        void generate(LIST_ARG_DECL USER_ARG_DECL index_type i)
        {
            int v = data[i];
            // APPEND_* are statement macros: braces around each.
            if (v % 2 == 0) { APPEND_evens(v); } else { APPEND_odds((long) v * 1000000000L); }
        }""", arg_decls=[VectorArg(np.int32, "data")])
    data = np.random.default_rng(8).integers(0, 100, 3000).astype(np.int32)
    result, event = builder(queue, len(data), cla.to_device(queue, data))
    evens, odds = result["evens"], result["odds"]
    np.testing.assert_array_equal(evens.lists.get()[:evens.count], data[data % 2 == 0])
    np.testing.assert_array_equal(odds.lists.get()[:odds.count], data[data % 2 == 1].astype(np.int64) * 10 ** 9)


def test_key_value_sorter(ctx, queue):
    from pyopencl.algorithm import KeyValueSorter
    sorter = KeyValueSorter(ctx)
    rng = np.random.default_rng(9)
    nkeys = 50
    keys = rng.integers(0, nkeys, 3000).astype(np.int32)
    values = rng.integers(0, 10 ** 6, 3000).astype(np.int32)
    starts, lists, event = sorter(queue, cla.to_device(queue, keys), cla.to_device(queue, values), nkeys,
                                  starts_dtype=np.int32)
    starts, lists = starts.get(), lists.get()
    for key in range(nkeys):
        np.testing.assert_array_equal(np.sort(lists[starts[key]:starts[key + 1]]), np.sort(values[keys == key]),
                                      err_msg=f"key {key}")
