// Plain C99 `inline` functions through clBuildProgram: CLBlast on NVIDIA defines its helpers so,
// and LLVM leaves a call to one whose body is too large to inline, which used to reach the
// translator as a call to a function with no body (docs/clients.md, "CLBlast"). The reproduction
// (tests/clients/repro/inline_function_not_inlined.cl, a tiled transpose through a __local tile
// passed to an `inline` helper) builds and transposes as the CPU does, optimized and not. A struct
// passed by value to a helper that changes its copy leaves the caller's struct as it was (clang
// -O0 passes the caller's own variable; it used to come back changed).
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

TEST_P(IcdInlineFunctions, StructPassedByValueStaysTheCallersWhenTheHelperWritesItsCopy) {
  Program program = buildSource(R"(
typedef struct { char tag; int value; short small; long big; } Item;
__attribute__((noinline)) int twice(Item item) {
  item.value *= 2;
  item.big += 1;
  return item.value + (int)(item.big >> 40);
}
kernel void k(global const int* in, global int* out) {
  size_t i = get_global_id(0);
  Item item = {(char)i, in[i], (short)(i * 3), (long)i << 40};
  out[3 * i] = twice(item);
  out[3 * i + 1] = item.value;
  out[3 * i + 2] = (int)(item.big >> 40) + item.small;
}
)",
                                GetParam());
  ASSERT_TRUE(program);
  Kernel kernel = createKernel(program, "k");
  ASSERT_TRUE(kernel);
  constexpr size_t n = 64;
  std::vector<cl_int> in(n);
  for (size_t i = 0; i < n; ++i) in[i] = static_cast<cl_int>(i * 7) - 100;
  Buffer input = bufferOf(in);
  Buffer out = bufferOf(std::vector<cl_int>(3 * n, -1));
  setArgs(kernel, input, out);
  run1d(kernel, n);
  std::vector<cl_int> result = read<cl_int>(out, 3 * n);
  for (size_t i = 0; i < n; ++i) {
    cl_int value = in[i], index = static_cast<cl_int>(i);
    ASSERT_EQ(result[3 * i], 2 * value + index) << "work-item " << i;
    ASSERT_EQ(result[3 * i + 1], value) << "work-item " << i << ": the caller's struct changed";
    ASSERT_EQ(result[3 * i + 2], index + 3 * index) << "work-item " << i;
  }
}

INSTANTIATE_TEST_SUITE_P(Options, IcdInlineFunctions, testing::Values("", "-cl-opt-disable", "-cl-std=CL2.0"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           if (name.empty()) return std::string("Default");
                           return name == "-cl-opt-disable" ? std::string("OptDisable") : std::string("CL2_0");
                         });

}  // namespace
}  // namespace cl2vk::test
