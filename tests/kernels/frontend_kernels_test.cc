// spirv/frontend's kernels, whose llvm-spirv-15 output cl2vk repairs before translating it
// (repair-llvm-spirv, drop-optimization-hints), run on the Vulkan device at -O0 to -O3, with the
// corpus's extensions and with --spirv-ext=+all, each compared with the CPU: the repaired block
// order and the dropped hints compute what the source says.

#include <cmath>
#include <random>

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class FrontEndKernels : public KernelTest {
 public:
  std::string corpusFolder() const override { return "frontend"; }
};

std::vector<int> randomInts(size_t n, uint32_t seed, int low, int high) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> dist(low, high);
  std::vector<int> values(n);
  for (int& v : values) v = dist(random);
  return values;
}

// OpenCL's values beyond the last dimension (1 for sizes and group counts, 0 for ids and the
// offset), for an index known only at run time and for constant ones, in a 2D NDRange whose two
// dimensions have other values.
TEST_P(FrontEndKernels, WorkItemFunctionsBeyondTheThirdDimension) {
  auto k = kernel("work_item_dimensions", "dimensions_beyond_three");
  ASSERT_TRUE(k);
  launch::NDRange range;
  range.dimensions = 2;
  range.globalSize = {6, 4, 1};
  range.globalOffset = {2, 3, 0};
  range.localSize = std::array<uint32_t, 3>{3, 2, 1};
  const std::array<uint32_t, 8> expected = {1, 0, 1, 0, 1, 0, 0, 1};
  for (uint32_t dim : {3u, 4u, 1000u, 0xffffffffu}) {
    auto out = buffer(std::vector<uint32_t>(24 * 24, 0xdeadbeef));
    run(*k, range, {KernelArg::buffer(out), KernelArg::value(dim)});
    auto o = read<uint32_t>(out, 24 * 24);
    for (uint32_t item = 0; item < 24; ++item) {
      for (uint32_t i = 0; i < 24; ++i) {
        ASSERT_EQ(o[item * 24 + i], expected[i % 8]) << "function " << i % 8 << " at "
                                                     << (i < 8    ? dim
                                                         : i < 16 ? 3
                                                                  : 7)
                                                     << ", work-item " << item;
      }
    }
  }
}

// The n-body kernel's float3 accumulator, the case that made cl2vk refuse the -O2 module. Each
// component is within 1e-4 of the sum of the magnitudes of its terms (rsqrt is within a few ulp,
// and the terms are added in the same order, possibly contracted into fma).
TEST_P(FrontEndKernels, NBodyAccelerationsMatchTheCpu) {
  auto k = kernel("nbody", "nbody_accelerations");
  ASSERT_TRUE(k);
  const int count = 96;
  const float softening = 0.01f;
  std::mt19937 random(14);
  std::uniform_real_distribution<float> coordinate(-10.0f, 10.0f), mass(0.5f, 2.0f);
  std::vector<float> bodies(4 * count);
  for (int i = 0; i < count; ++i) {
    for (int c = 0; c < 3; ++c) bodies[4 * i + c] = coordinate(random);
    bodies[4 * i + 3] = mass(random);
  }
  auto dbodies = buffer(bodies), dout = buffer(std::vector<float>(4 * count, -1.0f));
  run(*k, range1d(count, 32),
      {KernelArg::buffer(dbodies), KernelArg::buffer(dout), KernelArg::value(count), KernelArg::value(softening)});
  auto out = read<float>(dout, 4 * count);
  for (int i = 0; i < count; ++i) {
    float sum[3] = {0, 0, 0}, magnitude[3] = {0, 0, 0};
    for (int j = 0; j < count; ++j) {
      float d[3];
      for (int c = 0; c < 3; ++c) d[c] = bodies[4 * j + c] - bodies[4 * i + c];
      float inverse = 1.0f / std::sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2] + softening);
      float scale = bodies[4 * j + 3] * inverse * inverse * inverse;
      for (int c = 0; c < 3; ++c) {
        sum[c] += d[c] * scale;
        magnitude[c] += std::fabs(d[c] * scale);
      }
    }
    for (int c = 0; c < 3; ++c) ASSERT_NEAR(out[4 * i + c], sum[c], 1e-4f * magnitude[c] + 1e-6f) << i << "." << c;
    ASSERT_EQ(out[4 * i + 3], 0.0f) << i;
  }
}

TEST_P(FrontEndKernels, EarlyExitsMatchTheCpu) {
  auto k = kernel("loop_exits", "early_exits");
  ASSERT_TRUE(k);
  const int n = 200;
  std::vector<int> in = randomInts(n, 3, 0, 110);
  in[150] = 7;   // leaves both loops with -1 for the items past it
  in[120] = -5;  // stops the outer loop before that for the items past it
  auto din = buffer(in), dout = buffer(std::vector<int>(n, 0));
  run(*k, range1d(n, 40), {KernelArg::buffer(din), KernelArg::buffer(dout), KernelArg::value(n)});
  auto out = read<int>(dout, n);
  for (int i = 0; i < n; ++i) {
    int sum = 0;
    for (int j = 0; j < std::min(n, i + 1); ++j) {
      if (in[j] < 0) break;
      if (in[j] == 7) {
        sum = -1;
        break;
      }
      for (int k = 0; k < j; ++k) {
        if (in[k] > 100) break;
        sum += in[k] * k;
      }
    }
    ASSERT_EQ(out[i], sum) << i;
  }
}

TEST_P(FrontEndKernels, SwitchThenLoopMatchesTheCpu) {
  auto k = kernel("loop_exits", "switch_then_loop");
  ASSERT_TRUE(k);
  const int n = 300;
  std::vector<int> in = randomInts(n, 5, -1000, 1000);
  auto din = buffer(in), dout = buffer(std::vector<int>(n, 0));
  run(*k, range1d(n, 30), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int>(dout, n);
  for (int i = 0; i < n; ++i) {
    int v = in[i], r = 0;
    switch (v % 9) {
      case 0: r = v * 3; break;
      case 1: r = v + 11; break;
      case 2:
      case 3: r = -v; break;
      case 5: r = v << 2; [[fallthrough]];
      case 6: r += 1; break;
      default: r = 0;
    }
    while (r > 10) {
      if (r % 3 == 0) break;
      r -= 4;
    }
    ASSERT_EQ(out[i], r) << i << ": " << v;
  }
}

TEST_P(FrontEndKernels, FirstOverThresholdMatchesTheCpu) {
  auto k = kernel("loop_exits", "first_over_threshold");
  ASSERT_TRUE(k);
  const int width = 24, threshold = 300;
  std::vector<int> matrix = randomInts(width * width, 9, 0, 40);
  auto dmatrix = buffer(matrix), dout = buffer(std::vector<int>(width, 0));
  run(*k, range1d(width, 8),
      {KernelArg::buffer(dmatrix), KernelArg::buffer(dout), KernelArg::value(width), KernelArg::value(threshold)});
  auto out = read<int>(dout, width);
  for (int row = 0; row < width; ++row) {
    int found = -1;
    for (int pass = 0; pass < 2 && found < 0; ++pass) {
      int sum = 0;
      for (int column = 0; column < width; ++column) {
        sum += matrix[row * width + column] >> pass;
        if (sum > threshold) {
          found = column + pass * width;
          break;
        }
      }
    }
    ASSERT_EQ(out[row], found) << row;
  }
}

// Alias scopes from the inlined restrict helper (+all at -O1 and above) are dropped; the
// accesses they annotated stay.
TEST_P(FrontEndKernels, RestrictHalvesMatchTheCpu) {
  auto k = kernel("hints", "restrict_halves");
  ASSERT_TRUE(k);
  const int n = 50, a = 3;
  std::vector<int> y = randomInts(2 * n, 11, -100, 100), x = randomInts(2 * n, 12, -100, 100);
  auto dy = buffer(y), dx = buffer(x);
  run(*k, range1d(1), {KernelArg::buffer(dy), KernelArg::buffer(dx), KernelArg::value(a), KernelArg::value(n)});
  auto out = read<int>(dy, 2 * n);
  for (int i = 0; i < 2 * n; ++i) ASSERT_EQ(out[i], y[i] + a * x[i]) << i;
}

TEST_P(FrontEndKernels, ExpectAndAssumeKeepTheirValue) {
  auto k = kernel("hints", "expect_assume");
  ASSERT_TRUE(k);
  const int n = 70, items = 96;
  auto dout = buffer(std::vector<int>(items, -1));
  run(*k, range1d(items, 32), {KernelArg::buffer(dout), KernelArg::value(n)});
  auto out = read<int>(dout, items);
  for (int i = 0; i < items; ++i) ASSERT_EQ(out[i], i < n ? 3 * i : -1) << i;
}

TEST_P(FrontEndKernels, UnrollPragmasMatchTheCpu) {
  auto k = kernel("hints", "unroll_pragmas");
  ASSERT_TRUE(k);
  const int n = 64;
  std::vector<int> values = randomInts(n, 13, -1000, 1000);
  auto dout = buffer(values);
  run(*k, range1d(n, n), {KernelArg::buffer(dout), KernelArg::value(n)});
  int s = 0;
  for (int v : values) s += v;
  for (int v : values) s ^= static_cast<int>(static_cast<unsigned>(v) << 1);
  auto out = read<int>(dout, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], s) << i;
}

// At -O3 the loop becomes OpBitReverse, for which llvm-spirv-15 declares Shader in the kernel.
TEST_P(FrontEndKernels, BitReverseMatchesTheCpu) {
  auto k = kernel("hints", "bit_reverse");
  ASSERT_TRUE(k);
  const int n = 64;
  std::mt19937 random(15);
  std::vector<uint32_t> values(n);
  for (uint32_t& v : values) v = random();
  auto dout = buffer(values);
  run(*k, range1d(n, 16), {KernelArg::buffer(dout)});
  auto out = read<uint32_t>(dout, n);
  for (int i = 0; i < n; ++i) {
    uint32_t reversed = 0;
    for (int b = 0; b < 32; ++b) reversed |= ((values[i] >> b) & 1u) << (31 - b);
    ASSERT_EQ(out[i], reversed) << i;
  }
}

// The annotation's string variable, which llvm-spirv-15 puts at module scope in the Function
// storage class, is removed; the annotated variable keeps its value.
TEST_P(FrontEndKernels, AnnotatedVariableKeepsItsValue) {
  auto k = kernel("hints", "annotated");
  ASSERT_TRUE(k);
  const int n = 48;
  std::vector<int> in = randomInts(n, 17, -1000, 1000);
  auto din = buffer(in), dout = buffer(std::vector<int>(n, 0));
  run(*k, range1d(n, 16), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int>(dout, n);
  for (int i = 0; i < n; ++i) ASSERT_EQ(out[i], 2 * in[i]) << i;
}

// An endless loop left from inside nested ifs, its loaded value read after it: items leave at
// different passes and each keeps the value of its own last pass.
TEST_P(FrontEndKernels, NestedBreaksKeepEachItemsLastValue) {
  auto k = kernel("loop_exits", "nested_breaks");
  ASSERT_TRUE(k);
  const int n = 96;
  std::vector<int> in(n + 8);
  for (int j = 0; j < n + 8; ++j) in[j] = j;
  auto din = buffer(in), dout = buffer(std::vector<int>(n, 0));
  run(*k, range1d(n, 32), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int>(dout, n);
  for (int i = 0; i < n; ++i) {
    int j = 0, v;
    for (;;) {
      v = in[j] * 3 + i % 5;
      if (v > i && in[j + 1] % 4 == 0) break;
      ++j;
    }
    ASSERT_EQ(out[i], v * 1000 + j) << i;
  }
}

// A float4 ternary with a scalar condition (a vector select that SPIR-V 1.2 does not allow as
// llvm-spirv-15 writes it). Every step is one multiplication or subtraction per component, so the
// CPU computes the same floats.
TEST_P(FrontEndKernels, VectorSelectMatchesTheCpu) {
  auto k = kernel("vector_select", "vector_select");
  ASSERT_TRUE(k);
  const int n = 64, steps = 6;
  std::mt19937 random(21);
  std::uniform_real_distribution<float> component(-20.0f, 60.0f), factor(0.0f, 2.5f);
  std::vector<float> colours(4 * n), factors(steps);
  for (float& c : colours) c = component(random);
  for (float& f : factors) f = factor(random);
  auto dcolours = buffer(colours), dfactors = buffer(factors);
  run(*k, range1d(n, 16), {KernelArg::buffer(dcolours), KernelArg::buffer(dfactors), KernelArg::value(steps)});
  auto out = read<float>(dcolours, 4 * n);
  for (int i = 0; i < n; ++i) {
    float c[4] = {colours[4 * i], colours[4 * i + 1], colours[4 * i + 2], colours[4 * i + 3]};
    for (int s = 0; s < steps; ++s) {
      float t = factors[s];
      for (float& x : c) x = t > 0.5f ? x * t : t - x;
      if (c[0] > 100.0f) break;
    }
    for (int j = 0; j < 4; ++j) ASSERT_EQ(out[4 * i + j], c[j]) << i << "." << j;
  }
}

// _BitInt(4), (24) and (2): clang-15's odd-width LLVM integers in arithmetic, comparisons,
// conversions and a 3-byte store, widened by widen-odd-integers, against the same computation on
// the CPU with the bits cut by hand. Every input, with edge values: -8, -1, 0, 7 as 4-bit values.
TEST_P(FrontEndKernels, OddWidthIntegersMatchTheCpu) {
  auto k = kernel("odd_integers", "odd_integers");
  ASSERT_TRUE(k);
  const int n = 256;
  std::vector<int> in = randomInts(2 * n, 23, -100000000, 100000000);
  for (int i = 0; i < 16; ++i) in[2 * i] = i, in[2 * i + 1] = 15 - i;  // all 4-bit pairs summing to 15
  in[40] = -8, in[41] = -1;                                            // the overflowing division, avoided
  const uint8_t kUntouched = 0xab;
  auto din = buffer(in), dout = buffer(std::vector<int>(8 * n, 0));
  auto dbytes = buffer(std::vector<uint8_t>(4 * n, kUntouched));
  run(*k, range1d(n, 32), {KernelArg::buffer(din), KernelArg::buffer(dout), KernelArg::buffer(dbytes)});
  auto out = read<int>(dout, 8 * n);
  auto bytes = read<uint8_t>(dbytes, 4 * n);
  auto low = [](int64_t value, int bits) {
    return static_cast<int>(static_cast<uint64_t>(value) & ((1ull << bits) - 1));
  };
  auto signedLow = [&](int64_t value, int bits) {
    int v = low(value, bits);
    return v >= (1 << (bits - 1)) ? v - (1 << bits) : v;
  };
  for (int i = 0; i < n; ++i) {
    int p = in[2 * i], q = in[2 * i + 1];
    int a = signedLow(p, 4), b = signedLow(q, 4), ua = low(p, 4), ub = low(q, 4);
    int c = signedLow(p, 24), uc = low(q, 24), d = signedLow(q, 2);
    int expected[8] = {
        signedLow(ua + ub, 4),
        b != 0 && !(a == -8 && b == -1) ? a / b : 99,
        signedLow(ua * ub, 4),
        (a < b) + 2 * (ua < ub) + 4 * (a >> 1) + 64 * (ua >> 1),
        low(int64_t{uc} * 12345, 24),
        (c >> 3) + signedLow(int64_t{c} * 3, 24),
        a * 2 + ub * 4,
        d * 5 + low(d, 2) * 100,
    };
    for (int j = 0; j < 8; ++j) ASSERT_EQ(out[8 * i + j], expected[j]) << "item " << i << ", result " << j;
    int stored = low(int64_t{uc} + c, 24);
    for (int j = 0; j < 3; ++j)
      ASSERT_EQ(bytes[4 * i + j], (stored >> (8 * j)) & 0xff) << "item " << i << ", byte " << j;
    ASSERT_EQ(bytes[4 * i + 3], kUntouched) << "item " << i << ": the 24-bit store wrote a fourth byte";
  }
}

INSTANTIATE_TEST_SUITE_P(Builds, FrontEndKernels,
                         testing::Values("O0", "O1", "O2", "O3", "O0.all", "O1.all", "O2.all", "O3.all"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           for (char& c : name) c = c == '.' ? '_' : c;
                           return name;
                         });

}  // namespace
}  // namespace cl2vk::test
