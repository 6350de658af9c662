"""pyopencl.tools, pyopencl.characterize and pyopencl's program cache on cl2vk.

The memory pools hand out sub-allocations that kernels must address correctly; the program cache
rebuilds a program from its binary (CL_PROGRAM_BINARIES, which on cl2vk is the program's SPIR-V)
through clCreateProgramWithBinary; characterize asks the device what pyopencl's code generators
ask. Exact comparisons.
"""

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pyopencl.characterize as characterize
import pyopencl.tools as tools

SOURCE = """
__kernel void affine(__global int *x, int a, int b) {
    size_t i = get_global_id(0);
    x[i] = a * x[i] + b;
}
"""


def test_memory_pool_allocations(ctx, queue):
    pool = tools.MemoryPool(tools.ImmediateAllocator(queue))
    arrays, expected = [], []
    for n in (1, 17, 1000, 4096, 33):
        host = np.arange(n, dtype=np.int32) * 3 - n
        arrays.append(cla.to_device(queue, host, allocator=pool))
        expected.append(host)
    for device_array, host in zip(arrays, expected):
        np.testing.assert_array_equal((device_array * 2 + 1).get(), host * 2 + 1)
    del arrays, device_array
    queue.finish()
    # Freed blocks go back to the pool (held, not released) and are handed out again.
    assert pool.held_blocks > 0
    again = cla.to_device(queue, np.arange(1000, dtype=np.int32), allocator=pool)
    assert cla.sum(again).get() == np.arange(1000).sum()
    del again
    pool.free_held()
    assert pool.held_blocks == 0


def test_deferred_allocator(ctx, queue):
    allocator = tools.DeferredAllocator(ctx)
    host = np.linspace(-1, 1, 777).astype(np.float32)
    device_array = cla.to_device(queue, host, allocator=allocator)
    np.testing.assert_array_equal((device_array * 4).get(), host * 4)


def test_program_cache_builds_from_binary(ctx, queue, tmp_path, monkeypatch):
    # run_clients.sh sets PYOPENCL_NO_CACHE; this test turns pyopencl's cache back on for itself.
    monkeypatch.setattr(cl, "_PYOPENCL_NO_CACHE", False)
    for attempt in range(2):  # the first build fills the cache, the second comes from the binary
        program = cl.Program(ctx, SOURCE).build(cache_dir=str(tmp_path))
        x = cla.to_device(queue, np.arange(100, dtype=np.int32))
        program.affine(queue, (100,), None, x.data, np.int32(3), np.int32(-7))
        np.testing.assert_array_equal(x.get(), np.arange(100) * 3 - 7, err_msg=f"build {attempt + 1}")
    assert any(tmp_path.rglob("*")), "pyopencl wrote nothing into its cache"


def test_program_from_binary(ctx, queue):
    program = cl.Program(ctx, SOURCE).build()
    binaries = program.get_info(cl.program_info.BINARIES)
    assert binaries[0][:4] == b"\x03\x02\x23\x07", "cl2vk's binary is the SPIR-V of the program"
    rebuilt = cl.Program(ctx, ctx.devices, binaries).build()
    x = cla.to_device(queue, np.arange(50, dtype=np.int32))
    rebuilt.affine(queue, (50,), None, x.data, np.int32(-1), np.int32(100))
    np.testing.assert_array_equal(x.get(), 100 - np.arange(50))


def test_characterize(ctx, device):
    assert characterize.has_double_support(device) == ("cl_khr_fp64" in device.extensions)
    assert characterize.get_simd_group_size(device, 4) is None or characterize.get_simd_group_size(device, 4) >= 1
    assert characterize.usable_local_mem_size(device) > 0
    assert characterize.usable_local_mem_size(device) <= device.local_mem_size
    assert characterize.has_struct_arg_count_bug(device, ctx) is False
    assert characterize.local_memory_access_granularity(device) >= 1
    assert characterize.simultaneous_work_items_on_local_access(device) >= 1


def test_match_dtype_to_c_struct_offsets(ctx, device):
    # pyopencl runs a kernel that reports offsetof() of every field (the device's layout).
    dtype = np.dtype([("a", np.int8), ("b", np.float64), ("c", np.int16), ("d", np.int32)])
    matched, declaration = tools.match_dtype_to_c_struct(device, "mixed_t", dtype)
    assert [matched.fields[name][1] for name in "abcd"] == [0, 8, 16, 20]
    assert matched.itemsize == 24
    assert "mixed_t" in declaration


def test_kernel_info_queries(ctx, device):
    program = cl.Program(ctx, SOURCE).build()
    kernel = program.affine
    assert kernel.function_name == "affine"
    assert kernel.num_args == 3
    assert kernel.get_work_group_info(cl.kernel_work_group_info.WORK_GROUP_SIZE, device) >= 1
    assert kernel.get_arg_info(0, cl.kernel_arg_info.NAME) == "x"
    assert kernel.get_arg_info(1, cl.kernel_arg_info.TYPE_NAME) == "int"
