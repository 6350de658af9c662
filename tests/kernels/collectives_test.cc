// Every work-group and sub-group collective of the corpus (spirv/cl, spirv/asm), for every type,
// run on the Vulkan device at many work-group sizes and shapes, each result compared with a CPU
// reference (kernels/collective_reference.h): exact for integers, min and max; for float add and
// mul within (n-1)·ε·Σ|x|.

#include <functional>
#include <iostream>
#include <map>
#include <random>

#include "kernel_test_util.h"
#include "kernels/collective_reference.h"
#include "test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;
using launch::NDRange;

using namespace collectives;

class Collectives : public KernelTest {
 public:
  // How a run translates the corpus: for the device as the runtime would, as if it had no
  // subgroup arithmetic (the shared-memory path), or with the other form of subgroup scans
  // (Target::shuffleScans) from the one the runtime picks for it.
  enum class Lowering { kDevice, kSharedMemory, kOtherScans };

  std::shared_ptr<const Translation> translateCorpusModule(const std::string& file,
                                                           Lowering lowering = Lowering::kDevice) {
    static std::map<std::pair<std::string, Lowering>, std::shared_ptr<const Translation>> cache;
    auto& cached = cache[{file, lowering}];
    if (cached) return cached;
    Target target = launch::targetFor(sharedDevice().info());
    if (lowering == Lowering::kSharedMemory) target.subgroupArithmetic = false;
    if (lowering == Lowering::kOtherScans) target.shuffleScans = !target.shuffleScans;
    auto translation = cl2vk::translate(readWords(corpusDir() / file), target);
    EXPECT_TRUE(translation.ok()) << file << ": " << translation.error().message();
    if (!translation) return nullptr;
    cached = std::make_shared<const Translation>(std::move(*translation));
    return cached;
  }

  bool deviceSupports(const TypeInfo& t) {
    const auto& f = sharedDevice().info().features;
    if (t.type == Type::kHalf) return f.shaderFloat16 && f.storageBuffer16BitAccess && f.shaderSubgroupExtendedTypes;
    if (t.type == Type::kDouble) return f.shaderFloat64;
    return true;
  }

  // Runs one kernel over `shape` and checks every output. Returns a description of the first
  // mismatch, or "".
  std::string check(launch::LaunchableKernel& kernel, const KernelSpec& spec, const Shape& shape, uint32_t seed) {
    uint32_t subgroupSize = sharedDevice().info().subgroup.size;
    size_t n = shape.items();
    std::mt19937_64 random(seed);
    std::vector<Value> in = inputs(spec, n, random);
    auto dIn = buffer(encode(spec.type, in));
    auto dOut = buffer(std::vector<std::byte>(n * spec.type.size));

    NDRange range;
    range.dimensions = shape.dims;
    range.globalSize = shape.globalSize();
    range.localSize = shape.local;
    std::vector<KernelArg> args = {KernelArg::buffer(dIn), KernelArg::buffer(dOut)};
    BroadcastSource source = broadcastSource(shape, subgroupSize);
    for (int d = 0; d < broadcastIdCount(spec); ++d) args.push_back(KernelArg::value(source.localId[d]));
    if (spec.function == "broadcast") args.push_back(KernelArg::value(source.lane));
    auto times = kernel.launch(range, args);
    if (!times) return "launch failed: " + times.error().message();
    std::vector<std::byte> outBytes(n * spec.type.size);
    if (Status read = dOut.download(outBytes); !read.ok()) return read.error().message();
    return compare(spec, shape, subgroupSize, in, outBytes);
  }

  // Runs every kernel of the collectives corpus accepted by `wanted` at each of `shapes`.
  void runMatrix(const std::vector<Shape>& shapes, const std::function<bool(const KernelSpec&)>& wanted, size_t minimum,
                 Lowering lowering = Lowering::kDevice) {
    size_t checked = 0;
    const auto& features = sharedDevice().info().features;
    for (const std::string& file : collectiveModules(GetParam())) {
      // A module of double or half kernels does not translate for a device without the type (half
      // arithmetic needs 16-bit integers and storage too: lower-narrow-integers says so).
      bool halfArithmetic = features.shaderFloat16 && features.storageBuffer16BitAccess && features.shaderInt16;
      if ((file.find("_double") != std::string::npos && !features.shaderFloat64) ||
          (file.find("_half") != std::string::npos && !halfArithmetic)) {
        std::cout << "[ SKIPPED ] " << file << ": the device has no "
                  << (file.find("_double") != std::string::npos ? "double" : "half") << "\n";
        continue;
      }
      auto translation = translateCorpusModule(file, lowering);
      ASSERT_TRUE(translation) << file;
      for (const KernelReflection& reflection : translation->reflection.kernels) {
        std::optional<KernelSpec> spec = parse(reflection.name);
        ASSERT_TRUE(spec) << "cannot tell what " << reflection.name << " computes";
        if (!wanted(*spec)) continue;
        if (!deviceSupports(spec->type)) {
          std::cout << "[ SKIPPED ] " << reflection.name << ": the device cannot run " << spec->type.name
                    << " collectives\n";
          continue;
        }
        auto kernel = launch::LaunchableKernel::create(sharedDevice(), translation, reflection.name);
        ASSERT_TRUE(kernel.ok()) << kernel.error().message();
        uint32_t seed = 1;
        uint32_t lanes = sharedDevice().info().subgroup.size;
        // The 1024-item work-groups become the device's largest where that is smaller (SwiftShader's 256).
        uint32_t largest = sharedDevice().info().limits.maxComputeWorkGroupInvocations;
        for (Shape shape : shapes) {
          if (shape.dims == 1 && shape.local[0] > largest) shape.local[0] = largest;
          if (shape.localItems() > largest) continue;            // a 2D/3D shape the device cannot run
          if (!referenceDefined(*spec, shape, lanes)) continue;  // see EveryWorkGroupSizeAndShape
          std::string mismatch = check(**kernel, *spec, shape, seed++);
          ASSERT_EQ(mismatch, "") << file;
          ++checked;
        }
      }
    }
    EXPECT_GE(checked, minimum);
  }
};

// Every function x type x scope, at sizes that make partial subgroups, more subgroups than a
// subgroup has lanes, and the largest work-group. The O0 builds (the same functions through
// clang's unoptimised code) at the middle size only: each shape is a pipeline compiled by lavapipe
// per kernel, and CI's time is bounded.
TEST_P(Collectives, EveryFunctionAndTypeMatchesTheCpu) {
  Shape partial{1, {13, 1, 1}, {3, 1, 1}}, manySubgroups{1, {100, 1, 1}, {2, 1, 1}},
      largest{1, {1024, 1, 1}, {2, 1, 1}};
  bool optimised = GetParam() == std::string("O2");
  runMatrix(
      optimised ? std::vector<Shape>{partial, manySubgroups, largest} : std::vector<Shape>{manySubgroups},
      [](const KernelSpec&) { return true; }, optimised ? 300 : 100);
}

// Every work-group size and shape, for a representative function of each kind.
TEST_P(Collectives, EveryWorkGroupSizeAndShape) {
  // 2D/3D work-groups whose x size is not a multiple of the subgroup size take the Workgroup-memory
  // path for work-group collectives (lavapipe packs their subgroups by rows). Sub-group functions
  // are checked in 1D shapes only there: lavapipe then reports SubgroupId and
  // SubgroupLocalInvocationId inconsistently with its packing, so no reference can follow it.
  const std::vector<Shape> shapes = {
      {1, {1, 1, 1}, {3, 1, 1}},   {1, {3, 1, 1}, {2, 1, 1}},    {1, {8, 1, 1}, {2, 1, 1}},
      {1, {13, 1, 1}, {3, 1, 1}},  {1, {64, 1, 1}, {2, 1, 1}},   {1, {100, 1, 1}, {2, 1, 1}},
      {1, {256, 1, 1}, {2, 1, 1}}, {1, {1024, 1, 1}, {2, 1, 1}}, {2, {8, 4, 1}, {2, 3, 1}},
      {2, {16, 5, 1}, {2, 2, 1}},  {3, {8, 3, 5}, {2, 1, 2}},    {3, {16, 8, 8}, {1, 1, 2}},
      {2, {13, 5, 1}, {2, 2, 1}},  {3, {4, 3, 5}, {2, 1, 2}},    {2, {100, 3, 1}, {1, 2, 1}},
  };
  runMatrix(
      shapes,
      [](const KernelSpec& s) {
        bool representativeType = s.type.type == Type::kInt || s.type.type == Type::kFloat;
        bool representativeOp = s.op == "add" || s.op == "max" || s.op == "logical_xor" || s.op.empty();
        return representativeType && representativeOp;
      },
      100);
}

// The path for devices without subgroup arithmetic (Workgroup memory and barriers only), for a
// representative function of each kind at both scopes. O2 only, to keep it short on lavapipe.
TEST_P(Collectives, SharedMemoryPathMatchesTheCpu) {
  if (GetParam() != std::string("O2")) GTEST_SKIP() << "the shared-memory path is checked on the O2 builds only";
  const std::vector<Shape> shapes = {
      {1, {1, 1, 1}, {3, 1, 1}},   {1, {13, 1, 1}, {3, 1, 1}},   {1, {64, 1, 1}, {2, 1, 1}},
      {1, {100, 1, 1}, {2, 1, 1}}, {1, {1024, 1, 1}, {2, 1, 1}}, {2, {8, 4, 1}, {2, 3, 1}},
  };
  runMatrix(
      shapes,
      [](const KernelSpec& s) {
        bool representativeType = s.type.type == Type::kInt || s.type.type == Type::kFloat;
        bool representativeOp = s.op == "add" || s.op == "max" || s.op == "logical_xor" || s.op.empty();
        return representativeType && representativeOp;
      },
      100, Lowering::kSharedMemory);
}

// Every scan of every type at both scopes, with the subgroup scans the runtime does not pick for
// this device (shuffle-up steps on lavapipe, OpGroupNonUniform* scans on NVIDIA), at sizes with a
// partial subgroup and with more subgroups than a subgroup has lanes. O2 only, to keep it short.
TEST_P(Collectives, OtherSubgroupScansMatchTheCpu) {
  if (GetParam() != std::string("O2")) GTEST_SKIP() << "the other subgroup scans are checked on the O2 builds only";
  if (!sharedDevice().info().subgroup.supportsInCompute(VK_SUBGROUP_FEATURE_SHUFFLE_RELATIVE_BIT))
    GTEST_SKIP() << "the device has no shuffle-relative subgroup operations, so only its own scans are used";
  runMatrix(
      {{1, {13, 1, 1}, {3, 1, 1}}, {1, {100, 1, 1}, {2, 1, 1}}},
      [](const KernelSpec& s) { return s.function.starts_with("scan"); }, 100, Lowering::kOtherScans);
}

// NDRanges whose global size is not a multiple of the local size: the remainder work-groups are
// smaller, and their collectives cover only their own work-items. O2 only, to keep it short.
TEST_P(Collectives, RemainderGroupsOfNonUniformRanges) {
  if (GetParam() != std::string("O2")) GTEST_SKIP() << "non-uniform ranges are checked on the O2 builds only";
  Shape oneDimension{1, {256, 1, 1}, {0, 0, 0}, {1000, 1, 1}};
  Shape twoDimensions{2, {16, 4, 1}, {0, 0, 0}, {40, 10, 1}};
  runMatrix(
      {oneDimension, twoDimensions},
      [](const KernelSpec& s) {
        bool representativeType = s.type.type == Type::kInt || s.type.type == Type::kFloat;
        bool representativeOp = s.op == "add" || s.op == "max" || s.op == "logical_xor" || s.op.empty();
        return representativeType && representativeOp;
      },
      40);
}

// Collectives in a row, in a loop, under a uniform branch, with the kernel's own __local memory
// and barriers (spirv/kernels/collectives_mixed.cl), for 1D work-groups of several sizes.
TEST_P(Collectives, MixedWithLoopsBranchesAndLocalMemory) {
  auto k = kernel("collectives_mixed", "collectives_mixed");
  ASSERT_TRUE(k);
  uint32_t lanes = sharedDevice().info().subgroup.size;
  for (uint32_t local : {1u, 13u, 64u, 256u}) {
    for (int rounds : {1, 3}) {
      const uint32_t groups = 3, n = local * groups;
      std::mt19937 random(local + rounds);
      std::vector<int32_t> in(n);
      for (auto& v : in) v = static_cast<int32_t>(random() % 2001) - 1000;
      auto dIn = buffer(in), dOut = buffer(std::vector<int32_t>(n, 0));
      run(*k, range1d(n, local), {KernelArg::buffer(dIn), KernelArg::buffer(dOut), KernelArg::value(rounds)});
      auto out = read<int32_t>(dOut, n);
      for (uint32_t g = 0; g < groups; ++g) {
        std::vector<int32_t> v(in.begin() + g * local, in.begin() + (g + 1) * local);
        std::vector<int32_t> acc(local, 0);
        for (int r = 0; r < rounds; ++r) {
          int32_t running = 0;
          for (auto& x : v) running += x, x = running % 1000;
          std::vector<int32_t> neighbour(local);
          for (uint32_t i = 0; i < local; ++i) neighbour[i] = v[(i + 1) % local];
          int32_t maximum = *std::max_element(neighbour.begin(), neighbour.end());
          for (uint32_t i = 0; i < local; ++i) acc[i] += rounds > 2 ? maximum : neighbour[0];
        }
        int32_t total = 0;
        for (int32_t x : v) total += x;
        for (uint32_t i = 0; i < local; ++i) {
          uint32_t first = i / lanes * lanes, last = std::min(first + lanes, local);
          int32_t subgroupMin = *std::min_element(v.begin() + first, v.begin() + last);
          ASSERT_EQ(out[g * local + i], acc[i] + total + subgroupMin)
              << "local " << local << " rounds " << rounds << " item " << i;
        }
      }
    }
  }
}

// The worked example of the OpenCL C specification (its typo corrected: see shared/spec/README).
TEST_P(Collectives, SpecificationExampleScans) {
  auto k = kernel("../spec_example", "spec_example");
  ASSERT_TRUE(k);
  std::vector<int32_t> p = {3, 1, 7, 0, 4, 1, 6, 3};
  auto dp = buffer(p), inclusive = buffer(std::vector<int32_t>(8, 0)), exclusive = buffer(std::vector<int32_t>(8, 0));
  run(*k, range1d(8, 8), {KernelArg::buffer(dp), KernelArg::buffer(inclusive), KernelArg::buffer(exclusive)});
  EXPECT_EQ(read<int32_t>(inclusive, 8), (std::vector<int32_t>{3, 4, 11, 11, 15, 16, 22, 25}));
  EXPECT_EQ(read<int32_t>(exclusive, 8), (std::vector<int32_t>{0, 3, 4, 11, 11, 15, 16, 22}));
}

CL2VK_KERNEL_TEST_SUITE(Collectives, "O0", "O2");

}  // namespace
}  // namespace cl2vk::test
