// __private arrays in the private scratch buffer (move-private-arrays, with a private memory budget
// of 1 KB as on no real device; NVIDIA's is 4 KB): the long copies of kernels/reinterpreted_memory.cl
// and frontend/private_scratch.cl, run on the Vulkan device and compared with the CPU. The dispatch
// split that bounds the buffer is tested on its own below.

#include <cstring>
#include <random>

#include "kernel_test_util.h"
#include "launch/argument_block.h"
#include "launch/ndrange_split.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

Target withSmallBudget(Target target) {
  target.privateMemoryBudget = 1024;
  return target;
}

class PrivateScratch : public KernelTest {
 public:
  Target target() const override { return withSmallBudget(KernelTest::target()); }
};

// The kernels of spirv/frontend/private_scratch.cl, whose loops llvm-spirv-15 lays out out of order.
class PrivateScratchKernels : public KernelTest {
 public:
  Target target() const override { return withSmallBudget(KernelTest::target()); }
  std::string corpusFolder() const override { return "frontend"; }
};

std::vector<uint32_t> randomWords(size_t n, uint32_t seed) {
  std::mt19937 random(seed);
  std::vector<uint32_t> words(n);
  for (uint32_t& w : words) w = static_cast<uint32_t>(random());
  return words;
}

// The arrays of uint[4200] (16 800 bytes), over the budget, copied in and out by loops.
TEST_P(PrivateScratch, LongCopiesRunInTheScratchBuffer) {
  auto k = kernel("reinterpreted_memory", "long_copy_to_buffer");
  ASSERT_TRUE(k);
  ASSERT_TRUE(k->reflection().privateScratchOffset.has_value()) << "the array stayed in Function memory";
  EXPECT_GE(k->reflection().privateScratchStride, 16800u);
  const size_t n = 64;
  auto in = randomWords(4200 * n, 12);
  auto din = buffer(in), dout = buffer(std::vector<uint32_t>(4200 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<uint32_t>(dout, 4200 * n);
  std::vector<uint32_t> expected = in;
  for (size_t i = 0; i < n; ++i) reinterpret_cast<uint8_t*>(&expected[4200 * i])[i * 13 % 16800] ^= 0x5a;
  for (size_t w = 0; w < 4200 * n; ++w)
    ASSERT_EQ(out[w], expected[w]) << "work-item " << w / 4200 << " word " << w % 4200;
}

// Two arrays a select (or, at -O0, a phi) chooses between move together, over a 2D range whose
// remainders make four dispatches of four work-group shapes.
TEST_P(PrivateScratchKernels, ArraysOnePointerChoosesBetweenMoveTogether) {
  auto k = kernel("private_scratch", "chosen_array");
  ASSERT_TRUE(k);
  EXPECT_GE(k->reflection().privateScratchStride, 2400u) << "both arrays in the scratch buffer";
  auto in = randomWords(1024, 5);
  const size_t width = 37, height = 29;
  auto din = buffer(in), dout = buffer(std::vector<uint32_t>(width * height, 0));
  launch::NDRange range;
  range.dimensions = 2;
  range.globalSize = {width, height, 1};
  range.localSize = std::array<uint32_t, 3>{8, 4, 1};
  run(*k, range, {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<uint32_t>(dout, width * height);
  for (size_t i = 0; i < width * height; ++i) {
    uint32_t a[300], b[300];
    for (uint32_t w = 0; w < 300; ++w) {
      a[w] = in[(i + w) % 1024];
      b[w] = a[w] * 3u + w;
    }
    const uint32_t* p = (i & 1) ? a : b;
    uint32_t s = 0;
    for (uint32_t w = 0; w < 300; w += 7) s = s * 31u + p[w];
    ASSERT_EQ(out[i], s) << "work-item " << i % width << ", " << i / width;
  }
}

// 128 KB a work-item: a launch of more work-items than the device's private scratch limit holds
// blocks for (2048 on a machine of 8 GB or less) runs as three dispatches, each starting where the
// last stopped.
TEST_P(PrivateScratchKernels, LaunchesLargerThanTheBufferRunAsSeveralDispatches) {
  auto k = kernel("private_scratch", "sparse_large_array");
  ASSERT_TRUE(k);
  ASSERT_GE(k->reflection().privateScratchStride, 131072u);
  const std::vector<uint32_t> at = {5, 70001, 1234, 32767, 999, 16384, 4242, 77};
  const uint64_t blocks =
      launch::privateScratchLimit(sharedDevice().info().limits) / k->reflection().privateScratchStride;
  const uint32_t n = static_cast<uint32_t>(2 * blocks + 904);
  auto dat = buffer(at), dout = buffer(std::vector<uint32_t>(n, 0));
  run(*k, range1d(n), {KernelArg::buffer(dat), KernelArg::buffer(dout)});
  auto out = read<uint32_t>(dout, n);
  for (uint32_t i = 0; i < n; ++i) {
    uint32_t s = 0;
    for (uint32_t k7 = 0; k7 < 8; ++k7) {
      uint32_t written = 7 - k7;  // the eight places are distinct modulo 32768
      s = s * 131u + (i * 8u + written);
    }
    ASSERT_EQ(out[i], s) << "work-item " << i;
  }
}

// A struct array read through a byte pointer moves; the small array beside it stays.
TEST_P(PrivateScratchKernels, StructArraysReadAsBytes) {
  auto k = kernel("private_scratch", "entries_and_bytes");
  ASSERT_TRUE(k);
  EXPECT_EQ(k->reflection().privateScratchStride, 1280u) << "80 entries of 16 bytes, and nothing else";
  auto in = randomWords(1024, 9);
  const size_t n = 200;
  auto din = buffer(in), dout = buffer(std::vector<uint32_t>(n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<uint32_t>(dout, n);
  for (size_t i = 0; i < n; ++i) {
    uint8_t bytes[80 * 16];
    for (uint32_t e = 0; e < 80; ++e) {
      std::memcpy(bytes + 16 * e, &in[(i * 7 + e) % 1024], 4);
      for (uint32_t t = 0; t < 12; ++t) bytes[16 * e + 4 + t] = static_cast<uint8_t>(e + t + i);
    }
    const uint32_t small[4] = {1, 2, 3, 4};
    uint32_t s = small[i % 4];
    for (uint32_t b = 0; b < 80 * 16; b += 5) s = s * 3u + bytes[b];
    ASSERT_EQ(out[i], s) << "work-item " << i;
  }
}

CL2VK_KERNEL_TEST_SUITE(PrivateScratch, "O0", "O2", "CL12", "CL30");
CL2VK_KERNEL_TEST_SUITE(PrivateScratchKernels, "O0", "O2", "O3");

// The dispatches limitInvocations makes cover every work-group of each region exactly once, none
// with more invocations than asked (or one work-group, where that is more).
TEST(LimitInvocationsTest, PiecesCoverEachRegionOnceWithinTheLimit) {
  const launch::DispatchRegion regions[] = {
      {{64, 1, 1}, {100, 1, 1}, {0, 0, 0}},  // a row cut into pieces
      {{8, 4, 1}, {4, 7, 1}, {0, 0, 0}},     // whole rows of one plane
      {{8, 4, 2}, {4, 7, 5}, {0, 0, 3}},     // whole planes, from a group offset
      {{5, 1, 1}, {3, 2, 1}, {7, 0, 0}},     // fits as it is
      {{512, 1, 1}, {3, 1, 1}, {0, 0, 0}},   // a work-group over the limit: one per dispatch
  };
  for (uint64_t limit : {256u, 1000u, 4096u}) {
    for (const launch::DispatchRegion& region : regions) {
      std::vector<launch::DispatchRegion> pieces = launch::limitInvocations({region}, limit);
      std::vector<int> seen(region.groups[0] * region.groups[1] * region.groups[2], 0);
      for (const launch::DispatchRegion& piece : pieces) {
        EXPECT_EQ(piece.local, region.local);
        const uint64_t groupSize = uint64_t{piece.local[0]} * piece.local[1] * piece.local[2];
        EXPECT_LE(launch::invocationsOf(piece), std::max(limit, groupSize)) << "limit " << limit;
        for (uint32_t z = 0; z < piece.groups[2]; ++z) {
          for (uint32_t y = 0; y < piece.groups[1]; ++y) {
            for (uint32_t x = 0; x < piece.groups[0]; ++x) {
              const uint32_t gx = piece.groupOffset[0] + x - region.groupOffset[0];
              const uint32_t gy = piece.groupOffset[1] + y - region.groupOffset[1];
              const uint32_t gz = piece.groupOffset[2] + z - region.groupOffset[2];
              ASSERT_LT(gx, region.groups[0]);
              ASSERT_LT(gy, region.groups[1]);
              ASSERT_LT(gz, region.groups[2]);
              ++seen[(gz * region.groups[1] + gy) * region.groups[0] + gx];
            }
          }
        }
      }
      for (size_t g = 0; g < seen.size(); ++g) EXPECT_EQ(seen[g], 1) << "work-group " << g << ", limit " << limit;
    }
  }
}

}  // namespace
}  // namespace cl2vk::test
