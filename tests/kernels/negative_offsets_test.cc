// Pointers moved backward by an index that is negative at run time (spirv/kernels/negative_offsets.cl):
// a store and a load through a pointer moved forward then back, a pointer moved back then indexed
// forward, and the CTS's vstore_half3 through a pointer moved back for the last work-item. NVIDIA's
// driver lost every one of these accesses until signed-offsets-as-integers moved such pointers by
// integer arithmetic on their addresses.

#include <string>
#include <vector>

#include "ir/types.h"
#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class NegativeOffsets : public KernelTest {};

TEST_P(NegativeOffsets, StoresAndLoadsThroughPointersMovedBack) {
  const size_t n = 96;
  for (int32_t back : {1, 3, 40}) {
    SCOPED_TRACE("back " + std::to_string(back));
    {
      auto k = kernel("negative_offsets", "stored_back");
      ASSERT_TRUE(k);
      auto out = buffer(std::vector<int32_t>(n, 0));
      run(*k, range1d(n), {KernelArg::buffer(out), KernelArg::value(back)});
      auto values = read<int32_t>(out, n);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(values[i], static_cast<int32_t>(i) + 1) << "stored_back " << i;
    }
    {
      auto k = kernel("negative_offsets", "loaded_back");
      ASSERT_TRUE(k);
      std::vector<int32_t> input(n + back);
      for (size_t i = 0; i < input.size(); ++i) input[i] = static_cast<int32_t>(7 * i + 2);
      auto in = buffer(input), out = buffer(std::vector<int32_t>(n, 0));
      run(*k, range1d(n), {KernelArg::buffer(in), KernelArg::buffer(out), KernelArg::value(back)});
      auto values = read<int32_t>(out, n);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(values[i], input[i] * 3) << "loaded_back " << i;
    }
    {
      auto k = kernel("negative_offsets", "member_back");
      ASSERT_TRUE(k);
      std::vector<int32_t> pairs(2 * (n + back));
      for (size_t i = 0; i < pairs.size(); ++i) pairs[i] = static_cast<int32_t>(i * i % 1000);
      auto in = buffer(pairs), out = buffer(std::vector<int32_t>(n, 0));
      run(*k, range1d(n), {KernelArg::buffer(in), KernelArg::buffer(out), KernelArg::value(back)});
      auto values = read<int32_t>(out, n);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(values[i], pairs[2 * i + 1] - pairs[2 * i]) << "member_back " << i;
    }
    {
      auto k = kernel("negative_offsets", "back_then_forward");
      ASSERT_TRUE(k);
      auto out = buffer(std::vector<int32_t>(n, 0));
      run(*k, range1d(n), {KernelArg::buffer(out), KernelArg::value(back)});
      auto values = read<int32_t>(out, n);
      for (size_t i = 0; i < n; ++i) ASSERT_EQ(values[i], static_cast<int32_t>(i) + 5) << "back_then_forward " << i;
    }
  }
}

TEST_P(NegativeOffsets, VstoreHalf3ThroughAPointerMovedBack) {
  auto k = kernel("negative_offsets", "vstore_half3_back");
  ASSERT_TRUE(k);
  // At least 2 work-items where the last moves back: it reads 3 floats from 3 * i - adjust, which
  // a single work-item would take from before the buffer.
  for (uint32_t items : {1u, 7u, 64u}) {
    for (uint32_t extra : {0u, 1u, 2u}) {
      if (items == 1 && extra != 0) continue;
      // The last work-item writes `extra` halves past the others' 3 * (items - 1).
      const size_t halves = extra ? 3 * (items - 1) + extra : 3 * items;
      std::vector<float> input(halves);
      for (size_t j = 0; j < halves; ++j) input[j] = 1.0f + static_cast<float>(j % 1024);
      auto in = buffer(input), out = buffer(std::vector<uint16_t>(halves, 0xabab));
      run(*k, range1d(items), {KernelArg::buffer(in), KernelArg::buffer(out), KernelArg::value(extra)});
      auto values = read<uint16_t>(out, halves);
      for (size_t j = 0; j < halves; ++j)
        ASSERT_EQ(values[j], ir::floatToHalfBits(input[j])) << items << " items, extra " << extra << ", half " << j;
    }
  }
}

CL2VK_KERNEL_TEST_SUITE(NegativeOffsets, "O0", "O2", "CL12", "CL30");

}  // namespace
}  // namespace cl2vk::test
