#include "icd/icd_test_util.h"

#include <cstdlib>
#include <sstream>

#include "test_util.h"

namespace cl2vk::test {

std::string clErrorName(cl_int code) {
#define CL2VK_ERROR_NAME(code) std::pair<cl_int, const char*>(code, #code)
  static const std::pair<cl_int, const char*> kNames[] = {
      CL2VK_ERROR_NAME(CL_SUCCESS),
      CL2VK_ERROR_NAME(CL_DEVICE_NOT_FOUND),
      CL2VK_ERROR_NAME(CL_DEVICE_NOT_AVAILABLE),
      CL2VK_ERROR_NAME(CL_COMPILER_NOT_AVAILABLE),
      CL2VK_ERROR_NAME(CL_MEM_OBJECT_ALLOCATION_FAILURE),
      CL2VK_ERROR_NAME(CL_OUT_OF_RESOURCES),
      CL2VK_ERROR_NAME(CL_OUT_OF_HOST_MEMORY),
      CL2VK_ERROR_NAME(CL_PROFILING_INFO_NOT_AVAILABLE),
      CL2VK_ERROR_NAME(CL_MEM_COPY_OVERLAP),
      CL2VK_ERROR_NAME(CL_IMAGE_FORMAT_MISMATCH),
      CL2VK_ERROR_NAME(CL_IMAGE_FORMAT_NOT_SUPPORTED),
      CL2VK_ERROR_NAME(CL_BUILD_PROGRAM_FAILURE),
      CL2VK_ERROR_NAME(CL_MAP_FAILURE),
      CL2VK_ERROR_NAME(CL_MISALIGNED_SUB_BUFFER_OFFSET),
      CL2VK_ERROR_NAME(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST),
      CL2VK_ERROR_NAME(CL_COMPILE_PROGRAM_FAILURE),
      CL2VK_ERROR_NAME(CL_LINKER_NOT_AVAILABLE),
      CL2VK_ERROR_NAME(CL_LINK_PROGRAM_FAILURE),
      CL2VK_ERROR_NAME(CL_DEVICE_PARTITION_FAILED),
      CL2VK_ERROR_NAME(CL_KERNEL_ARG_INFO_NOT_AVAILABLE),
      CL2VK_ERROR_NAME(CL_INVALID_VALUE),
      CL2VK_ERROR_NAME(CL_INVALID_DEVICE_TYPE),
      CL2VK_ERROR_NAME(CL_INVALID_PLATFORM),
      CL2VK_ERROR_NAME(CL_INVALID_DEVICE),
      CL2VK_ERROR_NAME(CL_INVALID_CONTEXT),
      CL2VK_ERROR_NAME(CL_INVALID_QUEUE_PROPERTIES),
      CL2VK_ERROR_NAME(CL_INVALID_COMMAND_QUEUE),
      CL2VK_ERROR_NAME(CL_INVALID_HOST_PTR),
      CL2VK_ERROR_NAME(CL_INVALID_MEM_OBJECT),
      CL2VK_ERROR_NAME(CL_INVALID_IMAGE_FORMAT_DESCRIPTOR),
      CL2VK_ERROR_NAME(CL_INVALID_IMAGE_SIZE),
      CL2VK_ERROR_NAME(CL_INVALID_SAMPLER),
      CL2VK_ERROR_NAME(CL_INVALID_BINARY),
      CL2VK_ERROR_NAME(CL_INVALID_BUILD_OPTIONS),
      CL2VK_ERROR_NAME(CL_INVALID_PROGRAM),
      CL2VK_ERROR_NAME(CL_INVALID_PROGRAM_EXECUTABLE),
      CL2VK_ERROR_NAME(CL_INVALID_KERNEL_NAME),
      CL2VK_ERROR_NAME(CL_INVALID_KERNEL_DEFINITION),
      CL2VK_ERROR_NAME(CL_INVALID_KERNEL),
      CL2VK_ERROR_NAME(CL_INVALID_ARG_INDEX),
      CL2VK_ERROR_NAME(CL_INVALID_ARG_VALUE),
      CL2VK_ERROR_NAME(CL_INVALID_ARG_SIZE),
      CL2VK_ERROR_NAME(CL_INVALID_KERNEL_ARGS),
      CL2VK_ERROR_NAME(CL_INVALID_WORK_DIMENSION),
      CL2VK_ERROR_NAME(CL_INVALID_WORK_GROUP_SIZE),
      CL2VK_ERROR_NAME(CL_INVALID_WORK_ITEM_SIZE),
      CL2VK_ERROR_NAME(CL_INVALID_GLOBAL_OFFSET),
      CL2VK_ERROR_NAME(CL_INVALID_EVENT_WAIT_LIST),
      CL2VK_ERROR_NAME(CL_INVALID_EVENT),
      CL2VK_ERROR_NAME(CL_INVALID_OPERATION),
      CL2VK_ERROR_NAME(CL_INVALID_GL_OBJECT),
      CL2VK_ERROR_NAME(CL_INVALID_BUFFER_SIZE),
      CL2VK_ERROR_NAME(CL_INVALID_MIP_LEVEL),
      CL2VK_ERROR_NAME(CL_INVALID_GLOBAL_WORK_SIZE),
      CL2VK_ERROR_NAME(CL_INVALID_PROPERTY),
      CL2VK_ERROR_NAME(CL_INVALID_IMAGE_DESCRIPTOR),
      CL2VK_ERROR_NAME(CL_INVALID_COMPILER_OPTIONS),
      CL2VK_ERROR_NAME(CL_INVALID_LINKER_OPTIONS),
      CL2VK_ERROR_NAME(CL_INVALID_DEVICE_PARTITION_COUNT),
      CL2VK_ERROR_NAME(CL_INVALID_PIPE_SIZE),
      CL2VK_ERROR_NAME(CL_INVALID_DEVICE_QUEUE),
      CL2VK_ERROR_NAME(CL_INVALID_SPEC_ID),
      CL2VK_ERROR_NAME(CL_MAX_SIZE_RESTRICTION_EXCEEDED),
      {-1001, "CL_PLATFORM_NOT_FOUND_KHR"},
  };
#undef CL2VK_ERROR_NAME
  for (const auto& [value, name] : kNames) {
    if (value == code) return name;
  }
  return "unknown OpenCL error " + std::to_string(code);
}

testing::AssertionResult clSucceeded(const char* expression, cl_int code) {
  if (code == CL_SUCCESS) return testing::AssertionSuccess();
  return testing::AssertionFailure() << expression << " returned " << clErrorName(code) << " (" << code << ")";
}

testing::AssertionResult clReturned(const char* expectedExpression, const char* expression, cl_int expected,
                                    cl_int code) {
  if (code == expected) return testing::AssertionSuccess();
  return testing::AssertionFailure() << expression << " returned " << clErrorName(code) << " (" << code
                                     << "), expected " << clErrorName(expected) << " (" << expectedExpression << ")";
}

cl_platform_id findPlatform(std::string* why) {
  const char* wanted = std::getenv("CL2VK_TEST_PLATFORM");
  std::string name = wanted && *wanted ? wanted : "cl2vk";
  cl_uint count = 0;
  cl_int status = clGetPlatformIDs(0, nullptr, &count);
  const char* vendors = std::getenv("OCL_ICD_VENDORS");
  std::string where = std::string("OCL_ICD_VENDORS=") + (vendors ? vendors : "(unset)");
  if (status != CL_SUCCESS || count == 0) {
    *why = "clGetPlatformIDs found no OpenCL platform (" + clErrorName(status) + ", " + where +
           "): is libcl2vk_icd.so built and named by <build>/icd/cl2vk.icd?";
    return nullptr;
  }
  std::vector<cl_platform_id> platforms(count);
  if (cl_int listed = clGetPlatformIDs(count, platforms.data(), nullptr); listed != CL_SUCCESS) {
    *why = "clGetPlatformIDs returned " + clErrorName(listed);
    return nullptr;
  }
  std::string seen;
  for (cl_platform_id platform : platforms) {
    std::string platformName = platformString(platform, CL_PLATFORM_NAME);
    if (platformName.find(name) != std::string::npos) return platform;
    seen += (seen.empty() ? "\"" : ", \"") + platformName + "\"";
  }
  *why = "no OpenCL platform's CL_PLATFORM_NAME contains \"" + name + "\" (found " + seen + "; " + where + ")";
  return nullptr;
}

std::string platformString(cl_platform_id platform, cl_platform_info name) {
  return infoString(
      [&](size_t size, void* value, size_t* ret) { return clGetPlatformInfo(platform, name, size, value, ret); });
}

std::string deviceString(cl_device_id device, cl_device_info name) {
  return infoString(
      [&](size_t size, void* value, size_t* ret) { return clGetDeviceInfo(device, name, size, value, ret); });
}

std::string programBuildLog(cl_program program, cl_device_id device) {
  return infoString([&](size_t size, void* value, size_t* ret) {
    return clGetProgramBuildInfo(program, device, CL_PROGRAM_BUILD_LOG, size, value, ret);
  });
}

bool hasWord(const std::string& list, const std::string& word) {
  std::istringstream words(list);
  for (std::string w; words >> w;) {
    if (w == word) return true;
  }
  return false;
}

std::vector<uint8_t> corpusModule(const std::string& file) {
  std::filesystem::path path = corpusDir() / file;
  EXPECT_TRUE(std::filesystem::exists(path)) << path << " is missing: is the corpus built (target corpus)?";
  return readFile(path);
}

void IcdTest::SetUp() {
  std::string why;
  platform_ = findPlatform(&why);
  ASSERT_NE(platform_, nullptr) << why;
  ASSERT_CL_SUCCESS(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 1, &device_, nullptr));
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
  cl_int status = CL_SUCCESS;
  context_ = Context(clCreateContext(properties, 1, &device_, nullptr, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  ASSERT_NE(context_.get(), nullptr);
  cl_queue_properties queueProperties[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_PROFILING_ENABLE, 0};
  queue_ = Queue(clCreateCommandQueueWithProperties(context_, device_, queueProperties, &status));
  ASSERT_CL_SUCCESS(status);
  ASSERT_NE(queue_.get(), nullptr);
}

namespace {

void CL_CALLBACK collectMessage(const char* message, const void*, size_t, void* messages) {
  static_cast<std::vector<std::string>*>(messages)->push_back(message);
}

}  // namespace

void IcdTestWithMessages::SetUp() {
  IcdTest::SetUp();
  if (HasFatalFailure()) return;
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
  cl_int status = CL_SUCCESS;
  queue_ = Queue();
  context_ = Context(clCreateContext(properties, 1, &device_, &collectMessage, &messages_, &status));
  ASSERT_CL_SUCCESS(status);
  queue_ = Queue(clCreateCommandQueueWithProperties(context_, device_, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
}

cl_int IcdTestWithMessages::runToTheEnd(cl_kernel kernel, size_t global) {
  cl_event raw = nullptr;
  EXPECT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, nullptr, 0, nullptr, &raw));
  Event event(raw);
  cl_int waited = clWaitForEvents(1, &raw);
  cl_int status = 0;
  EXPECT_CL_SUCCESS(clGetEventInfo(raw, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof status, &status, nullptr));
  EXPECT_EQ(waited, status < 0 ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS);
  EXPECT_CL_SUCCESS(clFinish(queue_));  // clFinish reports no command's failure (OpenCL 3.0, 5.15)
  return status;
}

Program IcdTest::buildSource(const std::string& source, const std::string& options) {
  const char* text = source.c_str();
  size_t length = source.size();
  cl_int status = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &text, &length, &status));
  EXPECT_EQ(status, CL_SUCCESS) << "clCreateProgramWithSource returned " << clErrorName(status);
  if (status != CL_SUCCESS) return Program();
  status = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
  EXPECT_EQ(status, CL_SUCCESS) << "clBuildProgram returned " << clErrorName(status) << " for OpenCL C with options \""
                                << options << "\"; build log:\n"
                                << programBuildLog(program, device_);
  return status == CL_SUCCESS ? std::move(program) : Program();
}

Program IcdTest::buildCorpusModule(const std::string& file, const std::string& options) {
  std::vector<uint8_t> il = corpusModule(file);
  if (il.empty()) return Program();
  return buildIL(il, options, file);
}

Program IcdTest::buildIL(std::span<const uint8_t> il, const std::string& options, const std::string& what) {
  cl_int status = CL_SUCCESS;
  Program program(clCreateProgramWithIL(context_, il.data(), il.size(), &status));
  EXPECT_EQ(status, CL_SUCCESS) << "clCreateProgramWithIL returned " << clErrorName(status) << " for " << what;
  if (status != CL_SUCCESS) return Program();
  status = clBuildProgram(program, 1, &device_, options.c_str(), nullptr, nullptr);
  EXPECT_EQ(status, CL_SUCCESS) << "clBuildProgram returned " << clErrorName(status) << " for " << what
                                << " with options \"" << options << "\"; build log:\n"
                                << programBuildLog(program, device_);
  return status == CL_SUCCESS ? std::move(program) : Program();
}

Kernel IcdTest::createKernel(cl_program program, const std::string& name) {
  cl_int status = CL_SUCCESS;
  Kernel kernel(clCreateKernel(program, name.c_str(), &status));
  EXPECT_EQ(status, CL_SUCCESS) << "clCreateKernel returned " << clErrorName(status) << " for " << name;
  return kernel;
}

Buffer IcdTest::createBuffer(size_t size, cl_mem_flags flags, void* hostPtr) {
  cl_int status = CL_SUCCESS;
  Buffer buffer(clCreateBuffer(context_, flags, size, hostPtr, &status));
  EXPECT_EQ(status, CL_SUCCESS) << "clCreateBuffer returned " << clErrorName(status) << " for " << size
                                << " bytes, flags 0x" << std::hex << flags;
  return buffer;
}

void IcdTest::run1d(cl_kernel kernel, size_t global, std::optional<size_t> local) {
  EXPECT_CL_SUCCESS(
      clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, local ? &*local : nullptr, 0, nullptr, nullptr))
      << "global " << global << " local " << (local ? std::to_string(*local) : "NULL");
  EXPECT_CL_SUCCESS(clFinish(queue_));
}

}  // namespace cl2vk::test
