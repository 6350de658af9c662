// shuffle and shuffle2 with masks computed at run time, for every size OpenCL allows (2, 4, 8 and
// 16 components in and out; the 8- and 16-wide ones go through lower-wide-vectors) and every
// element type (spirv/kernels/shuffles*.cl), compared bit for bit with the CPU: component k of the
// result is component mask[k] mod n of x, or of x then y for shuffle2 (mask[k] mod 2n).

#include <cstring>
#include <random>

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class Shuffles : public KernelTest {};

// One shuffle of the kernel: its result's place among the work-item's outputs, the components of
// a and b it reads (first and count; b only for shuffle2) and of the mask, in order.
struct Shape {
  size_t out, resultCount;
  size_t xFirst, xCount;  // in a
  size_t yFirst;          // in b, xCount of them; kNoY for shuffle
  std::vector<size_t> maskComponents;
};
constexpr size_t kNoY = ~size_t{0};

std::vector<size_t> range(size_t first, size_t count, size_t step = 1) {
  std::vector<size_t> r;
  for (size_t i = 0; i < count; ++i) r.push_back(first + i * step);
  return r;
}

// The shuffles of SHUFFLES (spirv/include/cl2vk_shuffles.h), in its order.
const std::vector<Shape>& shapes() {
  static const std::vector<Shape> all = {
      {0, 16, 0, 16, kNoY, range(0, 16)}, {16, 8, 0, 8, kNoY, range(0, 8)},   {24, 4, 0, 4, kNoY, range(8, 4)},
      {28, 2, 0, 2, kNoY, range(0, 2)},   {30, 16, 0, 4, kNoY, range(0, 16)}, {46, 4, 0, 16, kNoY, range(4, 4)},
      {50, 16, 0, 16, 0, range(0, 16)},   {66, 8, 0, 8, 8, range(8, 8)},      {74, 16, 0, 2, 2, range(0, 16)},
      {90, 2, 0, 16, 0, range(9, 2)},     {92, 8, 0, 4, 4, range(1, 8, 2)},   {100, 2, 0, 8, 0, range(14, 2)},
  };
  return all;
}
constexpr size_t kOutputsPerItem = 102;

// Runs shuffles_<type> over random bits (`Bits` the element's size; floats with a finite
// exponent, so that no NaN's payload is in question) and masks over their whole range.
template <typename Bits>
void checkShuffles(Shuffles& test, const std::string& file, const std::string& type, bool isFloat) {
  auto k = test.kernel(file, "shuffles_" + type);
  ASSERT_TRUE(k);
  const size_t items = 64;
  std::mt19937_64 random(std::hash<std::string>{}(type));
  std::vector<Bits> in(32 * items), masks(16 * items);
  constexpr int kBits = 8 * sizeof(Bits);
  for (Bits& v : in) {
    v = static_cast<Bits>(random());
    if (isFloat) {
      Bits exponentTop = Bits(1) << (kBits - 2);  // clears the top exponent bit: never inf or NaN
      v &= static_cast<Bits>(~exponentTop);
    }
  }
  for (Bits& m : masks) m = static_cast<Bits>(random());
  auto din = test.buffer(in), dmasks = test.buffer(masks),
       dout = test.buffer(std::vector<Bits>(kOutputsPerItem * items));
  test.run(*k, KernelTest::range1d(items),
           {KernelArg::buffer(din), KernelArg::buffer(dmasks), KernelArg::buffer(dout)});
  std::vector<Bits> out = test.template read<Bits>(dout, kOutputsPerItem * items);
  for (size_t i = 0; i < items; ++i) {
    const Bits* a = &in[32 * i];
    const Bits* b = &in[32 * i + 16];
    const Bits* m = &masks[16 * i];
    for (const Shape& s : shapes()) {
      bool two = s.yFirst != kNoY;
      size_t candidates = two ? 2 * s.xCount : s.xCount;
      for (size_t c = 0; c < s.resultCount; ++c) {
        // OpenCL reads only the mask's low bits: modulo the number of candidates (a power of two).
        size_t index = static_cast<size_t>(m[s.maskComponents[c]]) & (candidates - 1);
        Bits expected = index < s.xCount ? a[s.xFirst + index] : b[s.yFirst + index - s.xCount];
        ASSERT_EQ(out[kOutputsPerItem * i + s.out + c], expected)
            << type << (two ? ": shuffle2 of " : ": shuffle of ") << s.xCount << " components to " << s.resultCount
            << ", work-item " << i << ", component " << c << " (mask " << uint64_t(m[s.maskComponents[c]]) << ")";
      }
    }
  }
}

TEST_P(Shuffles, EveryIntegerTypeAndFloat) {
  checkShuffles<uint8_t>(*this, "shuffles", "char", false);
  checkShuffles<uint8_t>(*this, "shuffles", "uchar", false);
  checkShuffles<uint16_t>(*this, "shuffles", "short", false);
  checkShuffles<uint16_t>(*this, "shuffles", "ushort", false);
  checkShuffles<uint32_t>(*this, "shuffles", "int", false);
  checkShuffles<uint32_t>(*this, "shuffles", "uint", false);
  checkShuffles<uint64_t>(*this, "shuffles", "long", false);
  checkShuffles<uint64_t>(*this, "shuffles", "ulong", false);
  checkShuffles<uint32_t>(*this, "shuffles", "float", true);
}

TEST_P(Shuffles, Double) {
  if (!sharedDevice().info().features.shaderFloat64)
    GTEST_SKIP() << "the device has no shaderFloat64: double kernels cannot run on it";
  checkShuffles<uint64_t>(*this, "shuffles_double", "double", true);
}

TEST_P(Shuffles, Half) {
  const vulkan::DeviceFeatures& features = sharedDevice().info().features;
  if (!features.shaderFloat16 || !features.storageBuffer16BitAccess)
    GTEST_SKIP() << "the device has no shaderFloat16 or storageBuffer16BitAccess: half kernels cannot run on it";
  checkShuffles<uint16_t>(*this, "shuffles_half", "half", true);
}

CL2VK_KERNEL_TEST_SUITE(Shuffles, "O0", "O2", "CL12", "CL30");

}  // namespace
}  // namespace cl2vk::test
