// The device's limits, reached: the largest buffer it allows, the largest work-group, a 1D NDRange
// of more than 2^31 work-items (64-bit global ids), and hundreds of programs, kernels and tens of
// contexts alive at once. Every result is checked against the CPU's. docs/RELIABILITY.md lists
// the limits and the times measured on lavapipe.

#include <chrono>
#include <cstdio>
#include <fstream>
#include <limits>
#include <numeric>
#include <string>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

constexpr const char* kLimits = R"(
// Writes base + i ^ 0x5a to p[base + i]: the bytes at the far end of a large buffer.
kernel void stamp_bytes(global uchar* p, ulong base) {
  ulong i = base + get_global_id(0);
  p[i] = (uchar)(i ^ 0x5a);
}

// One work-item in 2^20 writes its 64-bit global id, and the last one writes the count + 1.
kernel void sparse_ids(global ulong* out, ulong last) {
  ulong id = get_global_id(0);
  if ((id & 0xfffff) == 0) out[id >> 20] = id;
  if (id == last) out[(last >> 20) + 1] = id + 1;
}

// Every work-item of the group takes part: a reduction, a barrier and a reversal through local memory.
kernel void whole_group(global uint* out, local uint* scratch) {
  size_t l = get_local_linear_id();
  size_t n = get_local_size(0) * get_local_size(1) * get_local_size(2);
  scratch[l] = (uint)get_global_linear_id();
  barrier(CLK_LOCAL_MEM_FENCE);
  uint sum = work_group_reduce_add((uint)l);
  out[get_global_linear_id()] = scratch[n - 1 - l] * 3u + sum;
}

kernel void scaled(global int* out, int factor) {
  out[get_global_id(0)] = (int)get_global_id(0) * factor;
}
)";

class IcdLimits : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    if (HasFatalFailure()) return;
    program_ = buildSource(kLimits, "-cl-std=CL2.0");
    ASSERT_TRUE(program_.get());
  }

  Program program_;
};

// MemAvailable of /proc/meminfo in bytes; 0 where it cannot be read.
uint64_t hostMemoryAvailable() {
  std::ifstream meminfo("/proc/meminfo");
  std::string key;
  uint64_t kib = 0;
  while (meminfo >> key >> kib) {
    if (key == "MemAvailable:") return kib * 1024;
    meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return 0;
}

double secondsSince(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

TEST_F(IcdLimits, LargestBufferIsWrittenAndReadAtBothEnds) {
  const cl_ulong largest = deviceInfo<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE);
  ASSERT_LE(largest, deviceInfo<cl_ulong>(device_, CL_DEVICE_GLOBAL_MEM_SIZE));
  cl_int status = CL_SUCCESS;
  Buffer buffer(clCreateBuffer(context_, CL_MEM_READ_WRITE, largest, nullptr, &status));
  if (status == CL_MEM_OBJECT_ALLOCATION_FAILURE || status == CL_OUT_OF_RESOURCES) {
    // A CPU device's memory is the host's: with twice the buffer free, the device has no excuse
    // (SwiftShader refused its maximum once, for padding it adds to every buffer).
    const bool cpu = deviceInfo<cl_device_type>(device_, CL_DEVICE_TYPE) == CL_DEVICE_TYPE_CPU;
    ASSERT_FALSE(cpu && hostMemoryAvailable() > 2 * largest)
        << "a buffer of CL_DEVICE_MAX_MEM_ALLOC_SIZE (" << largest << " bytes) failed with " << clErrorName(status)
        << " while the host has " << hostMemoryAvailable() << " bytes available";
    GTEST_SKIP() << "this machine cannot back a buffer of CL_DEVICE_MAX_MEM_ALLOC_SIZE (" << largest
                 << " bytes): " << clErrorName(status);
  }
  ASSERT_CL_SUCCESS(status);

  // The host writes the first and last pages; a kernel stamps the last 64 KiB through 64-bit
  // indices; every byte read back is the one expected.
  constexpr size_t kPage = 4096, kStamped = 65536;
  std::vector<uint8_t> head(kPage), tail(kPage);
  for (size_t i = 0; i < kPage; ++i)
    head[i] = static_cast<uint8_t>(i * 7 + 1), tail[i] = static_cast<uint8_t>(i * 13 + 5);
  ASSERT_CL_SUCCESS(clEnqueueWriteBuffer(queue_, buffer, CL_FALSE, 0, kPage, head.data(), 0, nullptr, nullptr));
  ASSERT_CL_SUCCESS(
      clEnqueueWriteBuffer(queue_, buffer, CL_FALSE, largest - kPage, kPage, tail.data(), 0, nullptr, nullptr));
  std::vector<uint8_t> headBack(kPage), tailBack(kPage);
  ASSERT_CL_SUCCESS(clEnqueueReadBuffer(queue_, buffer, CL_FALSE, 0, kPage, headBack.data(), 0, nullptr, nullptr));
  ASSERT_CL_SUCCESS(
      clEnqueueReadBuffer(queue_, buffer, CL_TRUE, largest - kPage, kPage, tailBack.data(), 0, nullptr, nullptr));
  EXPECT_EQ(headBack, head);
  EXPECT_EQ(tailBack, tail);

  Kernel stamp = createKernel(program_, "stamp_bytes");
  const cl_ulong base = largest - kStamped;
  setArgs(stamp.get(), buffer, base);
  run1d(stamp, kStamped);
  std::vector<uint8_t> stamped(kStamped);
  ASSERT_CL_SUCCESS(clEnqueueReadBuffer(queue_, buffer, CL_TRUE, base, kStamped, stamped.data(), 0, nullptr, nullptr));
  size_t wrong = 0;
  for (size_t i = 0; i < kStamped; ++i) wrong += stamped[i] != static_cast<uint8_t>((base + i) ^ 0x5a);
  EXPECT_EQ(wrong, 0u) << "of the last " << kStamped << " bytes of a " << largest << "-byte buffer";
}

// CL_KERNEL_WORK_GROUP_SIZE work-items in one group, in 1D and as a square in 2D, each group's
// reduction and reversal checked.
TEST_F(IcdLimits, LargestWorkGroupRunsWhole) {
  Kernel kernel = createKernel(program_, "whole_group");
  size_t largest = 0;
  ASSERT_CL_SUCCESS(
      clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof(largest), &largest, nullptr));
  ASSERT_LE(largest, deviceInfo<size_t>(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE));
  size_t side = 1;
  while ((side * 2) * (side * 2) <= largest) side *= 2;

  struct Shape {
    cl_uint dimensions;
    size_t global[2], local[2];
  };
  for (const Shape& shape : {Shape{1, {4 * largest, 1}, {largest, 1}}, Shape{2, {2 * side, 2 * side}, {side, side}}}) {
    const size_t items = shape.global[0] * shape.global[1], groupItems = shape.local[0] * shape.local[1];
    Buffer out = createBuffer(items * sizeof(cl_uint));
    setArg(kernel, 0, out);
    ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 1, groupItems * sizeof(cl_uint), nullptr));
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, shape.dimensions, nullptr, shape.global, shape.local, 0,
                                             nullptr, nullptr));
    std::vector<cl_uint> got = read<cl_uint>(out, items);
    // The CPU's answer: item (x, y) of group (gx, gy), local linear id l = lx + ly * local[0].
    std::vector<cl_uint> expected(items);
    const cl_uint sum = static_cast<cl_uint>(groupItems * (groupItems - 1) / 2);
    for (size_t y = 0; y < shape.global[1]; ++y) {
      for (size_t x = 0; x < shape.global[0]; ++x) {
        size_t lx = x % shape.local[0], ly = y % shape.local[1];
        size_t mirror = groupItems - 1 - (lx + ly * shape.local[0]);
        size_t mx = x - lx + mirror % shape.local[0], my = y - ly + mirror / shape.local[0];
        expected[x + y * shape.global[0]] = static_cast<cl_uint>(mx + my * shape.global[0]) * 3u + sum;
      }
    }
    EXPECT_EQ(got, expected) << shape.dimensions << "D, local " << shape.local[0] << "x" << shape.local[1];
  }
}

// 2^31 + 2^21 work-items in one dimension, so that global ids need 64 bits and the work-groups
// need many dispatches (maxComputeWorkGroupCount); one work-item in 2^20 writes its id.
TEST_F(IcdLimits, MoreThanTwoTo31WorkItemsHaveExactGlobalIds) {
  const size_t global = (size_t{1} << 31) + (size_t{1} << 21);
  const size_t written = (global >> 20) + 1;  // every 2^20th id, and the last one's marker
  Kernel kernel = createKernel(program_, "sparse_ids");
  std::vector<cl_ulong> zeros(written + 1, 0);
  Buffer out = bufferOf(zeros);
  const cl_ulong last = global - 1;
  setArgs(kernel.get(), out, last);
  size_t local = 0;  // the largest group: the fewest groups for lavapipe to start
  ASSERT_CL_SUCCESS(
      clGetKernelWorkGroupInfo(kernel, device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof(local), &local, nullptr));
  ASSERT_EQ(global % local, 0u) << "CL_KERNEL_WORK_GROUP_SIZE " << local << " is not a power of two";
  auto start = std::chrono::steady_clock::now();
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  ASSERT_CL_SUCCESS(clFinish(queue_));
  std::printf("[ INFO     ] %zu work-items in %.1f s\n", global, secondsSince(start));

  std::vector<cl_ulong> got = read<cl_ulong>(out, written + 1);
  std::vector<cl_ulong> expected(written + 1);
  for (size_t i = 0; i < written - 1; ++i) expected[i] = cl_ulong{i} << 20;
  expected[written - 1] = global;  // (last >> 20) + 1 == written - 1: the last id's marker
  expected[written] = 0;           // nothing past it
  EXPECT_EQ(got, expected);
}

// Hundreds of programs and kernels alive at once, each kernel run with its own factor, and tens
// of contexts (each with its own Vulkan device) alive at once, each running a kernel.
TEST_F(IcdLimits, HundredsOfProgramsAndKernelsAndTensOfContextsAliveAtOnce) {
  constexpr size_t kPrograms = 200, kKernelsPerProgram = 2, kContexts = 16, kItems = 64;
  size_t size = 0;
  ASSERT_CL_SUCCESS(clGetProgramInfo(program_, CL_PROGRAM_BINARY_SIZES, sizeof(size), &size, nullptr));
  std::vector<unsigned char> binary(size);
  unsigned char* binaries[] = {binary.data()};
  ASSERT_CL_SUCCESS(clGetProgramInfo(program_, CL_PROGRAM_BINARIES, sizeof(binaries), binaries, nullptr));

  auto start = std::chrono::steady_clock::now();
  std::vector<Program> programs;
  std::vector<Kernel> kernels;
  std::vector<Buffer> outputs;
  for (size_t p = 0; p < kPrograms; ++p) {
    const unsigned char* data = binary.data();
    cl_int status = CL_SUCCESS;
    programs.emplace_back(clCreateProgramWithBinary(context_, 1, &device_, &size, &data, nullptr, &status));
    ASSERT_CL_SUCCESS(status) << "program " << p;
    ASSERT_CL_SUCCESS(clBuildProgram(programs.back(), 1, &device_, "", nullptr, nullptr)) << "program " << p;
    for (size_t k = 0; k < kKernelsPerProgram; ++k) {
      kernels.push_back(createKernel(programs.back(), "scaled"));
      outputs.push_back(createBuffer(kItems * sizeof(cl_int)));
      setArgs(kernels.back().get(), outputs.back(), static_cast<cl_int>(kernels.size()));
      ASSERT_CL_SUCCESS(
          clEnqueueNDRangeKernel(queue_, kernels.back(), 1, nullptr, &kItems, nullptr, 0, nullptr, nullptr));
    }
  }
  ASSERT_CL_SUCCESS(clFinish(queue_));
  for (size_t k = 0; k < kernels.size(); ++k) {
    std::vector<cl_int> expected(kItems);
    for (size_t i = 0; i < kItems; ++i) expected[i] = static_cast<cl_int>(i * (k + 1));
    ASSERT_EQ(read<cl_int>(outputs[k], kItems), expected) << "kernel " << k;
  }
  std::printf("[ INFO     ] %zu programs and %zu kernels built and run in %.1f s\n", programs.size(), kernels.size(),
              secondsSince(start));

  start = std::chrono::steady_clock::now();
  struct Tenant {
    Context context;
    Queue queue;
    Program program;
    Kernel kernel;
    Buffer out;
  };
  std::vector<Tenant> tenants(kContexts);
  for (size_t c = 0; c < kContexts; ++c) {
    Tenant& tenant = tenants[c];
    cl_int status = CL_SUCCESS;
    tenant.context = Context(clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &status));
    ASSERT_CL_SUCCESS(status) << "context " << c;
    tenant.queue = Queue(clCreateCommandQueueWithProperties(tenant.context, device_, nullptr, &status));
    const unsigned char* data = binary.data();
    tenant.program = Program(clCreateProgramWithBinary(tenant.context, 1, &device_, &size, &data, nullptr, &status));
    ASSERT_CL_SUCCESS(clBuildProgram(tenant.program, 1, &device_, "", nullptr, nullptr));
    tenant.kernel = createKernel(tenant.program, "scaled");
    tenant.out = Buffer(clCreateBuffer(tenant.context, CL_MEM_READ_WRITE, kItems * sizeof(cl_int), nullptr, &status));
    ASSERT_CL_SUCCESS(status);
    setArgs(tenant.kernel.get(), tenant.out, static_cast<cl_int>(c) - 7);
    ASSERT_CL_SUCCESS(
        clEnqueueNDRangeKernel(tenant.queue, tenant.kernel, 1, nullptr, &kItems, nullptr, 0, nullptr, nullptr));
  }
  for (size_t c = 0; c < kContexts; ++c) {
    std::vector<cl_int> got(kItems), expected(kItems);
    ASSERT_CL_SUCCESS(clEnqueueReadBuffer(tenants[c].queue, tenants[c].out, CL_TRUE, 0, kItems * sizeof(cl_int),
                                          got.data(), 0, nullptr, nullptr));
    for (size_t i = 0; i < kItems; ++i) expected[i] = static_cast<cl_int>(i) * (static_cast<cl_int>(c) - 7);
    EXPECT_EQ(got, expected) << "context " << c;
  }
  std::printf("[ INFO     ] %zu contexts opened and run in %.1f s\n", tenants.size(), secondsSince(start));
}

}  // namespace
}  // namespace cl2vk::test
