#include "opencl_runner.h"

#include <algorithm>
#include <cctype>
#include <chrono>

namespace cl2vk::bench {
namespace {

// kKernelsSource: kernels.cl, embedded at build time.
#include "kernels_source.inc"

std::string errorName(cl_int code) {
  switch (code) {
    case CL_DEVICE_NOT_FOUND: return "CL_DEVICE_NOT_FOUND";
    case CL_MEM_OBJECT_ALLOCATION_FAILURE: return "CL_MEM_OBJECT_ALLOCATION_FAILURE";
    case CL_OUT_OF_RESOURCES: return "CL_OUT_OF_RESOURCES";
    case CL_OUT_OF_HOST_MEMORY: return "CL_OUT_OF_HOST_MEMORY";
    case CL_PROFILING_INFO_NOT_AVAILABLE: return "CL_PROFILING_INFO_NOT_AVAILABLE";
    case CL_BUILD_PROGRAM_FAILURE: return "CL_BUILD_PROGRAM_FAILURE";
    case CL_INVALID_VALUE: return "CL_INVALID_VALUE";
    case CL_INVALID_BUILD_OPTIONS: return "CL_INVALID_BUILD_OPTIONS";
    case CL_INVALID_KERNEL_NAME: return "CL_INVALID_KERNEL_NAME";
    case CL_INVALID_KERNEL_ARGS: return "CL_INVALID_KERNEL_ARGS";
    case CL_INVALID_WORK_GROUP_SIZE: return "CL_INVALID_WORK_GROUP_SIZE";
    case CL_INVALID_BUFFER_SIZE: return "CL_INVALID_BUFFER_SIZE";
    case CL_PLATFORM_NOT_FOUND_KHR: return "CL_PLATFORM_NOT_FOUND_KHR (no OpenCL platform; is OCL_ICD_VENDORS set?)";
    default: return "error " + std::to_string(code);
  }
}

Status check(cl_int code, const char* call) {
  if (code == CL_SUCCESS) return okStatus();
  return Error(std::string(call) + " failed: " + errorName(code));
}

std::string platformInfo(cl_platform_id platform, cl_platform_info what) {
  size_t size = 0;
  clGetPlatformInfo(platform, what, 0, nullptr, &size);
  std::string text(size, '\0');
  clGetPlatformInfo(platform, what, size, text.data(), nullptr);
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

std::string deviceInfo(cl_device_id device, cl_device_info what) {
  size_t size = 0;
  clGetDeviceInfo(device, what, 0, nullptr, &size);
  std::string text(size, '\0');
  clGetDeviceInfo(device, what, size, text.data(), nullptr);
  while (!text.empty() && text.back() == '\0') text.pop_back();
  return text;
}

std::string lower(std::string text) {
  std::transform(text.begin(), text.end(), text.begin(), [](unsigned char c) { return std::tolower(c); });
  return text;
}

Expected<cl_platform_id> findPlatform(const std::string& name) {
  cl_uint count = 0;
  CL2VK_TRY(check(clGetPlatformIDs(0, nullptr, &count), "clGetPlatformIDs"));
  std::vector<cl_platform_id> platforms(count);
  CL2VK_TRY(check(clGetPlatformIDs(count, platforms.data(), nullptr), "clGetPlatformIDs"));
  std::string names;
  for (cl_platform_id platform : platforms) {
    if (platformInfo(platform, CL_PLATFORM_NAME) == name) return platform;
  }
  for (cl_platform_id platform : platforms) {
    std::string platformName = platformInfo(platform, CL_PLATFORM_NAME);
    if (lower(platformName).find(lower(name)) != std::string::npos) return platform;
    names += (names.empty() ? "" : ", ") + ("\"" + platformName + "\"");
  }
  return Error("no OpenCL platform named \"" + name + "\" (there are: " + (names.empty() ? "none" : names) + ")");
}

// The -D macro that selects a program's kernels in kernels.cl, and the OpenCL C version it needs.
std::string buildOptions(ClProgram program) {
  switch (program) {
    case ClProgram::kBasic: return "-D BENCH_PROGRAM_BASIC";
    case ClProgram::kWorkGroup: return "-cl-std=CL3.0 -D BENCH_PROGRAM_WORK_GROUP";
    case ClProgram::kWorkGroupUniformArithmetic: return "-cl-std=CL3.0 -D BENCH_PROGRAM_WORK_GROUP_UNIFORM_ARITHMETIC";
    case ClProgram::kSubGroup: return "-cl-std=CL3.0 -D BENCH_PROGRAM_SUB_GROUP";
    case ClProgram::kSubGroupUniformArithmetic: return "-cl-std=CL3.0 -D BENCH_PROGRAM_SUB_GROUP_UNIFORM_ARITHMETIC";
    case ClProgram::kSubGroupExtensions: return "-cl-std=CL3.0 -D BENCH_PROGRAM_SUB_GROUP_EXTENSIONS";
    case ClProgram::kMathDouble: return "-D BENCH_PROGRAM_MATH_DOUBLE";
    case ClProgram::kMathFunctions:
    case ClProgram::kMathFunctionsDouble: return "";
  }
  return "";
}

// The first lines of a build log, enough to say why a platform refused a kernel.
std::string logExcerpt(std::string log) {
  size_t end = 0;
  for (int line = 0; line < 4 && end != std::string::npos; ++line) {
    end = log.find('\n', end == 0 ? 0 : end + 1);
  }
  if (end != std::string::npos) log = log.substr(0, end) + " ...";
  std::replace(log.begin(), log.end(), '\n', ' ');
  return log;
}

}  // namespace

Expected<std::unique_ptr<OpenClRunner>> OpenClRunner::open(const std::string& platformName,
                                                           std::string implementation) {
  Expected<cl_platform_id> platform = findPlatform(platformName);
  if (!platform) return platform.error();
  std::unique_ptr<OpenClRunner> runner(new OpenClRunner());
  runner->implementation_ = std::move(implementation);
  runner->platformName_ = platformInfo(*platform, CL_PLATFORM_NAME);
  cl_uint count = 0;
  CL2VK_TRY(check(clGetDeviceIDs(*platform, CL_DEVICE_TYPE_ALL, 1, &runner->device_, &count), "clGetDeviceIDs"));
  runner->deviceName_ = deviceInfo(runner->device_, CL_DEVICE_NAME);

  cl_int error = CL_SUCCESS;
  runner->context_ = ClContext(clCreateContext(nullptr, 1, &runner->device_, nullptr, nullptr, &error));
  CL2VK_TRY(check(error, "clCreateContext"));
  cl_queue_properties properties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  runner->queue_ =
      ClQueue(clCreateCommandQueueWithProperties(runner->context_.get(), runner->device_, properties, &error));
  CL2VK_TRY(check(error, "clCreateCommandQueueWithProperties"));
  return runner;
}

Status OpenClRunner::createBuffers(const InputShape& shape) {
  size_t bytes = shape.words * sizeof(uint32_t);
  cl_int error = CL_SUCCESS;
  for (InputSet set : kInputSets) {
    for (size_t index = 0; index < shape.count; ++index) {
      std::vector<uint32_t> words = generateInput(set, index, shape.words);
      ClBuffer buffer(clCreateBuffer(context_.get(), CL_MEM_READ_ONLY, bytes, nullptr, &error));
      CL2VK_TRY(check(error, "clCreateBuffer"));
      CL2VK_TRY(
          check(clEnqueueWriteBuffer(queue_.get(), buffer.get(), CL_TRUE, 0, bytes, words.data(), 0, nullptr, nullptr),
                "clEnqueueWriteBuffer"));
      inputs_[set].push_back(std::move(buffer));
    }
  }
  output_ = ClBuffer(clCreateBuffer(context_.get(), CL_MEM_READ_WRITE, bytes, nullptr, &error));
  return check(error, "clCreateBuffer");
}

Expected<cl_program> OpenClRunner::program(ClProgram which) {
  auto found = programs_.find(which);
  if (found == programs_.end()) {
    auto build = [&]() -> Expected<std::shared_ptr<ClProgramObject>> {
      std::string text = which == ClProgram::kMathFunctions         ? mathKernelSource(false)
                         : which == ClProgram::kMathFunctionsDouble ? mathKernelSource(true)
                                                                    : std::string(kKernelsSource);
      const char* source = text.c_str();
      cl_int error = CL_SUCCESS;
      auto program =
          std::make_shared<ClProgramObject>(clCreateProgramWithSource(context_.get(), 1, &source, nullptr, &error));
      CL2VK_TRY(check(error, "clCreateProgramWithSource"));
      std::string options = buildOptions(which);
      error = clBuildProgram(program->get(), 1, &device_, options.c_str(), nullptr, nullptr);
      if (error != CL_SUCCESS) {
        size_t size = 0;
        clGetProgramBuildInfo(program->get(), device_, CL_PROGRAM_BUILD_LOG, 0, nullptr, &size);
        std::string log(size, '\0');
        clGetProgramBuildInfo(program->get(), device_, CL_PROGRAM_BUILD_LOG, size, log.data(), nullptr);
        return Error("clBuildProgram(\"" + options + "\") failed: " + errorName(error) + ": " + logExcerpt(log));
      }
      return program;
    };
    found = programs_.emplace(which, build()).first;
  }
  if (!found->second) return found->second.error();
  return (*found->second)->get();
}

Expected<ClKernel> OpenClRunner::createKernel(ClProgram which, const std::string& name) {
  Expected<cl_program> built = program(which);
  if (!built) return built.error();
  cl_int error = CL_SUCCESS;
  ClKernel kernel(clCreateKernel(*built, name.c_str(), &error));
  CL2VK_TRY(check(error, ("clCreateKernel(" + name + ")").c_str()));
  return kernel;
}

Expected<double> OpenClRunner::launch(cl_kernel kernel, uint64_t workItems, uint32_t workGroupSize) {
  size_t global = workItems;
  size_t local = workGroupSize;
  cl_event event = nullptr;
  CL2VK_TRY(check(clEnqueueNDRangeKernel(queue_.get(), kernel, 1, nullptr, &global, &local, 0, nullptr, &event),
                  "clEnqueueNDRangeKernel"));
  ClObject<cl_event, clReleaseEvent> owned(event);
  CL2VK_TRY(check(clWaitForEvents(1, &event), "clWaitForEvents"));
  cl_ulong start = 0, end = 0;
  CL2VK_TRY(check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_START, sizeof start, &start, nullptr),
                  "clGetEventProfilingInfo"));
  CL2VK_TRY(check(clGetEventProfilingInfo(event, CL_PROFILING_COMMAND_END, sizeof end, &end, nullptr),
                  "clGetEventProfilingInfo"));
  return static_cast<double>(end - start);
}

Expected<uint32_t> OpenClRunner::subgroupSize(uint32_t workGroupSize) {
  if (auto known = subgroupSizes_.find(workGroupSize); known != subgroupSizes_.end()) return known->second;
  Expected<ClKernel> probe = createKernel(ClProgram::kSubGroup, "sub_group_size_probe");
  if (!probe) return probe.error();
  cl_mem output = output_.get();
  CL2VK_TRY(check(clSetKernelArg(probe->get(), 0, sizeof output, &output), "clSetKernelArg"));
  Expected<double> ran = launch(probe->get(), workGroupSize, workGroupSize);
  if (!ran) return ran.error();
  Expected<std::vector<uint32_t>> size = readOutput(1);
  if (!size) return size.error();
  subgroupSizes_[workGroupSize] = size->front();
  return size->front();
}

Status OpenClRunner::prepare(const LaunchSpec& spec) {
  Expected<ClKernel> kernel =
      createKernel(spec.kernel == kLocalTreeKernel || spec.kernel == kLocalTreeWordsKernel ? ClProgram::kBasic
                                                                                           : spec.workload->program,
                   spec.kernel);
  if (!kernel) return kernel.error();
  size_t maxSize = 0;
  CL2VK_TRY(check(
      clGetKernelWorkGroupInfo(kernel->get(), device_, CL_KERNEL_WORK_GROUP_SIZE, sizeof maxSize, &maxSize, nullptr),
      "clGetKernelWorkGroupInfo"));
  if (spec.workGroupSize > maxSize) {
    return Error("work-group size " + std::to_string(spec.workGroupSize) + " exceeds the kernel's maximum, " +
                 std::to_string(maxSize));
  }
  cl_mem output = output_.get();
  CL2VK_TRY(check(clSetKernelArg(kernel->get(), 1, sizeof output, &output), "clSetKernelArg"));
  if (spec.localBytes > 0) {
    CL2VK_TRY(check(clSetKernelArg(kernel->get(), 2, spec.localBytes, nullptr), "clSetKernelArg"));
  }
  spec_ = spec;
  kernel_ = std::move(*kernel);
  return okStatus();
}

Expected<double> OpenClRunner::run(size_t inputIndex, uint64_t workItems) {
  const std::vector<ClBuffer>& inputs = inputs_[spec_.workload->inputSet()];
  cl_mem input = inputs.at(inputIndex % inputs.size()).get();
  CL2VK_TRY(check(clSetKernelArg(kernel_.get(), 0, sizeof input, &input), "clSetKernelArg"));
  return launch(kernel_.get(), workItems, spec_.workGroupSize);
}

Expected<std::vector<uint32_t>> OpenClRunner::readOutput(uint64_t words) {
  std::vector<uint32_t> values(words);
  CL2VK_TRY(check(clEnqueueReadBuffer(queue_.get(), output_.get(), CL_TRUE, 0, words * sizeof(uint32_t), values.data(),
                                      0, nullptr, nullptr),
                  "clEnqueueReadBuffer"));
  return values;
}

Expected<std::vector<double>> OpenClRunner::emptyLaunchHostTimes(size_t warmups, size_t count,
                                                                 std::vector<double>* enqueueTimes) {
  Expected<ClKernel> kernel = createKernel(ClProgram::kBasic, "empty");
  if (!kernel) return kernel.error();
  std::vector<double> times;
  size_t one = 1;
  for (size_t i = 0; i < warmups + count; ++i) {
    auto start = std::chrono::steady_clock::now();
    CL2VK_TRY(check(clEnqueueNDRangeKernel(queue_.get(), kernel->get(), 1, nullptr, &one, &one, 0, nullptr, nullptr),
                    "clEnqueueNDRangeKernel"));
    auto enqueued = std::chrono::steady_clock::now();
    CL2VK_TRY(check(clFinish(queue_.get()), "clFinish"));
    auto end = std::chrono::steady_clock::now();
    if (i < warmups) continue;
    times.push_back(std::chrono::duration<double, std::nano>(end - start).count());
    if (enqueueTimes) enqueueTimes->push_back(std::chrono::duration<double, std::nano>(enqueued - start).count());
  }
  return times;
}

Expected<std::vector<double>> OpenClRunner::mapHostTimes(size_t bytes, bool unmapAfterWrite, size_t warmups,
                                                         size_t count) {
  cl_int error = CL_SUCCESS;
  ClBuffer buffer(clCreateBuffer(context_.get(), CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, bytes, nullptr, &error));
  CL2VK_TRY(check(error, "clCreateBuffer"));
  cl_map_flags flags = unmapAfterWrite ? CL_MAP_WRITE : CL_MAP_READ;
  std::vector<double> times;
  for (size_t i = 0; i < warmups + count; ++i) {
    auto start = std::chrono::steady_clock::now();
    void* mapped =
        clEnqueueMapBuffer(queue_.get(), buffer.get(), CL_TRUE, flags, 0, bytes, 0, nullptr, nullptr, &error);
    CL2VK_TRY(check(error, "clEnqueueMapBuffer"));
    auto unmapping = std::chrono::steady_clock::now();
    CL2VK_TRY(check(clEnqueueUnmapMemObject(queue_.get(), buffer.get(), mapped, 0, nullptr, nullptr),
                    "clEnqueueUnmapMemObject"));
    CL2VK_TRY(check(clFinish(queue_.get()), "clFinish"));
    auto end = std::chrono::steady_clock::now();
    if (i < warmups) continue;
    auto timed = unmapAfterWrite ? end - unmapping : unmapping - start;
    times.push_back(std::chrono::duration<double, std::nano>(timed).count());
  }
  return times;
}

}  // namespace cl2vk::bench
