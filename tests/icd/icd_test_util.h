// Helpers for the tests that use the OpenCL API through the ICD loader (ocl-icd), as an
// application would: the cl2vk platform and device, a context and a profiling queue, programs from
// OpenCL C or from the corpus's SPIR-V, buffers, and assertions that print OpenCL error names.
// Nothing here includes or links the runtime: OCL_ICD_VENDORS (set by ctest) makes the loader find
// the build tree's libcl2vk_icd.so.
#pragma once

#include <CL/cl.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace cl2vk::test {

// "CL_INVALID_VALUE" for CL_INVALID_VALUE; "unknown OpenCL error <n>" for a code the API lacks.
std::string clErrorName(cl_int code);

// Predicate formatters behind the macros below.
testing::AssertionResult clSucceeded(const char* expression, cl_int code);
testing::AssertionResult clReturned(const char* expectedExpression, const char* expression, cl_int expected,
                                    cl_int code);

// ASSERT_CL_SUCCESS(clFinish(queue)) fails with "clFinish(queue) returned CL_INVALID_COMMAND_QUEUE (-36)".
#define ASSERT_CL_SUCCESS(expression) ASSERT_PRED_FORMAT1(::cl2vk::test::clSucceeded, expression)
#define EXPECT_CL_SUCCESS(expression) EXPECT_PRED_FORMAT1(::cl2vk::test::clSucceeded, expression)
// EXPECT_CL_ERROR(CL_INVALID_VALUE, clFoo(...)) names both codes when they differ.
#define ASSERT_CL_ERROR(expected, expression) ASSERT_PRED_FORMAT2(::cl2vk::test::clReturned, expected, expression)
#define EXPECT_CL_ERROR(expected, expression) EXPECT_PRED_FORMAT2(::cl2vk::test::clReturned, expected, expression)

// An owned OpenCL object, released when it goes out of scope. Converts to its handle, so that it
// can be passed to cl* calls directly.
template <typename Handle, cl_int (*Release)(Handle)>
class ClObject {
 public:
  ClObject() = default;
  explicit ClObject(Handle handle) : handle_(handle) {}
  ClObject(ClObject&& other) noexcept : handle_(std::exchange(other.handle_, nullptr)) {}
  ClObject& operator=(ClObject&& other) noexcept {
    reset(std::exchange(other.handle_, nullptr));
    return *this;
  }
  ClObject(const ClObject&) = delete;
  ClObject& operator=(const ClObject&) = delete;
  ~ClObject() { reset(); }

  operator Handle() const { return handle_; }
  Handle get() const { return handle_; }
  // The handle's address, for clSetKernelArg(kernel, i, sizeof(cl_mem), buffer.address()).
  const Handle* address() const { return &handle_; }
  // Where a cl* call stores a new handle: clEnqueueWriteBuffer(..., event.put()). Releases the old one.
  Handle* put() {
    reset();
    return &handle_;
  }
  // Gives up ownership (the caller releases it).
  Handle take() { return std::exchange(handle_, nullptr); }
  void reset(Handle handle = nullptr) {
    if (handle_) Release(handle_);
    handle_ = handle;
  }

 private:
  Handle handle_ = nullptr;
};

using Context = ClObject<cl_context, clReleaseContext>;
using Queue = ClObject<cl_command_queue, clReleaseCommandQueue>;
using Buffer = ClObject<cl_mem, clReleaseMemObject>;
using Image = Buffer;  // a cl_mem too, named for what it holds
using Sampler = ClObject<cl_sampler, clReleaseSampler>;
using Program = ClObject<cl_program, clReleaseProgram>;
using Kernel = ClObject<cl_kernel, clReleaseKernel>;
using Event = ClObject<cl_event, clReleaseEvent>;

// The platform whose CL_PLATFORM_NAME contains "cl2vk" (or $CL2VK_TEST_PLATFORM, to check the
// tests themselves against another implementation), or null with `why` saying what was found.
cl_platform_id findPlatform(std::string* why);

// The string `get(size, value, size_ret)` returns (any clGet*Info with its other arguments bound),
// without its NUL.
template <typename Get>
std::string infoString(Get get) {
  size_t size = 0;
  EXPECT_CL_SUCCESS(get(0, nullptr, &size));
  std::string value(size, '\0');
  if (size > 0) {
    EXPECT_CL_SUCCESS(get(size, value.data(), nullptr));
  }
  if (!value.empty() && value.back() == '\0') value.pop_back();
  return value;
}

// The string an info query returns (clGetPlatformInfo, clGetDeviceInfo ...), without its NUL.
std::string platformString(cl_platform_id platform, cl_platform_info name);
std::string deviceString(cl_device_id device, cl_device_info name);
std::string programBuildLog(cl_program program, cl_device_id device);

template <typename T>
T deviceInfo(cl_device_id device, cl_device_info name) {
  T value{};
  EXPECT_CL_SUCCESS(clGetDeviceInfo(device, name, sizeof(T), &value, nullptr)) << "device info 0x" << std::hex << name;
  return value;
}

template <typename T>
T buildInfo(cl_program program, cl_device_id device, cl_program_build_info name) {
  T value{};
  EXPECT_CL_SUCCESS(clGetProgramBuildInfo(program, device, name, sizeof(T), &value, nullptr))
      << "program build info 0x" << std::hex << name;
  return value;
}

template <typename T>
std::vector<T> deviceInfoArray(cl_device_id device, cl_device_info name) {
  size_t size = 0;
  EXPECT_CL_SUCCESS(clGetDeviceInfo(device, name, 0, nullptr, &size)) << "device info 0x" << std::hex << name;
  std::vector<T> values(size / sizeof(T));
  if (!values.empty()) {
    EXPECT_CL_SUCCESS(clGetDeviceInfo(device, name, size, values.data(), nullptr));
  }
  return values;
}

// Whether `list` (space-separated, as CL_DEVICE_EXTENSIONS) holds `word`.
bool hasWord(const std::string& list, const std::string& word);

// The corpus module `file` (relative to corpusDir(): "kernels/vector_add.O2.spv").
std::vector<uint8_t> corpusModule(const std::string& file);

// A test that has the cl2vk platform, its first device, a context on it and an in-order queue with
// profiling. A test fails (never skips) when the platform is missing.
class IcdTest : public testing::Test {
 protected:
  void SetUp() override;

  // Builds OpenCL C source or a corpus module for the device; on a failure the test fails with the
  // error and the build log, and the result is null.
  Program buildSource(const std::string& source, const std::string& options = "");
  Program buildCorpusModule(const std::string& file, const std::string& options = "");
  Program buildIL(std::span<const uint8_t> il, const std::string& options = "", const std::string& what = "IL");
  Kernel createKernel(cl_program program, const std::string& name);

  Buffer createBuffer(size_t size, cl_mem_flags flags = CL_MEM_READ_WRITE, void* hostPtr = nullptr);
  // A buffer holding `values`.
  template <typename T>
  Buffer bufferOf(const std::vector<T>& values, cl_mem_flags flags = CL_MEM_READ_WRITE) {
    return createBuffer(values.size() * sizeof(T), flags | CL_MEM_COPY_HOST_PTR, const_cast<T*>(values.data()));
  }
  // `count` values read (blocking) from `buffer` at element `first`.
  template <typename T>
  std::vector<T> read(cl_mem buffer, size_t count, size_t first = 0) {
    std::vector<T> values(count);
    EXPECT_CL_SUCCESS(clEnqueueReadBuffer(queue_, buffer, CL_TRUE, first * sizeof(T), count * sizeof(T), values.data(),
                                          0, nullptr, nullptr));
    return values;
  }

  // Sets the kernel's arguments in order: a Buffer, Image (or cl_mem) becomes a memory object
  // argument, a Sampler a sampler, anything else a by-value argument of its own size.
  template <typename... Args>
  void setArgs(cl_kernel kernel, const Args&... args) {
    cl_uint index = 0;
    (setArg(kernel, index++, args), ...);
  }
  void setArg(cl_kernel kernel, cl_uint index, const Buffer& buffer) { setArg(kernel, index, buffer.get()); }
  void setArg(cl_kernel kernel, cl_uint index, cl_mem buffer) {
    EXPECT_CL_SUCCESS(clSetKernelArg(kernel, index, sizeof(cl_mem), &buffer)) << "argument " << index;
  }
  void setArg(cl_kernel kernel, cl_uint index, const Sampler& sampler) {
    EXPECT_CL_SUCCESS(clSetKernelArg(kernel, index, sizeof(cl_sampler), sampler.address())) << "argument " << index;
  }
  template <typename T>
  void setArg(cl_kernel kernel, cl_uint index, const T& value) {
    EXPECT_CL_SUCCESS(clSetKernelArg(kernel, index, sizeof(T), &value)) << "argument " << index;
  }

  // Runs `kernel` over a 1D range and waits for it.
  void run1d(cl_kernel kernel, size_t global, std::optional<size_t> local = std::nullopt);

  cl_platform_id platform_ = nullptr;
  cl_device_id device_ = nullptr;
  Context context_;
  Queue queue_;
};

// An IcdTest whose context collects what the runtime tells its callback (pfn_notify), with an
// in-order queue without profiling.
class IcdTestWithMessages : public IcdTest {
 protected:
  void SetUp() override;

  // Runs `kernel` over `global` work-items and waits for it; returns the event's final status
  // (CL_COMPLETE or the command's error) after checking what clWaitForEvents said of it.
  cl_int runToTheEnd(cl_kernel kernel, size_t global);

  std::vector<std::string> messages_;
};

}  // namespace cl2vk::test
