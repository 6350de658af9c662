// Generic pointers through the ICD, from OpenCL C source: NULL of every address space compared
// through generic pointers (the CTS's generic_address_space compare_pointers, one of whose kernels
// clang-15 -O2 folds into a cast between __local and __global that made llvm-spirv-15 crash), and
// pointers into two spaces chosen at run time, as the runtime compiles them.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "icd_test_util.h"
#include "test_util.h"

namespace cl2vk::test {
namespace {

// Each bit of the result is one comparison that OpenCL says is true.
constexpr const char* kComparisons = R"(
global int table[5] = {0, 1, 2, 3, 4};

kernel void compare_pointers(global uint* results) {
  size_t i = get_global_id(0);
  local int shared;
  shared = 7;
  int mine = 7;
  int* p = NULL;
  local int* lp = NULL;
  global int* gp = NULL;
  private int* pp = NULL;
  uint r = 0;
  r |= (uint)(p == NULL) << 0;
  r |= (uint)(p == gp) << 1;
  r |= (uint)(p == lp) << 2;
  r |= (uint)(p == pp) << 3;
  p = lp;
  r |= (uint)((gp == p) && (lp == p)) << 4;
  r |= (uint)(p != (int*)&mine) << 5;
  r |= (uint)(p != (int*)&shared) << 6;
  r |= (uint)((int*)&table[1] != NULL) << 7;
  r |= (uint)(&table[3] >= (int*)&table[1]) << 8;
  // A pointer into __local or __global memory as the id decides, compared with both and with NULL.
  int* either = (i & 1) ? (int*)&table[2] : (int*)&shared;
  r |= (uint)((either == (int*)&shared) == !(i & 1)) << 9;
  r |= (uint)((either == (int*)&table[2]) == (i & 1)) << 10;
  r |= (uint)(either != NULL) << 11;
  r |= (uint)(*either == ((i & 1) ? 2 : 7)) << 12;
  results[i] = r;
}
)";

class IcdGenericPointers : public IcdTest, public testing::WithParamInterface<const char*> {};

TEST_P(IcdGenericPointers, NullOfEverySpaceAndPointersIntoTwoSpacesCompareAsOpenclSays) {
  Program program = buildSource(kComparisons, GetParam());
  ASSERT_TRUE(program);
  Kernel kernel = createKernel(program, "compare_pointers");
  ASSERT_TRUE(kernel);
  constexpr size_t n = 64;
  Buffer results = bufferOf(std::vector<cl_uint>(n, 0));
  setArgs(kernel, results);
  size_t global = n, local = 32;
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  std::vector<cl_uint> out = read<cl_uint>(results, n);
  constexpr cl_uint kAll = (1u << 13) - 1;
  for (size_t i = 0; i < n; ++i)
    EXPECT_EQ(out[i], kAll) << "work-item " << i << ": the false comparisons are the 0 bits";
}

INSTANTIATE_TEST_SUITE_P(Options, IcdGenericPointers, testing::Values("-cl-std=CL3.0", "-cl-std=CL3.0 -cl-opt-disable"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           return std::string(info.index == 0 ? "Optimized" : "OptDisable");
                         });

}  // namespace
}  // namespace cl2vk::test
