// __private and __local memory reinterpreted as other types (spirv/kernels/reinterpreted_memory.cl),
// which lower-pointers makes word-addressed, run on the Vulkan device and compared with the CPU.

#include <algorithm>
#include <cstring>
#include <random>

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class ReinterpretedMemory : public KernelTest {};

template <typename T>
std::vector<T> randomValues(size_t n, uint32_t seed, T low, T high) {
  std::mt19937 random(seed);
  std::vector<T> values(n);
  if constexpr (std::is_floating_point_v<T>) {
    std::uniform_real_distribution<T> dist(low, high);
    for (T& v : values) v = dist(random);
  } else {
    std::uniform_int_distribution<int64_t> dist(low, high);
    for (T& v : values) v = static_cast<T>(dist(random));
  }
  return values;
}

template <typename To, typename From>
To bitsOf(From value) {
  static_assert(sizeof(To) == sizeof(From));
  To bits;
  std::memcpy(&bits, &value, sizeof bits);
  return bits;
}

TEST_P(ReinterpretedMemory, UnionOfFloatIntBytesAndHalves) {
  auto k = kernel("reinterpreted_memory", "union_bits");
  ASSERT_TRUE(k);
  const size_t n = 300;
  auto in = randomValues<float>(n, 1, -1e6f, 1e6f);
  auto din = buffer(in), dout = buffer(std::vector<uint32_t>(4 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<uint32_t>(dout, 4 * n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t bits = bitsOf<uint32_t>(in[i]);
    ASSERT_EQ(out[4 * i], bits) << i;
    ASSERT_EQ(out[4 * i + 1], __builtin_bswap32(bits)) << i;
    ASSERT_EQ(out[4 * i + 2], bits << 16 | bits >> 16) << i;
    ASSERT_EQ(out[4 * i + 3], bitsOf<uint32_t>(in[i] + 1.0f)) << i;  // one addition: exact
  }
}

TEST_P(ReinterpretedMemory, LocalArgumentAsIntsAndBytesWithNeighboursStoringTheSameWord) {
  auto k = kernel("reinterpreted_memory", "local_views");
  ASSERT_TRUE(k);
  for (uint32_t local : {4u, 64u, 256u}) {
    const size_t n = 4 * local;
    auto in = randomValues<int32_t>(n, local, -100000, 100000);
    auto din = buffer(in), dout = buffer(std::vector<int32_t>(2 * n, -1));
    // The float4 argument holds local ints (and at least local bytes).
    run(*k, range1d(n, local),
        {KernelArg::buffer(din), KernelArg::buffer(dout), KernelArg::local((local + 3) / 4 * 16)});
    auto out = read<int32_t>(dout, 2 * n);
    for (size_t g = 0; g < n; ++g) {
      size_t group = g / local, l = g % local;
      ASSERT_EQ(out[2 * g], in[group * local + local - 1 - l]) << "local " << local << ", item " << g;
      uint32_t word = 0;
      if (l % 4 == 0) {
        for (uint32_t b = 0; b < 4; ++b) word |= uint32_t(uint8_t(in[group * local + l + b] * 3 + 1)) << (8 * b);
      }
      ASSERT_EQ(static_cast<uint32_t>(out[2 * g + 1]), word) << "local " << local << ", item " << g;
    }
  }
}

TEST_P(ReinterpretedMemory, KernelScopeLocalWordsWrittenByteByByteByEveryWorkItem) {
  auto k = kernel("reinterpreted_memory", "local_bytes");
  ASSERT_TRUE(k);
  const uint32_t local = 256;
  const size_t groups = 3, n = groups * local;
  auto in = randomValues<uint8_t>(n, 7, 0, 255);
  auto din = buffer(in), dout = buffer(std::vector<uint32_t>(groups * 64, 0));
  run(*k, range1d(n, local), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<uint32_t>(dout, groups * 64);
  for (size_t group = 0; group < groups; ++group) {
    for (size_t w = 0; w < 64; ++w) {
      uint32_t word;
      std::memcpy(&word, &in[group * local + 4 * w], 4);
      ASSERT_EQ(out[group * 64 + w], word) << "group " << group << ", word " << w;
    }
  }
}

TEST_P(ReinterpretedMemory, PrivateStructFilledFromBytesAndByMemcpy) {
  struct Record {
    int8_t tag;
    float values[3];
    int16_t small;
    int64_t big;
  };
  static_assert(sizeof(Record) == 32);
  auto k = kernel("reinterpreted_memory", "struct_from_bytes");
  ASSERT_TRUE(k);
  const size_t n = 100;
  std::vector<Record> records(n);
  std::vector<uint8_t> bytes(n * sizeof(Record));
  auto floats = randomValues<float>(3 * n, 3, -50.0f, 50.0f);
  for (size_t i = 0; i < n; ++i) {
    records[i] = Record{static_cast<int8_t>(i * 7 - 100),
                        {floats[3 * i], floats[3 * i + 1], floats[3 * i + 2]},
                        static_cast<int16_t>(1000 - 37 * i),
                        static_cast<int64_t>(i) * 0x123456789LL - (1LL << 40)};
    std::memcpy(&bytes[i * sizeof(Record)], &records[i], sizeof(Record));
  }
  auto din = buffer(bytes), dout = buffer(std::vector<float>(2 * n, 0)), dwide = buffer(std::vector<int64_t>(n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout), KernelArg::buffer(dwide)});
  auto out = read<float>(dout, 2 * n);
  auto wide = read<int64_t>(dwide, n);
  for (size_t i = 0; i < n; ++i) {
    const Record& r = records[i];
    float expected = r.tag + r.values[0] + r.values[1] * r.values[2] + r.small;
    // The same float operations in the same order, but a device may fuse the multiply and add.
    ASSERT_NEAR(out[2 * i], expected, 1e-4f * std::max(1.0f, std::abs(expected))) << i;
    ASSERT_NEAR(out[2 * i + 1], expected, 1e-4f * std::max(1.0f, std::abs(expected))) << i;
    ASSERT_EQ(wide[i], r.big) << i;
  }
}

TEST_P(ReinterpretedMemory, VloadAndVstoreOnPrivateArrays) {
  auto k = kernel("reinterpreted_memory", "private_vectors");
  ASSERT_TRUE(k);
  const size_t n = 64;
  auto in = randomValues<float>(10 * n, 5, -10.0f, 10.0f);
  auto din = buffer(in), dout = buffer(std::vector<float>(10 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<float>(dout, 10 * n);
  for (size_t i = 0; i < n; ++i) {
    std::vector<float> v(in.begin() + 10 * i, in.begin() + 10 * i + 10);
    float a[4], b[4];
    for (int c = 0; c < 4; ++c) a[c] = v[1 + c], b[c] = v[6 + c];
    for (int c = 0; c < 4; ++c) v[3 + c] = a[c] * 2.0f + b[c];
    for (int c = 0; c < 10; ++c) ASSERT_NEAR(out[10 * i + c], v[c], 1e-5f * std::max(1.0f, std::abs(v[c]))) << i;
  }
}

TEST_P(ReinterpretedMemory, ScanThroughLocalPointersThatSwapArrays) {
  auto k = kernel("reinterpreted_memory", "ping_pong_scan");
  ASSERT_TRUE(k);
  for (uint32_t local : {1u, 7u, 64u, 256u}) {
    const size_t n = 3 * local;
    auto in = randomValues<int32_t>(n, local, -1000, 1000);
    auto din = buffer(in), dout = buffer(std::vector<int32_t>(n, 0));
    run(*k, range1d(n, local),
        {KernelArg::buffer(din), KernelArg::buffer(dout), KernelArg::local(local * 4), KernelArg::local(local * 4)});
    auto out = read<int32_t>(dout, n);
    int32_t sum = 0;
    for (size_t g = 0; g < n; ++g) {
      sum = g % local == 0 ? in[g] : sum + in[g];
      ASSERT_EQ(out[g], sum) << "local " << local << ", item " << g;
    }
  }
}

TEST_P(ReinterpretedMemory, PointersStoredComparedSubtractedAndConvertedToIntegers) {
  auto k = kernel("reinterpreted_memory", "private_pointers");
  ASSERT_TRUE(k);
  const size_t n = 50;
  auto in = randomValues<int32_t>(8 * n, 11, -20, 20);
  auto din = buffer(in), dout = buffer(std::vector<int32_t>(4 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int32_t>(dout, 4 * n);
  for (size_t i = 0; i < n; ++i) {
    const int32_t* values = &in[8 * i];
    int count = 0;
    const int32_t* cursor = values;
    while (cursor < values + 8) {
      if (*cursor % 2 == 0) count += *cursor;
      cursor += 1 + (*cursor & 1);
    }
    ASSERT_EQ(out[4 * i], count) << i;
    ASSERT_EQ(out[4 * i + 1], 7) << i;
    ASSERT_EQ(out[4 * i + 2], 20) << i;
    ASSERT_EQ(out[4 * i + 3], cursor == values + 8 ? 1 : 2) << i;
  }
}

TEST_P(ReinterpretedMemory, PackedStructWithAnIntAtAnOddByte) {
#pragma pack(push, 1)
  struct Packed {
    int8_t tag;
    int32_t value;
    int16_t small;
  };
#pragma pack(pop)
  static_assert(sizeof(Packed) == 7);
  auto k = kernel("reinterpreted_memory", "packed_struct");
  ASSERT_TRUE(k);
  const size_t n = 40;
  auto bytes = randomValues<uint8_t>(n * sizeof(Packed), 13, 0, 255);
  auto din = buffer(bytes), dout = buffer(std::vector<int32_t>(3 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int32_t>(dout, 3 * n);
  for (size_t i = 0; i < n; ++i) {
    Packed p;
    std::memcpy(&p, &bytes[i * sizeof(Packed)], sizeof p);
    p.value = static_cast<int32_t>(static_cast<uint32_t>(p.value) + 1);
    uint8_t second;
    std::memcpy(&second, reinterpret_cast<const uint8_t*>(&p) + 2, 1);
    // Copied out first: gtest binds its operands to references, which a packed member cannot take.
    int32_t tag = p.tag, value = p.value, small = p.small;
    ASSERT_EQ(out[3 * i], tag) << i;
    ASSERT_EQ(out[3 * i + 1], value) << i;
    ASSERT_EQ(out[3 * i + 2], small + second) << i;
  }
}

TEST_P(ReinterpretedMemory, ConstantByteTableReadAsWords) {
  auto k = kernel("reinterpreted_memory", "constant_table_words");
  ASSERT_TRUE(k);
  const size_t n = 16;
  auto dout = buffer(std::vector<uint32_t>(n, 0));
  run(*k, range1d(n), {KernelArg::buffer(dout)});
  auto out = read<uint32_t>(dout, n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t b = static_cast<uint32_t>(i % 4) * 4 + 1;
    ASSERT_EQ(out[i], b | (b + 1) << 8 | (b + 2) << 16 | (b + 3) << 24) << i;
  }
}

TEST_P(ReinterpretedMemory, LocalStructsCopiedWholeToABufferAtADynamicIndex) {
  auto k = kernel("reinterpreted_memory", "local_struct_copy");
  ASSERT_TRUE(k);
  const uint32_t local = 64;
  const size_t groups = 5, n = groups * local;
  auto in = randomValues<int32_t>(n, 23, -100000, 100000);
  auto din = buffer(in), dout = buffer(std::vector<int32_t>(3 * 2 * groups, -1));
  run(*k, range1d(n, local), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int32_t>(dout, 3 * 2 * groups);
  for (size_t g = 0; g < groups; ++g) {
    for (size_t which : {size_t{0}, size_t{1}}) {
      size_t item = g * local + (which == 0 ? 0 : local - 1);
      const int32_t* r = &out[3 * (which * groups + g)];
      ASSERT_EQ(r[0], in[item]) << "group " << g << ", copy " << which;
      ASSERT_EQ(r[1], in[item] * 2) << "group " << g << ", copy " << which;
      ASSERT_EQ(r[2], static_cast<int32_t>(item % local)) << "group " << g << ", copy " << which;
    }
  }
}

// Pointer comparisons and differences (spirv/kernels/pointer_arithmetic.cl): a lower-bound search
// with __global pointers, and with __local ones (which makes the __local copy word-addressed).
TEST_P(ReinterpretedMemory, PointerComparisonsAndDifferencesSearchSortedArrays) {
  auto k = kernel("pointer_arithmetic", "search");
  ASSERT_TRUE(k);
  const int count = 200;
  auto sorted = randomValues<int32_t>(count, 17, -500, 500);
  std::sort(sorted.begin(), sorted.end());
  const size_t n = 256;
  auto keys = randomValues<int32_t>(n, 19, -600, 600);
  auto dsorted = buffer(sorted), dkeys = buffer(keys), dfound = buffer(std::vector<int32_t>(2 * n, -7));
  run(*k, range1d(n, 64),
      {KernelArg::buffer(dsorted), KernelArg::value(count), KernelArg::buffer(dkeys), KernelArg::buffer(dfound),
       KernelArg::local(count * sizeof(int32_t))});
  auto found = read<int32_t>(dfound, 2 * n);
  for (size_t i = 0; i < n; ++i) {
    int at = static_cast<int>(std::lower_bound(sorted.begin(), sorted.end(), keys[i]) - sorted.begin());
    ASSERT_EQ(found[2 * i], at) << "key " << keys[i];
    ASSERT_EQ(found[2 * i + 1], at == count ? -1 : at) << "key " << keys[i];
  }
}

// memcpy of a length known at run time within a __private word object (hashcat's bcrypt): a loop
// over the bytes (lower-pointers refused it).
TEST_P(ReinterpretedMemory, CopyOfARunTimeLength) {
  auto k = kernel("reinterpreted_memory", "copies_of_run_time_length");
  ASSERT_TRUE(k);
  const size_t n = 256;
  auto in = randomValues<uint8_t>(64 * n, 11, 0, 255);
  std::vector<uint32_t> lengths(n);
  for (size_t i = 0; i < n; ++i) {  // a start of 0 to 8 bytes, a length of 0 to 64 within the array
    uint32_t at = i % 9, length = std::min(static_cast<uint32_t>(i * 37 % 80), std::min(72u - at, 64u));
    lengths[i] = at | length << 8;
  }
  auto din = buffer(in), dlengths = buffer(lengths), dout = buffer(std::vector<uint32_t>(18 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dlengths), KernelArg::buffer(dout)});
  auto out = read<uint32_t>(dout, 18 * n);
  for (size_t i = 0; i < n; ++i) {
    uint32_t state[18];
    for (uint32_t w = 0; w < 18; ++w) state[w] = 0x01010101u * w + static_cast<uint32_t>(i);
    uint32_t at = lengths[i] & 0xff, length = lengths[i] >> 8;
    std::memcpy(reinterpret_cast<uint8_t*>(state) + at, &in[64 * i], length);
    for (uint32_t w = 0; w < 18; ++w) ASSERT_EQ(out[18 * i + w], state[w]) << "work-item " << i << " word " << w;
  }
}

// Copies longer than the translator unrolls (16800 bytes, from a buffer to a word object and back):
// loops over the words (lower-pointers refused them).
TEST_P(ReinterpretedMemory, CopiesTooLongToUnroll) {
  auto k = kernel("reinterpreted_memory", "long_copy_to_buffer");
  ASSERT_TRUE(k);
  const size_t n = 64;
  auto in = randomValues<uint32_t>(4200 * n, 12, 0, UINT32_MAX);
  auto din = buffer(in), dout = buffer(std::vector<uint32_t>(4200 * n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<uint32_t>(dout, 4200 * n);
  std::vector<uint32_t> expected = in;
  for (size_t i = 0; i < n; ++i) reinterpret_cast<uint8_t*>(&expected[4200 * i])[i * 13 % 16800] ^= 0x5a;
  for (size_t w = 0; w < 4200 * n; ++w)
    ASSERT_EQ(out[w], expected[w]) << "work-item " << w / 4200 << " word " << w % 4200;
}

CL2VK_KERNEL_TEST_SUITE(ReinterpretedMemory, "O0", "O2", "CL12", "CL30");

}  // namespace
}  // namespace cl2vk::test
