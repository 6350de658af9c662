// Whole kernels through the translator and the launcher on the Vulkan device, each compared with
// the same computation on the CPU.

#include <algorithm>
#include <numeric>
#include <random>

#include "kernel_test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;
using launch::NDRange;

class BasicKernels : public KernelTest {};

std::vector<float> randomFloats(size_t n, uint32_t seed) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<float> dist(-100.0f, 100.0f);
  std::vector<float> values(n);
  for (float& v : values) v = dist(random);
  return values;
}

std::vector<int> randomInts(size_t n, uint32_t seed, int low, int high) {
  std::mt19937 random(seed);
  std::uniform_int_distribution<int> dist(low, high);
  std::vector<int> values(n);
  for (int& v : values) v = dist(random);
  return values;
}

TEST_P(BasicKernels, VectorAddMatchesTheCpu) {
  auto k = kernel("vector_add", "vector_add");
  ASSERT_TRUE(k);
  const size_t n = 1000;
  auto a = randomFloats(n, 1), b = randomFloats(n, 2);
  auto da = buffer(a), db = buffer(b), dc = buffer(std::vector<float>(n, 0.0f));
  run(*k, range1d(n, 40), {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dc)});
  auto c = read<float>(dc, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(c[i], a[i] + b[i]) << i;  // one addition: exact
}

TEST_P(BasicKernels, NullPointerArgumentsAreAddressZero) {
  auto k = kernel("null_pointers", "null_pointers");
  ASSERT_TRUE(k);
  const size_t n = 100;
  const int fallback = -50;
  std::vector<int> values(n);
  for (size_t i = 0; i < n; ++i) values[i] = static_cast<int>(3 * i) - 7;
  auto input = buffer(values), out = buffer(std::vector<int>(n, 0));
  KernelArg null;
  null.kind = KernelArg::Kind::kBuffer;  // address 0
  for (bool withBuffer : {true, false}) {
    run(*k, range1d(n, 10),
        {KernelArg::buffer(out), withBuffer ? KernelArg::buffer(input) : null, KernelArg::value(fallback)});
    auto result = read<int>(out, n);
    for (size_t i = 0; i < n; ++i) {
      int value = withBuffer && i % 2 == 0 ? values[i] : fallback;
      ASSERT_EQ(result[i], withBuffer ? value + 1 : value - 1) << "item " << i << (withBuffer ? "" : ", NULL argument");
    }
  }
}

TEST_P(BasicKernels, StructArgumentIsLaidOutLikeTheHost) {
  struct Params {
    int8_t tag;
    int32_t scale;
    alignas(16) float offset[4];
    int64_t big;
    int16_t small;
  } params{-3, 7, {0.5f, 1.5f, -2.0f, 4.0f}, int64_t{1} << 40, -12};
  auto k = kernel("struct_argument", "struct_argument");
  ASSERT_TRUE(k);
  ASSERT_EQ(k->reflection().arguments[0].size, sizeof(Params));
  const size_t n = 37;
  auto out = buffer(std::vector<float>(4 * n, 0.0f));
  auto wide = buffer(std::vector<int64_t>(n, 0));
  run(*k, range1d(n), {KernelArg::value(params), KernelArg::buffer(out), KernelArg::buffer(wide)});
  auto o = read<float>(out, 4 * n);
  auto w = read<int64_t>(wide, n);
  for (size_t i = 0; i < n; ++i) {
    for (int c = 0; c < 4; ++c)
      ASSERT_EQ(o[4 * i + c], static_cast<float>(i) * 7.0f + params.offset[c]) << i << "." << c;
    ASSERT_EQ(w[i], params.big + params.tag * 1000 + params.small + static_cast<int64_t>(i)) << i;
  }
}

TEST_P(BasicKernels, TwoDimensionalIndexingWithAGlobalOffset) {
  auto k = kernel("indexing_2d_3d", "index_2d");
  ASSERT_TRUE(k);
  NDRange range;
  range.dimensions = 2;
  range.globalSize = {13, 7, 1};
  range.globalOffset = {5, 3, 0};
  range.localSize = std::array<uint32_t, 3>{4, 2, 1};  // remainders in both dimensions
  auto out = buffer(std::vector<uint32_t>(13 * 7, 0xdeadbeef));
  run(*k, range, {KernelArg::buffer(out)});
  auto o = read<uint32_t>(out, 13 * 7);
  for (uint32_t y = 0; y < 7; ++y) {
    for (uint32_t x = 0; x < 13; ++x) ASSERT_EQ(o[y * 13 + x], (x + 5) * 1000 + (y + 3)) << x << "," << y;
  }
}

TEST_P(BasicKernels, ThreeDimensionalIndexingWithAGlobalOffset) {
  auto k = kernel("indexing_2d_3d", "index_3d");
  ASSERT_TRUE(k);
  NDRange range;
  range.dimensions = 3;
  range.globalSize = {6, 5, 4};
  range.globalOffset = {1, 2, 3};
  range.localSize = std::array<uint32_t, 3>{4, 2, 3};
  auto out = buffer(std::vector<uint32_t>(6 * 5 * 4, 0));
  run(*k, range, {KernelArg::buffer(out)});
  auto o = read<uint32_t>(out, 6 * 5 * 4);
  for (uint32_t z = 0; z < 4; ++z)
    for (uint32_t y = 0; y < 5; ++y)
      for (uint32_t x = 0; x < 6; ++x)
        ASSERT_EQ(o[(z * 5 + y) * 6 + x], (x + 1) + 100 * (y + 2) + 10000 * (z + 3)) << x << "," << y << "," << z;
}

TEST_P(BasicKernels, WorkItemFunctionsInRemainderWorkGroups) {
  auto k = kernel("work_item_functions", "work_item_functions");
  ASSERT_TRUE(k);
  NDRange range = range1d(50, 16);  // three full groups of 16 and one of 2
  range.globalOffset = {0, 0, 0};
  auto out = buffer(std::vector<uint32_t>(50 * 8, 0));
  run(*k, range, {KernelArg::buffer(out)});
  auto o = read<uint32_t>(out, 50 * 8);
  for (uint32_t i = 0; i < 50; ++i) {
    const uint32_t* v = &o[i * 8];
    uint32_t group = i / 16;
    ASSERT_EQ(v[0], i % 16) << "get_local_id " << i;
    ASSERT_EQ(v[1], group < 3 ? 16u : 2u) << "get_local_size " << i;
    ASSERT_EQ(v[2], group) << "get_group_id " << i;
    ASSERT_EQ(v[3], 4u) << "get_num_groups " << i;
    ASSERT_EQ(v[4], 1u) << "get_work_dim " << i;
    ASSERT_EQ(v[5], 16u) << "get_enqueued_local_size " << i;
    ASSERT_EQ(v[6], i % 16) << "get_local_linear_id " << i;
    ASSERT_EQ(v[7], i) << "get_global_id " << i;
  }
}

TEST_P(BasicKernels, TiledMatrixMultiplyWithLocalArgumentsAndBarriers) {
  auto k = kernel("tiled_matmul", "tiled_matmul");
  ASSERT_TRUE(k);
  const uint32_t n = 32;
  auto a = randomInts(n * n, 3, -9, 9), b = randomInts(n * n, 4, -9, 9);
  auto da = buffer(a), db = buffer(b), dc = buffer(std::vector<int>(n * n, 0));
  NDRange range;
  range.dimensions = 2;
  range.globalSize = {n, n, 1};
  range.localSize = std::array<uint32_t, 3>{8, 8, 1};
  run(*k, range,
      {KernelArg::buffer(da), KernelArg::buffer(db), KernelArg::buffer(dc), KernelArg::value(n),
       KernelArg::local(64 * sizeof(int)), KernelArg::local(64 * sizeof(int))});
  auto c = read<int>(dc, n * n);
  for (uint32_t row = 0; row < n; ++row) {
    for (uint32_t col = 0; col < n; ++col) {
      int expected = 0;
      for (uint32_t t = 0; t < n; ++t) expected += a[row * n + t] * b[t * n + col];
      ASSERT_EQ(c[row * n + col], expected) << row << "," << col;
    }
  }
}

TEST_P(BasicKernels, HistogramWithLocalAndGlobalAtomics) {
  auto k = kernel("histogram", "histogram");
  ASSERT_TRUE(k);
  const uint32_t n = 5000;
  std::vector<uint8_t> data(n);
  std::mt19937 random(5);
  for (uint8_t& v : data) v = static_cast<uint8_t>(random());
  auto dd = buffer(data), bins = buffer(std::vector<uint32_t>(64, 0));
  run(*k, range1d(n, 128), {KernelArg::buffer(dd), KernelArg::value(n), KernelArg::buffer(bins)});
  std::vector<uint32_t> expected(64, 0);
  for (uint8_t v : data) ++expected[v % 64];
  EXPECT_EQ(read<uint32_t>(bins, 64), expected);
}

TEST_P(BasicKernels, KernelBodyLocalArrayReversesEachWorkGroup) {
  auto k = kernel("local_array", "local_reverse");
  ASSERT_TRUE(k);
  const size_t n = 256;
  auto in = randomInts(n, 6, -1000, 1000);
  auto din = buffer(in), dout = buffer(std::vector<int>(n, 0));
  run(*k, range1d(n, 64), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int>(dout, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], in[(i / 64) * 64 + 63 - i % 64]) << i;
}

TEST_P(BasicKernels, KernelScopeLocalStructIsSharedByTheGroup) {
  auto k = kernel("local_array", "local_struct");
  ASSERT_TRUE(k);
  const size_t n = 100, local = 16;  // a remainder group of 4
  auto dout = buffer(std::vector<uint64_t>(n, 0));
  run(*k, range1d(n, local), {KernelArg::buffer(dout)});
  auto out = read<uint64_t>(dout, n);
  for (size_t i = 0; i < n; ++i) {
    uint64_t group = i / local, size = std::min(local, n - group * local);
    ASSERT_EQ(out[i], i + group * 1000000 + size * 1000000000) << i;
  }
}

TEST_P(BasicKernels, ProgramScopeConstantTableAndConstantArgument) {
  auto k = kernel("constant_table", "constant_table");
  ASSERT_TRUE(k);
  const size_t n = 100;
  std::vector<int> weights = {1, -2, 3, -4};
  auto dout = buffer(std::vector<int>(n, 0)), dw = buffer(weights);
  run(*k, range1d(n), {KernelArg::buffer(dout), KernelArg::buffer(dw)});
  const int primes[8] = {2, 3, 5, 7, 11, 13, 17, 19};
  auto out = read<int>(dout, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], primes[i % 8] * weights[i % 4]) << i;
}

TEST_P(BasicKernels, PrivateArrayWithRunTimeIndices) {
  auto k = kernel("private_array", "private_array");
  ASSERT_TRUE(k);
  const size_t n = 200;
  auto in = randomInts(n + 4, 7, -50, 50);
  auto din = buffer(in), dout = buffer(std::vector<int>(n, 0));
  run(*k, range1d(n), {KernelArg::buffer(din), KernelArg::buffer(dout)});
  auto out = read<int>(dout, n);
  for (size_t i = 0; i < n; ++i) {
    int window[5];
    for (int j = 0; j < 5; ++j) window[j] = in[i + j] * (j + 1);
    int pick = in[i] & 3;
    ASSERT_EQ(out[i], window[pick] + window[4 - pick]) << i;
  }
}

TEST_P(BasicKernels, HelperFunctionsWithPointerParameters) {
  auto k = kernel("helper_functions", "helper_functions");
  ASSERT_TRUE(k);
  const size_t n = 128;
  auto dout = buffer(std::vector<int>(n, -1));
  run(*k, range1d(n, 32), {KernelArg::buffer(dout)});
  auto out = read<int>(dout, n);
  for (size_t i = 0; i < n; ++i) {
    int lid = static_cast<int>(i % 32);
    ASSERT_EQ(out[i], lid + 2 * ((lid + 1) % 32) + 7) << i;
  }
}

TEST_P(BasicKernels, LoopsWithBreakContinueAndEarlyReturn) {
  auto k = kernel("control_flow", "control_flow");
  ASSERT_TRUE(k);
  auto in = randomInts(64, 8, -3, 40);
  const size_t n = 300;
  for (int count : {0, 5, 64}) {
    auto din = buffer(in), dout = buffer(std::vector<int>(n, 0));
    run(*k, range1d(n, 30), {KernelArg::buffer(din), KernelArg::buffer(dout), KernelArg::value(count)});
    auto out = read<int>(dout, n);
    for (size_t i = 0; i < n; ++i) {
      int acc = 0;
      for (int j = 0; j < count; ++j) {
        int v = in[(i + j) % 64];
        if (v < 0) break;
        if (v % 3 == 0) continue;
        for (int kk = 0; kk < v; ++kk) {
          if (kk * kk > v) break;
          acc += kk;
        }
        acc += v;
      }
      ASSERT_EQ(out[i], acc > 5000 ? -1 : acc) << "n=" << count << " i=" << i;
    }
  }
}

TEST_P(BasicKernels, SeveralKernelsInOneModule) {
  auto translation = translate("several_kernels");
  ASSERT_TRUE(translation);
  ASSERT_EQ(translation->reflection.kernels.size(), 3u);
  auto fill = launch::LaunchableKernel::create(sharedDevice(), translation, "fill");
  auto scale = launch::LaunchableKernel::create(sharedDevice(), translation, "scale");
  auto addTwice = launch::LaunchableKernel::create(sharedDevice(), translation, "add_twice");
  ASSERT_TRUE(fill.ok() && scale.ok() && addTwice.ok());
  const size_t n = 77;
  auto in = randomInts(n, 9, -100, 100);
  auto dout = buffer(std::vector<int>(n, 0)), din = buffer(in);
  run(**fill, range1d(n), {KernelArg::buffer(dout), KernelArg::value(5)});
  run(**scale, range1d(n), {KernelArg::buffer(dout), KernelArg::value(-3)});
  run(**addTwice, range1d(n), {KernelArg::buffer(dout), KernelArg::buffer(din)});
  auto out = read<int>(dout, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], -15 + 2 * in[i]) << i;
}

TEST_P(BasicKernels, ManyArgumentsTravelInAnArgumentBuffer) {
  auto k = kernel("many_arguments", "many_arguments");
  ASSERT_TRUE(k);
  EXPECT_TRUE(k->reflection().argumentBuffer) << "24 pointers and 24 ints do not fit the push constants";
  const size_t n = 10;
  std::vector<vulkan::Buffer> outputs;
  std::vector<KernelArg> args;
  for (int a = 0; a < 24; ++a) outputs.push_back(buffer(std::vector<int>(n, 0)));
  for (int a = 0; a < 24; ++a) {
    args.push_back(KernelArg::buffer(outputs[a]));
    args.push_back(KernelArg::value(a * 100));
  }
  run(*k, range1d(n), args);
  for (int a = 0; a < 24; ++a) {
    auto out = read<int>(outputs[a], n);
    for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], a * 100 + static_cast<int>(i)) << a << "." << i;
  }
}

TEST_P(BasicKernels, GlobalAtomicsEveryOperation) {
  auto k = kernel("atomics", "atomics_global");
  ASSERT_TRUE(k);
  const int n = 300;
  std::vector<int> counters = {0, 0, 0, 0, INT32_MAX, INT32_MIN, 0, 99};
  std::vector<uint32_t> bits = {0, 0xffffffffu, 0};
  auto dc = buffer(counters), db = buffer(bits);
  run(*k, range1d(n, 64), {KernelArg::buffer(dc), KernelArg::buffer(db)});
  auto c = read<int>(dc, 8);
  auto b = read<uint32_t>(db, 3);
  EXPECT_EQ(c[0], n * (n - 1) / 2);
  EXPECT_EQ(c[1], -n * (n - 1) / 2);
  EXPECT_EQ(c[2], n);
  EXPECT_EQ(c[3], -n);
  EXPECT_EQ(c[4], -100);
  EXPECT_EQ(c[5], n - 1 - 100);
  EXPECT_EQ(b[0], 0xffffffffu);
  EXPECT_EQ(b[1], 0u);
  uint32_t parity = 0;
  for (int i = 0; i < n; ++i) parity ^= 1u << (i % 32);
  EXPECT_EQ(b[2], parity);
  EXPECT_GE(c[6], 1) << "the compare-exchange chain advances at least once";
  EXPECT_LE(c[6], n);
  EXPECT_EQ(c[7], 42);
}

TEST_P(BasicKernels, LocalAtomicsAndBarriersWithBothFences) {
  auto k = kernel("atomics", "atomics_local");
  ASSERT_TRUE(k);
  const int groups = 5, size = 48;
  auto dout = buffer(std::vector<int>(2 * groups, -1));
  run(*k, range1d(groups * size, size), {KernelArg::buffer(dout)});
  auto out = read<int>(dout, 2 * groups);
  for (int g = 0; g < groups; ++g) {
    EXPECT_EQ(out[2 * g], size * (size - 1) / 2) << g;
    EXPECT_EQ(static_cast<uint32_t>(out[2 * g + 1]), 0xffffffffu) << g;
  }
}

TEST_P(BasicKernels, GlobalFencesAndBarriersPublishWritesInTheWorkGroup) {
  auto k = kernel("atomics", "fences");
  ASSERT_TRUE(k);
  const size_t n = 256, local = 32;
  auto data = buffer(std::vector<int>(n, 0)), dout = buffer(std::vector<int>(n, 0));
  run(*k, range1d(n, local), {KernelArg::buffer(data), KernelArg::buffer(dout)});
  auto out = read<int>(dout, n);
  for (size_t i = 0; i < n; ++i)
    ASSERT_EQ(out[i], static_cast<int>((i - i % local + (i % local + 1) % local) * 3)) << i;
}

TEST_P(BasicKernels, SixtyFourBitGlobalAtomics) {
  if (!sharedDevice().info().features.shaderBufferInt64Atomics)
    GTEST_SKIP() << "the device has no shaderBufferInt64Atomics: 64-bit atomics cannot run on it";
  auto k = kernel("atomics64", "atomics64");
  ASSERT_TRUE(k);
  const int64_t n = 200;
  auto dc = buffer(std::vector<int64_t>{0, INT64_MIN, 0});
  run(*k, range1d(n), {KernelArg::buffer(dc)});
  auto c = read<int64_t>(dc, 3);
  int64_t parity = 0;
  for (int64_t i = 0; i < n; ++i) parity ^= int64_t{1} << (i % 64);
  EXPECT_EQ(c[0], (n * (n - 1) / 2) << 33);
  EXPECT_EQ(c[1], n - 1 - 1000);
  EXPECT_EQ(c[2], parity);
}

// A 64-bit atomic store alone: the module declares Int64Atomics for it too.
TEST_P(BasicKernels, SixtyFourBitAtomicStore) {
  if (!sharedDevice().info().features.shaderBufferInt64Atomics)
    GTEST_SKIP() << "the device has no shaderBufferInt64Atomics: 64-bit atomics cannot run on it";
  auto k = kernel("atomics64_store", "atomic_store64");
  ASSERT_TRUE(k);
  const size_t n = 64;
  auto slots = buffer(std::vector<int64_t>(n, 0));
  run(*k, range1d(n), {KernelArg::buffer(slots)});
  auto out = read<int64_t>(slots, n);
  for (size_t i = 0; i < n; ++i) ASSERT_EQ(out[i], static_cast<int64_t>(i) * 0x100000001LL - 7) << i;
}

// OpenCL C 2.0 atomics, flags and compare-exchanges (strong and weak) on global and local memory.
TEST_P(BasicKernels, OpenCL20AtomicsFlagsAndCompareExchanges) {
  auto k = kernel("c11_atomics", "c11_atomics");
  ASSERT_TRUE(k);
  const int groups = 6, size = 40, n = groups * size;
  auto counters = buffer(std::vector<int>{0, 0, 0, 0, 0, 0}), flags = buffer(std::vector<int>{0, 1});
  auto out = buffer(std::vector<int>(groups, -1));
  run(*k, range1d(n, size), {KernelArg::buffer(counters), KernelArg::buffer(flags), KernelArg::buffer(out)});
  auto c = read<int>(counters, 6);
  auto f = read<int>(flags, 2);
  auto sums = read<int>(out, groups);
  EXPECT_EQ(c[0], groups) << "one work-item per group finds the local flag clear";
  EXPECT_EQ(c[1], 2 * n) << "the weak compare-exchange loop adds 2 per work-item";
  EXPECT_EQ(c[2], 7);
  EXPECT_EQ(c[3], 1) << "one strong compare-exchange from 0 succeeds";
  EXPECT_EQ(c[4], 1) << "one work-item finds the global flag clear";
  EXPECT_EQ(c[5], 9);
  EXPECT_NE(f[0], 0) << "the global flag is set";
  EXPECT_EQ(f[1], 0) << "the global flag is cleared";
  for (int g = 0; g < groups; ++g) EXPECT_EQ(sums[g], size * (size - 1) / 2) << g;
}

// A compare-exchange that releases on success and acquires on failure (SwiftShader's shader
// compiler aborted the process on one until lower-synchronization made the success order both).
TEST_P(BasicKernels, CompareExchangeReleasingOnSuccessAndAcquiringOnFailure) {
  auto k = kernel("c11_atomics", "exchange_release_acquire");
  ASSERT_TRUE(k);
  const int groups = 5, size = 32, n = groups * size;
  auto winner = buffer(std::vector<int>{0}), out = buffer(std::vector<int>(2 * groups, -1));
  run(*k, range1d(n, size), {KernelArg::buffer(winner), KernelArg::buffer(out)});
  auto results = read<int>(out, 2 * groups);
  for (int g = 0; g < groups; ++g) {
    EXPECT_EQ(results[2 * g], 1) << "one work-item of group " << g << " exchanges 0";
    EXPECT_TRUE(results[2 * g + 1] >= 1 && results[2 * g + 1] <= size) << "group " << g << ": " << results[2 * g + 1];
  }
  int global = read<int>(winner, 1)[0];
  EXPECT_TRUE(global >= 1 && global <= n) << global;
}

// Work-items of 64 work-groups of 16 hand each other data through a buffer under flags (the
// CTS's atomic_flag): every section has exactly one owner, and every work-item owns one.
TEST_P(BasicKernels, FlagsHandDataBetweenWorkGroups) {
  auto k = kernel("c11_atomics", "critical_sections");
  ASSERT_TRUE(k);
  const int n = 1024;
  auto flags = buffer(std::vector<int>(n, 0)), owners = buffer(std::vector<int>(n, -1));
  run(*k, range1d(n, 16), {KernelArg::buffer(flags), KernelArg::buffer(owners), KernelArg::value(n)});
  std::vector<int> owner = read<int>(owners, n);
  std::vector<int> sections(n, 0);
  for (int s = 0; s < n; ++s) {
    ASSERT_TRUE(owner[s] >= 0 && owner[s] < n) << "section " << s << " has no owner: " << owner[s];
    ++sections[owner[s]];
  }
  for (int id = 0; id < n; ++id) EXPECT_EQ(sections[id], 1) << "work-item " << id << " owns " << sections[id];
}

// A compare-exchange loop at acq_rel that work-items leave at different times, in work-groups of
// several subgroups: every work-item's 2 is added.
TEST_P(BasicKernels, OrderedCompareExchangeLoopLosesNoUpdate) {
  auto k = kernel("c11_atomics", "ordered_exchange_loop");
  ASSERT_TRUE(k);
  for (auto [n, local] : {std::pair{240, 40}, std::pair{1024, 64}}) {
    auto sum = buffer(std::vector<int>{0});
    run(*k, range1d(n, local), {KernelArg::buffer(sum)});
    EXPECT_EQ(read<int>(sum, 1)[0], 2 * n) << n << " work-items in groups of " << local;
  }
}

// Atomics on private memory (through generic pointers) are the plain operations they mean.
TEST_P(BasicKernels, AtomicsOnPrivateMemory) {
  auto k = kernel("private_atomics", "private_atomics");
  ASSERT_TRUE(k);
  const int n = 100;
  auto out = buffer(std::vector<int>(4 * n, -1));
  run(*k, range1d(n, 20), {KernelArg::buffer(out)});
  auto result = read<int>(out, 4 * n);
  for (int i = 0; i < n; ++i) {
    // update(): the values each operation returns, as the kernel's comments trace them.
    int r = i + 10 * (i + 3) + 100 * (i + 2) + 1000 * std::max(i + 2, 50);
    r ^= 0x0f;
    r ^= 0xff << 8;
    r ^= 0x3c << 16;
    r += -i;
    r += 1;  // 7i == 7i: the first compare-exchange succeeds and stores i + 1
    bool second = i + 1 == 0;
    r += second ? 2 : 0;
    r += 3 * (second ? 0 : i + 1);
    ASSERT_EQ(result[4 * i], r) << i;
    ASSERT_EQ(result[4 * i + 1], i + 1) << i;
    ASSERT_EQ(result[4 * i + 2], i * i + 0xbd) << i;
    ASSERT_EQ(result[4 * i + 3], 0 + 2 * 1 + 4 * 0) << i << ": test-and-set gives clear, set, then clear after a clear";
  }
}

// The async copies are work-group copies through local memory, complete at the wait.
TEST_P(BasicKernels, AsyncWorkGroupCopiesStridedAndPlain) {
  auto k = kernel("async_copies", "async_copies");
  ASSERT_TRUE(k);
  for (int local : {1, 13, 64}) {
    SCOPED_TRACE("work-group size " + std::to_string(local));
    const int groups = 5, m = 2 * local + 3, total = groups * m;
    std::vector<int> in = randomInts(total, 7, -1000, 1000);
    std::vector<float> vin = randomFloats(4 * groups * local, 8);
    auto din = buffer(in), dout = buffer(std::vector<int>(total, 0)), dscattered = buffer(std::vector<int>(total, 0));
    auto dvin = buffer(vin), dvout = buffer(std::vector<float>(vin.size(), 0.0f));
    run(*k, range1d(groups * local, local),
        {KernelArg::buffer(din), KernelArg::buffer(dout), KernelArg::buffer(dscattered), KernelArg::buffer(dvin),
         KernelArg::buffer(dvout), KernelArg::local(m * sizeof(int)), KernelArg::local(local * 4 * sizeof(float))});
    auto out = read<int>(dout, total);
    auto scattered = read<int>(dscattered, total);
    auto vout = read<float>(dvout, vin.size());
    for (int g = 0; g < groups; ++g) {
      for (int i = 0; i < m; ++i)
        ASSERT_EQ(out[g * m + i], in[g * m + m - 1 - i]) << "group " << g << ", element " << i;
    }
    for (int j = 0; j < total; ++j) ASSERT_EQ(scattered[j], in[j] + 1000) << j;
    for (size_t j = 0; j < vin.size(); ++j) ASSERT_EQ(vout[j], vin[j] * 2.0f) << j;  // one doubling: exact
  }
}

CL2VK_KERNEL_TEST_SUITE(BasicKernels, "O0", "O2", "CL30");

}  // namespace
}  // namespace cl2vk::test
