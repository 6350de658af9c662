// What the client benchmarks (CLBlast, clFFT) share: the device a user's program would pick, the
// timing loop a user's program would write, and the one line of JSON each process reports.
// tools/run-client-benchmarks.sh runs each benchmark in a process of its own, for one OpenCL
// implementation at a time (OCL_ICD_VENDORS names a folder holding only that implementation).
#pragma once

#ifndef CL_TARGET_OPENCL_VERSION
#define CL_TARGET_OPENCL_VERSION 120
#endif
#include <CL/cl.h>

#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace cl2vk::clients {

// The command line of every client program:
//   <program> --bench NAME --shape AxB[xC] [--runs N] [--params-in FILE] [--params-out FILE]
struct Options {
  std::string bench;
  std::vector<size_t> shape;
  int runs = 10;
  std::string paramsIn;   // CLBlast: override the kernel parameters with this file's
  std::string paramsOut;  // CLBlast: write the parameters CLBlast chose for the device
};
// Parses argv; prints usage and exits with status 2 on a malformed command line.
Options parseOptions(int argc, char** argv, const char* usage);

// The first GPU of any platform, else the first device of the first platform: what a program that
// asks for "a GPU if there is one" gets. CL2VK_CLIENT_DEVICE (a substring of the device name)
// picks another one.
struct Device {
  cl_platform_id platform = nullptr;
  cl_device_id device = nullptr;
  std::string platformName;
  std::string deviceName;
};
// Returns false with `error` set when there is no (matching) device.
bool pickDevice(Device& out, std::string& error);

// A context and an in-order queue on the device, released on destruction.
class Session {
 public:
  explicit Session(const Device& device);
  ~Session();
  Session(const Session&) = delete;
  Session& operator=(const Session&) = delete;
  bool ok() const { return error_.empty(); }
  const std::string& error() const { return error_; }
  cl_context context() const { return context_; }
  cl_command_queue queue() const { return queue_; }
  // A buffer holding `bytes` bytes of `data` (or uninitialized when `data` is null); null with
  // error() set on failure.
  cl_mem buffer(size_t bytes, const void* data);
  // Reads a whole buffer back (blocking); false with error() set on failure.
  bool read(cl_mem buffer, size_t bytes, void* data);

 private:
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
  std::vector<cl_mem> buffers_;
  std::string error_;
};

// One call of the library routine, enqueued on the queue; returns an empty string on success,
// else what failed.
using Call = std::function<std::string()>;

// The timing a user's program does: one warm-up call (which builds the library's kernels), then
// `runs` calls, each followed by clFinish and timed on the host clock.
struct Timing {
  std::vector<double> seconds;  // one per timed call
  double startEpoch = 0;        // wall clock (seconds since 1970) around the timed calls, to find
  double endEpoch = 0;          // the GPU clock samples taken meanwhile
  double warmupSeconds = 0;     // the warm-up call, kernel builds included
  // Vulkan memory allocations per timed call (CL_CONTEXT_MEMORY_ALLOCATIONS_CL2VK); negative
  // where the implementation does not report them (any but cl2vk).
  double allocationsPerCall = -1;
  std::string error;  // the first failing call, if any
  double median() const;
  double best() const;
};
Timing timeCalls(cl_command_queue queue, int runs, const Call& call);

// What a process prints: one line "CLIENT-RESULT {json}" on stdout (libraries may print build logs
// there too, which the harness keeps in the run's log).
struct Result {
  std::string client;    // clblast, clfft
  std::string bench;     // sgemm, saxpy, ...
  std::string shape;     // "1024x1024x1024"
  std::string variant;   // "default", or "params:<file>" when CLBlast's parameters were overridden
  std::string platform;  // names reported by the implementation
  std::string device;
  std::string metric;      // "GFLOP/s" or "GB/s"
  double workPerCall = 0;  // flops or bytes of one call, so value = workPerCall / median / 1e9
  std::string check;       // how the result was verified (the tolerance)
  bool verified = false;
  std::string error;  // non-empty when the run or the verification failed
  Timing timing;
  // Prints the line and returns the process's exit status: 0 when verified, 1 when not.
  int report() const;
};

// What every client's main() does once its options are parsed: the result named after the command
// line (variant "params" when --params-in is given, else "default"), the device picked, a session
// on it, and `bench` run in that session unless either failed; prints the result and returns the
// process's exit status (Result::report).
using Bench = std::function<void(const Device& device, Session& session, Result& result)>;
int runClient(const Options& options, const char* client, const Bench& bench);

// Reproducible inputs (fixed seed per buffer).
std::vector<float> uniformFloats(size_t count, uint32_t seed);       // in [-1, 1)
std::vector<float> smallIntegerFloats(size_t count, uint32_t seed);  // in {-2, ..., 2}
std::string shapeText(const std::vector<size_t>& shape);
std::string clError(const char* call, cl_int status);
// Empty when `status` is CL_SUCCESS, else clError's text: what a client's steps return.
std::string failure(const char* call, cl_int status);
// `source` built for the context's devices; null with `error` set (with the build log) on failure.
cl_program buildProgram(cl_context context, const char* source, std::string& error);

}  // namespace cl2vk::clients
