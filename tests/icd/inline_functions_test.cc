// Plain C99 `inline` functions through clBuildProgram: CLBlast on NVIDIA defines its helpers so,
// and LLVM leaves a call to one whose body is too large to inline, which used to reach the
// translator as a call to a function with no body (docs/clients.md, "CLBlast"). The reproduction
// (tests/clients/repro/inline_function_not_inlined.cl, a tiled transpose through a __local tile
// passed to an `inline` helper) builds and transposes as the CPU does, optimized and not.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "icd_test_util.h"
#include "test_util.h"

namespace cl2vk::test {
namespace {

class IcdInlineFunctions : public IcdTest, public testing::WithParamInterface<const char*> {};

TEST_P(IcdInlineFunctions, HelperTheOptimizerKeepsAsACallRuns) {
  std::vector<uint8_t> text = readFile(sourceDir() / "tests" / "clients" / "repro" / "inline_function_not_inlined.cl");
  Program program = buildSource(std::string(text.begin(), text.end()), GetParam());
  ASSERT_TRUE(program);
  Kernel kernel = createKernel(program, "transpose");
  ASSERT_TRUE(kernel);

  // 200 is not a multiple of a work-group's 64x64 block (16x16 items of 4x4), so edges are tested.
  constexpr cl_int n = 200;
  constexpr size_t kBlock = 64, kTile = 16;
  std::vector<float> source(n * n), expected(n * n);
  for (int i = 0; i < n * n; ++i) source[i] = static_cast<float>(i % 977) - 300.5f;
  for (int row = 0; row < n; ++row) {
    for (int column = 0; column < n; ++column) expected[column * n + row] = source[row * n + column];
  }
  Buffer src = bufferOf(source);
  Buffer dst = bufferOf(std::vector<float>(n * n, -1.0f));
  setArgs(kernel, src, dst, n);
  size_t groups = (n + kBlock - 1) / kBlock;
  size_t global[2] = {groups * kTile, groups * kTile}, local[2] = {kTile, kTile};
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 2, nullptr, global, local, 0, nullptr, nullptr));
  std::vector<float> result = read<float>(dst, n * n);
  int wrong = 0;
  for (int i = 0; i < n * n; ++i) {
    if (result[i] != expected[i] && ++wrong <= 5) {
      ADD_FAILURE() << "dst[" << i / n << "][" << i % n << "] = " << result[i] << ", the CPU says " << expected[i];
    }
  }
  EXPECT_EQ(wrong, 0);
}

INSTANTIATE_TEST_SUITE_P(Options, IcdInlineFunctions, testing::Values("", "-cl-opt-disable", "-cl-std=CL2.0"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           if (name.empty()) return std::string("Default");
                           return name == "-cl-opt-disable" ? std::string("OptDisable") : std::string("CL2_0");
                         });

}  // namespace
}  // namespace cl2vk::test
