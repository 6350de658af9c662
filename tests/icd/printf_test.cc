// printf through the OpenCL API: a kernel built from source prints, and the text reaches the
// process's stdout once the kernel is done (captured here); the printf buffer is hidden from the
// application's arguments, and CL_DEVICE_PRINTF_BUFFER_SIZE is its true size.

#include <algorithm>
#include <sstream>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

constexpr const char* kPrinting = R"(
kernel void greet(global int* out, float f, int4 v) {
  int id = (int)get_global_id(0);
  out[id] = printf("%d: %s %c %5.1f|%v4hld|%v4f|%a|%-4d|%%\n", id, "hi", 'x', f, v, convert_float4(v), f, id);
}
)";

class IcdPrintf : public IcdTest {};

TEST_F(IcdPrintf, EachWorkItemsLineReachesStdoutAfterTheKernel) {
  Program program = buildSource(kPrinting);
  ASSERT_TRUE(program);
  Kernel kernel = createKernel(program, "greet");
  ASSERT_TRUE(kernel);
  cl_uint arguments = 0;
  ASSERT_CL_SUCCESS(clGetKernelInfo(kernel, CL_KERNEL_NUM_ARGS, sizeof arguments, &arguments, nullptr));
  EXPECT_EQ(arguments, 3u);  // the printf buffer is not one of them

  const size_t n = 4;
  Buffer out = bufferOf(std::vector<int>(n, 7));
  cl_int4 v = {{1, -2, 3, -4}};
  setArgs(kernel, out, 2.25f, v);
  testing::internal::CaptureStdout();
  run1d(kernel, n, 2);
  std::string text = testing::internal::GetCapturedStdout();

  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());  // work-items may print in any order
  std::vector<std::string> expected;
  for (size_t id = 0; id < n; ++id) {
    std::string pad(id < 10 ? 3 : 2, ' ');
    expected.push_back(std::to_string(id) + ": hi x   2.2|1,-2,3,-4|1.000000,-2.000000,3.000000,-4.000000|0x1.2p+1|" +
                       std::to_string(id) + pad + "|%");
  }
  EXPECT_EQ(lines, expected);
  EXPECT_EQ(read<int>(out, n), std::vector<int>(n, 0));
}

TEST_F(IcdPrintf, DeviceReportsItsPrintfBufferSize) {
  EXPECT_EQ(deviceInfo<size_t>(device_, CL_DEVICE_PRINTF_BUFFER_SIZE), size_t{1024 * 1024});
}

}  // namespace
}  // namespace cl2vk::test
