// A short stress of the runtime: four threads, each with its own queue on one context, running
// many small kernels and transfers and checking every result; and every kind of object made and
// released many times, with the process's resident memory checked not to keep growing.

#include <unistd.h>

#include <fstream>
#include <sstream>
#include <thread>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

// In the worker threads, where gtest's assertions cannot stop the test: returns what failed.
#define STRESS_CHECK(call)                                                                                    \
  do {                                                                                                        \
    if (cl_int status_ = (call); status_ != CL_SUCCESS) {                                                     \
      return std::string(#call) + " returned " + clErrorName(status_) + " in round " + std::to_string(round); \
    }                                                                                                         \
  } while (false)

// The process's resident set size in bytes (from /proc/self/statm), or 0 when unknown.
size_t residentBytes() {
  std::ifstream statm("/proc/self/statm");
  size_t pages = 0, resident = 0;
  statm >> pages >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

class IcdStress : public IcdTest {
 protected:
  // One thread's work on its own queue: rounds of fill, add_twice and scale (several_kernels.cl)
  // over buffers of varying sizes, with transfers, copies and maps between them.
  std::string worker(cl_program program, int thread, int rounds) {
    int round = -1;
    cl_int status = CL_SUCCESS;
    Queue queue(clCreateCommandQueueWithProperties(context_, device_, nullptr, &status));
    STRESS_CHECK(status);
    Kernel fill(clCreateKernel(program, "fill", &status));
    STRESS_CHECK(status);
    Kernel addTwice(clCreateKernel(program, "add_twice", &status));
    STRESS_CHECK(status);
    Kernel scale(clCreateKernel(program, "scale", &status));
    STRESS_CHECK(status);
    for (round = 0; round < rounds; ++round) {
      // Sizes vary from round to round; the work-group size stays (a new one may mean a new pipeline).
      const size_t local = 64, n = local * (1 + static_cast<size_t>(thread * 37 + round * 113) % 31);
      std::vector<cl_int> in(n);
      for (size_t i = 0; i < n; ++i) in[i] = static_cast<cl_int>(i * 7 + thread) - 500;
      Buffer a(clCreateBuffer(context_, CL_MEM_READ_ONLY, n * sizeof(cl_int), nullptr, &status));
      STRESS_CHECK(status);
      Buffer b(clCreateBuffer(context_, CL_MEM_READ_WRITE, n * sizeof(cl_int), nullptr, &status));
      STRESS_CHECK(status);
      Event written;
      STRESS_CHECK(
          clEnqueueWriteBuffer(queue, a, CL_FALSE, 0, n * sizeof(cl_int), in.data(), 0, nullptr, written.put()));
      const cl_int base = thread * 1000 + round, factor = 1 + round % 3;
      STRESS_CHECK(clSetKernelArg(fill, 0, sizeof(cl_mem), b.address()));
      STRESS_CHECK(clSetKernelArg(fill, 1, sizeof(base), &base));
      STRESS_CHECK(clEnqueueNDRangeKernel(queue, fill, 1, nullptr, &n, &local, 0, nullptr, nullptr));
      STRESS_CHECK(clSetKernelArg(addTwice, 0, sizeof(cl_mem), b.address()));
      STRESS_CHECK(clSetKernelArg(addTwice, 1, sizeof(cl_mem), a.address()));
      cl_event writeEvent = written;
      STRESS_CHECK(clEnqueueNDRangeKernel(queue, addTwice, 1, nullptr, &n, &local, 1, &writeEvent, nullptr));
      STRESS_CHECK(clSetKernelArg(scale, 0, sizeof(cl_mem), b.address()));
      STRESS_CHECK(clSetKernelArg(scale, 1, sizeof(factor), &factor));
      STRESS_CHECK(clEnqueueNDRangeKernel(queue, scale, 1, nullptr, &n, &local, 0, nullptr, nullptr));
      std::vector<cl_int> out(n, 0);
      if (round % 4 == 3) {
        // Every fourth round: through a copy and a map instead of a read.
        Buffer c(
            clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, n * sizeof(cl_int), nullptr, &status));
        STRESS_CHECK(status);
        STRESS_CHECK(clEnqueueCopyBuffer(queue, b, c, 0, 0, n * sizeof(cl_int), 0, nullptr, nullptr));
        auto* mapped = static_cast<cl_int*>(
            clEnqueueMapBuffer(queue, c, CL_TRUE, CL_MAP_READ, 0, n * sizeof(cl_int), 0, nullptr, nullptr, &status));
        STRESS_CHECK(status);
        std::copy(mapped, mapped + n, out.begin());
        STRESS_CHECK(clEnqueueUnmapMemObject(queue, c, mapped, 0, nullptr, nullptr));
        STRESS_CHECK(clFinish(queue));
      } else {
        Event readBack;
        STRESS_CHECK(
            clEnqueueReadBuffer(queue, b, CL_FALSE, 0, n * sizeof(cl_int), out.data(), 0, nullptr, readBack.put()));
        cl_event readEvent = readBack;
        STRESS_CHECK(clWaitForEvents(1, &readEvent));
      }
      for (size_t i = 0; i < n; ++i) {
        cl_int expected = factor * (base + 2 * in[i]);
        if (out[i] != expected) {
          std::ostringstream why;
          why << "round " << round << " item " << i << " of " << n << ": got " << out[i] << ", expected " << expected;
          return why.str();
        }
      }
    }
    return "";
  }
};

TEST_F(IcdStress, FourThreadsWithTheirOwnQueues) {
  Program program = buildCorpusModule("kernels/several_kernels.O2.spv");
  ASSERT_TRUE(program.get());
  constexpr int kThreads = 4, kRounds = 200;
  std::vector<std::string> failures(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&, t] { failures[t] = worker(program, t, kRounds); });
  }
  for (std::thread& thread : threads) thread.join();
  for (int t = 0; t < kThreads; ++t) EXPECT_EQ(failures[t], "") << "thread " << t;
}

// Contexts, queues, buffers, programs, kernels and events made, used and released again and again.
// Each round leaves 2 MiB of buffers behind if buffers leak, so a leak shows in the resident size.
TEST_F(IcdStress, CreateAndReleaseEverythingRepeatedly) {
  std::vector<uint8_t> il = corpusModule("kernels/vector_add.O2.spv");
  ASSERT_FALSE(il.empty());
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
  cl_queue_properties queueProperties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  const size_t n = 256 * 1024;  // 1 MiB of floats per buffer
  std::vector<float> a(n), b(n), c(n);
  for (size_t i = 0; i < n; ++i) a[i] = static_cast<float>(i % 1000), b[i] = 0.5f;
  constexpr int kWarmUp = 10, kRounds = 40;
  size_t residentAfterWarmUp = 0;
  for (int round = 0; round < kRounds; ++round) {
    cl_int status = CL_SUCCESS;
    Context context(clCreateContext(properties, 1, &device_, nullptr, nullptr, &status));
    ASSERT_CL_SUCCESS(status) << "round " << round;
    Queue queue(clCreateCommandQueueWithProperties(context, device_, queueProperties, &status));
    ASSERT_CL_SUCCESS(status) << "round " << round;
    Program program(clCreateProgramWithIL(context, il.data(), il.size(), &status));
    ASSERT_CL_SUCCESS(status) << "round " << round;
    ASSERT_CL_SUCCESS(clBuildProgram(program, 1, &device_, "", nullptr, nullptr)) << "round " << round;
    Kernel kernel(clCreateKernel(program, "vector_add", &status));
    ASSERT_CL_SUCCESS(status) << "round " << round;
    Buffer da(clCreateBuffer(context, CL_MEM_READ_ONLY | CL_MEM_COPY_HOST_PTR, n * sizeof(float), a.data(), &status));
    ASSERT_CL_SUCCESS(status) << "round " << round;
    Buffer db(clCreateBuffer(context, CL_MEM_READ_ONLY, n * sizeof(float), nullptr, &status));
    ASSERT_CL_SUCCESS(status) << "round " << round;
    Buffer dc(clCreateBuffer(context, CL_MEM_WRITE_ONLY, n * sizeof(float), nullptr, &status));
    ASSERT_CL_SUCCESS(status) << "round " << round;
    Event user(clCreateUserEvent(context, &status));
    ASSERT_CL_SUCCESS(status) << "round " << round;
    Event written, ran;
    cl_event gate = user;
    ASSERT_CL_SUCCESS(
        clEnqueueWriteBuffer(queue, db, CL_FALSE, 0, n * sizeof(float), b.data(), 1, &gate, written.put()));
    ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 0, sizeof(cl_mem), da.address()));
    ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof(cl_mem), db.address()));
    ASSERT_CL_SUCCESS(clSetKernelArg(kernel, 2, sizeof(cl_mem), dc.address()));
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue, kernel, 1, nullptr, &n, nullptr, 0, nullptr, ran.put()));
    ASSERT_CL_SUCCESS(clSetUserEventStatus(user, CL_COMPLETE));
    ASSERT_CL_SUCCESS(clEnqueueReadBuffer(queue, dc, CL_TRUE, 0, n * sizeof(float), c.data(), 0, nullptr, nullptr));
    for (size_t i = 0; i < n; i += 997) ASSERT_EQ(c[i], a[i] + b[i]) << "round " << round << " item " << i;
    ASSERT_EQ(c[n - 1], a[n - 1] + b[n - 1]) << "round " << round;
    std::fill(c.begin(), c.end(), -1.0f);
    if (round + 1 == kWarmUp) residentAfterWarmUp = residentBytes();
  }
  size_t residentAtTheEnd = residentBytes();
#if defined(__SANITIZE_ADDRESS__)
  // AddressSanitizer keeps freed memory in quarantine, so the resident size grows regardless;
  // LeakSanitizer checks for leaks in such a build instead.
  std::cout << "[ SKIPPED ] the resident size check: built with AddressSanitizer\n";
  return;
#endif
  if (residentAfterWarmUp == 0 || residentAtTheEnd == 0) {
    std::cout << "[ SKIPPED ] the resident size check: /proc/self/statm is not readable\n";
    return;
  }
  // 1 MiB a round at most: a leak of the 2 MiB of buffers per round would exceed it.
  const size_t allowed = size_t{1} << 20;
  size_t growth = residentAtTheEnd > residentAfterWarmUp ? residentAtTheEnd - residentAfterWarmUp : 0;
  EXPECT_LE(growth, allowed * (kRounds - kWarmUp)) << "the resident size grew by " << growth / 1024 << " KiB over "
                                                   << kRounds - kWarmUp << " rounds after the warm-up";
}

}  // namespace
}  // namespace cl2vk::test
