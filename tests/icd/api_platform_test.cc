// The platform, device, context and command-queue queries of OpenCL 3.0, through the ICD loader.

#include <algorithm>
#include <cstring>
#include <regex>
#include <set>
#include <sstream>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

using IcdPlatform = IcdTest;
using IcdDevice = IcdTest;
using IcdContext = IcdTest;
using IcdQueue = IcdTest;

TEST_F(IcdPlatform, ReportsOpenCL30AndTheIcdExtension) {
  std::string version = platformString(platform_, CL_PLATFORM_VERSION);
  EXPECT_TRUE(version.starts_with("OpenCL 3.0 ")) << "CL_PLATFORM_VERSION is \"" << version << "\"";
  cl_version numeric = 0;
  ASSERT_CL_SUCCESS(clGetPlatformInfo(platform_, CL_PLATFORM_NUMERIC_VERSION, sizeof(numeric), &numeric, nullptr));
  EXPECT_EQ(CL_VERSION_MAJOR(numeric), 3u);
  EXPECT_EQ(CL_VERSION_MINOR(numeric), 0u);
  std::string profile = platformString(platform_, CL_PLATFORM_PROFILE);
  EXPECT_TRUE(profile == "FULL_PROFILE" || profile == "EMBEDDED_PROFILE") << profile;
  EXPECT_TRUE(hasWord(platformString(platform_, CL_PLATFORM_EXTENSIONS), "cl_khr_icd"))
      << platformString(platform_, CL_PLATFORM_EXTENSIONS);
  EXPECT_FALSE(platformString(platform_, CL_PLATFORM_VENDOR).empty());
}

TEST_F(IcdPlatform, SizeQueryWithoutValueGivesTheSize) {
  std::string name = platformString(platform_, CL_PLATFORM_NAME);
  size_t size = 0;
  ASSERT_CL_SUCCESS(clGetPlatformInfo(platform_, CL_PLATFORM_NAME, 0, nullptr, &size));
  EXPECT_EQ(size, name.size() + 1);  // with the terminating NUL
  std::vector<char> value(size, 'x');
  size_t written = 0;
  ASSERT_CL_SUCCESS(clGetPlatformInfo(platform_, CL_PLATFORM_NAME, value.size(), value.data(), &written));
  EXPECT_EQ(written, size);
  EXPECT_EQ(value.back(), '\0');
}

TEST_F(IcdPlatform, TooSmallValueOrUnknownNameIsInvalidValue) {
  char tooSmall[2];
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetPlatformInfo(platform_, CL_PLATFORM_NAME, sizeof(tooSmall), tooSmall, nullptr));
  char value[64];
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetPlatformInfo(platform_, 0x7fff, sizeof(value), value, nullptr));
}

TEST_F(IcdDevice, ReportsOpenCL30AndEveryOpenCLCVersion) {
  std::string version = deviceString(device_, CL_DEVICE_VERSION);
  EXPECT_TRUE(version.starts_with("OpenCL 3.0 ")) << "CL_DEVICE_VERSION is \"" << version << "\"";
  EXPECT_EQ(deviceInfo<cl_version>(device_, CL_DEVICE_NUMERIC_VERSION), CL_MAKE_VERSION(3, 0, 0));
  EXPECT_TRUE(deviceString(device_, CL_DEVICE_OPENCL_C_VERSION).starts_with("OpenCL C "));
  std::set<std::pair<cl_uint, cl_uint>> versions;
  for (const cl_name_version& v : deviceInfoArray<cl_name_version>(device_, CL_DEVICE_OPENCL_C_ALL_VERSIONS)) {
    EXPECT_STREQ(v.name, "OpenCL C");
    versions.insert({CL_VERSION_MAJOR(v.version), CL_VERSION_MINOR(v.version)});
  }
  for (auto wanted : {std::pair<cl_uint, cl_uint>{1, 2}, {2, 0}, {3, 0}}) {
    EXPECT_TRUE(versions.contains(wanted))
        << "CL_DEVICE_OPENCL_C_ALL_VERSIONS lacks OpenCL C " << wanted.first << "." << wanted.second;
  }
  EXPECT_EQ(deviceInfo<cl_platform_id>(device_, CL_DEVICE_PLATFORM), platform_);
  EXPECT_EQ(deviceInfo<cl_bool>(device_, CL_DEVICE_AVAILABLE), CL_TRUE);
  EXPECT_EQ(deviceInfo<cl_bool>(device_, CL_DEVICE_COMPILER_AVAILABLE), CL_TRUE);
  EXPECT_FALSE(deviceString(device_, CL_DEVICE_NAME).empty());
}

TEST_F(IcdDevice, LatestConformanceVersionHasTheDatedForm) {
  // vYYYY-MM-DD-XX with a real month and day, as the OpenCL 3.0 specification gives it.
  std::string version = deviceString(device_, CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED);
  EXPECT_TRUE(std::regex_match(version, std::regex(R"(v\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])-\d{2})")))
      << "CL_DEVICE_LATEST_CONFORMANCE_VERSION_PASSED is \"" << version << "\"";
}

// CL_DEVICE_SINGLE_FP_CONFIG's CL_FP_DENORM says what kernels do with float denormals: where it is
// reported, products, quotients, sums and fused multiply-adds that take or make one are exact;
// where it is not, they may also be flushed to zero (the CTS's contractions suite expects flushed
// results from such a device). lavapipe keeps them and says so.
// A device with doubles reports at least what OpenCL requires of one (every rounding mode among
// it, which the CTS's math_brute_force checks before its first test).
// CL_DEVICE_MAX_CLOCK_FREQUENCY, which clpeak and clinfo print, is the device's: a CPU device's
// processors' clock (what Linux says), an NVIDIA GPU's peak SM clock (what CUDA says; 1980 MHz on
// an H200); 0 ("unknown") only for another vendor's GPU, which no query reports. It was always 0.
TEST_F(IcdDevice, MaxClockFrequencyIsTheDevicesWhereAnythingSaysIt) {
  const cl_uint megahertz = deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_CLOCK_FREQUENCY);
  const cl_device_type type = deviceInfo<cl_device_type>(device_, CL_DEVICE_TYPE);
  const cl_uint vendor = deviceInfo<cl_uint>(device_, CL_DEVICE_VENDOR_ID);
  if (type != CL_DEVICE_TYPE_CPU && vendor != 0x10de) {
    EXPECT_EQ(megahertz, 0u);
    GTEST_SKIP() << "no query reports this GPU's clock (vendor 0x" << std::hex << vendor << ")";
  }
  EXPECT_GE(megahertz, 100u) << "CL_DEVICE_MAX_CLOCK_FREQUENCY";
  EXPECT_LE(megahertz, 10000u) << "CL_DEVICE_MAX_CLOCK_FREQUENCY";
}

TEST_F(IcdDevice, DoubleFpConfigHasOpenCLsMinimum) {
  const cl_device_fp_config config = deviceInfo<cl_device_fp_config>(device_, CL_DEVICE_DOUBLE_FP_CONFIG);
  if (config == 0) {
    EXPECT_EQ(deviceString(device_, CL_DEVICE_EXTENSIONS).find("cl_khr_fp64"), std::string::npos);
    GTEST_SKIP() << "the device has no doubles";
  }
  const cl_device_fp_config minimum =
      CL_FP_FMA | CL_FP_ROUND_TO_NEAREST | CL_FP_ROUND_TO_ZERO | CL_FP_ROUND_TO_INF | CL_FP_INF_NAN | CL_FP_DENORM;
  EXPECT_EQ(config & minimum, minimum) << std::hex << config;
}

TEST_F(IcdDevice, SingleFpConfigSaysWhetherDenormalsAreKept) {
  const bool reported = deviceInfo<cl_device_fp_config>(device_, CL_DEVICE_SINGLE_FP_CONFIG) & CL_FP_DENORM;
  if (deviceString(device_, CL_DEVICE_NAME).find("llvmpipe") != std::string::npos) {
    EXPECT_TRUE(reported);
  }
  Program program = buildSource(R"(
    kernel void denormals(global const float* in, global float* out) {
      out[0] = in[0] * in[1];        // 2^-140 * 2^20: a denormal in
      out[1] = in[2] * in[3];        // 2^-120 * 2^-20: a denormal out
      out[2] = in[0] + in[0];        // 2^-139
      out[3] = in[2] / in[1];        // 2^-140
      out[4] = fma(in[0], in[1], in[0]);
    }
  )");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "denormals");
  Buffer in = bufferOf(std::vector<float>{0x1p-140f, 0x1p+20f, 0x1p-120f, 0x1p-20f});
  Buffer out = bufferOf(std::vector<float>(5, -1.0f));
  setArgs(kernel, in, out);
  run1d(kernel, 1);
  const std::vector<float> exact = {0x1p-120f, 0x1p-140f, 0x1p-139f, 0x1p-140f, 0x1p-120f + 0x1p-140f};
  const std::vector<float> flushed = {0.0f, 0.0f, 0.0f, 0.0f, 0.0f};
  std::vector<float> result = read<float>(out, 5);
  for (size_t i = 0; i < exact.size(); ++i) {
    if (reported) {
      EXPECT_EQ(result[i], exact[i]) << "operation " << i;
    } else {
      EXPECT_TRUE(result[i] == exact[i] || result[i] == flushed[i] || (i == 4 && result[i] == 0x1p-120f))
          << "operation " << i << ": " << result[i];
    }
  }
}

TEST_F(IcdDevice, ReportsSpirvAndCollectives) {
  std::string il = deviceString(device_, CL_DEVICE_IL_VERSION);
  EXPECT_NE(il.find("SPIR-V_1."), std::string::npos) << "CL_DEVICE_IL_VERSION is \"" << il << "\"";
  auto ils = deviceInfoArray<cl_name_version>(device_, CL_DEVICE_ILS_WITH_VERSION);
  EXPECT_TRUE(std::any_of(ils.begin(), ils.end(), [](const cl_name_version& v) {
    return std::strcmp(v.name, "SPIR-V") == 0;
  })) << "CL_DEVICE_ILS_WITH_VERSION lacks SPIR-V";
  std::string extensions = deviceString(device_, CL_DEVICE_EXTENSIONS);
  EXPECT_TRUE(hasWord(extensions, "cl_khr_il_program")) << extensions;
  EXPECT_EQ(deviceInfo<cl_bool>(device_, CL_DEVICE_WORK_GROUP_COLLECTIVE_FUNCTIONS_SUPPORT), CL_TRUE);
  EXPECT_EQ(deviceInfo<cl_bool>(device_, CL_DEVICE_NON_UNIFORM_WORK_GROUP_SUPPORT), CL_TRUE);
  // A device with work-group collectives reports the OpenCL C 3.0 feature macro for them.
  auto features = deviceInfoArray<cl_name_version>(device_, CL_DEVICE_OPENCL_C_FEATURES);
  EXPECT_TRUE(std::any_of(features.begin(), features.end(), [](const cl_name_version& v) {
    return std::strcmp(v.name, "__opencl_c_work_group_collective_functions") == 0;
  })) << "CL_DEVICE_OPENCL_C_FEATURES lacks __opencl_c_work_group_collective_functions";
}

TEST_F(IcdDevice, ExtensionsWithVersionMatchTheExtensionString) {
  std::set<std::string> fromString, fromArray;
  std::istringstream words(deviceString(device_, CL_DEVICE_EXTENSIONS));
  for (std::string word; words >> word;) fromString.insert(word);
  for (const cl_name_version& v : deviceInfoArray<cl_name_version>(device_, CL_DEVICE_EXTENSIONS_WITH_VERSION)) {
    EXPECT_TRUE(fromArray.insert(v.name).second) << v.name << " is listed twice";
  }
  EXPECT_EQ(fromString, fromArray);
}

TEST_F(IcdDevice, WorkGroupAndMemoryLimits) {
  size_t maxWorkGroup = deviceInfo<size_t>(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE);
  EXPECT_GT(maxWorkGroup, 0u);
  cl_uint dimensions = deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS);
  EXPECT_GE(dimensions, 3u);
  auto itemSizes = deviceInfoArray<size_t>(device_, CL_DEVICE_MAX_WORK_ITEM_SIZES);
  EXPECT_EQ(itemSizes.size(), dimensions);
  for (size_t size : itemSizes) EXPECT_GT(size, 0u);
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_COMPUTE_UNITS), 1u);
  EXPECT_GT(deviceInfo<cl_ulong>(device_, CL_DEVICE_GLOBAL_MEM_SIZE), 0u);
  EXPECT_GT(deviceInfo<cl_ulong>(device_, CL_DEVICE_MAX_MEM_ALLOC_SIZE), 0u);
  EXPECT_GT(deviceInfo<cl_ulong>(device_, CL_DEVICE_LOCAL_MEM_SIZE), 0u);
  // At least the size of long16, the largest built-in type of the full profile, in bits.
  EXPECT_GE(deviceInfo<cl_uint>(device_, CL_DEVICE_MEM_BASE_ADDR_ALIGN), 1024u);
  EXPECT_NE(
      deviceInfo<cl_command_queue_properties>(device_, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES) & CL_QUEUE_PROFILING_ENABLE,
      0u);
  EXPECT_GT(deviceInfo<size_t>(device_, CL_DEVICE_PROFILING_TIMER_RESOLUTION), 0u);
}

TEST_F(IcdDevice, SizeQueryWithoutValueGivesTheSize) {
  size_t size = 0;
  ASSERT_CL_SUCCESS(clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE, 0, nullptr, &size));
  EXPECT_EQ(size, sizeof(size_t));
  ASSERT_CL_SUCCESS(clGetDeviceInfo(device_, CL_DEVICE_TYPE, 0, nullptr, &size));
  EXPECT_EQ(size, sizeof(cl_device_type));
  ASSERT_CL_SUCCESS(clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_ITEM_SIZES, 0, nullptr, &size));
  EXPECT_EQ(size, deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_WORK_ITEM_DIMENSIONS) * sizeof(size_t));
  ASSERT_CL_SUCCESS(clGetDeviceInfo(device_, CL_DEVICE_OPENCL_C_ALL_VERSIONS, 0, nullptr, &size));
  EXPECT_GT(size, 0u);
  EXPECT_EQ(size % sizeof(cl_name_version), 0u);
  ASSERT_CL_SUCCESS(clGetDeviceInfo(device_, CL_DEVICE_NAME, 0, nullptr, &size));
  EXPECT_EQ(size, deviceString(device_, CL_DEVICE_NAME).size() + 1);
}

TEST_F(IcdDevice, TooSmallValueOrUnknownNameIsInvalidValue) {
  uint32_t halfASize = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof(halfASize), &halfASize, nullptr));
  char tooSmall[1];
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetDeviceInfo(device_, CL_DEVICE_NAME, sizeof(tooSmall), tooSmall, nullptr));
  size_t oneSize = 0;  // CL_DEVICE_MAX_WORK_ITEM_SIZES has one per dimension
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetDeviceInfo(device_, CL_DEVICE_MAX_WORK_ITEM_SIZES, sizeof(oneSize), &oneSize, nullptr));
  char value[64];
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetDeviceInfo(device_, 0x7fff, sizeof(value), value, nullptr));
}

TEST_F(IcdDevice, DeviceEnumerationByType) {
  cl_uint count = 0;
  ASSERT_CL_SUCCESS(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 0, nullptr, &count));
  EXPECT_GE(count, 1u);
  cl_device_id defaultDevice = nullptr;
  EXPECT_CL_SUCCESS(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_DEFAULT, 1, &defaultDevice, nullptr));
  EXPECT_NE(defaultDevice, nullptr);
  cl_device_type type = deviceInfo<cl_device_type>(device_, CL_DEVICE_TYPE);
  cl_uint ofItsType = 0;
  EXPECT_CL_SUCCESS(clGetDeviceIDs(platform_, type & ~CL_DEVICE_TYPE_DEFAULT, 0, nullptr, &ofItsType));
  EXPECT_GE(ofItsType, 1u);
  cl_uint custom = 0;
  EXPECT_CL_ERROR(CL_DEVICE_NOT_FOUND, clGetDeviceIDs(platform_, CL_DEVICE_TYPE_CUSTOM, 0, nullptr, &custom));
  cl_device_id device = nullptr;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 0, &device, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_TYPE, clGetDeviceIDs(platform_, cl_device_type{1} << 40, 1, &device, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_TYPE, clGetDeviceIDs(platform_, 0, 1, &device, nullptr));
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clCreateContextFromType(nullptr, 0, nullptr, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_DEVICE_TYPE, status);
}

TEST_F(IcdContext, QueriesRetainAndRelease) {
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(properties, 1, &device_, nullptr, nullptr, &status);
  ASSERT_CL_SUCCESS(status);
  cl_uint devices = 0, references = 0;
  EXPECT_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_NUM_DEVICES, sizeof(devices), &devices, nullptr));
  EXPECT_EQ(devices, 1u);
  cl_device_id device = nullptr;
  EXPECT_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_DEVICES, sizeof(device), &device, nullptr));
  EXPECT_EQ(device, device_);
  size_t size = 0;
  EXPECT_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_PROPERTIES, 0, nullptr, &size));
  ASSERT_EQ(size, sizeof(properties));
  cl_context_properties returned[3] = {};
  EXPECT_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_PROPERTIES, sizeof(returned), returned, nullptr));
  EXPECT_EQ(std::vector<cl_context_properties>(returned, returned + 3),
            std::vector<cl_context_properties>(properties, properties + 3));
  EXPECT_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 1u);
  EXPECT_CL_SUCCESS(clRetainContext(context));
  EXPECT_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 2u);
  EXPECT_CL_SUCCESS(clReleaseContext(context));
  EXPECT_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 1u);
  EXPECT_CL_SUCCESS(clReleaseContext(context));
}

TEST_F(IcdContext, CreatedFromTypeHoldsTheDevice) {
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
  cl_int status = CL_SUCCESS;
  Context context(clCreateContextFromType(properties, CL_DEVICE_TYPE_ALL, nullptr, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  size_t size = 0;
  ASSERT_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_DEVICES, 0, nullptr, &size));
  std::vector<cl_device_id> devices(size / sizeof(cl_device_id));
  ASSERT_CL_SUCCESS(clGetContextInfo(context, CL_CONTEXT_DEVICES, size, devices.data(), nullptr));
  EXPECT_NE(std::find(devices.begin(), devices.end(), device_), devices.end());
}

TEST_F(IcdContext, InvalidArgumentsAreRefused) {
  cl_context_properties properties[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0};
  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clCreateContext(properties, 0, &device_, nullptr, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  int userData = 0;  // user data without a callback
  EXPECT_EQ(clCreateContext(properties, 1, &device_, nullptr, &userData, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  cl_context_properties unknown[] = {CL_CONTEXT_PLATFORM, reinterpret_cast<cl_context_properties>(platform_), 0x7fff, 1,
                                     0};
  EXPECT_EQ(clCreateContext(unknown, 1, &device_, nullptr, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PROPERTY, status);
  // CL_CONTEXT_INTEROP_USER_SYNC is a cl_bool, given once.
  cl_context_properties notABool[] = {CL_CONTEXT_INTEROP_USER_SYNC, -1, 0};
  EXPECT_EQ(clCreateContext(notABool, 1, &device_, nullptr, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PROPERTY, status);
  cl_context_properties twice[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, CL_CONTEXT_INTEROP_USER_SYNC, CL_FALSE, 0};
  EXPECT_EQ(clCreateContext(twice, 1, &device_, nullptr, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_PROPERTY, status);
  cl_context_properties sync[] = {CL_CONTEXT_INTEROP_USER_SYNC, CL_TRUE, 0};
  Context synced(clCreateContext(sync, 1, &device_, nullptr, nullptr, &status));
  EXPECT_CL_SUCCESS(status);
  cl_device_id notADevice[] = {reinterpret_cast<cl_device_id>(context_.get())};
  EXPECT_EQ(clCreateContext(properties, 1, notADevice, nullptr, nullptr, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_DEVICE, status);
}

TEST_F(IcdQueue, QueriesRetainAndRelease) {
  cl_context context = nullptr;
  EXPECT_CL_SUCCESS(clGetCommandQueueInfo(queue_, CL_QUEUE_CONTEXT, sizeof(context), &context, nullptr));
  EXPECT_EQ(context, context_.get());
  cl_device_id device = nullptr;
  EXPECT_CL_SUCCESS(clGetCommandQueueInfo(queue_, CL_QUEUE_DEVICE, sizeof(device), &device, nullptr));
  EXPECT_EQ(device, device_);
  cl_command_queue_properties properties = 0;
  EXPECT_CL_SUCCESS(clGetCommandQueueInfo(queue_, CL_QUEUE_PROPERTIES, sizeof(properties), &properties, nullptr));
  EXPECT_EQ(properties, CL_QUEUE_PROFILING_ENABLE);
  cl_uint references = 0;
  EXPECT_CL_SUCCESS(clGetCommandQueueInfo(queue_, CL_QUEUE_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 1u);
  EXPECT_CL_SUCCESS(clRetainCommandQueue(queue_));
  EXPECT_CL_SUCCESS(clGetCommandQueueInfo(queue_, CL_QUEUE_REFERENCE_COUNT, sizeof(references), &references, nullptr));
  EXPECT_EQ(references, 2u);
  EXPECT_CL_SUCCESS(clReleaseCommandQueue(queue_));
  EXPECT_CL_SUCCESS(clFlush(queue_));
  EXPECT_CL_SUCCESS(clFinish(queue_));
}

TEST_F(IcdQueue, UnsupportedPropertiesAreRefused) {
  cl_command_queue_properties supported =
      deviceInfo<cl_command_queue_properties>(device_, CL_DEVICE_QUEUE_ON_HOST_PROPERTIES);
  cl_int status = CL_SUCCESS;
  cl_queue_properties outOfOrder[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE, 0};
  Queue queue(clCreateCommandQueueWithProperties(context_, device_, outOfOrder, &status));
  if (supported & CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE) {
    EXPECT_CL_SUCCESS(status);
  } else {
    EXPECT_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES, status);
  }
  if (deviceInfo<cl_device_device_enqueue_capabilities>(device_, CL_DEVICE_DEVICE_ENQUEUE_CAPABILITIES) == 0) {
    cl_queue_properties onDevice[] = {CL_QUEUE_PROPERTIES, CL_QUEUE_ON_DEVICE | CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE,
                                      0};
    EXPECT_EQ(clCreateCommandQueueWithProperties(context_, device_, onDevice, &status), nullptr);
    EXPECT_CL_ERROR(CL_INVALID_QUEUE_PROPERTIES, status);
  }
  cl_queue_properties unknown[] = {0x7fff, 0, 0};
  EXPECT_EQ(clCreateCommandQueueWithProperties(context_, device_, unknown, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
}

}  // namespace
}  // namespace cl2vk::test
