// Object lifetimes: reference counts, objects that keep what they use alive after the application
// released it, and destructor callbacks.

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

using namespace std::chrono_literals;

using IcdLifetime = IcdTest;

TEST_F(IcdLifetime, BufferReferenceCount) {
  Buffer buffer = createBuffer(64);
  cl_uint references = 0;
  EXPECT_CL_SUCCESS(clGetMemObjectInfo(buffer, CL_MEM_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 1u);
  EXPECT_CL_SUCCESS(clRetainMemObject(buffer));
  EXPECT_CL_SUCCESS(clGetMemObjectInfo(buffer, CL_MEM_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 2u);
  EXPECT_CL_SUCCESS(clReleaseMemObject(buffer));
  EXPECT_CL_SUCCESS(clGetMemObjectInfo(buffer, CL_MEM_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 1u);
}

// A context, program and buffers released by the application live on while a queue, a kernel or
// a pending command still needs them.
TEST_F(IcdLifetime, ReleasedObjectsLiveWhileOthersNeedThem) {
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(properties, 1, &device_, nullptr, nullptr, &status);
  ASSERT_CL_SUCCESS(status);
  Queue queue(clCreateCommandQueueWithProperties(context, device_, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  std::vector<uint8_t> il = corpusModule("kernels/several_kernels.O2.spv");
  cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &status);
  ASSERT_CL_SUCCESS(status);
  ASSERT_CL_SUCCESS(clBuildProgram(program, 1, &device_, "", nullptr, nullptr));
  Kernel addTwice(clCreateKernel(program, "add_twice", &status));
  ASSERT_CL_SUCCESS(status);
  const size_t n = 1000;
  std::vector<cl_int> ones(n, 1), in(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<cl_int>(i);
  Buffer out(
      clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), ones.data(), &status));
  ASSERT_CL_SUCCESS(status);
  cl_mem input =
      clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(cl_int), in.data(), &status);
  ASSERT_CL_SUCCESS(status);
  EXPECT_CL_SUCCESS(clReleaseProgram(program));
  EXPECT_CL_SUCCESS(clReleaseContext(context));

  // The kernel still knows its program, and runs on the queue of the released context.
  cl_program kernelProgram = nullptr;
  EXPECT_CL_SUCCESS(clGetKernelInfo(addTwice, CL_KERNEL_PROGRAM, sizeof(kernelProgram), &kernelProgram, nullptr));
  EXPECT_EQ(kernelProgram, program);
  ASSERT_CL_SUCCESS(clSetKernelArg(addTwice, 0, sizeof(cl_mem), out.address()));
  ASSERT_CL_SUCCESS(clSetKernelArg(addTwice, 1, sizeof(cl_mem), &input));
  // The input buffer and the kernel are released while the command that uses them may be pending.
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue, addTwice, 1, nullptr, &n, nullptr, 0, nullptr, nullptr));
  EXPECT_CL_SUCCESS(clReleaseMemObject(input));
  addTwice.reset();
  std::vector<cl_int> result(n);
  ASSERT_CL_SUCCESS(
      clEnqueueReadBuffer(queue, out, CL_TRUE, 0, n * sizeof(cl_int), result.data(), 0, nullptr, nullptr));
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(result[i], 1 + 2 * static_cast<cl_int>(i)) << i;
}

TEST_F(IcdLifetime, DestructorCallbackRunsWhenABufferGoes) {
  struct Destroyed {
    std::mutex mutex;
    std::condition_variable changed;
    std::vector<cl_mem> buffers;
    static void CL_CALLBACK record(cl_mem buffer, void* user) {
      auto* self = static_cast<Destroyed*>(user);
      std::lock_guard lock(self->mutex);
      self->buffers.push_back(buffer);
      self->changed.notify_all();
    }
  } destroyed;
  cl_int status = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64, nullptr, &status);
  ASSERT_CL_SUCCESS(status);
  ASSERT_CL_SUCCESS(clSetMemObjectDestructorCallback(buffer, Destroyed::record, &destroyed));
  ASSERT_CL_SUCCESS(clRetainMemObject(buffer));
  ASSERT_CL_SUCCESS(clReleaseMemObject(buffer));
  {
    std::lock_guard lock(destroyed.mutex);
    EXPECT_TRUE(destroyed.buffers.empty()) << "the callback ran while a reference was left";
  }
  ASSERT_CL_SUCCESS(clReleaseMemObject(buffer));
  std::unique_lock lock(destroyed.mutex);
  destroyed.changed.wait_for(lock, 5s, [&] { return !destroyed.buffers.empty(); });
  ASSERT_EQ(destroyed.buffers.size(), 1u) << "the destructor callback did not run within 5 s";
  EXPECT_EQ(destroyed.buffers[0], buffer);
}

// A kernel argument does not keep its buffer: released by the program, the buffer goes (its
// destructor callback runs) while the kernel lives, and a launch of the kernel without setting the
// argument again is refused; a launch enqueued before the release keeps the buffer until it ran.
TEST_F(IcdLifetime, AKernelArgumentDoesNotKeepItsBuffer) {
  static std::atomic<int> destroyed;
  destroyed = 0;
  auto record = [](cl_mem, void*) { ++destroyed; };
  Program program = buildSource("kernel void fill(global int* p) { p[get_global_id(0)] = 7; }");
  ASSERT_TRUE(program);
  Kernel kernel = createKernel(program, "fill");
  cl_int status = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64 * sizeof(int), nullptr, &status);
  ASSERT_CL_SUCCESS(status);
  ASSERT_CL_SUCCESS(clSetMemObjectDestructorCallback(buffer, record, nullptr));
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof(buffer), &buffer));
  ASSERT_CL_SUCCESS(clReleaseMemObject(buffer));
  for (int i = 0; i < 500 && destroyed == 0; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(destroyed, 1) << "the buffer was kept by the kernel argument";
  size_t size = 64;
  EXPECT_CL_ERROR(CL_INVALID_KERNEL_ARGS,
                  clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &size, nullptr, 0, nullptr, nullptr));

  // Enqueued, then released at once: the launch and a copy after it still have it, and it goes
  // once they ran.
  cl_mem second = clCreateBuffer(context_, CL_MEM_READ_WRITE, 64 * sizeof(int), nullptr, &status);
  ASSERT_CL_SUCCESS(status);
  Buffer out = bufferOf(std::vector<int>(64, 0));
  ASSERT_CL_SUCCESS(clSetMemObjectDestructorCallback(second, record, nullptr));
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof(second), &second));
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &size, nullptr, 0, nullptr, nullptr));
  ASSERT_CL_SUCCESS(clEnqueueCopyBuffer(queue_, second, out, 0, 0, 64 * sizeof(int), 0, nullptr, nullptr));
  ASSERT_CL_SUCCESS(clReleaseMemObject(second));
  EXPECT_EQ(read<int>(out, 64), std::vector<int>(64, 7));
  ASSERT_CL_SUCCESS(clFinish(queue_));
  for (int i = 0; i < 500 && destroyed < 2; ++i) std::this_thread::sleep_for(10ms);
  EXPECT_EQ(destroyed, 2);
}

// Every object made and released in the order an application might, each release succeeding.
TEST_F(IcdLifetime, EveryKindOfObjectReleases) {
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(properties, 1, &device_, nullptr, nullptr, &status);
  ASSERT_CL_SUCCESS(status);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device_, nullptr, &status);
  ASSERT_CL_SUCCESS(status);
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, 256, nullptr, &status);
  ASSERT_CL_SUCCESS(status);
  cl_buffer_region region{0, 128};
  cl_mem sub = clCreateSubBuffer(buffer, CL_MEM_READ_WRITE, CL_BUFFER_CREATE_TYPE_REGION, &region, &status);
  ASSERT_CL_SUCCESS(status);
  std::vector<uint8_t> il = corpusModule("kernels/several_kernels.O2.spv");
  cl_program program = clCreateProgramWithIL(context, il.data(), il.size(), &status);
  ASSERT_CL_SUCCESS(status);
  ASSERT_CL_SUCCESS(clBuildProgram(program, 1, &device_, "", nullptr, nullptr));
  cl_kernel kernel = clCreateKernel(program, "fill", &status);
  ASSERT_CL_SUCCESS(status);
  cl_int value = 2;
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof(cl_mem), &sub));
  ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof(value), &value));
  const size_t global = 32;
  cl_event kernelEvent = nullptr;
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &global, nullptr, 0, nullptr, &kernelEvent));
  cl_event user = clCreateUserEvent(context, &status);
  ASSERT_CL_SUCCESS(status);
  ASSERT_CL_SUCCESS(clSetUserEventStatus(user, CL_COMPLETE));
  ASSERT_CL_SUCCESS(clFinish(queue));
  EXPECT_CL_SUCCESS(clReleaseEvent(user));
  EXPECT_CL_SUCCESS(clReleaseEvent(kernelEvent));
  EXPECT_CL_SUCCESS(clReleaseKernel(kernel));
  EXPECT_CL_SUCCESS(clReleaseProgram(program));
  EXPECT_CL_SUCCESS(clReleaseMemObject(buffer));  // before its sub-buffer
  EXPECT_CL_SUCCESS(clReleaseMemObject(sub));
  EXPECT_CL_SUCCESS(clReleaseCommandQueue(queue));
  EXPECT_CL_SUCCESS(clReleaseContext(context));
}

// Where leaveWorkInFlight's non-blocking reads land: never freed, since the exit waits for the
// reads only after the static objects made later are gone, and reachable from here, so that
// LeakSanitizer does not count them as leaks.
cl_uint* landings[2] = {};

// Enqueues launches and a non-blocking read on a context of its own, released (without a
// finish) when `release`, else left to the process's exit.
void leaveWorkInFlight(cl_platform_id platform, cl_device_id device, bool release) {
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform), 0};
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(properties, 1, &device, nullptr, nullptr, &status);
  cl_command_queue queue = clCreateCommandQueueWithProperties(context, device, nullptr, &status);
  const char* source = "kernel void bump(global uint* p) { p[get_global_id(0)] += get_global_id(0); }";
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  clBuildProgram(program, 1, &device, "", nullptr, nullptr);
  cl_kernel kernel = clCreateKernel(program, "bump", &status);
  const size_t n = size_t{1} << 20;
  cl_mem buffer = clCreateBuffer(context, CL_MEM_READ_WRITE, n * sizeof(cl_uint), nullptr, &status);
  clSetKernelArg(kernel, 0, sizeof(buffer), &buffer);
  for (int i = 0; i < 16; ++i) clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, nullptr);
  cl_uint*& landing = landings[release ? 0 : 1];
  landing = new cl_uint[n];
  clEnqueueReadBuffer(queue, buffer, CL_FALSE, 0, n * sizeof(cl_uint), landing, 0, nullptr, nullptr);
  if (!release) return;
  clReleaseMemObject(buffer);
  clReleaseKernel(kernel);
  clReleaseProgram(program);
  clReleaseCommandQueue(queue);
  clReleaseContext(context);
}

// A program may exit while its commands run or wait to start, whether it released its objects or
// not: the process exits with the program's status. The queue workers still busy finish first,
// and a worker that would start after the exit began does nothing (ThreadSanitizer once saw a
// worker destroy a Vulkan device after the loader's destructors had run). Under ThreadSanitizer or
// AddressSanitizer a report in the exiting child changes its status; leak detection is off there
// (what a program leaves unreleased at its exit is its own, and LeakSanitizer, which stops every
// thread at exit, failed outright beside SwiftShader's threads).
TEST_F(IcdLifetime, TheProcessExitsWhileCommandsAreInFlight) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");  // the child is this program again, run anew
  std::map<std::string, std::optional<std::string>> saved;
  for (const char* name : {"ASAN_OPTIONS", "LSAN_OPTIONS"}) {
    const char* value = std::getenv(name);
    saved[name] = value ? std::optional<std::string>(value) : std::nullopt;
    std::string options = value ? std::string(value) + ":" : "";
    setenv(name, (options + "detect_leaks=0").c_str(), 1);
  }
  EXPECT_EXIT(
      {
        leaveWorkInFlight(platform_, device_, /*release=*/true);
        leaveWorkInFlight(platform_, device_, /*release=*/false);
        // A queue whose worker may not have run yet when the exit begins.
        cl_int status = CL_SUCCESS;
        cl_command_queue late = clCreateCommandQueueWithProperties(context_, device_, nullptr, &status);
        clReleaseCommandQueue(late);
        std::exit(0);
      },
      testing::ExitedWithCode(0), "");
  for (const auto& [name, value] : saved) {
    if (value) {
      setenv(name.c_str(), value->c_str(), 1);
    } else {
      unsetenv(name.c_str());
    }
  }
}

}  // namespace
}  // namespace cl2vk::test
