// Buffers through the OpenCL API: creation flags, transfers, copies, fills, maps and sub-buffers,
// checked by reading the data back (and by kernels of spirv/kernels/several_kernels.cl).

#include <cstring>
#include <memory>
#include <numeric>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

class IcdBuffer : public IcdTest {
 protected:
  // fill(global int* out, int value), scale(global int* out, int factor), add_twice(out, in).
  Kernel severalKernels(const std::string& name) {
    if (!program_) program_ = buildCorpusModule("kernels/several_kernels.O2.spv");
    if (!program_) return Kernel();
    return createKernel(program_, name);
  }

  static std::vector<int32_t> sequence(size_t n, int32_t first) {
    std::vector<int32_t> values(n);
    std::iota(values.begin(), values.end(), first);
    return values;
  }

  static std::vector<uint8_t> bytePattern(size_t n, uint8_t seed) {
    std::vector<uint8_t> bytes(n);
    for (size_t i = 0; i < n; ++i) bytes[i] = static_cast<uint8_t>(seed + 7 * i);
    return bytes;
  }

  Program program_;
};

TEST_F(IcdBuffer, QueriesReportHowTheBufferWasMade) {
  const cl_mem_flags kFlags[] = {CL_MEM_READ_WRITE, CL_MEM_READ_ONLY, CL_MEM_WRITE_ONLY};
  for (cl_mem_flags flags : kFlags) {
    Buffer buffer = createBuffer(100, flags);
    ASSERT_TRUE(buffer.get());
    cl_mem_flags returned = 0;
    EXPECT_CL_SUCCESS(clGetMemObjectInfo(buffer, CL_MEM_FLAGS, sizeof(returned), &returned, nullptr));
    EXPECT_EQ(returned, flags);
    size_t size = 0;
    EXPECT_CL_SUCCESS(clGetMemObjectInfo(buffer, CL_MEM_SIZE, sizeof(size), &size, nullptr));
    EXPECT_EQ(size, 100u);
    cl_mem_object_type type = 0;
    EXPECT_CL_SUCCESS(clGetMemObjectInfo(buffer, CL_MEM_TYPE, sizeof(type), &type, nullptr));
    EXPECT_EQ(type, static_cast<cl_mem_object_type>(CL_MEM_OBJECT_BUFFER));
    cl_context context = nullptr;
    EXPECT_CL_SUCCESS(clGetMemObjectInfo(buffer, CL_MEM_CONTEXT, sizeof(context), &context, nullptr));
    EXPECT_EQ(context, context_.get());
    void* hostPtr = reinterpret_cast<void*>(1);
    EXPECT_CL_SUCCESS(clGetMemObjectInfo(buffer, CL_MEM_HOST_PTR, sizeof(hostPtr), &hostPtr, nullptr));
    EXPECT_EQ(hostPtr, nullptr);
  }
}

// clCreateBufferWithProperties and clCreateImageWithProperties: no property is supported, so NULL
// and an empty list make the object (CL_MEM_PROPERTIES gives back nothing and a lone 0) and any
// property is CL_INVALID_PROPERTY.
TEST_F(IcdBuffer, MemoryPropertiesAreKeptOrRefused) {
  const cl_mem_properties empty[] = {0};
  const cl_mem_properties unknown[] = {0x7C2F00FF, 1, 0};
  cl_image_format format{CL_RGBA, CL_UNORM_INT8};
  cl_image_desc desc{};
  desc.image_type = CL_MEM_OBJECT_IMAGE2D;
  desc.image_width = desc.image_height = 4;
  auto create = [&](bool image, const cl_mem_properties* properties, cl_int* error) {
    return image ? clCreateImageWithProperties(context_, properties, CL_MEM_READ_WRITE, &format, &desc, nullptr, error)
                 : clCreateBufferWithProperties(context_, properties, CL_MEM_READ_WRITE, 64, nullptr, error);
  };
  for (bool image : {false, true}) {
    SCOPED_TRACE(image ? "image" : "buffer");
    for (const cl_mem_properties* properties : {static_cast<const cl_mem_properties*>(nullptr), empty}) {
      cl_int error = CL_INVALID_VALUE;
      Buffer memory(create(image, properties, &error));
      ASSERT_CL_SUCCESS(error);
      size_t size = 99;
      EXPECT_CL_SUCCESS(clGetMemObjectInfo(memory, CL_MEM_PROPERTIES, 0, nullptr, &size));
      EXPECT_EQ(size, properties ? sizeof(cl_mem_properties) : 0u);
    }
    cl_int error = CL_SUCCESS;
    Buffer refused(create(image, unknown, &error));
    EXPECT_EQ(refused.get(), nullptr);
    EXPECT_EQ(error, CL_INVALID_PROPERTY);
  }
}

// READ_ONLY and WRITE_ONLY say how kernels use a buffer; the host may still read and write it.
TEST_F(IcdBuffer, KernelAccessFlagsLeaveHostTransfersAllowed) {
  Kernel fill = severalKernels("fill"), addTwice = severalKernels("add_twice");
  ASSERT_TRUE(fill.get() && addTwice.get());
  const size_t n = 300;
  std::vector<int32_t> in = sequence(n, -100);
  Buffer readOnly = bufferOf(in, CL_MEM_READ_ONLY);
  Buffer writeOnly = createBuffer(n * sizeof(int32_t), CL_MEM_WRITE_ONLY);
  setArgs(fill, writeOnly, int32_t{5});
  run1d(fill, n);
  EXPECT_EQ(read<int32_t>(writeOnly, n), std::vector<int32_t>(n, 5));

  Buffer readWrite = bufferOf(std::vector<int32_t>(n, 1), CL_MEM_READ_WRITE);
  setArgs(addTwice, readWrite, readOnly);
  run1d(addTwice, n);
  std::vector<int32_t> out = read<int32_t>(readWrite, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 1 + 2 * in[i]) << i;
  EXPECT_CL_SUCCESS(
      clEnqueueWriteBuffer(queue_, writeOnly, CL_TRUE, 0, n * sizeof(int32_t), in.data(), 0, nullptr, nullptr));
  EXPECT_EQ(read<int32_t>(writeOnly, n), in);
}

TEST_F(IcdBuffer, CopyHostPtrTakesACopy) {
  std::vector<int32_t> host = sequence(64, 3);
  const std::vector<int32_t> original = host;
  Buffer buffer = createBuffer(host.size() * sizeof(int32_t), CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, host.data());
  ASSERT_TRUE(buffer.get());
  std::fill(host.begin(), host.end(), -1);
  EXPECT_EQ(read<int32_t>(buffer, original.size()), original);
}

TEST_F(IcdBuffer, BlockingAndNonBlockingTransfersWithEvents) {
  const size_t n = 4096;
  const std::vector<int32_t> data = sequence(n, 1000);
  Buffer buffer = createBuffer(n * sizeof(int32_t));
  Event written, readBack;
  ASSERT_CL_SUCCESS(
      clEnqueueWriteBuffer(queue_, buffer, CL_FALSE, 0, n * sizeof(int32_t), data.data(), 0, nullptr, written.put()));
  std::vector<int32_t> result(n, 0);
  cl_event waitFor = written;
  ASSERT_CL_SUCCESS(clEnqueueReadBuffer(queue_, buffer, CL_FALSE, 0, n * sizeof(int32_t), result.data(), 1, &waitFor,
                                        readBack.put()));
  cl_event readEvent = readBack;
  ASSERT_CL_SUCCESS(clWaitForEvents(1, &readEvent));
  EXPECT_EQ(result, data);
  cl_int status = CL_QUEUED;
  EXPECT_CL_SUCCESS(clGetEventInfo(written, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof(status), &status, nullptr));
  EXPECT_EQ(status, CL_COMPLETE);
  cl_command_type type = 0;
  EXPECT_CL_SUCCESS(clGetEventInfo(written, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_WRITE_BUFFER));
  EXPECT_CL_SUCCESS(clGetEventInfo(readBack, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_READ_BUFFER));

  // A blocking partial write at an unaligned offset, then a blocking read of the whole.
  const std::vector<uint8_t> patch = bytePattern(41, 9);
  ASSERT_CL_SUCCESS(clEnqueueWriteBuffer(queue_, buffer, CL_TRUE, 13, patch.size(), patch.data(), 0, nullptr, nullptr));
  std::vector<uint8_t> expected(n * sizeof(int32_t));
  std::memcpy(expected.data(), data.data(), expected.size());
  std::copy(patch.begin(), patch.end(), expected.begin() + 13);
  EXPECT_EQ(read<uint8_t>(buffer, expected.size()), expected);
  std::vector<uint8_t> middle(29);
  ASSERT_CL_SUCCESS(clEnqueueReadBuffer(queue_, buffer, CL_TRUE, 7, middle.size(), middle.data(), 0, nullptr, nullptr));
  EXPECT_EQ(middle, std::vector<uint8_t>(expected.begin() + 7, expected.begin() + 36));
}

TEST_F(IcdBuffer, TransfersBeyondTheEndAreInvalidValue) {
  Buffer buffer = createBuffer(64);
  std::vector<uint8_t> host(128);
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueReadBuffer(queue_, buffer, CL_TRUE, 0, 65, host.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueReadBuffer(queue_, buffer, CL_TRUE, 60, 8, host.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueWriteBuffer(queue_, buffer, CL_TRUE, 64, 1, host.data(), 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueReadBuffer(queue_, buffer, CL_TRUE, 0, 8, nullptr, 0, nullptr, nullptr));
  Buffer other = createBuffer(32);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue_, buffer, other, 0, 0, 33, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueCopyBuffer(queue_, buffer, other, 40, 0, 32, 0, nullptr, nullptr));
}

TEST_F(IcdBuffer, CopyBetweenAndWithinBuffers) {
  const std::vector<uint8_t> source = bytePattern(1024, 1), initial = bytePattern(1024, 100);
  Buffer from = bufferOf(source), to = bufferOf(initial);
  Event copied;
  ASSERT_CL_SUCCESS(clEnqueueCopyBuffer(queue_, from, to, 8, 101, 256, 0, nullptr, copied.put()));
  cl_event copyEvent = copied;
  ASSERT_CL_SUCCESS(clWaitForEvents(1, &copyEvent));
  std::vector<uint8_t> expected = initial;
  std::copy(source.begin() + 8, source.begin() + 264, expected.begin() + 101);
  EXPECT_EQ(read<uint8_t>(to, expected.size()), expected);

  // Within one buffer, regions that do not overlap; overlapping ones are refused.
  ASSERT_CL_SUCCESS(clEnqueueCopyBuffer(queue_, to, to, 0, 512, 300, 0, nullptr, nullptr));
  std::copy(expected.begin(), expected.begin() + 300, expected.begin() + 512);
  EXPECT_EQ(read<uint8_t>(to, expected.size()), expected);
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBuffer(queue_, to, to, 0, 100, 200, 0, nullptr, nullptr));
}

// Rectangles within one buffer whose spans interleave, rows of one between rows of the other, do
// not overlap: they are copied (the CTS's bufferreadwriterect makes such copies). Rectangles that
// share a byte are refused, and so are pitches that both differ.
TEST_F(IcdBuffer, CopyRectWithinABufferBetweenInterleavedRows) {
  const size_t rowPitch = 32, slicePitch = 32 * 8, size = slicePitch * 3;
  const std::vector<uint8_t> initial = bytePattern(size, 7);
  Buffer buffer = bufferOf(initial);
  // 10 x 4 x 2 bytes from (2, 1, 0) to (16, 2, 1): in slice 1 the destination's rows lie between
  // the source's, inside the span the source covers.
  const size_t from[3] = {2, 1, 0}, to[3] = {16, 2, 1}, region[3] = {10, 4, 2};
  ASSERT_CL_SUCCESS(clEnqueueCopyBufferRect(queue_, buffer, buffer, from, to, region, rowPitch, slicePitch, rowPitch,
                                            slicePitch, 0, nullptr, nullptr));
  std::vector<uint8_t> expected = initial;
  for (size_t z = 0; z < region[2]; ++z)
    for (size_t y = 0; y < region[1]; ++y)
      for (size_t x = 0; x < region[0]; ++x)
        expected[(to[2] + z) * slicePitch + (to[1] + y) * rowPitch + to[0] + x] =
            initial[(from[2] + z) * slicePitch + (from[1] + y) * rowPitch + from[0] + x];
  EXPECT_EQ(read<uint8_t>(buffer, size), expected);

  const size_t touching[3] = {11, 2, 0};  // its first row shares byte 11 of the source's second row
  EXPECT_CL_ERROR(CL_MEM_COPY_OVERLAP, clEnqueueCopyBufferRect(queue_, buffer, buffer, from, touching, region, rowPitch,
                                                               slicePitch, rowPitch, slicePitch, 0, nullptr, nullptr));
  const size_t apart[3] = {12, 2, 0};  // the same, one byte further: rows side by side
  EXPECT_CL_SUCCESS(clEnqueueCopyBufferRect(queue_, buffer, buffer, from, apart, region, rowPitch, slicePitch, rowPitch,
                                            slicePitch, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueCopyBufferRect(queue_, buffer, buffer, from, to, region, rowPitch, slicePitch, rowPitch * 2,
                                          slicePitch * 2, 0, nullptr, nullptr));
}

// Every pattern size the specification allows, at an offset that is an odd multiple of it.
TEST_F(IcdBuffer, FillWithEveryPatternSize) {
  const size_t size = 4096;
  const std::vector<uint8_t> initial = bytePattern(size, 50);
  Buffer buffer = bufferOf(initial);
  std::vector<uint8_t> expected = initial;
  for (size_t patternSize : {1u, 2u, 4u, 8u, 16u, 32u, 64u, 128u}) {
    const std::vector<uint8_t> pattern = bytePattern(patternSize, static_cast<uint8_t>(patternSize));
    const size_t offset = 3 * patternSize + (patternSize == 128 ? 1024 : 0), count = 5;
    Event filled;
    ASSERT_CL_SUCCESS(clEnqueueFillBuffer(queue_, buffer, pattern.data(), patternSize, offset, count * patternSize, 0,
                                          nullptr, filled.put()))
        << "pattern size " << patternSize;
    cl_event fillEvent = filled;
    ASSERT_CL_SUCCESS(clWaitForEvents(1, &fillEvent));
    for (size_t i = 0; i < count * patternSize; ++i) expected[offset + i] = pattern[i % patternSize];
    ASSERT_EQ(read<uint8_t>(buffer, size), expected) << "pattern size " << patternSize;
  }
  uint8_t pattern[4] = {1, 2, 3, 4};
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueFillBuffer(queue_, buffer, pattern, 4, 2, 8, 0, nullptr, nullptr));  // offset
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueFillBuffer(queue_, buffer, pattern, 4, 0, 6, 0, nullptr, nullptr));  // size
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueFillBuffer(queue_, buffer, pattern, 3, 0, 6, 0, nullptr, nullptr));  // 3 bytes
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue_, buffer, pattern, 4, size - 4, 8, 0, nullptr, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clEnqueueFillBuffer(queue_, buffer, nullptr, 4, 0, 8, 0, nullptr, nullptr));
}

TEST_F(IcdBuffer, MapForReadingSeesTheContents) {
  const std::vector<int32_t> data = sequence(1000, -500);
  Buffer buffer = bufferOf(data);
  cl_int status = CL_SUCCESS;
  auto* mapped = static_cast<int32_t*>(clEnqueueMapBuffer(queue_, buffer, CL_TRUE, CL_MAP_READ, 40 * sizeof(int32_t),
                                                          100 * sizeof(int32_t), 0, nullptr, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  ASSERT_NE(mapped, nullptr);
  EXPECT_EQ(std::vector<int32_t>(mapped, mapped + 100), std::vector<int32_t>(data.begin() + 40, data.begin() + 140));
  Event unmapped;
  ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, buffer, mapped, 0, nullptr, unmapped.put()));
  cl_event unmapEvent = unmapped;
  EXPECT_CL_SUCCESS(clWaitForEvents(1, &unmapEvent));
  cl_command_type type = 0;
  EXPECT_CL_SUCCESS(clGetEventInfo(unmapped, CL_EVENT_COMMAND_TYPE, sizeof(type), &type, nullptr));
  EXPECT_EQ(type, static_cast<cl_command_type>(CL_COMMAND_UNMAP_MEM_OBJECT));
}

TEST_F(IcdBuffer, MapForWritingUpdatesTheBuffer) {
  const std::vector<int32_t> data = sequence(1000, 0);
  Buffer buffer = bufferOf(data);
  cl_int status = CL_SUCCESS;
  Event mappedEvent;
  auto* mapped =
      static_cast<int32_t*>(clEnqueueMapBuffer(queue_, buffer, CL_FALSE, CL_MAP_WRITE, 10 * sizeof(int32_t),
                                               50 * sizeof(int32_t), 0, nullptr, mappedEvent.put(), &status));
  ASSERT_CL_SUCCESS(status);
  ASSERT_NE(mapped, nullptr);
  cl_event waitFor = mappedEvent;
  ASSERT_CL_SUCCESS(clWaitForEvents(1, &waitFor));
  for (int i = 0; i < 50; ++i) mapped[i] = -7 * i;
  ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, buffer, mapped, 0, nullptr, nullptr));
  std::vector<int32_t> expected = data;
  for (int i = 0; i < 50; ++i) expected[10 + i] = -7 * i;
  EXPECT_EQ(read<int32_t>(buffer, expected.size()), expected);
}

// CL_MAP_WRITE_INVALIDATE_REGION: the mapped region's old contents need not be there, but what is
// written lands, and the rest of the buffer keeps its contents.
TEST_F(IcdBuffer, MapWriteInvalidateRegionKeepsTheRestOfTheBuffer) {
  const std::vector<int32_t> data = sequence(512, 1);
  Buffer buffer = bufferOf(data);
  cl_int status = CL_SUCCESS;
  auto* mapped = static_cast<int32_t*>(clEnqueueMapBuffer(queue_, buffer, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION,
                                                          128 * sizeof(int32_t), 64 * sizeof(int32_t), 0, nullptr,
                                                          nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  ASSERT_NE(mapped, nullptr);
  for (int i = 0; i < 64; ++i) mapped[i] = 9000 + i;
  ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, buffer, mapped, 0, nullptr, nullptr));
  std::vector<int32_t> expected = data;
  for (int i = 0; i < 64; ++i) expected[128 + i] = 9000 + i;
  EXPECT_EQ(read<int32_t>(buffer, expected.size()), expected);
  EXPECT_EQ(clEnqueueMapBuffer(queue_, buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE_INVALIDATE_REGION, 0, 64, 0, nullptr,
                               nullptr, &status),
            nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  EXPECT_EQ(clEnqueueMapBuffer(queue_, buffer, CL_TRUE, CL_MAP_READ, 2000, 100, 0, nullptr, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
}

// With CL_MEM_USE_HOST_PTR, a map returns host_ptr + offset, which then holds what kernels wrote.
TEST_F(IcdBuffer, UseHostPtrMapsOntoTheHostMemory) {
  Kernel scale = severalKernels("scale");
  ASSERT_TRUE(scale.get());
  const size_t n = 256;
  std::vector<int32_t> host = sequence(n, 1);
  Buffer buffer = createBuffer(n * sizeof(int32_t), CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host.data());
  ASSERT_TRUE(buffer.get());
  void* reported = nullptr;
  EXPECT_CL_SUCCESS(clGetMemObjectInfo(buffer, CL_MEM_HOST_PTR, sizeof(reported), &reported, nullptr));
  EXPECT_EQ(reported, host.data());
  setArgs(scale, buffer, int32_t{3});
  run1d(scale, n);
  cl_int status = CL_SUCCESS;
  Event mappedEvent;
  auto* mapped =
      static_cast<int32_t*>(clEnqueueMapBuffer(queue_, buffer, CL_FALSE, CL_MAP_READ, 16 * sizeof(int32_t),
                                               32 * sizeof(int32_t), 0, nullptr, mappedEvent.put(), &status));
  ASSERT_CL_SUCCESS(status);
  cl_event waitFor = mappedEvent;
  ASSERT_CL_SUCCESS(clWaitForEvents(1, &waitFor));
  EXPECT_EQ(mapped, host.data() + 16);
  for (size_t i = 16; i < 48; ++i) EXPECT_EQ(host[i], 3 * static_cast<int32_t>(i + 1)) << i;
  ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, buffer, mapped, 0, nullptr, nullptr));
  // The host may change the memory while it is mapped for writing; kernels then see it.
  mapped = static_cast<int32_t*>(
      clEnqueueMapBuffer(queue_, buffer, CL_TRUE, CL_MAP_WRITE, 0, n * sizeof(int32_t), 0, nullptr, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_EQ(mapped, host.data());
  for (size_t i = 0; i < n; ++i) mapped[i] = static_cast<int32_t>(i);
  ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, buffer, mapped, 0, nullptr, nullptr));
  run1d(scale, n);
  std::vector<int32_t> out = read<int32_t>(buffer, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], 3 * static_cast<int32_t>(i)) << i;
}

// On a CPU device (the context's only device) CL_MEM_USE_HOST_PTR's memory is the buffer's own
// memory, imported, wherever the device can import it (a pointer aligned as its buffers are): the
// kernels write into it and a map copies nothing, so what a kernel wrote is there even before the
// map. Elsewhere, and at an address the device cannot import, the memory is a copy that maps
// bring up to date. Either way the map is the host memory at the mapped offset, sub-buffers
// included, and what the host writes there reaches the kernels.
TEST_F(IcdBuffer, UseHostPtrIsTheBuffersOwnMemoryOnACpuDevice) {
  Kernel scale = severalKernels("scale");
  ASSERT_TRUE(scale.get());
  const bool cpu = (deviceInfo<cl_device_type>(device_, CL_DEVICE_TYPE) & CL_DEVICE_TYPE_CPU) != 0;
  const size_t n = (size_t{1} << 18) + 3, bytes = n * sizeof(int32_t), page = 4096;
  std::unique_ptr<std::byte[]> storage(new std::byte[bytes + 2 * page]);
  std::byte* aligned =
      reinterpret_cast<std::byte*>((reinterpret_cast<uintptr_t>(storage.get()) + page - 1) / page * page);
  // Page-aligned, 256 bytes in (every device's buffer alignment), and 4 bytes in (none's).
  for (size_t shift : {size_t{0}, size_t{256}, size_t{4}}) {
    SCOPED_TRACE("the host memory " + std::to_string(shift) + " bytes past a page");
    auto* host = reinterpret_cast<int32_t*>(aligned + shift);
    for (size_t i = 0; i < n; ++i) host[i] = static_cast<int32_t>(i) - 7;
    Buffer buffer = createBuffer(bytes, CL_MEM_READ_WRITE | CL_MEM_USE_HOST_PTR, host);
    ASSERT_TRUE(buffer.get());
    setArgs(scale, buffer, int32_t{3});
    run1d(scale, n);
    if (cpu && shift % 256 == 0) {
      for (size_t i = 0; i < n; i += 4099) ASSERT_EQ(host[i], 3 * (static_cast<int32_t>(i) - 7)) << i;
    }
    cl_int status = CL_SUCCESS;
    const size_t first = 1000;
    auto* mapped = static_cast<int32_t*>(clEnqueueMapBuffer(queue_, buffer, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE,
                                                            first * sizeof(int32_t), (n - first) * sizeof(int32_t), 0,
                                                            nullptr, nullptr, &status));
    ASSERT_CL_SUCCESS(status);
    ASSERT_EQ(mapped, host + first);
    for (size_t i = first; i < n; ++i) ASSERT_EQ(mapped[i - first], 3 * (static_cast<int32_t>(i) - 7)) << i;
    for (size_t i = first; i < n; ++i) mapped[i - first] = static_cast<int32_t>(i);
    ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, buffer, mapped, 0, nullptr, nullptr));

    // A sub-buffer maps onto the same host memory, at its origin.
    const size_t origin = page;
    cl_buffer_region region{origin, bytes - origin};
    Buffer sub(clCreateSubBuffer(buffer, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status));
    ASSERT_CL_SUCCESS(status);
    setArgs(scale, sub, int32_t{-2});
    run1d(scale, (bytes - origin) / sizeof(int32_t));
    mapped = static_cast<int32_t*>(
        clEnqueueMapBuffer(queue_, sub, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &status));
    ASSERT_CL_SUCCESS(status);
    EXPECT_EQ(reinterpret_cast<std::byte*>(mapped), reinterpret_cast<std::byte*>(host) + origin);
    ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, sub, mapped, 0, nullptr, nullptr));
    std::vector<int32_t> out = read<int32_t>(buffer, n);
    for (size_t i = 0; i < n; ++i) {
      int32_t expected = i < first ? 3 * (static_cast<int32_t>(i) - 7) : static_cast<int32_t>(i);
      if (i * sizeof(int32_t) >= origin) expected *= -2;
      ASSERT_EQ(out[i], expected) << i;
    }
  }
}

TEST_F(IcdBuffer, AllocHostPtrCanBeMappedAndUsedByKernels) {
  Kernel scale = severalKernels("scale");
  ASSERT_TRUE(scale.get());
  const size_t n = 200;
  Buffer buffer = createBuffer(n * sizeof(int32_t), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR);
  ASSERT_TRUE(buffer.get());
  cl_int status = CL_SUCCESS;
  auto* mapped = static_cast<int32_t*>(clEnqueueMapBuffer(queue_, buffer, CL_TRUE, CL_MAP_WRITE_INVALIDATE_REGION, 0,
                                                          n * sizeof(int32_t), 0, nullptr, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  for (size_t i = 0; i < n; ++i) mapped[i] = static_cast<int32_t>(i) - 50;
  ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, buffer, mapped, 0, nullptr, nullptr));
  setArgs(scale, buffer, int32_t{-2});
  run1d(scale, n);
  std::vector<int32_t> out = read<int32_t>(buffer, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], -2 * (static_cast<int32_t>(i) - 50)) << i;
}

// Transfers and maps larger than a staging piece (16 MiB on a GPU), at offsets that are not
// multiples of anything, around a kernel that changes every word: what each one moves is the
// buffer's current contents, byte for byte, and what it writes is what a kernel then reads.
TEST_F(IcdBuffer, LargeTransfersAndMapsAtOddOffsetsKeepEveryByte) {
  Kernel scale = severalKernels("scale");
  ASSERT_TRUE(scale.get());
  const size_t n = (40u << 20) / sizeof(int32_t) + 3;  // a little over 40 MiB
  const size_t bytes = n * sizeof(int32_t);
  Buffer buffer = createBuffer(bytes, CL_MEM_READ_WRITE);
  ASSERT_TRUE(buffer.get());
  std::vector<int32_t> expected = sequence(n, -1000);
  ASSERT_CL_SUCCESS(clEnqueueWriteBuffer(queue_, buffer, CL_FALSE, 0, bytes, expected.data(), 0, nullptr, nullptr));
  setArgs(scale, buffer, int32_t{3});
  run1d(scale, n);
  for (int32_t& value : expected) value *= 3;

  // A read of 33 MiB starting at byte 4097 + 1: odd in bytes, across three pieces.
  const size_t readOffset = 4098, readSize = (33u << 20) + 5;
  std::vector<uint8_t> got(readSize);
  ASSERT_CL_SUCCESS(
      clEnqueueReadBuffer(queue_, buffer, CL_TRUE, readOffset, readSize, got.data(), 0, nullptr, nullptr));
  const auto* expectedBytes = reinterpret_cast<const uint8_t*>(expected.data());
  ASSERT_EQ(std::memcmp(got.data(), expectedBytes + readOffset, readSize), 0);

  // A write of 20 MiB at an odd offset, then a map for reading over its edge.
  std::vector<uint8_t> patch = bytePattern((20u << 20) + 1, 11);
  const size_t writeOffset = (3u << 20) + 7;
  ASSERT_CL_SUCCESS(
      clEnqueueWriteBuffer(queue_, buffer, CL_TRUE, writeOffset, patch.size(), patch.data(), 0, nullptr, nullptr));
  auto* expectedWritable = reinterpret_cast<uint8_t*>(expected.data());
  std::memcpy(expectedWritable + writeOffset, patch.data(), patch.size());
  cl_int status = CL_SUCCESS;
  const size_t mapOffset = writeOffset + patch.size() - 1000, mapSize = (17u << 20) + 3;
  auto* mapped = static_cast<uint8_t*>(
      clEnqueueMapBuffer(queue_, buffer, CL_TRUE, CL_MAP_READ, mapOffset, mapSize, 0, nullptr, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  ASSERT_EQ(std::memcmp(mapped, expectedWritable + mapOffset, mapSize), 0);
  ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, buffer, mapped, 0, nullptr, nullptr));

  // A map for writing of a whole sub-buffer, changed on the host; the kernel then sees it.
  const size_t origin = 8u << 20, subSize = (18u << 20) + 12;  // origin: a multiple of 1024 bits
  cl_buffer_region region{origin, subSize};
  Buffer sub(clCreateSubBuffer(buffer, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status));
  ASSERT_CL_SUCCESS(status);
  auto* words = static_cast<int32_t*>(
      clEnqueueMapBuffer(queue_, sub, CL_TRUE, CL_MAP_WRITE, 0, subSize, 0, nullptr, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  ASSERT_EQ(std::memcmp(words, expectedWritable + origin, subSize), 0);
  for (size_t i = 0; i < subSize / sizeof(int32_t); i += 1021) words[i] = static_cast<int32_t>(i);
  std::memcpy(expectedWritable + origin, words, subSize);
  ASSERT_CL_SUCCESS(clEnqueueUnmapMemObject(queue_, sub, words, 0, nullptr, nullptr));
  // Factor 1: the words are arbitrary now, and a product could overflow.
  setArgs(scale, buffer, int32_t{1});
  run1d(scale, n);
  std::vector<int32_t> out = read<int32_t>(buffer, n);
  ASSERT_EQ(std::memcmp(out.data(), expected.data(), bytes), 0);
}

TEST_F(IcdBuffer, HostAccessFlagsRestrictTransfers) {
  int32_t value = 1;
  Buffer hostReadOnly = createBuffer(64, CL_MEM_HOST_READ_ONLY);
  EXPECT_CL_ERROR(CL_INVALID_OPERATION,
                  clEnqueueWriteBuffer(queue_, hostReadOnly, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, nullptr));
  EXPECT_CL_SUCCESS(clEnqueueReadBuffer(queue_, hostReadOnly, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, nullptr));
  Buffer hostWriteOnly = createBuffer(64, CL_MEM_HOST_WRITE_ONLY);
  EXPECT_CL_ERROR(CL_INVALID_OPERATION,
                  clEnqueueReadBuffer(queue_, hostWriteOnly, CL_TRUE, 0, sizeof(value), &value, 0, nullptr, nullptr));
  Buffer noAccess = createBuffer(64, CL_MEM_HOST_NO_ACCESS);
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clEnqueueMapBuffer(queue_, noAccess, CL_TRUE, CL_MAP_READ, 0, 64, 0, nullptr, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, status);

  // The rectangular transfers obey the same flags.
  const size_t origin[3] = {0, 0, 0}, region[3] = {sizeof(value), 1, 1};
  auto readRect = [&](cl_mem buffer) {
    return clEnqueueReadBufferRect(queue_, buffer, CL_TRUE, origin, origin, region, 0, 0, 0, 0, &value, 0, nullptr,
                                   nullptr);
  };
  auto writeRect = [&](cl_mem buffer) {
    return clEnqueueWriteBufferRect(queue_, buffer, CL_TRUE, origin, origin, region, 0, 0, 0, 0, &value, 0, nullptr,
                                    nullptr);
  };
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, writeRect(hostReadOnly));
  EXPECT_CL_SUCCESS(readRect(hostReadOnly));
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, readRect(hostWriteOnly));
  EXPECT_CL_SUCCESS(writeRect(hostWriteOnly));
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, readRect(noAccess));
  EXPECT_CL_ERROR(CL_INVALID_OPERATION, writeRect(noAccess));
}

TEST_F(IcdBuffer, InvalidCreationIsRefused) {
  cl_int status = CL_SUCCESS;
  int32_t host[16] = {};
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_READ_WRITE, 0, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BUFFER_SIZE, status);
  cl_ulong maxAlloc = deviceInfo<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_READ_WRITE, static_cast<size_t>(maxAlloc) + 1, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BUFFER_SIZE, status);
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_USE_HOST_PTR, sizeof(host), nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR, status);
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_COPY_HOST_PTR, sizeof(host), nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR, status);
  EXPECT_EQ(clCreateBuffer(context_, CL_MEM_READ_WRITE, sizeof(host), host, &status),
            nullptr);  // a host_ptr unasked for
  EXPECT_CL_ERROR(CL_INVALID_HOST_PTR, status);
  const cl_mem_flags kContradictions[] = {
      CL_MEM_READ_ONLY | CL_MEM_WRITE_ONLY,          CL_MEM_READ_WRITE | CL_MEM_READ_ONLY,
      CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR,   CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR,
      CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS, CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY,
  };
  for (cl_mem_flags flags : kContradictions) {
    void* hostPtr = flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR) ? host : nullptr;  // only the flags are wrong
    EXPECT_EQ(clCreateBuffer(context_, flags, sizeof(host), hostPtr, &status), nullptr) << std::hex << flags;
    EXPECT_CL_ERROR(CL_INVALID_VALUE, status) << "flags 0x" << std::hex << flags;
  }
}

class IcdSubBuffer : public IcdBuffer {
 protected:
  void SetUp() override {
    IcdBuffer::SetUp();
    if (HasFatalFailure()) return;
    alignment_ = deviceInfo<cl_uint>(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN) / 8;
    ASSERT_GT(alignment_, 0u);
  }

  Buffer subBuffer(cl_mem parent, size_t origin, size_t size, cl_mem_flags flags = CL_MEM_READ_WRITE,
                   cl_int* status = nullptr) {
    cl_buffer_region region{origin, size};
    cl_int created = CL_SUCCESS;
    Buffer sub(clCreateSubBuffer(parent, flags, CL_BUFFER_CREATE_TYPE_REGION, &region, &created));
    if (status) {
      *status = created;
    } else {
      EXPECT_CL_SUCCESS(created) << "origin " << origin << " size " << size;
    }
    return sub;
  }

  size_t alignment_ = 0;
};

TEST_F(IcdSubBuffer, ShareTheParentsData) {
  const size_t parentSize = 4 * alignment_;
  const std::vector<uint8_t> initial = bytePattern(parentSize, 3);
  Buffer parent = bufferOf(initial);
  Buffer sub = subBuffer(parent, alignment_, 2 * alignment_);
  ASSERT_TRUE(sub.get());
  cl_mem associated = nullptr;
  EXPECT_CL_SUCCESS(clGetMemObjectInfo(sub, CL_MEM_ASSOCIATED_MEMOBJECT, sizeof(associated), &associated, nullptr));
  EXPECT_EQ(associated, parent.get());
  size_t offset = 0, size = 0;
  EXPECT_CL_SUCCESS(clGetMemObjectInfo(sub, CL_MEM_OFFSET, sizeof(offset), &offset, nullptr));
  EXPECT_EQ(offset, alignment_);
  EXPECT_CL_SUCCESS(clGetMemObjectInfo(sub, CL_MEM_SIZE, sizeof(size), &size, nullptr));
  EXPECT_EQ(size, 2 * alignment_);

  // Reads through the sub-buffer start at its origin; writes through it land in the parent.
  EXPECT_EQ(read<uint8_t>(sub, 2 * alignment_),
            std::vector<uint8_t>(initial.begin() + alignment_, initial.begin() + 3 * alignment_));
  const std::vector<uint8_t> patch = bytePattern(10, 200);
  ASSERT_CL_SUCCESS(clEnqueueWriteBuffer(queue_, sub, CL_TRUE, 5, patch.size(), patch.data(), 0, nullptr, nullptr));
  std::vector<uint8_t> expected = initial;
  std::copy(patch.begin(), patch.end(), expected.begin() + alignment_ + 5);
  EXPECT_EQ(read<uint8_t>(parent, parentSize), expected);
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clEnqueueWriteBuffer(queue_, sub, CL_TRUE, 2 * alignment_ - 4, 8, patch.data(), 0, nullptr, nullptr));
}

TEST_F(IcdSubBuffer, KernelsWriteThroughASubBufferIntoTheParent) {
  Kernel fill = severalKernels("fill");
  ASSERT_TRUE(fill.get());
  const size_t parentInts = 4 * alignment_ / sizeof(int32_t), subInts = alignment_ / sizeof(int32_t);
  Buffer parent = bufferOf(std::vector<int32_t>(parentInts, -1));
  Buffer sub = subBuffer(parent, 2 * alignment_, alignment_);
  ASSERT_TRUE(sub.get());
  setArgs(fill, sub, int32_t{77});
  run1d(fill, subInts);
  std::vector<int32_t> expected(parentInts, -1);
  std::fill(expected.begin() + 2 * subInts, expected.begin() + 3 * subInts, 77);
  EXPECT_EQ(read<int32_t>(parent, parentInts), expected);
}

TEST_F(IcdSubBuffer, InvalidRegionsAreRefused) {
  Buffer parent = createBuffer(4 * alignment_, CL_MEM_READ_ONLY);
  cl_int status = CL_SUCCESS;
  if (alignment_ > 1) {
    Buffer misaligned = subBuffer(parent, alignment_ / 2, alignment_, CL_MEM_READ_ONLY, &status);
    EXPECT_EQ(misaligned.get(), nullptr);
    EXPECT_CL_ERROR(CL_MISALIGNED_SUB_BUFFER_OFFSET, status);
  } else {
    std::cout << "[ SKIPPED ] no misaligned origin: CL_DEVICE_MEM_BASE_ADDR_ALIGN is 8 bits\n";
  }
  Buffer beyond = subBuffer(parent, 2 * alignment_, 3 * alignment_, CL_MEM_READ_ONLY, &status);
  EXPECT_EQ(beyond.get(), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  Buffer empty = subBuffer(parent, alignment_, 0, CL_MEM_READ_ONLY, &status);
  EXPECT_EQ(empty.get(), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BUFFER_SIZE, status);
  // A read-only parent cannot have a writable sub-buffer.
  Buffer writable = subBuffer(parent, alignment_, alignment_, CL_MEM_WRITE_ONLY, &status);
  EXPECT_EQ(writable.get(), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  Buffer sub = subBuffer(parent, alignment_, 2 * alignment_, CL_MEM_READ_ONLY);
  ASSERT_TRUE(sub.get());
  Buffer subOfSub = subBuffer(sub, 0, alignment_, CL_MEM_READ_ONLY, &status);
  EXPECT_EQ(subOfSub.get(), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, status);
}

}  // namespace
}  // namespace cl2vk::test
