// Every work-group and sub-group collective of the corpus (spirv/cl, spirv/asm), for every type,
// run on the Vulkan device at many work-group sizes and shapes, each result compared with a CPU
// reference: exact for integers, min and max; for float add and mul within (n-1)·ε·Σ|x|.

#include <bit>
#include <functional>
#include <iostream>
#include <cmath>
#include <map>
#include <random>
#include <sstream>

#include "ir/types.h"
#include "kernel_test_util.h"
#include "test_util.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;
using launch::NDRange;

enum class Type { kInt, kUint, kLong, kUlong, kFloat, kHalf, kDouble };

struct TypeInfo {
  const char* name;
  Type type;
  size_t size;
};

constexpr TypeInfo kTypes[] = {{"int", Type::kInt, 4},       {"uint", Type::kUint, 4},   {"long", Type::kLong, 8},
                               {"ulong", Type::kUlong, 8},   {"float", Type::kFloat, 4}, {"half", Type::kHalf, 2},
                               {"double", Type::kDouble, 8}};

bool isFloat(Type t) { return t == Type::kFloat || t == Type::kHalf || t == Type::kDouble; }
bool isSigned(Type t) { return t == Type::kInt || t == Type::kLong; }

double halfToDouble(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double value = exponent == 0    ? std::ldexp(mantissa, -24)
                 : exponent == 31 ? (mantissa ? std::nan("") : std::numeric_limits<double>::infinity())
                                  : std::ldexp(mantissa + 1024, static_cast<int>(exponent) - 25);
  return sign ? -value : value;
}

// A value of any collective type, held as what the CPU reference computes with.
struct Value {
  uint64_t bits = 0;  // integers, two's complement, truncated to the type's width
  double real = 0;    // floats
};

// What a kernel name says: <scope>_<function>_<operator>_<type>, or the votes and broadcasts.
struct KernelSpec {
  std::string name;
  bool workGroup = true;
  std::string function;  // reduce, scan_inclusive, scan_exclusive, all, any, broadcast_1d/2d/3d, broadcast
  std::string op;        // add, min, max, mul, and, or, xor, logical_and, logical_or, logical_xor
  TypeInfo type{"int", Type::kInt, 4};
};

std::optional<KernelSpec> parse(const std::string& name) {
  KernelSpec spec;
  spec.name = name;
  std::string rest;
  if (name.starts_with("wg_")) {
    rest = name.substr(3);
  } else if (name.starts_with("sg_")) {
    spec.workGroup = false;
    rest = name.substr(3);
  } else {
    return std::nullopt;
  }
  if (rest == "all" || rest == "any") {
    spec.function = rest;
    return spec;
  }
  size_t lastUnderscore = rest.rfind('_');
  std::string typeName = rest.substr(lastUnderscore + 1);
  bool found = false;
  for (const TypeInfo& t : kTypes) {
    if (typeName == t.name) spec.type = t, found = true;
  }
  if (!found) return std::nullopt;
  rest = rest.substr(0, lastUnderscore);
  for (const char* broadcast : {"broadcast_1d", "broadcast_2d", "broadcast_3d", "broadcast"}) {
    if (rest == broadcast) {
      spec.function = broadcast;
      return spec;
    }
  }
  for (const char* function : {"reduce", "scan_inclusive", "scan_exclusive"}) {
    std::string prefix = std::string(function) + "_";
    if (rest.starts_with(prefix)) {
      spec.function = function;
      spec.op = rest.substr(prefix.size());
      return spec;
    }
  }
  return std::nullopt;
}

uint64_t mask(const TypeInfo& t) { return t.size == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * t.size)) - 1; }

int64_t asSigned(uint64_t bits, const TypeInfo& t) {
  if (t.size == 8) return static_cast<int64_t>(bits);
  uint64_t sign = uint64_t{1} << (8 * t.size - 1);
  return static_cast<int64_t>((bits ^ sign) - sign);
}

Value identity(const std::string& op, const TypeInfo& t) {
  Value v;
  double inf = std::numeric_limits<double>::infinity();
  if (op == "add" || op == "or" || op == "xor" || op == "logical_or" || op == "logical_xor") return v;
  if (op == "mul") return Value{1, 1.0};
  if (op == "and") return Value{mask(t), 0};
  if (op == "logical_and") return Value{1, 0};
  if (op == "min") return isFloat(t.type) ? Value{0, inf} : Value{isSigned(t.type) ? mask(t) >> 1 : mask(t), 0};
  if (op == "max") return isFloat(t.type) ? Value{0, -inf} : Value{isSigned(t.type) ? (mask(t) >> 1) + 1 : 0, 0};
  ADD_FAILURE() << "no identity for " << op;
  return v;
}

Value combine(const std::string& op, const TypeInfo& t, Value a, Value x) {
  if (isFloat(t.type)) {
    if (op == "add") return Value{0, a.real + x.real};
    if (op == "mul") return Value{0, a.real * x.real};
    if (op == "min") return Value{0, std::min(a.real, x.real)};
    if (op == "max") return Value{0, std::max(a.real, x.real)};
  }
  uint64_t m = mask(t);
  if (op == "add") return Value{(a.bits + x.bits) & m, 0};
  if (op == "mul") return Value{(a.bits * x.bits) & m, 0};
  if (op == "and") return Value{a.bits & x.bits, 0};
  if (op == "or") return Value{a.bits | x.bits, 0};
  if (op == "xor") return Value{a.bits ^ x.bits, 0};
  if (op == "logical_and") return Value{(a.bits != 0 && x.bits != 0) ? 1u : 0u, 0};
  if (op == "logical_or") return Value{(a.bits != 0 || x.bits != 0) ? 1u : 0u, 0};
  if (op == "logical_xor") return Value{((a.bits != 0) != (x.bits != 0)) ? 1u : 0u, 0};
  bool less = isSigned(t.type) ? asSigned(x.bits, t) < asSigned(a.bits, t) : x.bits < a.bits;
  if (op == "min") return less ? x : a;
  if (op == "max") return less ? a : x;
  ADD_FAILURE() << "unknown operator " << op;
  return a;
}

// Random inputs suited to the operator (no float overflow; products near 1).
std::vector<Value> inputs(const KernelSpec& spec, size_t n, std::mt19937_64& random) {
  std::vector<Value> values(n);
  std::uniform_real_distribution<double> unit(-1.0, 1.0);
  for (Value& v : values) {
    if (spec.function == "all" || spec.function == "any" || spec.op.starts_with("logical")) {
      // Predicates: mostly true for all-like tests, mostly false for any-like, with other non-zero values.
      uint64_t r = random() % 16;
      bool truthy = spec.function == "any" || spec.op == "logical_or" ? r == 0 : r != 0;
      v.bits = truthy ? (r % 3 == 0 ? 7 : 1) : 0;
      if (truthy && r % 5 == 0) v.bits = mask(spec.type) & static_cast<uint64_t>(-3);
    } else if (isFloat(spec.type.type)) {
      double x = spec.op == "mul" ? 1.0 + 0.02 * unit(random) : unit(random);
      if (spec.type.type == Type::kHalf) x = halfToDouble(ir::floatToHalfBits(x));
      if (spec.type.type == Type::kFloat) x = static_cast<float>(x);
      v.real = x;
    } else if (spec.op == "mul") {
      uint64_t choices[] = {1, 1, 1, 3, mask(spec.type), 2};
      v.bits = choices[random() % 6];
    } else {
      v.bits = random() & mask(spec.type);
    }
  }
  return values;
}

std::vector<std::byte> encode(const TypeInfo& t, const std::vector<Value>& values) {
  std::vector<std::byte> bytes(values.size() * t.size);
  for (size_t i = 0; i < values.size(); ++i) {
    uint64_t bits = values[i].bits;
    if (t.type == Type::kFloat) bits = std::bit_cast<uint32_t>(static_cast<float>(values[i].real));
    if (t.type == Type::kDouble) bits = std::bit_cast<uint64_t>(values[i].real);
    if (t.type == Type::kHalf) bits = ir::floatToHalfBits(values[i].real);
    std::memcpy(bytes.data() + i * t.size, &bits, t.size);
  }
  return bytes;
}

Value decode(const TypeInfo& t, const std::byte* bytes) {
  uint64_t bits = 0;
  std::memcpy(&bits, bytes, t.size);
  if (t.type == Type::kFloat) return Value{0, std::bit_cast<float>(static_cast<uint32_t>(bits))};
  if (t.type == Type::kDouble) return Value{0, std::bit_cast<double>(bits)};
  if (t.type == Type::kHalf) return Value{0, halfToDouble(static_cast<uint16_t>(bits))};
  return Value{bits, 0};
}

// The work-items of one group (or sub-group), in linear local id order: their indices in `in`.
using Groups = std::vector<std::vector<size_t>>;

struct Shape {
  uint32_t dims;
  std::array<uint32_t, 3> local;
  std::array<uint32_t, 3> groups;
};

// Groups the global linear ids of an NDRange by work-group (or by sub-group of `subgroupSize`
// consecutive local linear ids), each in linear local id order.
Groups groupsOf(const Shape& s, uint32_t subgroupSize, bool bySubgroup) {
  std::array<uint64_t, 3> global;
  for (int d = 0; d < 3; ++d) global[d] = uint64_t{s.local[d]} * s.groups[d];
  std::map<std::pair<uint64_t, uint64_t>, std::vector<std::pair<uint64_t, size_t>>> members;
  for (uint64_t z = 0; z < global[2]; ++z)
    for (uint64_t y = 0; y < global[1]; ++y)
      for (uint64_t x = 0; x < global[0]; ++x) {
        size_t linear = static_cast<size_t>((z * global[1] + y) * global[0] + x);
        uint64_t group = ((z / s.local[2]) * s.groups[1] + y / s.local[1]) * s.groups[0] + x / s.local[0];
        uint64_t local = ((z % s.local[2]) * s.local[1] + y % s.local[1]) * s.local[0] + x % s.local[0];
        uint64_t sub = bySubgroup ? local / subgroupSize : 0;
        members[{group, sub}].emplace_back(local, linear);
      }
  Groups result;
  for (auto& [key, items] : members) {
    std::sort(items.begin(), items.end());
    std::vector<size_t> indices;
    for (auto& [local, linear] : items) indices.push_back(linear);
    result.push_back(std::move(indices));
  }
  return result;
}

class Collectives : public KernelTest {
 public:
  // The collectives corpus modules built with this test's parameter (O0 / O2), translated once.
  static std::vector<std::string> moduleNames(const std::string& build) {
    std::vector<std::string> names;
    for (const auto& path : corpusModules()) {
      if (path.parent_path() != corpusDir() || path.filename().string().starts_with("spec_example")) continue;
      std::string file = path.filename().string();
      bool handWritten = file.find("khr") != std::string::npos;  // spirv/asm: one build
      if (handWritten ? build == "O2" : file.find("." + build + ".") != std::string::npos) names.push_back(file);
    }
    return names;
  }

  // Translated for the device, or as if it had no subgroup arithmetic (the shared-memory path).
  std::shared_ptr<const Translation> translateCorpusModule(const std::string& file, bool subgroupArithmetic = true) {
    static std::map<std::pair<std::string, bool>, std::shared_ptr<const Translation>> cache;
    auto& cached = cache[{file, subgroupArithmetic}];
    if (cached) return cached;
    Target target = launch::targetFor(sharedDevice().info());
    target.subgroupArithmetic = target.subgroupArithmetic && subgroupArithmetic;
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
    size_t n = 1;
    for (int d = 0; d < 3; ++d) n *= uint64_t{shape.local[d]} * shape.groups[d];
    std::mt19937_64 random(seed);
    std::vector<Value> in = inputs(spec, n, random);
    auto dIn = buffer(encode(spec.type, in));
    auto dOut = buffer(std::vector<std::byte>(n * spec.type.size));

    NDRange range;
    range.dimensions = shape.dims;
    for (int d = 0; d < 3; ++d) range.globalSize[d] = uint64_t{shape.local[d]} * shape.groups[d];
    range.localSize = shape.local;
    std::vector<KernelArg> args = {KernelArg::buffer(dIn), KernelArg::buffer(dOut)};
    std::array<uint64_t, 3> owner = {shape.local[0] - 1, shape.local[1] / 2, shape.local[2] - 1};
    uint32_t lane = subgroupSize / 2;
    if (spec.function.starts_with("broadcast_")) {
      int ids = spec.function[10] - '0';  // broadcast_<n>d
      for (int d = 0; d < ids; ++d) args.push_back(KernelArg::value(owner[d]));
      if (ids < static_cast<int>(shape.dims)) return "skip";  // fewer ids than dimensions
    } else if (spec.function == "broadcast") {
      args.push_back(KernelArg::value(lane));
    }
    auto times = kernel.launch(range, args);
    if (!times) return "launch failed: " + times.error().message();
    std::vector<std::byte> outBytes(n * spec.type.size);
    if (Status read = dOut.download(outBytes); !read.ok()) return read.error().message();

    Groups groups = groupsOf(shape, subgroupSize, !spec.workGroup);
    uint32_t groupSize = shape.local[0] * shape.local[1] * shape.local[2];
    for (const auto& members : groups) {
      std::vector<Value> expected(members.size());
      double magnitude = 0;
      if (spec.function == "all" || spec.function == "any") {
        bool all = true, any = false;
        for (size_t i : members) all &= in[i].bits != 0, any |= in[i].bits != 0;
        for (auto& e : expected) e.bits = (spec.function == "all" ? all : any) ? 1 : 0;
      } else if (spec.function.starts_with("broadcast")) {
        size_t from;
        if (spec.function == "broadcast") {
          from = std::min<size_t>(lane, members.size() - 1);
          if (lane >= members.size()) continue;  // the partial last subgroup has no such lane
        } else {
          int ids = spec.function[10] - '0';
          uint64_t local = owner[0];
          if (ids >= 2) local += owner[1] * shape.local[0];
          if (ids >= 3) local += owner[2] * shape.local[0] * shape.local[1];
          from = static_cast<size_t>(local);
        }
        for (auto& e : expected) e = in[members[from]];
      } else {
        Value acc = identity(spec.op, spec.type);
        Value total = acc;
        for (size_t i : members) total = combine(spec.op, spec.type, total, in[i]), magnitude += std::fabs(in[i].real);
        for (size_t k = 0; k < members.size(); ++k) {
          if (spec.function == "scan_exclusive") expected[k] = acc;
          acc = combine(spec.op, spec.type, acc, in[members[k]]);
          if (spec.function == "scan_inclusive") expected[k] = acc;
          if (spec.function == "reduce") expected[k] = total;
        }
      }
      for (size_t k = 0; k < members.size(); ++k) {
        Value got = decode(spec.type, outBytes.data() + members[k] * spec.type.size);
        bool ok;
        if (spec.function == "all" || spec.function == "any" || spec.op.starts_with("logical")) {
          ok = (got.bits != 0) == (expected[k].bits != 0) && (got.bits == 0 || got.bits == 1);
        } else if (isFloat(spec.type.type) && (spec.op == "add" || spec.op == "mul")) {
          double epsilon = spec.type.type == Type::kHalf ? 0x1p-10 : spec.type.type == Type::kFloat ? 0x1p-23 : 0x1p-52;
          double scale = spec.op == "add" ? magnitude : std::fabs(expected[k].real) * 1.1;
          double tolerance = std::max<double>(static_cast<double>(groupSize), 1.0) * epsilon * std::max(scale, 1e-30) +
                             (spec.type.type == Type::kHalf ? epsilon * std::fabs(expected[k].real) : 0);
          ok = std::fabs(got.real - expected[k].real) <= tolerance;
        } else if (isFloat(spec.type.type)) {
          ok = got.real == expected[k].real;
        } else {
          ok = (got.bits & mask(spec.type)) == (expected[k].bits & mask(spec.type));
        }
        if (!ok) {
          std::ostringstream why;
          why << spec.name << " local " << shape.local[0] << "x" << shape.local[1] << "x" << shape.local[2] << " item " << k
              << " of its group: got " << (isFloat(spec.type.type) ? got.real : static_cast<double>(got.bits)) << ", expected "
              << (isFloat(spec.type.type) ? expected[k].real : static_cast<double>(expected[k].bits));
          return why.str();
        }
      }
    }
    return "";
  }

  // Runs every kernel of the collectives corpus accepted by `wanted` at each of `shapes`.
  void runMatrix(const std::vector<Shape>& shapes, const std::function<bool(const KernelSpec&)>& wanted, size_t minimum,
                 bool subgroupArithmetic = true) {
    size_t checked = 0;
    for (const std::string& file : moduleNames(GetParam())) {
      auto translation = translateCorpusModule(file, subgroupArithmetic);
      ASSERT_TRUE(translation) << file;
      for (const KernelReflection& reflection : translation->reflection.kernels) {
        std::optional<KernelSpec> spec = parse(reflection.name);
        ASSERT_TRUE(spec) << "cannot tell what " << reflection.name << " computes";
        if (!wanted(*spec)) continue;
        if (!deviceSupports(spec->type)) {
          std::cout << "[ SKIPPED ] " << reflection.name << ": the device cannot run " << spec->type.name << " collectives\n";
          continue;
        }
        auto kernel = launch::LaunchableKernel::create(sharedDevice(), translation, reflection.name);
        ASSERT_TRUE(kernel.ok()) << kernel.error().message();
        uint32_t seed = 1;
        uint32_t lanes = sharedDevice().info().subgroup.size;
        for (const Shape& shape : shapes) {
          bool linear = (shape.local[1] == 1 && shape.local[2] == 1) || shape.local[0] % lanes == 0;
          if (!spec->workGroup && !linear) continue;  // see EveryWorkGroupSizeAndShape
          std::string mismatch = check(**kernel, *spec, shape, seed++);
          if (mismatch == "skip") continue;
          ASSERT_EQ(mismatch, "") << file;
          ++checked;
        }
      }
    }
    EXPECT_GE(checked, minimum);
  }
};

// Every function x type x scope, at sizes that make partial subgroups, more subgroups than a
// subgroup has lanes, and the largest work-group.
TEST_P(Collectives, EveryFunctionAndTypeMatchesTheCpu) {
  runMatrix({{1, {13, 1, 1}, {3, 1, 1}}, {1, {100, 1, 1}, {2, 1, 1}}, {1, {1024, 1, 1}, {2, 1, 1}}},
            [](const KernelSpec&) { return true; }, 300);
}

// Every work-group size and shape, for a representative function of each kind.
TEST_P(Collectives, EveryWorkGroupSizeAndShape) {
  // 2D/3D work-groups whose x size is not a multiple of the subgroup size take the Workgroup-memory
  // path for work-group collectives (lavapipe packs their subgroups by rows). Sub-group functions
  // are checked in 1D shapes only there: lavapipe then reports SubgroupId and
  // SubgroupLocalInvocationId inconsistently with its packing, so no reference can follow it.
  const std::vector<Shape> shapes = {
      {1, {1, 1, 1}, {3, 1, 1}},  {1, {3, 1, 1}, {2, 1, 1}},   {1, {8, 1, 1}, {2, 1, 1}},   {1, {13, 1, 1}, {3, 1, 1}},
      {1, {64, 1, 1}, {2, 1, 1}}, {1, {100, 1, 1}, {2, 1, 1}}, {1, {256, 1, 1}, {2, 1, 1}}, {1, {1024, 1, 1}, {2, 1, 1}},
      {2, {8, 4, 1}, {2, 3, 1}},  {2, {16, 5, 1}, {2, 2, 1}},  {3, {8, 3, 5}, {2, 1, 2}},  {3, {16, 8, 8}, {1, 1, 2}},
      {2, {13, 5, 1}, {2, 2, 1}}, {3, {4, 3, 5}, {2, 1, 2}},  {2, {100, 3, 1}, {1, 2, 1}},
  };
  runMatrix(shapes, [](const KernelSpec& s) {
    bool representativeType = s.type.type == Type::kInt || s.type.type == Type::kFloat;
    bool representativeOp = s.op == "add" || s.op == "max" || s.op == "logical_xor" || s.op.empty();
    return representativeType && representativeOp;
  }, 100);
}

// The path for devices without subgroup arithmetic (Workgroup memory and barriers only), for a
// representative function of each kind at both scopes. O2 only, to keep it short on lavapipe.
TEST_P(Collectives, SharedMemoryPathMatchesTheCpu) {
  if (GetParam() != std::string("O2")) GTEST_SKIP() << "the shared-memory path is checked on the O2 builds only";
  const std::vector<Shape> shapes = {
      {1, {1, 1, 1}, {3, 1, 1}},   {1, {13, 1, 1}, {3, 1, 1}},   {1, {64, 1, 1}, {2, 1, 1}},
      {1, {100, 1, 1}, {2, 1, 1}}, {1, {1024, 1, 1}, {2, 1, 1}}, {2, {8, 4, 1}, {2, 3, 1}},
  };
  runMatrix(shapes, [](const KernelSpec& s) {
    bool representativeType = s.type.type == Type::kInt || s.type.type == Type::kFloat;
    bool representativeOp = s.op == "add" || s.op == "max" || s.op == "logical_xor" || s.op.empty();
    return representativeType && representativeOp;
  }, 100, false);
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
          ASSERT_EQ(out[g * local + i], acc[i] + total + subgroupMin) << "local " << local << " rounds " << rounds << " item " << i;
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
