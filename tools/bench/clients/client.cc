#include "client.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "cl2vk/cl_ext_cl2vk.h"

namespace cl2vk::clients {
namespace {

[[noreturn]] void usageError(const char* usage, const std::string& what) {
  std::fprintf(stderr, "%s\nusage: %s\n", what.c_str(), usage);
  std::exit(2);
}

std::string infoString(cl_platform_id platform, cl_platform_info name) {
  size_t size = 0;
  if (clGetPlatformInfo(platform, name, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "?";
  std::string text(size, '\0');
  clGetPlatformInfo(platform, name, size, text.data(), nullptr);
  text.resize(std::strlen(text.c_str()));
  return text;
}

std::string infoString(cl_device_id device, cl_device_info name) {
  size_t size = 0;
  if (clGetDeviceInfo(device, name, 0, nullptr, &size) != CL_SUCCESS || size == 0) return "?";
  std::string text(size, '\0');
  clGetDeviceInfo(device, name, size, text.data(), nullptr);
  text.resize(std::strlen(text.c_str()));
  return text;
}

// JSON string contents: build logs and driver names may hold quotes, backslashes or newlines.
std::string escaped(const std::string& text) {
  std::string out;
  for (char c : text) {
    if (c == '"' || c == '\\') {
      out += '\\';
      out += c;
    } else if (static_cast<unsigned char>(c) < 0x20) {
      out += ' ';
    } else {
      out += c;
    }
  }
  return out;
}

// The context's Vulkan memory allocations so far, or -1 where the implementation does not say.
double memoryAllocations(cl_command_queue queue) {
  cl_context context = nullptr;
  cl_ulong count = 0;
  if (clGetCommandQueueInfo(queue, CL_QUEUE_CONTEXT, sizeof context, &context, nullptr) != CL_SUCCESS ||
      clGetContextInfo(context, CL_CONTEXT_MEMORY_ALLOCATIONS_CL2VK, sizeof count, &count, nullptr) != CL_SUCCESS)
    return -1;
  return static_cast<double>(count);
}

double wallClock() {
  return std::chrono::duration<double>(std::chrono::system_clock::now().time_since_epoch()).count();
}

}  // namespace

Options parseOptions(int argc, char** argv, const char* usage) {
  Options options;
  for (int i = 1; i < argc; ++i) {
    std::string flag = argv[i];
    if (i + 1 >= argc) usageError(usage, "missing the value of " + flag);
    std::string value = argv[++i];
    if (flag == "--bench") {
      options.bench = value;
    } else if (flag == "--shape") {
      // "1024" or "2048x2048" or "1024x1024x1024"
      size_t start = 0;
      while (start <= value.size()) {
        size_t end = value.find('x', start);
        if (end == std::string::npos) end = value.size();
        char* last = nullptr;
        unsigned long long n = std::strtoull(value.c_str() + start, &last, 10);
        if (n == 0 || last != value.c_str() + end) usageError(usage, "bad --shape " + value);
        options.shape.push_back(static_cast<size_t>(n));
        start = end + 1;
      }
    } else if (flag == "--runs") {
      options.runs = std::atoi(value.c_str());
      if (options.runs < 1) usageError(usage, "bad --runs " + value);
    } else if (flag == "--params-in") {
      options.paramsIn = value;
    } else if (flag == "--params-out") {
      options.paramsOut = value;
    } else {
      usageError(usage, "unknown flag " + flag);
    }
  }
  if (options.bench.empty() || options.shape.empty()) usageError(usage, "--bench and --shape");
  return options;
}

bool pickDevice(Device& out, std::string& error) {
  cl_uint platformCount = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &platformCount);
  if (status != CL_SUCCESS || platformCount == 0) {
    error = "no OpenCL platform (" + clError("clGetPlatformIDs", status) + ")";
    return false;
  }
  std::vector<cl_platform_id> platforms(platformCount);
  clGetPlatformIDs(platformCount, platforms.data(), nullptr);
  const char* wanted = std::getenv("CL2VK_CLIENT_DEVICE");
  bool found = false;
  for (bool gpusOnly : {true, false}) {
    for (cl_platform_id platform : platforms) {
      cl_uint count = 0;
      if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 0, nullptr, &count) != CL_SUCCESS) continue;
      std::vector<cl_device_id> devices(count);
      clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, count, devices.data(), nullptr);
      for (cl_device_id device : devices) {
        cl_device_type type = 0;
        clGetDeviceInfo(device, CL_DEVICE_TYPE, sizeof type, &type, nullptr);
        std::string name = infoString(device, CL_DEVICE_NAME);
        if (wanted ? name.find(wanted) == std::string::npos : gpusOnly && (type & CL_DEVICE_TYPE_GPU) == 0) {
          continue;
        }
        out = {platform, device, infoString(platform, CL_PLATFORM_NAME), name};
        found = true;
        break;
      }
      if (found) return true;
    }
  }
  error = wanted ? std::string("no device named like CL2VK_CLIENT_DEVICE=") + wanted : "no OpenCL device";
  return false;
}

Session::Session(const Device& device) {
  cl_int status = CL_SUCCESS;
  context_ = clCreateContext(nullptr, 1, &device.device, nullptr, nullptr, &status);
  if (status != CL_SUCCESS) {
    error_ = clError("clCreateContext", status);
    return;
  }
  queue_ = clCreateCommandQueue(context_, device.device, 0, &status);
  if (status != CL_SUCCESS) error_ = clError("clCreateCommandQueue", status);
}

Session::~Session() {
  for (cl_mem buffer : buffers_) clReleaseMemObject(buffer);
  if (queue_) clReleaseCommandQueue(queue_);
  if (context_) clReleaseContext(context_);
}

cl_mem Session::buffer(size_t bytes, const void* data) {
  cl_int status = CL_SUCCESS;
  cl_mem_flags flags = CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0);
  cl_mem buffer = clCreateBuffer(context_, flags, bytes, const_cast<void*>(data), &status);
  if (status != CL_SUCCESS) {
    error_ = clError("clCreateBuffer", status) + " (" + std::to_string(bytes) + " bytes)";
    return nullptr;
  }
  buffers_.push_back(buffer);
  return buffer;
}

bool Session::read(cl_mem buffer, size_t bytes, void* data) {
  cl_int status = clEnqueueReadBuffer(queue_, buffer, CL_TRUE, 0, bytes, data, 0, nullptr, nullptr);
  if (status != CL_SUCCESS) error_ = clError("clEnqueueReadBuffer", status);
  return status == CL_SUCCESS;
}

double Timing::median() const {
  if (seconds.empty()) return 0;
  std::vector<double> sorted = seconds;
  std::sort(sorted.begin(), sorted.end());
  size_t half = sorted.size() / 2;
  return sorted.size() % 2 ? sorted[half] : (sorted[half - 1] + sorted[half]) / 2;
}

double Timing::best() const { return seconds.empty() ? 0 : *std::min_element(seconds.begin(), seconds.end()); }

Timing timeCalls(cl_command_queue queue, int runs, const Call& call) {
  using Clock = std::chrono::steady_clock;
  Timing timing;
  auto finish = [&](const char* what) -> std::string {
    cl_int status = clFinish(queue);
    return status == CL_SUCCESS ? "" : clError(what, status);
  };
  Clock::time_point start = Clock::now();
  timing.error = call();
  if (timing.error.empty()) timing.error = finish("clFinish after the warm-up call");
  timing.warmupSeconds = std::chrono::duration<double>(Clock::now() - start).count();
  if (!timing.error.empty()) return timing;
  timing.startEpoch = wallClock();
  double allocationsBefore = memoryAllocations(queue);
  for (int run = 0; run < runs; ++run) {
    start = Clock::now();
    timing.error = call();
    if (timing.error.empty()) timing.error = finish("clFinish");
    if (!timing.error.empty()) return timing;
    timing.seconds.push_back(std::chrono::duration<double>(Clock::now() - start).count());
  }
  timing.endEpoch = wallClock();
  double allocationsAfter = memoryAllocations(queue);
  if (allocationsBefore >= 0 && allocationsAfter >= 0 && runs > 0)
    timing.allocationsPerCall = (allocationsAfter - allocationsBefore) / runs;
  return timing;
}

int Result::report() const {
  double median = timing.median();
  double value = median > 0 && error.empty() ? workPerCall / median / 1e9 : 0;
  std::string runs;
  for (double s : timing.seconds) {
    char number[32];
    std::snprintf(number, sizeof number, "%.9g", s);
    if (!runs.empty()) runs += ',';
    runs += number;
  }
  std::printf(
      "CLIENT-RESULT {\"client\":\"%s\",\"bench\":\"%s\",\"shape\":\"%s\",\"variant\":\"%s\","
      "\"platform\":\"%s\",\"device\":\"%s\",\"metric\":\"%s\",\"value\":%.6g,"
      "\"median_s\":%.9g,\"best_s\":%.9g,\"warmup_s\":%.6g,\"seconds\":[%s],"
      "\"t_start\":%.3f,\"t_end\":%.3f,\"allocations_per_call\":%.6g,\"verified\":%s,\"check\":\"%s\",\"error\":\"%s\"}"
      "\n",
      escaped(client).c_str(), escaped(bench).c_str(), escaped(shape).c_str(), escaped(variant).c_str(),
      escaped(platform).c_str(), escaped(device).c_str(), metric.c_str(), value, median, timing.best(),
      timing.warmupSeconds, runs.c_str(), timing.startEpoch, timing.endEpoch, timing.allocationsPerCall,
      verified && error.empty() ? "true" : "false", escaped(check).c_str(), escaped(error).c_str());
  std::fflush(stdout);
  return verified && error.empty() ? 0 : 1;
}

std::vector<float> uniformFloats(size_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_real_distribution<float> distribution(-1.0f, 1.0f);
  std::vector<float> values(count);
  for (float& v : values) v = distribution(generator);
  return values;
}

std::vector<float> smallIntegerFloats(size_t count, uint32_t seed) {
  std::mt19937 generator(seed);
  std::uniform_int_distribution<int> distribution(-2, 2);
  std::vector<float> values(count);
  for (float& v : values) v = static_cast<float>(distribution(generator));
  return values;
}

std::string shapeText(const std::vector<size_t>& shape) {
  std::string text;
  for (size_t n : shape) {
    if (!text.empty()) text += 'x';
    text += std::to_string(n);
  }
  return text;
}

std::string clError(const char* call, cl_int status) {
  return std::string(call) + " returned " + std::to_string(status);
}

std::string failure(const char* call, cl_int status) { return status == CL_SUCCESS ? "" : clError(call, status); }

cl_program buildProgram(cl_context context, const char* source, std::string& error) {
  cl_int status = CL_SUCCESS;
  cl_program program = clCreateProgramWithSource(context, 1, &source, nullptr, &status);
  error = failure("clCreateProgramWithSource", status);
  if (!error.empty()) return nullptr;
  error = failure("clBuildProgram", clBuildProgram(program, 0, nullptr, "", nullptr, nullptr));
  if (error.empty()) return program;
  cl_device_id device = nullptr;
  clGetProgramInfo(program, CL_PROGRAM_DEVICES, sizeof device, &device, nullptr);
  size_t size = 0;
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
  std::string log(size, '\0');
  clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
  error += ": " + std::string(log.c_str());
  clReleaseProgram(program);
  return nullptr;
}

int runClient(const Options& options, const char* client, const Bench& bench) {
  Result result;
  result.client = client;
  result.bench = options.bench;
  result.shape = shapeText(options.shape);
  result.variant = options.paramsIn.empty() ? "default" : "params";
  Device device;
  if (!pickDevice(device, result.error)) return result.report();
  result.platform = device.platformName;
  result.device = device.deviceName;
  Session session(device);
  if (session.ok()) {
    bench(device, session, result);
  } else {
    result.error = session.error();
  }
  return result.report();
}

}  // namespace cl2vk::clients
