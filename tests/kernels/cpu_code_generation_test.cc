// What llvmpipe compiled wrong, or not at all, on a CPU without AVX-512 (a 2-core AMD EPYC with
// AVX2), and right on one with it: rounding doubles to whole numbers (rint(1.5) was 1, every double
// above 2^24 came back unrounded) and a sub-group broadcast of a float narrowed from a double
// (LLVM aborted the process; any broadcast-first of a value float arithmetic computed does). The
// translation now avoids both on llvmpipe (lower-double-rounding, broadcast-first-by-lane). ctest runs these again,
// with the double math functions they broke, under GALLIUM_OVERRIDE_CPU_CAPS=avx, which gives llvmpipe an AVX2
// machine's code generation on any x86 CPU (kernel_tests_as_on_avx2).

#include <bit>
#include <climits>
#include <cmath>
#include <limits>
#include <map>
#include <random>

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class CpuCodeGeneration : public KernelTest {};

// Halfway cases and their neighbours, values on both sides of 2^24, 2^31, 2^52 and 2^53, the
// special values, and random doubles over every exponent and over [-2^40, 2^40].
std::vector<double> roundingInputs() {
  std::vector<double> values;
  for (double v : {0.0,
                   0.5,
                   1.5,
                   2.5,
                   3.5,
                   0x1p24 + 0.5,
                   0x1p24 + 1.5,
                   0x1p31 + 0.5,
                   0x1p33 + 0.25,
                   0x1p33 + 0.5,
                   0x1p33 + 0.75,
                   0x1p52 - 0.5,
                   0x1p52 - 1.5,
                   0x1p52,
                   0x1p52 + 1,
                   0x1p53,
                   0x1p53 + 2,
                   0x1.00caa82a2e5ep+33,
                   0x1.7e5faf425ff7fp+35,
                   1e300,
                   std::numeric_limits<double>::max(),
                   std::numeric_limits<double>::denorm_min(),
                   std::numeric_limits<double>::min(),
                   std::numeric_limits<double>::infinity(),
                   std::numeric_limits<double>::quiet_NaN()}) {
    for (double w : {v, std::nextafter(v, 0.0), std::nextafter(v, INFINITY)}) values.push_back(w), values.push_back(-w);
  }
  std::mt19937_64 random(21);
  std::uniform_real_distribution<double> wide(-0x1p40, 0x1p40);
  for (int i = 0; i < 2048; ++i) {
    double bits = std::bit_cast<double>(random());
    if (std::isfinite(bits)) values.push_back(bits);
    values.push_back(wide(random));
    values.push_back(std::ldexp(wide(random), -40));
  }
  return values;
}

// The same double, NaN matching any NaN, zeros by their sign.
::testing::AssertionResult sameDouble(double actual, double expected) {
  if ((std::isnan(actual) && std::isnan(expected)) ||
      std::bit_cast<uint64_t>(actual) == std::bit_cast<uint64_t>(expected))
    return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << std::hexfloat << actual << " instead of " << expected;
}

// convert_<long or int>_sat_rte: to nearest even, clamped to the type's range, NaN to 0.
template <typename T>
int64_t saturatedNearest(double x) {
  if (std::isnan(x)) return 0;
  double rounded = std::nearbyint(x);
  if (rounded <= static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::min();
  if (rounded >= -static_cast<double>(std::numeric_limits<T>::min())) return std::numeric_limits<T>::max();
  return static_cast<int64_t>(rounded);
}

TEST_P(CpuCodeGeneration, DoubleRoundingIsExact) {
  if (!sharedDevice().info().features.shaderFloat64)
    GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  auto k = kernel("double_rounding", "double_rounding");
  ASSERT_TRUE(k);
  std::vector<double> x = roundingInputs();
  auto dx = buffer(x), dout = buffer(std::vector<double>(8 * x.size(), 0));
  auto dwhole = buffer(std::vector<int64_t>(2 * x.size(), 0));
  run(*k, range1d(x.size()), {KernelArg::buffer(dx), KernelArg::buffer(dout), KernelArg::buffer(dwhole)});
  std::vector<double> out = read<double>(dout, 8 * x.size());
  std::vector<int64_t> whole = read<int64_t>(dwhole, 2 * x.size());
  size_t failures = 0;
  for (size_t i = 0; i < x.size() && failures < 20; ++i) {
    const double* o = &out[8 * i];
    double integral;
    double fraction = std::modf(x[i], &integral);
    for (auto [name, actual, expected] :
         {std::tuple{"rint", o[0], std::nearbyint(x[i])}, std::tuple{"trunc", o[1], std::trunc(x[i])},
          std::tuple{"round", o[2], std::round(x[i])}, std::tuple{"floor", o[3], std::floor(x[i])},
          std::tuple{"ceil", o[4], std::ceil(x[i])}, std::tuple{"modf's fraction", o[5], fraction},
          std::tuple{"modf's whole part", o[6], integral},
          std::tuple{"rint of a double2", o[7], std::nearbyint(-x[i])}}) {
      ::testing::AssertionResult same = sameDouble(actual, expected);
      if (!same) ++failures;
      EXPECT_TRUE(same) << name << "(" << std::hexfloat << x[i] << ")";
    }
    EXPECT_EQ(whole[2 * i], saturatedNearest<int64_t>(x[i])) << "convert_long_sat_rte(" << std::hexfloat << x[i] << ")";
    EXPECT_EQ(whole[2 * i + 1], saturatedNearest<int32_t>(x[i]))
        << "convert_int_sat_rte(" << std::hexfloat << x[i] << ")";
  }
}

TEST_P(CpuCodeGeneration, BroadcastFirstOfComputedFloats) {
  const vulkan::DeviceInfo& info = sharedDevice().info();
  if (!info.features.shaderFloat64) GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  if (!info.subgroup.supportsInCompute(VK_SUBGROUP_FEATURE_BALLOT_BIT))
    GTEST_SKIP() << "the device has no subgroup ballot operations, which sub_group_broadcast_first needs";
  auto k = kernel("double_rounding", "broadcast_first_of_computed");
  ASSERT_TRUE(k);
  std::vector<double> x(1024);
  for (size_t i = 0; i < x.size(); ++i) x[i] = 0.1 * static_cast<double>(i) - 7;
  auto dx = buffer(x), dout = buffer(std::vector<double>(3 * x.size(), 0));
  auto dlanes = buffer(std::vector<uint32_t>(2 * x.size(), 0));
  run(*k, range1d(x.size(), 64), {KernelArg::buffer(dx), KernelArg::buffer(dout), KernelArg::buffer(dlanes)});
  std::vector<double> out = read<double>(dout, 3 * x.size());
  std::vector<uint32_t> lanes = read<uint32_t>(dlanes, 2 * x.size());
  // Every work-item gets what the first one of its sub-group (lane 0: all are active) holds.
  std::map<uint32_t, size_t> firstOf;
  for (size_t i = 0; i < x.size(); ++i) {
    if (lanes[2 * i + 1] == 0) firstOf[lanes[2 * i]] = i;
  }
  for (size_t i = 0; i < x.size(); ++i) {
    auto first = firstOf.find(lanes[2 * i]);
    ASSERT_NE(first, firstOf.end()) << "sub-group " << lanes[2 * i] << " has no lane 0";
    double source = x[first->second];
    ASSERT_EQ(out[3 * i], static_cast<float>(source)) << "work-item " << i;
    ASSERT_EQ(out[3 * i + 1], static_cast<float>(source * 3.0)) << "work-item " << i;
    ASSERT_EQ(out[3 * i + 2], static_cast<float>(source) * 0.5f) << "work-item " << i;
  }
}

CL2VK_KERNEL_TEST_SUITE(CpuCodeGeneration, "O0", "O2");

}  // namespace
}  // namespace cl2vk::test
