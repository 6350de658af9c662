// Structs passed to and returned from noinline helpers by value (spirv/kernels/struct_by_value.cl),
// run on the Vulkan device and compared with the same computation on the CPU. At -O0 clang hands a
// helper the caller's own struct and expects the callee to work on a copy: a helper that writes
// its parameter used to change the caller's struct.

#include <random>

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class StructByValue : public KernelTest {};

// The kernel's structs and helpers, as OpenCL C computes them (char and short wrap).
struct Mixed {
  int8_t c;
  int32_t i;
  int16_t s;
  int64_t l;
  float f;
};

struct Outer {
  int16_t tag;
  Mixed inner;
  int8_t bytes[3];
  int32_t values[4];
  float pair[2];
};

Mixed makeMixed(int x) {
  return {static_cast<int8_t>(x & 0x7f), x * 3 - 7, static_cast<int16_t>(x * 5), static_cast<int64_t>(x) << 33,
          static_cast<float>(x) * 0.25f};
}

int64_t sumOf(const Mixed& m) { return m.c + m.i + m.s + m.l + static_cast<int64_t>(m.f); }

int64_t scramble(Mixed m, int by) {
  m.c = static_cast<int8_t>(m.c + static_cast<int8_t>(by));
  m.i *= by;
  m.s = static_cast<int16_t>(m.s - static_cast<int16_t>(by));
  m.l <<= 3;
  m.f *= 0.5f;
  return sumOf(m);
}

Outer makeOuter(int x) {
  Outer o{};
  o.tag = static_cast<int16_t>(x - 50);
  o.inner = makeMixed(x + 1);
  o.bytes[0] = 1;
  o.bytes[1] = 2;
  o.bytes[2] = static_cast<int8_t>(x & 0x3f);
  for (int k = 0; k < 4; ++k) o.values[k] = x * 10 + k;
  o.pair[0] = static_cast<float>(x);
  o.pair[1] = static_cast<float>(x) * 2.0f;
  return o;
}

int32_t outerSum(Outer o, int k) {
  o.inner.i += 1000;
  o.values[k & 3] = -1;
  return o.tag + o.inner.c + o.inner.i + o.bytes[2] + o.values[0] + o.values[1] + o.values[2] + o.values[3] +
         static_cast<int32_t>(o.pair[1]);
}

std::vector<int64_t> expected(int x) {
  Mixed m = makeMixed(x);
  Outer outer = makeOuter(x);
  Mixed copy = m;
  copy.i = -x;
  return {m.c,
          m.i,
          m.s,
          m.l,
          static_cast<int64_t>(m.f),
          scramble(m, x),
          sumOf(m),
          outerSum(outer, x),
          outer.inner.i + outer.values[x & 3],
          outer.tag + outer.bytes[2],
          outer.inner.l + static_cast<int64_t>(outer.pair[0]),
          2 * m.i + static_cast<int32_t>(scramble(m, 3)),
          m.i,
          copy.i + m.i,
          makeMixed(x + 2).l,
          scramble(makeMixed(x), 2) + makeMixed(x).s};
}

TEST_P(StructByValue, HelpersGetCopiesOfTheirStructsAndReturnThemWhole) {
  auto k = kernel("struct_by_value", "struct_by_value");
  ASSERT_TRUE(k);
  constexpr size_t kOutputs = 16, n = 100;
  std::mt19937 random(26);
  std::uniform_int_distribution<int> dist(0, 1000);
  std::vector<int> in(n);
  for (int& x : in) x = dist(random);
  auto input = buffer(in), out = buffer(std::vector<int64_t>(n * kOutputs, -1));
  run(*k, range1d(n, 20), {KernelArg::buffer(input), KernelArg::buffer(out)});
  auto got = read<int64_t>(out, n * kOutputs);
  for (size_t i = 0; i < n; ++i) {
    std::vector<int64_t> want = expected(in[i]);
    for (size_t j = 0; j < kOutputs; ++j)
      ASSERT_EQ(got[i * kOutputs + j], want[j]) << "work-item " << i << " (x = " << in[i] << "), output " << j;
  }
}

CL2VK_KERNEL_TEST_SUITE(StructByValue, "O0", "O2", "CL12", "CL30");

}  // namespace
}  // namespace cl2vk::test
