"""pyopencl's transfer API on cl2vk: enqueue_copy in every direction, with offsets and rectangles,
fill, map, sub-buffers, and kernels reading what the transfers wrote. Exact comparisons.
"""

import numpy as np
import pyopencl as cl
import pyopencl.array as cla
import pytest

MF = cl.mem_flags


def test_host_buffer_host(ctx, queue):
    a = np.arange(1000, dtype=np.float32)
    buffer = cl.Buffer(ctx, MF.READ_WRITE, a.nbytes)
    cl.enqueue_copy(queue, buffer, a)
    b = np.empty_like(a)
    cl.enqueue_copy(queue, b, buffer)
    np.testing.assert_array_equal(b, a)


def test_offsets(ctx, queue):
    a = np.arange(256, dtype=np.int32)
    buffer = cl.Buffer(ctx, MF.READ_WRITE, 4 * 512)
    cl.enqueue_fill_buffer(queue, buffer, np.int32(-1), 0, 4 * 512)
    cl.enqueue_copy(queue, buffer, a[10:50], dst_offset=4 * 100)
    result = np.empty(512, np.int32)
    cl.enqueue_copy(queue, result, buffer)
    expected = np.full(512, -1, np.int32)
    expected[100:140] = a[10:50]
    np.testing.assert_array_equal(result, expected)
    part = np.empty(40, np.int32)
    cl.enqueue_copy(queue, part, buffer, src_offset=4 * 100)
    np.testing.assert_array_equal(part, a[10:50])


def test_buffer_to_buffer(ctx, queue):
    a = np.random.default_rng(0).integers(0, 2 ** 31, 4096).astype(np.int64)
    source = cl.Buffer(ctx, MF.READ_ONLY | MF.COPY_HOST_PTR, hostbuf=a)
    destination = cl.Buffer(ctx, MF.READ_WRITE, a.nbytes)
    cl.enqueue_copy(queue, destination, source)
    cl.enqueue_copy(queue, destination, source, byte_count=8 * 100, src_offset=8 * 7, dst_offset=8 * 1000)
    result = np.empty_like(a)
    cl.enqueue_copy(queue, result, destination)
    expected = a.copy()
    expected[1000:1100] = a[7:107]
    np.testing.assert_array_equal(result, expected)


def test_rectangular_copies(ctx, queue):
    # A 3D box out of a (depth, rows, cols) array: host <-> buffer and buffer <-> buffer.
    shape = (4, 8, 16)
    a = np.arange(np.prod(shape), dtype=np.uint16).reshape(shape)
    buffer = cl.Buffer(ctx, MF.READ_WRITE | MF.COPY_HOST_PTR, hostbuf=a)
    box = np.zeros((2, 3, 5), np.uint16)
    cl.enqueue_copy(queue, box, buffer, buffer_origin=(2 * 3, 1, 1), host_origin=(0, 0, 0),
                    region=(2 * 5, 3, 2), buffer_pitches=(2 * 16, 2 * 16 * 8), host_pitches=(2 * 5, 2 * 5 * 3))
    np.testing.assert_array_equal(box, a[1:3, 1:4, 3:8])

    other = cl.Buffer(ctx, MF.READ_WRITE, a.nbytes)
    cl.enqueue_fill_buffer(queue, other, np.uint16(7), 0, a.nbytes)
    cl.enqueue_copy(queue, other, buffer, src_origin=(0, 2, 0), dst_origin=(2 * 8, 0, 1), region=(2 * 4, 5, 3),
                    src_pitches=(2 * 16, 2 * 16 * 8), dst_pitches=(2 * 16, 2 * 16 * 8))
    result = np.empty_like(a)
    cl.enqueue_copy(queue, result, other)
    expected = np.full(shape, 7, np.uint16)
    expected[1:4, 0:5, 8:12] = a[0:3, 2:7, 0:4]
    np.testing.assert_array_equal(result, expected)

    host_rows = np.zeros((8, 16), np.uint16)
    cl.enqueue_copy(queue, buffer, np.full((3, 4), 999, np.uint16), buffer_origin=(2 * 2, 5, 0),
                    host_origin=(0, 0, 0), region=(2 * 4, 3, 1), buffer_pitches=(2 * 16, 2 * 16 * 8),
                    host_pitches=(2 * 4, 2 * 4 * 3))
    cl.enqueue_copy(queue, host_rows, buffer)
    expected_rows = a[0].copy()
    expected_rows[5:8, 2:6] = 999
    np.testing.assert_array_equal(host_rows, expected_rows)


@pytest.mark.parametrize("pattern", [np.uint8(0xAB), np.int16(-3), np.float32(2.5), np.int64(-(2 ** 40))],
                         ids=["uint8", "int16", "float32", "int64"])
def test_fill_buffer(ctx, queue, pattern):
    buffer = cl.Buffer(ctx, MF.READ_WRITE, 4096)
    cl.enqueue_fill_buffer(queue, buffer, np.zeros(1, np.uint8), 0, 4096)
    size = pattern.nbytes
    cl.enqueue_fill_buffer(queue, buffer, pattern, size * 8, size * 100)
    result = np.empty(4096 // size, pattern.dtype)
    cl.enqueue_copy(queue, result, buffer)
    expected = np.zeros_like(result)
    expected[8:108] = pattern
    np.testing.assert_array_equal(result, expected)


def test_map_and_unmap(ctx, queue):
    a = np.arange(300, dtype=np.int32)
    buffer = cl.Buffer(ctx, MF.READ_WRITE | MF.COPY_HOST_PTR, hostbuf=a)
    mapped, event = cl.enqueue_map_buffer(queue, buffer, cl.map_flags.READ | cl.map_flags.WRITE, 0, a.shape,
                                          a.dtype)
    event.wait()
    np.testing.assert_array_equal(mapped, a)
    mapped[:] *= 3
    mapped.base.release(queue)
    result = np.empty_like(a)
    cl.enqueue_copy(queue, result, buffer)
    np.testing.assert_array_equal(result, a * 3)


def test_use_host_ptr_and_alloc_host_ptr(ctx, queue):
    host = np.arange(64, dtype=np.float32)
    buffer = cl.Buffer(ctx, MF.READ_WRITE | MF.USE_HOST_PTR, hostbuf=host)
    program = cl.Program(ctx, "__kernel void twice(__global float *x) { x[get_global_id(0)] *= 2; }").build()
    program.twice(queue, (64,), None, buffer)
    mapped, _ = cl.enqueue_map_buffer(queue, buffer, cl.map_flags.READ, 0, host.shape, host.dtype)
    np.testing.assert_array_equal(mapped, np.arange(64) * 2)
    mapped.base.release(queue)
    pinned = cl.Buffer(ctx, MF.READ_WRITE | MF.ALLOC_HOST_PTR, 256)
    cl.enqueue_copy(queue, pinned, np.arange(64, dtype=np.float32))
    program.twice(queue, (64,), None, pinned)
    result = np.empty(64, np.float32)
    cl.enqueue_copy(queue, result, pinned)
    np.testing.assert_array_equal(result, np.arange(64) * 2)


def test_sub_buffers(ctx, queue, device):
    alignment = device.mem_base_addr_align // 8
    count = 3 * alignment // 4
    buffer = cl.Buffer(ctx, MF.READ_WRITE, 4 * count)
    cl.enqueue_copy(queue, buffer, np.zeros(count, np.int32))
    sub = buffer.get_sub_region(alignment, alignment)
    program = cl.Program(ctx, "__kernel void iota(__global int *x) { x[get_global_id(0)] = get_global_id(0); }").build()
    program.iota(queue, (alignment // 4,), None, sub)
    result = np.empty(count, np.int32)
    cl.enqueue_copy(queue, result, buffer)
    expected = np.zeros(count, np.int32)
    expected[alignment // 4: alignment // 2] = np.arange(alignment // 4)
    np.testing.assert_array_equal(result, expected)


def test_array_transfers_and_events(ctx, queue):
    a = np.arange(10000, dtype=np.int16)
    da = cla.to_device(queue, a)
    db = cla.empty_like(da)
    db[:] = da
    host = np.empty_like(a)
    event = cl.enqueue_copy(queue, host, db.data, is_blocking=False)
    event.wait()
    np.testing.assert_array_equal(host, a)
    out_of_order = cl.CommandQueue(ctx, properties=cl.command_queue_properties.OUT_OF_ORDER_EXEC_MODE_ENABLE)
    dc = cla.to_device(out_of_order, a * 2)
    np.testing.assert_array_equal(dc.get(), a * 2)


def test_kernel_with_local_memory_argument(ctx, queue):
    program = cl.Program(ctx, """
        __kernel void reverse_groups(__global const int *in, __global int *out, __local int *scratch) {
            size_t l = get_local_id(0), n = get_local_size(0), g = get_group_id(0);
            scratch[l] = in[g * n + l];
            barrier(CLK_LOCAL_MEM_FENCE);
            out[g * n + l] = scratch[n - 1 - l];
        }""").build()
    a = np.arange(1024, dtype=np.int32)
    din, dout = cla.to_device(queue, a), cla.empty(queue, 1024, np.int32)
    program.reverse_groups(queue, (1024,), (64,), din.data, dout.data, cl.LocalMemory(64 * 4))
    np.testing.assert_array_equal(dout.get(), a.reshape(16, 64)[:, ::-1].ravel())
