// Host transfers as clpeak's transfer-bandwidth section makes them (issue 27): a buffer created
// with CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR and a 64-byte-aligned host array of the same size
// (--shape BYTES), moved by one of
//   write, read                   blocking clEnqueueWriteBuffer / clEnqueueReadBuffer
//   write-async, read-async       the same, not blocking, each followed by clFinish
//   map-read                      a blocking clEnqueueMapBuffer for reading (the unmap not timed)
//   memcpy-from-map               memcpy out of that mapping (the map and unmap not timed)
//   unmap-write                   clEnqueueUnmapMemObject after a map for writing (the map not timed)
//   memcpy-to-map                 memcpy into a mapping for writing (the map and unmap not timed)
// Each timed part ends with clFinish and is timed on the host clock, as clpeak does; GB/s counts
// the buffer's bytes. Every benchmark checks the bytes it moved: what a read or a map brought is
// what was written before, and what a write or an unmap moved is what reading the buffer back gives.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "client.h"

using namespace cl2vk::clients;

namespace {

constexpr const char* kUsage =
    "cl2vk-client-transfer --bench write|read|write-async|read-async|map-read|memcpy-from-map|unmap-write|"
    "memcpy-to-map --shape BYTES [--runs R]";

using Clock = std::chrono::steady_clock;

struct HostArray {
  explicit HostArray(size_t bytes)
      : data(static_cast<unsigned char*>(std::aligned_alloc(64, (bytes + 63) / 64 * 64))) {}
  ~HostArray() { std::free(data); }
  HostArray(const HostArray&) = delete;
  HostArray& operator=(const HostArray&) = delete;
  unsigned char* data;
};

// Byte i of pattern `seed`: differs between neighbours and between seeds.
unsigned char patternByte(size_t i, unsigned seed) { return static_cast<unsigned char>(i * 131 + (i >> 12) + seed); }
void fillPattern(unsigned char* bytes, size_t size, unsigned seed) {
  for (size_t i = 0; i < size; ++i) bytes[i] = patternByte(i, seed);
}
// Empty when `bytes` hold pattern `seed`, else where they first differ.
std::string checkPattern(const unsigned char* bytes, size_t size, unsigned seed, const char* what) {
  for (size_t i = 0; i < size; ++i) {
    if (bytes[i] != patternByte(i, seed))
      return std::string(what) + ": byte " + std::to_string(i) + " is " + std::to_string(bytes[i]) + ", expected " +
             std::to_string(patternByte(i, seed));
  }
  return "";
}

// One timed call: `before` (not timed), `timed`, clFinish (timed), `after` (not timed). Each
// returns an empty string or what failed.
struct Step {
  Call before = [] { return std::string(); };
  Call timed;
  Call after = [] { return std::string(); };
};

// One warm-up call and `runs` timed ones.
Timing timeSteps(cl_command_queue queue, int runs, const Step& step) {
  Timing timing;
  for (int run = -1; run < runs && timing.error.empty(); ++run) {
    timing.error = step.before();
    if (!timing.error.empty()) break;
    Clock::time_point start = Clock::now();
    timing.error = step.timed();
    cl_int finished = clFinish(queue);
    double seconds = std::chrono::duration<double>(Clock::now() - start).count();
    if (timing.error.empty() && finished != CL_SUCCESS) timing.error = clError("clFinish", finished);
    if (timing.error.empty()) timing.error = step.after();
    if (run < 0) {
      timing.warmupSeconds = seconds;
    } else {
      timing.seconds.push_back(seconds);
    }
  }
  return timing;
}

void transfer(const Options& options, Session& session, Result& result) {
  if (options.shape.size() != 1 || options.shape[0] == 0) {
    result.error = "--shape is the buffer's size in bytes";
    return;
  }
  const size_t bytes = options.shape[0];
  const std::string& bench = options.bench;
  result.metric = "GB/s";
  result.workPerCall = double(bytes);
  result.check = "every byte moved compared with the pattern written";
  cl_command_queue queue = session.queue();
  cl_int status = CL_SUCCESS;
  cl_mem buffer = clCreateBuffer(session.context(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &status);
  if (status != CL_SUCCESS) {
    result.error = clError("clCreateBuffer", status);
    return;
  }
  HostArray host(bytes);
  void* mapped = nullptr;
  auto map = [&](cl_map_flags flags) {
    mapped = clEnqueueMapBuffer(queue, buffer, CL_TRUE, flags, 0, bytes, 0, nullptr, nullptr, &status);
    return failure("clEnqueueMapBuffer", status);
  };
  auto unmap = [&] {
    std::string error =
        failure("clEnqueueUnmapMemObject", clEnqueueUnmapMemObject(queue, buffer, mapped, 0, nullptr, nullptr));
    return error.empty() ? failure("clFinish", clFinish(queue)) : error;
  };
  auto write = [&](const void* from) {
    return failure("clEnqueueWriteBuffer",
                   clEnqueueWriteBuffer(queue, buffer, CL_TRUE, 0, bytes, from, 0, nullptr, nullptr));
  };
  auto readBack = [&](unsigned seed, const char* what) {
    HostArray back(bytes);
    std::string error = failure("clEnqueueReadBuffer",
                                clEnqueueReadBuffer(queue, buffer, CL_TRUE, 0, bytes, back.data, 0, nullptr, nullptr));
    return error.empty() ? checkPattern(back.data, bytes, seed, what) : error;
  };
  // What the buffer holds before the benchmarks that read it.
  fillPattern(host.data, bytes, 1);
  std::string error = write(host.data);
  Step step;
  Call finalCheck = [] { return std::string(); };  // after the timed calls
  const bool blocking = bench == "write" || bench == "read";
  if (bench == "write" || bench == "write-async") {
    fillPattern(host.data, bytes, 2);
    step.timed = [&] {
      return failure("clEnqueueWriteBuffer",
                     clEnqueueWriteBuffer(queue, buffer, blocking, 0, bytes, host.data, 0, nullptr, nullptr));
    };
    finalCheck = [&] { return readBack(2, "read back after the writes"); };
  } else if (bench == "read" || bench == "read-async") {
    step.before = [&] { return std::memset(host.data, 0, bytes), ""; };
    step.timed = [&] {
      return failure("clEnqueueReadBuffer",
                     clEnqueueReadBuffer(queue, buffer, blocking, 0, bytes, host.data, 0, nullptr, nullptr));
    };
    step.after = [&] { return checkPattern(host.data, bytes, 1, "what the read brought"); };
  } else if (bench == "map-read") {
    step.timed = [&] { return map(CL_MAP_READ); };
    step.after = [&] {
      std::string wrong = checkPattern(static_cast<unsigned char*>(mapped), bytes, 1, "the mapping");
      std::string unmapped = unmap();
      return wrong.empty() ? unmapped : wrong;
    };
  } else if (bench == "memcpy-from-map") {
    step.before = [&] { return std::memset(host.data, 0, bytes), map(CL_MAP_READ); };
    step.timed = [&] { return std::memcpy(host.data, mapped, bytes), ""; };
    step.after = [&] {
      std::string unmapped = unmap();
      return unmapped.empty() ? checkPattern(host.data, bytes, 1, "what was copied out of the mapping") : unmapped;
    };
  } else if (bench == "unmap-write") {
    step.before = [&] {
      std::string error = map(CL_MAP_WRITE);
      if (error.empty()) fillPattern(static_cast<unsigned char*>(mapped), bytes, 3);
      return error;
    };
    step.timed = [&] {
      return failure("clEnqueueUnmapMemObject", clEnqueueUnmapMemObject(queue, buffer, mapped, 0, nullptr, nullptr));
    };
    step.after = [&] { return readBack(3, "read back after the unmap"); };
  } else if (bench == "memcpy-to-map") {
    fillPattern(host.data, bytes, 4);
    step.before = [&] { return map(CL_MAP_WRITE); };
    step.timed = [&] { return std::memcpy(mapped, host.data, bytes), ""; };
    step.after = [&] {
      std::string unmapped = unmap();
      return unmapped.empty() ? readBack(4, "read back after the unmap") : unmapped;
    };
  } else {
    result.error = "unknown --bench " + bench + "\nusage: " + kUsage;
  }
  if (error.empty() && result.error.empty()) {
    result.timing = timeSteps(queue, options.runs, step);
    error = !result.timing.error.empty() ? result.timing.error : finalCheck();
  }
  clReleaseMemObject(buffer);
  if (result.error.empty()) result.error = error;
  result.verified = result.error.empty();
}

}  // namespace

int main(int argc, char** argv) {
  Options options = parseOptions(argc, argv, kUsage);
  return runClient(options, "transfer",
                   [&](const Device&, Session& session, Result& result) { transfer(options, session, result); });
}
