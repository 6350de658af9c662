// A context of two devices (docs/runtime.md, "Buffers"): a buffer's contents move to the device of
// the queue that uses them, device to device through host memory both import, in pieces
// (vulkan::HostRelay). ctest runs these with lavapipe and SwiftShader both visible
// (icd_tests_two_devices, CL2VK_TEST_TWO_DEVICES=1, where fewer than two devices fail the test);
// in a run that sees one device they are skipped, saying so.

#include <cstdlib>
#include <numeric>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

constexpr const char* kSource = R"(
kernel void scale(global uint* values, uint factor, uint add) {
  size_t i = get_global_id(0);
  values[i] = values[i] * factor + add;
}
)";

class TwoDevices : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    if (HasFatalFailure()) return;
    cl_uint count = 0;
    ASSERT_CL_SUCCESS(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 0, nullptr, &count));
    const char* expected = std::getenv("CL2VK_TEST_TWO_DEVICES");
    if (count < 2) {
      ASSERT_FALSE(expected && std::string(expected) == "1") << "the test environment promises two devices";
      GTEST_SKIP() << "one Vulkan device visible: ctest's icd_tests_two_devices runs this with two";
    }
    devices_.resize(2);
    ASSERT_CL_SUCCESS(clGetDeviceIDs(platform_, CL_DEVICE_TYPE_ALL, 2, devices_.data(), nullptr));
    cl_int error = CL_SUCCESS;
    both_.reset(clCreateContext(nullptr, 2, devices_.data(), nullptr, nullptr, &error));
    ASSERT_CL_SUCCESS(error);
    for (int d = 0; d < 2; ++d) {
      queues_[d].reset(clCreateCommandQueueWithProperties(both_, devices_[d], nullptr, &error));
      ASSERT_CL_SUCCESS(error);
    }
    const char* source = kSource;
    program_.reset(clCreateProgramWithSource(both_, 1, &source, nullptr, &error));
    ASSERT_CL_SUCCESS(error);
    ASSERT_CL_SUCCESS(clBuildProgram(program_, 2, devices_.data(), "", nullptr, nullptr));
    scale_ = createKernel(program_, "scale");
  }

  // Runs `values = values * factor + add` over `count` values on device `d`, after `waitList`.
  void scaleOn(int d, cl_mem values, size_t count, cl_uint factor, cl_uint add, std::vector<cl_event> waitList,
               cl_event* event) {
    setArgs(scale_, values, factor, add);
    ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queues_[d], scale_, 1, nullptr, &count, nullptr,
                                             static_cast<cl_uint>(waitList.size()),
                                             waitList.empty() ? nullptr : waitList.data(), event));
  }

  std::vector<cl_device_id> devices_;
  Context both_;
  Queue queues_[2];
  Program program_;
  Kernel scale_;
};

// A buffer larger than a transfer's piece (16 MiB) goes back and forth between the devices, each
// step waiting for the one before on the other device: every step sees the last one's results.
TEST_F(TwoDevices, ABufferMovesBetweenTheDevicesOfOneContextWithItsContents) {
  constexpr size_t kCount = (40u << 20) / sizeof(cl_uint) + 123;  // 40 MiB and a partial piece
  std::vector<cl_uint> values(kCount);
  std::iota(values.begin(), values.end(), 7u);
  cl_int error = CL_SUCCESS;
  Buffer buffer(
      clCreateBuffer(both_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, kCount * sizeof(cl_uint), values.data(), &error));
  ASSERT_CL_SUCCESS(error);
  std::vector<Event> steps(5);
  for (size_t s = 0; s < steps.size(); ++s) {
    std::vector<cl_event> waitList;
    if (s > 0) waitList.push_back(steps[s - 1].get());
    cl_uint factor = 3 + static_cast<cl_uint>(s), add = 11 * static_cast<cl_uint>(s);
    scaleOn(static_cast<int>(s % 2), buffer, kCount, factor, add, waitList, steps[s].put());
    for (cl_uint& value : values) value = value * factor + add;
  }
  std::vector<cl_uint> got(kCount);
  cl_event last = steps.back().get();
  // Read on the other device's queue: the contents come back from the device that ran last.
  ASSERT_CL_SUCCESS(
      clEnqueueReadBuffer(queues_[1], buffer, CL_TRUE, 0, kCount * sizeof(cl_uint), got.data(), 1, &last, nullptr));
  ASSERT_EQ(got.size(), values.size());
  for (size_t i = 0; i < kCount; i += 4093) ASSERT_EQ(got[i], values[i]) << "value " << i;
  EXPECT_EQ(got, values);
}

}  // namespace
}  // namespace cl2vk::test
