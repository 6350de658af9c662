#include "kernels/collective_reference.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <sstream>

#include "ir/types.h"
#include "test_util.h"

namespace cl2vk::test::collectives {

namespace {

constexpr TypeInfo kTypes[] = {{"int", Type::kInt, 4},      {"uint", Type::kUint, 4},   {"long", Type::kLong, 8},
                               {"ulong", Type::kUlong, 8},  {"float", Type::kFloat, 4}, {"half", Type::kHalf, 2},
                               {"double", Type::kDouble, 8}};

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

Value decode(const TypeInfo& t, const std::byte* bytes) {
  uint64_t bits = 0;
  std::memcpy(&bits, bytes, t.size);
  if (t.type == Type::kFloat) return Value{0, std::bit_cast<float>(static_cast<uint32_t>(bits))};
  if (t.type == Type::kDouble) return Value{0, std::bit_cast<double>(bits)};
  if (t.type == Type::kHalf) return Value{0, halfToDouble(static_cast<uint16_t>(bits))};
  return Value{bits, 0};
}

// The work-items of one work-group (or sub-group): the global linear ids, in local linear id order.
struct Group {
  std::array<uint64_t, 3> size;  // the enclosing work-group's size: smaller in a remainder group
  std::vector<size_t> items;
};

// Groups the global linear ids of an NDRange by work-group (or by sub-group of `subgroupSize`
// consecutive local linear ids), each in linear local id order.
std::vector<Group> groupsOf(const Shape& s, uint32_t subgroupSize, bool bySubgroup) {
  std::array<uint64_t, 3> global = s.globalSize(), groupCount;
  for (int d = 0; d < 3; ++d) groupCount[d] = (global[d] + s.local[d] - 1) / s.local[d];
  struct Members {
    std::array<uint64_t, 3> size;
    std::vector<std::pair<uint64_t, size_t>> localAndGlobal;
  };
  std::map<std::pair<uint64_t, uint64_t>, Members> members;
  for (uint64_t z = 0; z < global[2]; ++z)
    for (uint64_t y = 0; y < global[1]; ++y)
      for (uint64_t x = 0; x < global[0]; ++x) {
        std::array<uint64_t, 3> id = {x, y, z}, groupId, localId, size;
        for (int d = 0; d < 3; ++d) {
          groupId[d] = id[d] / s.local[d];
          localId[d] = id[d] % s.local[d];
          size[d] = std::min<uint64_t>(s.local[d], global[d] - groupId[d] * s.local[d]);
        }
        size_t linear = static_cast<size_t>((z * global[1] + y) * global[0] + x);
        uint64_t group = (groupId[2] * groupCount[1] + groupId[1]) * groupCount[0] + groupId[0];
        uint64_t local = (localId[2] * size[1] + localId[1]) * size[0] + localId[0];
        uint64_t sub = bySubgroup ? local / subgroupSize : 0;
        Members& m = members[{group, sub}];
        m.size = size;
        m.localAndGlobal.emplace_back(local, linear);
      }
  std::vector<Group> result;
  for (auto& [key, m] : members) {
    std::sort(m.localAndGlobal.begin(), m.localAndGlobal.end());
    Group group{m.size, {}};
    for (auto& [local, linear] : m.localAndGlobal) group.items.push_back(linear);
    result.push_back(std::move(group));
  }
  return result;
}

}  // namespace

std::span<const TypeInfo> types() { return kTypes; }

bool isFloat(Type t) { return t == Type::kFloat || t == Type::kHalf || t == Type::kDouble; }
bool isSigned(Type t) { return t == Type::kInt || t == Type::kLong; }

double halfToDouble(uint16_t h) {
  uint32_t sign = (h >> 15) & 1, exponent = (h >> 10) & 0x1f, mantissa = h & 0x3ff;
  double value = exponent == 0    ? std::ldexp(mantissa, -24)
                 : exponent == 31 ? (mantissa ? std::nan("") : std::numeric_limits<double>::infinity())
                                  : std::ldexp(mantissa + 1024, static_cast<int>(exponent) - 25);
  return sign ? -value : value;
}

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
  if (lastUnderscore == std::string::npos) return std::nullopt;
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

std::array<uint64_t, 3> Shape::globalSize() const {
  std::array<uint64_t, 3> size;
  for (int d = 0; d < 3; ++d) size[d] = global[d] != 0 ? global[d] : uint64_t{local[d]} * groups[d];
  return size;
}

size_t Shape::items() const {
  std::array<uint64_t, 3> size = globalSize();
  return static_cast<size_t>(size[0] * size[1] * size[2]);
}

bool Shape::linearSubgroups(uint32_t subgroupSize) const {
  if (local[1] == 1 && local[2] == 1) return true;
  uint64_t remainderX = globalSize()[0] % local[0];
  return local[0] % subgroupSize == 0 && remainderX % subgroupSize == 0;
}

BroadcastSource broadcastSource(const Shape& shape, uint32_t subgroupSize) {
  // The smallest work-group of each dimension is the remainder group, when there is one.
  std::array<uint64_t, 3> global = shape.globalSize(), smallest;
  for (int d = 0; d < 3; ++d)
    smallest[d] = global[d] % shape.local[d] != 0 ? global[d] % shape.local[d] : shape.local[d];
  return BroadcastSource{{smallest[0] - 1, smallest[1] / 2, smallest[2] - 1}, subgroupSize / 2};
}

int broadcastIdCount(const KernelSpec& spec) {
  if (!spec.workGroup || !spec.function.starts_with("broadcast_")) return 0;
  return spec.function[10] - '0';  // broadcast_<n>d
}

bool referenceDefined(const KernelSpec& spec, const Shape& shape, uint32_t subgroupSize) {
  int ids = broadcastIdCount(spec);
  if (ids != 0 && ids < static_cast<int>(shape.dims)) return false;
  return spec.workGroup || shape.linearSubgroups(subgroupSize);
}

std::string compare(const KernelSpec& spec, const Shape& shape, uint32_t subgroupSize, const std::vector<Value>& in,
                    std::span<const std::byte> out) {
  if (in.size() < shape.items() || out.size() < shape.items() * spec.type.size) return "fewer values than work-items";
  BroadcastSource source = broadcastSource(shape, subgroupSize);
  uint32_t groupSize = shape.localItems();
  for (const Group& group : groupsOf(shape, subgroupSize, !spec.workGroup)) {
    const std::vector<size_t>& members = group.items;
    std::vector<Value> expected(members.size());
    double magnitude = 0;
    if (spec.function == "all" || spec.function == "any") {
      bool all = true, any = false;
      for (size_t i : members) all &= in[i].bits != 0, any |= in[i].bits != 0;
      for (auto& e : expected) e.bits = (spec.function == "all" ? all : any) ? 1 : 0;
    } else if (spec.function.starts_with("broadcast")) {
      size_t from;
      if (spec.function == "broadcast") {
        if (source.lane >= members.size()) continue;  // the partial last subgroup has no such lane
        from = source.lane;
      } else {
        int ids = broadcastIdCount(spec);
        uint64_t local = source.localId[0];
        if (ids >= 2) local += source.localId[1] * group.size[0];
        if (ids >= 3) local += source.localId[2] * group.size[0] * group.size[1];
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
      Value got = decode(spec.type, out.data() + members[k] * spec.type.size);
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
        why << spec.name << " local " << shape.local[0] << "x" << shape.local[1] << "x" << shape.local[2];
        if (shape.global[0] != 0)
          why << " global " << shape.global[0] << "x" << shape.global[1] << "x" << shape.global[2];
        why << " item " << k << " of its group (global linear id " << members[k] << "): got "
            << (isFloat(spec.type.type) ? got.real : static_cast<double>(got.bits)) << ", expected "
            << (isFloat(spec.type.type) ? expected[k].real : static_cast<double>(expected[k].bits));
        return why.str();
      }
    }
  }
  return "";
}

std::vector<std::string> collectiveModules(const std::string& build) {
  std::vector<std::string> names;
  for (const auto& path : test::corpusModules()) {
    if (path.parent_path() != corpusDir() || path.filename().string().starts_with("spec_example")) continue;
    std::string file = path.filename().string();
    bool handWritten = file.find("khr") != std::string::npos;  // spirv/asm: one build
    if (handWritten ? build == "O2" : file.find("." + build + ".") != std::string::npos) names.push_back(file);
  }
  return names;
}

}  // namespace cl2vk::test::collectives
