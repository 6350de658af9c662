// spirv/kernels/counted_loops.cl on the Vulkan device, each result compared with the CPU: the loops
// unroll-loops runs several iterations per pass (docs/architecture.md) give what the loop gives for
// every trip count, including those that end inside a pass and those too short for one.

#include <random>

#include "cl2vk/spirv.h"
#include "kernel_test_util.h"
#include "test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class CountedLoops : public KernelTest {};

template <typename T>
std::vector<T> randomValues(size_t n, uint32_t seed, T low, T high) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<T> dist(low, high);
  std::vector<T> values(n);
  for (T& v : values) v = dist(random);
  return values;
}

// The optimized builds are unrolled: each of the five loops gains four copies of its body, with a
// buffer load or two each, over the same build translated with --loop-unroll=1. -O0's loops test
// at the top, which the pass leaves alone.
TEST_P(CountedLoops, OptimizedBuildsAreUnrolled) {
  std::vector<uint32_t> words =
      readWords(corpusDir() / corpusFolder() / (std::string("counted_loops.") + GetParam() + ".spv"));
  auto loads = [&](uint32_t unroll) -> size_t {
    Target target = this->target();
    target.loopUnroll = unroll;
    Expected<Translation> translation = cl2vk::translate(words, target);
    EXPECT_TRUE(translation.ok()) << translation.error().message();
    if (!translation) return 0;
    Expected<std::string> text = cl2vk::disassemble(translation->spirv);
    if (!text) return 0;
    size_t count = 0;
    for (size_t at = text->find("= OpLoad"); at != std::string::npos; at = text->find("= OpLoad", at + 1)) ++count;
    return count;
  };
  size_t unrolled = loads(4), kept = loads(1);
  if (std::string(GetParam()) == "O0") {
    EXPECT_EQ(unrolled, kept);
  } else {
    EXPECT_GE(unrolled, kept + 5 * 4);
  }
}

// Trip counts 0 to 13 across the work-items, for strides 1, 3 and 64.
TEST_P(CountedLoops, StridedSumMatchesTheCpu) {
  auto k = kernel("counted_loops", "strided_sum");
  ASSERT_TRUE(k);
  const int items = 64, size = 2048;
  std::vector<int> x = randomValues<int>(size, 21, -50, 50);
  auto dx = buffer(x), dout = buffer(std::vector<int>(items)), dlast = buffer(std::vector<int>(items));
  for (int stride : {1, 3, 64}) {
    for (int n : {0, 1, 40, items + 3 * stride, items + 13 * stride - 7}) {
      const int start = 5;
      run(*k, range1d(items, 16),
          {KernelArg::buffer(dx), KernelArg::buffer(dout), KernelArg::buffer(dlast), KernelArg::value(start),
           KernelArg::value(n), KernelArg::value(stride)});
      auto out = read<int>(dout, items), last = read<int>(dlast, items);
      for (int g = 0; g < items; ++g) {
        int i = start + g, acc = 0;
        for (; i < n; i += stride) acc += x[i] * (i & 7);
        ASSERT_EQ(out[g], acc) << "stride " << stride << ", n " << n << ", item " << g;
        ASSERT_EQ(last[g], i) << "stride " << stride << ", n " << n << ", item " << g;
      }
    }
  }
}

TEST_P(CountedLoops, StridedDownMatchesTheCpu) {
  auto k = kernel("counted_loops", "strided_down");
  ASSERT_TRUE(k);
  const int items = 48, from = 40;
  std::vector<int> x = randomValues<int>(from + 1, 22, -9, 9);
  auto dx = buffer(x), dout = buffer(std::vector<int>(items));
  for (int stride : {1, 2, 5}) {
    run(*k, range1d(items, 16),
        {KernelArg::buffer(dx), KernelArg::buffer(dout), KernelArg::value(from), KernelArg::value(stride)});
    auto out = read<int>(dout, items);
    for (int g = 0; g < items; ++g) {
      uint32_t acc = 1;  // the kernel's int arithmetic wraps on the device; unsigned here says so
      for (int i = from - g; i >= 0; i -= stride) acc = acc * 3u + static_cast<uint32_t>(x[i]);
      ASSERT_EQ(static_cast<uint32_t>(out[g]), acc) << "stride " << stride << ", item " << g;
    }
  }
}

// From UINT_MAX - 20 + g to 9 with stride 1: 30 - g iterations, across the wrap; item 30 none.
TEST_P(CountedLoops, WrappingIndexMatchesTheCpu) {
  auto k = kernel("counted_loops", "wrapping_index");
  ASSERT_TRUE(k);
  const uint32_t items = 31, start = UINT32_MAX - 20, end = 9, stride = 1;
  std::vector<uint32_t> x = randomValues<uint32_t>(256, 23, 0, 1000);
  auto dx = buffer(x), dout = buffer(std::vector<uint32_t>(items));
  run(*k, range1d(items),
      {KernelArg::buffer(dx), KernelArg::buffer(dout), KernelArg::value(start), KernelArg::value(end),
       KernelArg::value(stride)});
  auto out = read<uint32_t>(dout, items);
  for (uint32_t g = 0; g < items; ++g) {
    uint32_t acc = 0;
    for (uint32_t i = start + g; i != end; i += stride) acc = acc * 31u + x[i & 255u];
    ASSERT_EQ(out[g], acc) << g;
  }
}

TEST_P(CountedLoops, GeometricIndexMatchesTheCpu) {
  auto k = kernel("counted_loops", "geometric_index");
  ASSERT_TRUE(k);
  const uint32_t items = 40;
  std::vector<uint32_t> x = randomValues<uint32_t>(1000, 24, 0, 1u << 20);
  auto dx = buffer(x), dout = buffer(std::vector<uint32_t>(items));
  for (uint32_t n : {1u, 2u, 100u, 5000u, 70000u}) {
    run(*k, range1d(items), {KernelArg::buffer(dx), KernelArg::buffer(dout), KernelArg::value(n)});
    auto out = read<uint32_t>(dout, items);
    for (uint32_t g = 0; g < items; ++g) {
      uint32_t acc = 0;
      for (uint32_t i = g + 1; i < n; i = i * 2u + 1u) acc += x[i % 1000u] ^ i;
      ASSERT_EQ(out[g], acc) << "n " << n << ", item " << g;
    }
  }
}

// One addition (and one more where x is over the limit) per element: exact.
TEST_P(CountedLoops, StridedUpdateMatchesTheCpu) {
  auto k = kernel("counted_loops", "strided_update");
  ASSERT_TRUE(k);
  const int size = 1000, items = 32;
  const float limit = 0.5f;
  std::mt19937 random(25);
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> x(size), y(size), z(size);
  for (int i = 0; i < size; ++i) x[i] = dist(random), y[i] = dist(random), z[i] = dist(random);
  for (int stride : {items, 3 * items}) {  // no element is two items'
    for (int n : {0, 20, size - 1}) {
      auto dx = buffer(x), dy = buffer(y), dz = buffer(z);
      run(*k, range1d(items, 8),
          {KernelArg::buffer(dx), KernelArg::buffer(dy), KernelArg::buffer(dz), KernelArg::value(limit),
           KernelArg::value(n), KernelArg::value(stride)});
      std::vector<float> expected = y;
      for (int g = 0; g < items; ++g) {
        for (int i = g; i < n; i += stride) {
          float v = x[i];
          if (v > limit) v += z[i];
          expected[i] += v;
        }
      }
      auto out = read<float>(dy, size);
      for (int i = 0; i < size; ++i) ASSERT_EQ(out[i], expected[i]) << "stride " << stride << ", n " << n << ", " << i;
    }
  }
}

CL2VK_KERNEL_TEST_SUITE(CountedLoops, "O0", "O2", "CL12");

}  // namespace
}  // namespace cl2vk::test
