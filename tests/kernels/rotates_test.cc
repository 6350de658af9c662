// 64-bit rotates on the Vulkan device, with split-64-bit-rotates on (as the runtime translates for
// GPUs; the CPU drivers' own translation keeps the 64-bit form and runs in the other suites):
// spirv/kernels/rotates_64.cl's every amount, scalars and vectors, compared with the CPU.

#include <random>

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class Rotates64 : public KernelTest {
 public:
  Target target() const override {
    Target split = KernelTest::target();
    split.split64BitRotates = true;
    return split;
  }
};

uint64_t rotl(uint64_t x, unsigned n) { return n % 64 == 0 ? x : (x << (n % 64)) | (x >> (64 - n % 64)); }

std::vector<uint64_t> randomLongs(size_t n) {
  std::mt19937_64 random(64);
  std::vector<uint64_t> values(n);
  for (uint64_t& v : values) v = random();
  values[0] = 0, values[1] = ~0ull, values[2] = 1, values[3] = 0x8000000000000000ull;
  return values;
}

TEST_P(Rotates64, EveryConstantAmountMatchesTheCpu) {
  auto k = kernel("rotates_64", "rotate_every_amount");
  ASSERT_TRUE(k);
  const size_t n = 256;
  auto in = randomLongs(n);
  auto din = buffer(in), dout = buffer(std::vector<uint64_t>(128 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<uint64_t>(dout, 128 * n);
  for (size_t i = 0; i < n; ++i) {
    for (unsigned amount = 0; amount < 64; ++amount) {
      ASSERT_EQ(out[128 * i + amount], rotl(in[i], amount)) << "rotate left by " << amount << " of " << in[i];
      ASSERT_EQ(out[128 * i + 64 + amount], rotl(in[i], 64 - amount)) << "right by " << amount << " of " << in[i];
    }
  }
}

TEST_P(Rotates64, VectorsMatchTheCpu) {
  auto k = kernel("rotates_64", "rotate_vectors");
  ASSERT_TRUE(k);
  const size_t n = 256;
  auto in = randomLongs(n);
  auto din = buffer(in), dout = buffer(std::vector<uint64_t>(9 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<uint64_t>(dout, 9 * n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t x = in[i], y = ~in[i] * 3;
    const uint64_t expected[9] = {rotl(x, 8),  rotl(y, 8),  rotl(x, 50),     rotl(y, 50),    rotl(x ^ y, 50),
                                  rotl(x, 32), rotl(y, 32), rotl(x + y, 32), rotl(x - y, 32)};
    for (size_t w = 0; w < 9; ++w) ASSERT_EQ(out[9 * i + w], expected[w]) << "work-item " << i << " word " << w;
  }
}

CL2VK_KERNEL_TEST_SUITE(Rotates64, "O0", "O2");

}  // namespace
}  // namespace cl2vk::test
