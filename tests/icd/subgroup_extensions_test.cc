// The cl_khr_subgroup_* extensions and the cl_khr_subgroups builtins through the OpenCL API:
// every function of each extension the device offers, for every scalar type it lists, built from
// OpenCL C by the runtime, over 1D, 2D and 3D NDRanges with partial sub-groups and remainder
// work-groups, in uniform control flow, with only the odd lanes active, and with each half of a
// sub-group calling the function in its own arm of an if (which clang-15 -O2 had merged into one
// call for all of them). Every work-item
// records its sub-group id, lane and sub-group size; the CPU reference regroups the work-items by
// them (so it holds for any packing of work-items into sub-groups) and checks those builtins too
// (sizes, dense lanes, counts, and the clGetKernelSubGroupInfo answers). Values are small, so that
// every result, float and half included, is exact.

#include <algorithm>
#include <bit>
#include <cmath>
#include <functional>
#include <iostream>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <tuple>

#include <CL/cl_ext.h>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

struct TypeInfo {
  const char* name;
  unsigned bits;
  bool isSigned, isFloat;
};

const TypeInfo kChar{"char", 8, true, false}, kUchar{"uchar", 8, false, false}, kShort{"short", 16, true, false},
    kUshort{"ushort", 16, false, false}, kInt{"int", 32, true, false}, kUint{"uint", 32, false, false},
    kLong{"long", 64, true, false}, kUlong{"ulong", 64, false, false}, kHalf{"half", 16, true, true},
    kFloat{"float", 32, true, true}, kDouble{"double", 64, true, true};
const std::vector<TypeInfo> kAllTypes = {kChar, kUchar, kShort, kUshort, kInt, kUint,
                                         kLong, kUlong, kFloat, kDouble, kHalf};
const std::vector<TypeInfo> kIntegerTypes = {kChar, kUchar, kShort, kUshort, kInt, kUint, kLong, kUlong};

// A value as the host sees it: integers sign- or zero-extended to 64 bits, floats as double.
struct Value {
  int64_t i = 0;
  double f = 0;
  bool operator==(const Value&) const = default;
};

int64_t wrap(const TypeInfo& t, uint64_t v) {
  if (t.bits == 64) return static_cast<int64_t>(v);
  uint64_t masked = v & ((uint64_t{1} << t.bits) - 1);
  if (t.isSigned && (masked >> (t.bits - 1)) != 0) masked |= ~((uint64_t{1} << t.bits) - 1);
  return static_cast<int64_t>(masked);
}

enum class Op { kAdd, kMul, kMin, kMax, kAnd, kOr, kXor, kLogicalAnd, kLogicalOr, kLogicalXor };

bool less(const TypeInfo& t, const Value& a, const Value& b) {
  if (t.isFloat) return a.f < b.f;
  return t.isSigned ? a.i < b.i : static_cast<uint64_t>(a.i) < static_cast<uint64_t>(b.i);
}

Value combine(const TypeInfo& t, Op op, const Value& a, const Value& b) {
  Value r;
  auto u = [](int64_t v) { return static_cast<uint64_t>(v); };
  switch (op) {
    case Op::kAdd:
      if (t.isFloat)
        r.f = a.f + b.f;
      else
        r.i = wrap(t, u(a.i) + u(b.i));
      break;
    case Op::kMul:
      if (t.isFloat)
        r.f = a.f * b.f;
      else
        r.i = wrap(t, u(a.i) * u(b.i));
      break;
    case Op::kMin: r = less(t, b, a) ? b : a; break;
    case Op::kMax: r = less(t, a, b) ? b : a; break;
    case Op::kAnd: r.i = a.i & b.i; break;
    case Op::kOr: r.i = a.i | b.i; break;
    case Op::kXor: r.i = a.i ^ b.i; break;
    case Op::kLogicalAnd: r.i = (a.i != 0) && (b.i != 0); break;
    case Op::kLogicalOr: r.i = (a.i != 0) || (b.i != 0); break;
    case Op::kLogicalXor: r.i = (a.i != 0) != (b.i != 0); break;
  }
  return r;
}

Value identity(const TypeInfo& t, Op op) {
  Value r;
  double inf = std::numeric_limits<double>::infinity();
  switch (op) {
    case Op::kMul: r.i = 1, r.f = 1; break;
    case Op::kMin:
      r.f = inf;
      r.i = t.isSigned ? wrap(t, (uint64_t{1} << (t.bits - 1)) - 1) : wrap(t, ~uint64_t{0});
      break;
    case Op::kMax:
      r.f = -inf;
      r.i = t.isSigned ? wrap(t, uint64_t{1} << (t.bits - 1)) : 0;
      break;
    case Op::kAnd: r.i = wrap(t, ~uint64_t{0}); break;
    case Op::kLogicalAnd: r.i = 1; break;
    default: break;
  }
  return r;
}

const char* opName(Op op) {
  switch (op) {
    case Op::kAdd: return "add";
    case Op::kMul: return "mul";
    case Op::kMin: return "min";
    case Op::kMax: return "max";
    case Op::kAnd: return "and";
    case Op::kOr: return "or";
    case Op::kXor: return "xor";
    case Op::kLogicalAnd: return "logical_and";
    case Op::kLogicalOr: return "logical_or";
    case Op::kLogicalXor: return "logical_xor";
  }
  return "";
}

// One sub-group as the reference sees it from one lane: the inputs by lane, none where the lane
// is inactive (does not call the function with this one).
struct Lanes {
  std::vector<std::optional<Value>> x;
  uint32_t lane = 0, maxSize = 0;
  const TypeInfo* type = nullptr;
};

using Reference = std::function<std::optional<Value>(const Lanes&)>;

// A function under test: the expression the kernel computes from x (of type T), lid, sz (the
// sub-group size) and lo (the lowest lane that calls it with this one), and what it yields for a
// lane; `helper`, where there is one, gives source for T placed before the kernel.
struct Function {
  std::string extension, name, call;
  std::vector<TypeInfo> types;
  bool nonUniform;  // may be called with only some lanes active
  Reference reference;
  std::function<std::string(const std::string& type)> helper = {};
};

std::optional<Value> from(const Lanes& l, int64_t source) {
  if (source < 0 || source >= static_cast<int64_t>(l.x.size())) return std::nullopt;
  return l.x[static_cast<size_t>(source)];
}

Reference scan(Op op, bool inclusive, bool reduce) {
  return [=](const Lanes& l) -> std::optional<Value> {
    Value acc = identity(*l.type, op);
    for (uint32_t k = 0; k < l.x.size(); ++k) {
      if (!reduce && (inclusive ? k > l.lane : k >= l.lane)) break;
      if (l.x[k]) acc = combine(*l.type, op, acc, *l.x[k]);
    }
    return acc;
  };
}

Value integer(int64_t v) { return Value{v, 0}; }

std::vector<Function> functions() {
  std::vector<Function> list;
  const std::vector<Op> arithmetic = {Op::kAdd, Op::kMul, Op::kMin, Op::kMax};
  const std::vector<Op> bitwise = {Op::kAnd, Op::kOr, Op::kXor};
  const std::vector<Op> logical = {Op::kLogicalAnd, Op::kLogicalOr, Op::kLogicalXor};
  auto typesOf = [&](Op op) {
    if (op == Op::kAnd || op == Op::kOr || op == Op::kXor) return kIntegerTypes;
    if (op >= Op::kLogicalAnd) return std::vector<TypeInfo>{kInt};
    return kAllTypes;
  };
  // cl_khr_subgroup_extended_types: the cl_khr_subgroups collectives for 8/16-bit integers.
  const std::vector<TypeInfo> small = {kChar, kUchar, kShort, kUshort};
  list.push_back({"cl_khr_subgroup_extended_types", "broadcast", "sub_group_broadcast(x, 1u)", small, false,
                  [](const Lanes& l) { return from(l, 1); }});
  for (Op op : {Op::kAdd, Op::kMin, Op::kMax}) {
    std::string o = opName(op);
    list.push_back({"cl_khr_subgroup_extended_types", "reduce_" + o, "sub_group_reduce_" + o + "(x)", small, false,
                    scan(op, true, true)});
    list.push_back({"cl_khr_subgroup_extended_types", "scan_inclusive_" + o, "sub_group_scan_inclusive_" + o + "(x)",
                    small, false, scan(op, true, false)});
    list.push_back({"cl_khr_subgroup_extended_types", "scan_exclusive_" + o, "sub_group_scan_exclusive_" + o + "(x)",
                    small, false, scan(op, false, false)});
  }
  // cl_khr_subgroup_non_uniform_vote.
  const std::string vote = "cl_khr_subgroup_non_uniform_vote";
  list.push_back({vote, "elect", "sub_group_elect()", {kInt}, true, [](const Lanes& l) {
                    uint32_t first = 0;
                    while (!l.x[first]) ++first;
                    return integer(l.lane == first);
                  }});
  auto allOf = [](bool all) {
    return [all](const Lanes& l) {
      bool any = false, every = true;
      for (const auto& v : l.x) {
        if (!v) continue;
        any |= v->i > 0;
        every &= v->i > 0;
      }
      return integer(all ? every : any);
    };
  };
  list.push_back({vote, "all", "sub_group_non_uniform_all(x > 0)", {kInt}, true, allOf(true)});
  list.push_back({vote, "any", "sub_group_non_uniform_any(x > 0)", {kInt}, true, allOf(false)});
  list.push_back({vote, "all_equal", "sub_group_non_uniform_all_equal(x)", kAllTypes, true, [](const Lanes& l) {
                    std::optional<Value> first;
                    for (const auto& v : l.x) {
                      if (v && first && !(*v == *first)) return integer(0);
                      if (v) first = v;
                    }
                    return integer(1);
                  }});
  list.push_back({vote, "all_equal_uniform", "sub_group_non_uniform_all_equal((T)(x > (T)100))", kAllTypes, true,
                  [](const Lanes&) { return integer(1); }});
  // cl_khr_subgroup_ballot.
  const std::string ballot = "cl_khr_subgroup_ballot";
  list.push_back({ballot, "non_uniform_broadcast", "sub_group_non_uniform_broadcast(x, 1u)", kAllTypes, true,
                  [](const Lanes& l) { return from(l, 1); }});
  list.push_back({ballot, "non_uniform_broadcast_lowest", "sub_group_non_uniform_broadcast(x, lo)", kAllTypes, true,
                  [](const Lanes& l) {
                    uint32_t first = 0;
                    while (!l.x[first]) ++first;
                    return l.x[first];
                  }});
  list.push_back({ballot, "broadcast_first", "sub_group_broadcast_first(x)", kAllTypes, true, [](const Lanes& l) {
                    uint32_t first = 0;
                    while (!l.x[first]) ++first;
                    return l.x[first];
                  }});
  auto bits = [](const Lanes& l) {
    uint64_t b = 0;
    for (uint32_t k = 0; k < l.x.size(); ++k) b |= uint64_t{l.x[k] && l.x[k]->i > 0} << k;
    return b;
  };
  list.push_back({ballot, "ballot", "as_long(sub_group_ballot(x > 0).s01)", {kInt}, true, [=](const Lanes& l) {
                    return integer(static_cast<int64_t>(bits(l)));
                  }});
  constexpr uint64_t kPattern = 0xa5c3f00f96e1783cull;
  auto patternBit = [=](uint32_t k) { return (kPattern >> (k % 64)) & 1; };
  const std::string pattern = "(uint4)(0x96e1783cu, 0xa5c3f00fu, 0x96e1783cu, 0xa5c3f00fu)";
  list.push_back(
      {ballot, "inverse_ballot", "sub_group_inverse_ballot(" + pattern + ")", {kInt}, true, [=](const Lanes& l) {
         return integer(static_cast<int64_t>(patternBit(l.lane)));
       }});
  list.push_back({ballot,
                  "bit_extract",
                  "sub_group_ballot_bit_extract(" + pattern + ", (lid + 3) % sz)",
                  {kInt},
                  true,
                  [=](const Lanes& l) {
                    return integer(static_cast<int64_t>(patternBit((l.lane + 3) % static_cast<uint32_t>(l.x.size()))));
                  }});
  // The counts and searches see the bits of get_max_sub_group_size() lanes, a partial
  // sub-group's as a full one's (the CTS's reading of "the bits representing work-items in the
  // sub-group").
  auto ownPattern = [=](const Lanes& l) {
    uint64_t b = 0;
    for (uint32_t k = 0; k < l.maxSize && k < 64; ++k) b |= patternBit(k) << k;
    return b;
  };
  list.push_back(
      {ballot, "bit_count", "sub_group_ballot_bit_count(" + pattern + ")", {kInt}, true, [=](const Lanes& l) {
         return integer(std::popcount(ownPattern(l)));
       }});
  list.push_back({ballot,
                  "bit_count_of_ballot",
                  "sub_group_ballot_bit_count(sub_group_ballot(x > 0))",
                  {kInt},
                  true,
                  [=](const Lanes& l) { return integer(std::popcount(bits(l))); }});
  list.push_back({ballot,
                  "inclusive_scan",
                  "sub_group_ballot_inclusive_scan(sub_group_ballot(x > 0))",
                  {kInt},
                  true,
                  [=](const Lanes& l) {
                    uint64_t upTo = l.lane == 63 ? ~uint64_t{0} : (uint64_t{2} << l.lane) - 1;
                    return integer(std::popcount(bits(l) & upTo));
                  }});
  list.push_back({ballot,
                  "exclusive_scan",
                  "sub_group_ballot_exclusive_scan(sub_group_ballot(x > 0))",
                  {kInt},
                  true,
                  [=](const Lanes& l) { return integer(std::popcount(bits(l) & ((uint64_t{1} << l.lane) - 1))); }});
  // Undefined when none of the sub-group's own bits is set (a sub-group of one lane: bit 0 is 0).
  list.push_back({ballot,
                  "find_lsb",
                  "sub_group_ballot_find_lsb(" + pattern + ")",
                  {kInt},
                  true,
                  [=](const Lanes& l) -> std::optional<Value> {
                    if (ownPattern(l) == 0) return std::nullopt;
                    return integer(std::countr_zero(ownPattern(l)));
                  }});
  list.push_back({ballot,
                  "find_msb",
                  "sub_group_ballot_find_msb(" + pattern + ")",
                  {kInt},
                  true,
                  [=](const Lanes& l) -> std::optional<Value> {
                    if (ownPattern(l) == 0) return std::nullopt;
                    return integer(63 - std::countl_zero(ownPattern(l)));
                  }});
  auto mask = [](const char* which, std::function<bool(uint32_t, uint32_t)> set) {
    return Function{"cl_khr_subgroup_ballot",
                    std::string(which) + "_mask",
                    std::string("as_long(get_sub_group_") + which + "_mask().s01)",
                    {kInt},
                    true,
                    [set](const Lanes& l) {
                      uint64_t b = 0;
                      for (uint32_t k = 0; k < 64; ++k) b |= uint64_t{set(k, l.lane)} << k;
                      // Lanes past the sub-group are not compared (Vulkan sets them for ge/gt).
                      return integer(static_cast<int64_t>(b));
                    }};
  };
  list.push_back(mask("eq", [](uint32_t k, uint32_t lane) { return k == lane; }));
  list.push_back(mask("le", [](uint32_t k, uint32_t lane) { return k <= lane; }));
  list.push_back(mask("lt", [](uint32_t k, uint32_t lane) { return k < lane; }));
  // cl_khr_subgroup_non_uniform_arithmetic.
  for (const std::vector<Op>* ops : {&arithmetic, &bitwise, &logical}) {
    for (Op op : *ops) {
      std::string o = opName(op), e = "cl_khr_subgroup_non_uniform_arithmetic";
      bool isLogical = op >= Op::kLogicalAnd;
      std::string x = isLogical ? "(x > 0)" : "x";
      for (int kind = 0; kind < 3; ++kind) {
        const char* prefix[] = {"reduce_", "scan_inclusive_", "scan_exclusive_"};
        Reference base = scan(op, kind == 1, kind == 0);
        Reference ref = base;
        if (isLogical)
          ref = [base](const Lanes& l) -> std::optional<Value> {
            Lanes predicates = l;
            for (auto& v : predicates.x)
              if (v) v = integer(v->i > 0);
            return base(predicates);
          };
        list.push_back({e, std::string(prefix[kind]) + o,
                        "sub_group_non_uniform_" + std::string(prefix[kind]) + o + "(" + x + ")", typesOf(op), true,
                        ref});
      }
    }
  }
  // cl_khr_subgroup_shuffle and cl_khr_subgroup_shuffle_relative: a source outside the sub-group
  // or inactive is undefined, and not compared.
  list.push_back({"cl_khr_subgroup_shuffle", "shuffle", "sub_group_shuffle(x, (lid * 3u + 1u) % sz)", kAllTypes, true,
                  [](const Lanes& l) { return from(l, (l.lane * 3 + 1) % l.x.size()); }});
  list.push_back({"cl_khr_subgroup_shuffle", "shuffle_xor", "sub_group_shuffle_xor(x, 1u)", kAllTypes, true,
                  [](const Lanes& l) { return from(l, l.lane ^ 1); }});
  list.push_back({"cl_khr_subgroup_shuffle", "shuffle_xor_3", "sub_group_shuffle_xor(x, 3u)", kAllTypes, true,
                  [](const Lanes& l) { return from(l, l.lane ^ 3); }});
  list.push_back({"cl_khr_subgroup_shuffle_relative", "shuffle_up", "sub_group_shuffle_up(x, 2u)", kAllTypes, true,
                  [](const Lanes& l) { return from(l, int64_t{l.lane} - 2); }});
  list.push_back({"cl_khr_subgroup_shuffle_relative", "shuffle_down", "sub_group_shuffle_down(x, 2u)", kAllTypes, true,
                  [](const Lanes& l) { return from(l, int64_t{l.lane} + 2); }});
  // cl_khr_subgroup_clustered_reduce, at cluster sizes 1, 2 and 4 (every device has 4 lanes).
  for (const std::vector<Op>* ops : {&arithmetic, &bitwise, &logical}) {
    for (Op op : *ops) {
      for (uint32_t cluster : {1u, 2u, 4u}) {
        // Every type at cluster size 4; int, ulong and float at 1 and 2.
        std::vector<TypeInfo> types = typesOf(op);
        if (cluster != 4)
          std::erase_if(types, [](const TypeInfo& t) {
            std::string name = t.name;
            return name != "int" && name != "ulong" && name != "float";
          });
        bool isLogical = op >= Op::kLogicalAnd;
        std::string o = opName(op);
        list.push_back({"cl_khr_subgroup_clustered_reduce", "clustered_reduce_" + o + "_" + std::to_string(cluster),
                        "sub_group_clustered_reduce_" + o + "(" + (isLogical ? "(x > 0)" : "x") + ", " +
                            std::to_string(cluster) + "u)",
                        types, true, [op, cluster, isLogical](const Lanes& l) -> std::optional<Value> {
                          uint32_t first = l.lane / cluster * cluster;
                          Value acc = identity(*l.type, op);
                          for (uint32_t k = first; k < first + cluster && k < l.x.size(); ++k) {
                            if (!l.x[k]) continue;
                            acc = combine(*l.type, op, acc, isLogical ? integer(l.x[k]->i > 0) : *l.x[k]);
                          }
                          return acc;
                        }});
      }
    }
  }
  // The cluster size chosen by a switch at run time (as the CTS does), which clang-15 -O2 had
  // merged into one call of a variable cluster size: the largest power of two that fits
  // get_max_sub_group_size().
  auto byCluster = [](const std::string& name, std::function<std::string(const std::string&)> call) {
    return [=](const std::string& type) {
      std::string text = "__attribute__((overloadable)) " + type + " " + name + "(" + type +
                         " x, uint cluster) {\n  switch (cluster) {\n";
      for (uint32_t c = 1; c <= 128; c *= 2) {
        std::string size = std::to_string(c) + "u";
        text += "    case " + size + ": return " + call(size) + ";\n";
      }
      return text + "  }\n  return x;\n}\n";
    };
  };
  auto largestCluster = [](const Lanes& l) { return std::bit_floor(l.maxSize); };
  const std::string runtimeCluster = "(1u << (31 - clz(get_max_sub_group_size())))";
  list.push_back({"cl_khr_subgroup_clustered_reduce", "clustered_reduce_add_of_a_run_time_size",
                  "clustered_add(x, " + runtimeCluster + ")", kAllTypes, true,
                  [=](const Lanes& l) -> std::optional<Value> {
                    uint32_t cluster = largestCluster(l), first = l.lane / cluster * cluster;
                    Value acc = identity(*l.type, Op::kAdd);
                    for (uint32_t k = first; k < first + cluster && k < l.x.size(); ++k)
                      if (l.x[k]) acc = combine(*l.type, Op::kAdd, acc, *l.x[k]);
                    return acc;
                  },
                  byCluster("clustered_add",
                            [](const std::string& c) { return "sub_group_clustered_reduce_add(x, " + c + ")"; })});
  // cl_khr_subgroup_rotate: modulo get_max_sub_group_size(), or within clusters.
  list.push_back({"cl_khr_subgroup_rotate", "rotate", "sub_group_rotate(x, 3)", kAllTypes, true,
                  [](const Lanes& l) { return from(l, (l.lane + 3) % l.maxSize); }});
  list.push_back({"cl_khr_subgroup_rotate", "clustered_rotate", "sub_group_clustered_rotate(x, 1, 4u)", kAllTypes, true,
                  [](const Lanes& l) { return from(l, l.lane / 4 * 4 + (l.lane + 1) % 4); }});
  list.push_back({"cl_khr_subgroup_rotate", "clustered_rotate_of_a_run_time_size",
                  "clustered_rotate(x, " + runtimeCluster + ")", kAllTypes, true,
                  [=](const Lanes& l) {
                    uint32_t cluster = largestCluster(l);
                    return from(l, l.lane / cluster * cluster + (l.lane + 1) % cluster);
                  },
                  byCluster("clustered_rotate",
                            [](const std::string& c) { return "sub_group_clustered_rotate(x, 1, " + c + ")"; })});
  return list;
}

std::string kernelName(const Function& f, const TypeInfo& t) { return f.name + "_" + t.name; }

// Which lanes of a sub-group of `size` call the function together with `lane`: every lane (mode
// 0), the odd ones (mode 1), or those in the same half as `lane` (mode 2, each half in its own
// arm of an if).
bool together(int mode, uint32_t lane, uint32_t other, uint32_t size) {
  if (mode == 0) return true;
  if (mode == 1) return (other & 1) != 0;
  return (other < size / 2) == (lane < size / 2);
}
constexpr int kModes = 3;
const char* const kModeNames[kModes] = {"every lane", "odd lanes only", "each half in its own arm"};

// One kernel per function and type, in the modes above. Floating-point values travel as double,
// or as float on a device without cl_khr_fp64 (the inputs and every result the functions give
// from them are exact in float).
std::string kernelSource(const Function& f, const TypeInfo& t, bool fp64) {
  std::string storage = t.isFloat ? (fp64 ? "double" : "float") : "long";
  std::string result = "out[i] = (" + storage + ")(" + f.call + ");";
  return (f.helper ? f.helper(t.name) : "") + "kernel void " + kernelName(f, t) + "(global const " + storage +
         "* in, global " + storage +
         "* out, global uint* info, int mode) {\n"
         "  typedef " +
         t.name +
         " T;\n"
         "  size_t i = get_global_linear_id();\n"
         "  uint lid = get_sub_group_local_id(), sz = get_sub_group_size();\n"
         "  uint lo = mode == 1 ? 1u : mode == 2 && lid >= sz / 2 ? sz / 2 : 0u;\n"
         "  info[6 * i] = get_sub_group_id(); info[6 * i + 1] = lid; info[6 * i + 2] = sz;\n"
         "  info[6 * i + 3] = get_num_sub_groups(); info[6 * i + 4] = get_enqueued_num_sub_groups();\n"
         "  info[6 * i + 5] = get_max_sub_group_size();\n"
         "  T x = (T)in[i];\n"
         "  if (mode == 2) {\n"
         "    if (lid < sz / 2)\n"
         "      " +
         result +
         "\n"
         "    else\n"
         "      " +
         result +
         "\n"
         "  } else if (mode == 0 || (lid & 1)) {\n"
         "    " +
         result +
         "\n"
         "  }\n"
         "}\n";
}

struct Shape {
  cl_uint dims;
  std::array<size_t, 3> global, local;
};

class SubgroupExtensions : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    if (HasFatalFailure()) return;
    extensions_ = deviceString(device_, CL_DEVICE_EXTENSIONS);
  }

  bool fp64() const { return hasWord(extensions_, "cl_khr_fp64"); }

  std::string missing(const Function& f, const TypeInfo& t) const {
    if (!hasWord(extensions_, f.extension)) return f.extension;
    if (std::string(t.name) == "half" && !hasWord(extensions_, "cl_khr_fp16")) return "cl_khr_fp16";
    if (std::string(t.name) == "double" && !hasWord(extensions_, "cl_khr_fp64")) return "cl_khr_fp64";
    return "";
  }

  size_t subgroupQuery(cl_kernel kernel, cl_kernel_sub_group_info param, const Shape& shape,
                       const std::array<size_t, 3>& local) {
    size_t value = 0;
    EXPECT_CL_SUCCESS(clGetKernelSubGroupInfo(kernel, device_, param, shape.dims * sizeof(size_t), local.data(),
                                              sizeof(value), &value, nullptr));
    return value;
  }

  // Runs `kernel` over `shape` in `mode`; returns the first mismatch, or "".
  std::string check(cl_kernel kernel, const Function& f, const TypeInfo& t, const Shape& shape, int mode,
                    std::mt19937& random) {
    size_t n = shape.global[0] * shape.global[1] * shape.global[2];
    std::vector<Value> in(n);
    std::vector<int64_t> ints(n);
    std::vector<double> floats(n);
    const double kFloats[] = {-2, -1, -0.5, 0.5, 1, 2};
    for (size_t i = 0; i < n; ++i) {
      if (t.isFloat) {
        in[i].f = floats[i] = kFloats[random() % 6];
      } else {
        in[i].i = ints[i] = t.isSigned ? static_cast<int64_t>(random() % 7) - 3 : static_cast<int64_t>(random() % 7);
      }
    }
    std::vector<float> narrowFloats(floats.begin(), floats.end());
    Buffer dIn = !t.isFloat ? bufferOf(ints) : fp64() ? bufferOf(floats) : bufferOf(narrowFloats);
    std::vector<int64_t> sentinel(n, 0x5eed);
    Buffer dOut = bufferOf(sentinel);
    Buffer dInfo = createBuffer(n * 6 * sizeof(cl_uint));
    setArgs(kernel, dIn, dOut, dInfo, cl_int{mode});
    cl_int status = clEnqueueNDRangeKernel(queue_, kernel, shape.dims, nullptr, shape.global.data(), shape.local.data(),
                                           0, nullptr, nullptr);
    if (status != CL_SUCCESS) return "clEnqueueNDRangeKernel returned " + clErrorName(status);
    std::vector<int64_t> outInts = read<int64_t>(dOut, n);
    std::vector<double> outFloats = read<double>(dOut, n);
    if (!fp64()) {
      std::vector<float> narrow = read<float>(dOut, n);
      outFloats.assign(narrow.begin(), narrow.end());
    }
    std::vector<cl_uint> info = read<cl_uint>(dInfo, n * 6);

    // Work-items by (work-group, sub-group), each sub-group by lane.
    std::map<std::pair<size_t, cl_uint>, std::vector<size_t>> subgroups;
    std::map<size_t, std::array<size_t, 3>> groupSizes;
    for (size_t i = 0; i < n; ++i) {
      size_t c[3] = {i % shape.global[0], i / shape.global[0] % shape.global[1],
                     i / (shape.global[0] * shape.global[1])};
      size_t groups[3], group = 0;
      std::array<size_t, 3> size;
      for (int d = 2; d >= 0; --d) {
        groups[d] = (shape.global[d] + shape.local[d] - 1) / shape.local[d];
        size_t g = c[d] / shape.local[d];
        size[d] = std::min(shape.local[d], shape.global[d] - g * shape.local[d]);
        group = group * groups[d] + g;
      }
      groupSizes[group] = size;
      auto& lanes = subgroups[{group, info[6 * i]}];
      if (lanes.size() <= info[6 * i + 1]) lanes.resize(info[6 * i + 1] + 1, SIZE_MAX);
      if (lanes[info[6 * i + 1]] != SIZE_MAX) return "two work-items share a sub-group id and lane";
      lanes[info[6 * i + 1]] = i;
    }
    size_t enqueuedCount = subgroupQuery(kernel, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, shape, shape.local);
    size_t maxSize = subgroupQuery(kernel, CL_KERNEL_MAX_SUB_GROUP_SIZE_FOR_NDRANGE, shape, shape.local);
    std::map<size_t, size_t> counts;
    for (const auto& [key, lanes] : subgroups) ++counts[key.first];
    for (const auto& [key, lanes] : subgroups) {
      std::string where =
          " (work-group " + std::to_string(key.first) + ", sub-group " + std::to_string(key.second) + ")";
      size_t groupCount = subgroupQuery(kernel, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, shape, groupSizes[key.first]);
      if (key.second >= counts[key.first]) return "sub-group id " + std::to_string(key.second) + " not dense" + where;
      Lanes l;
      l.type = &t;
      l.maxSize = static_cast<uint32_t>(maxSize);
      for (size_t lane = 0; lane < lanes.size(); ++lane) {
        size_t i = lanes[lane];
        if (i == SIZE_MAX) return "lane " + std::to_string(lane) + " missing" + where;
        if (info[6 * i + 2] != lanes.size())
          return "get_sub_group_size() " + std::to_string(info[6 * i + 2]) + ", the sub-group has " +
                 std::to_string(lanes.size()) + where;
        if (info[6 * i + 3] != counts[key.first] || info[6 * i + 3] != groupCount)
          return "get_num_sub_groups() " + std::to_string(info[6 * i + 3]) + ", counted " +
                 std::to_string(counts[key.first]) + ", queried " + std::to_string(groupCount) + where;
        if (info[6 * i + 4] != enqueuedCount)
          return "get_enqueued_num_sub_groups() " + std::to_string(info[6 * i + 4]) + ", queried " +
                 std::to_string(enqueuedCount) + where;
        if (info[6 * i + 5] != maxSize)
          return "get_max_sub_group_size() " + std::to_string(info[6 * i + 5]) + ", queried " +
                 std::to_string(maxSize) + where;
      }
      uint32_t size = static_cast<uint32_t>(lanes.size());
      for (uint32_t lane = 0; lane < size; ++lane) {
        if (!together(mode, lane, lane, size)) continue;
        l.x.clear();
        for (uint32_t k = 0; k < size; ++k)
          l.x.push_back(together(mode, lane, k, size) ? std::optional<Value>(in[lanes[k]]) : std::nullopt);
        l.lane = lane;
        std::optional<Value> expected = f.reference(l);
        if (!expected) continue;
        size_t i = lanes[lane];
        bool resultIsType = f.call.find("ballot") == std::string::npos && f.call.find("elect") == std::string::npos &&
                            f.call.find("_all") == std::string::npos && f.call.find("_any") == std::string::npos &&
                            f.call.find("mask") == std::string::npos && f.call.find("logical") == std::string::npos;
        bool asFloat = t.isFloat && resultIsType;
        // An int result of a float kernel (a vote) is stored as a double.
        bool match = asFloat     ? outFloats[i] == expected->f
                     : t.isFloat ? outFloats[i] == static_cast<double>(expected->i)
                                 : outInts[i] == expected->i;
        if (f.name.ends_with("_mask") && !asFloat) {
          uint64_t used = lanes.size() >= 64 ? ~uint64_t{0} : (uint64_t{1} << lanes.size()) - 1;
          match = (static_cast<uint64_t>(outInts[i]) & used) == (static_cast<uint64_t>(expected->i) & used);
        }
        if (!match)
          return "work-item " + std::to_string(i) + ", lane " + std::to_string(lane) + where + ": got " +
                 (t.isFloat ? std::to_string(outFloats[i]) : std::to_string(outInts[i])) + ", expected " +
                 (asFloat ? std::to_string(expected->f) : std::to_string(expected->i));
      }
    }
    return "";
  }

  // Every function of `extension` for every type it lists, at every shape, in both modes.
  void runExtension(const std::string& extension) {
    if (!hasWord(extensions_, extension)) {
      std::cout << "[ SKIPPED ] " << extension << ": the device does not offer it\n";
      return;
    }
    std::vector<std::pair<Function, TypeInfo>> cases;
    std::string source;
    for (const Function& f : functions()) {
      if (f.extension != extension) continue;
      for (const TypeInfo& t : f.types) {
        if (std::string why = missing(f, t); !why.empty()) {
          std::cout << "[ SKIPPED ] " << kernelName(f, t) << ": the device lacks " << why << "\n";
          continue;
        }
        cases.emplace_back(f, t);
        source += kernelSource(f, t, fp64());
      }
    }
    ASSERT_FALSE(cases.empty());
    std::string pragmas = "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n";
    if (!hasWord(extensions_, "cl_khr_fp16")) pragmas.clear();
    Program program = buildSource(pragmas + source, "-cl-std=CL3.0");
    ASSERT_TRUE(program.get());
    // Partial sub-groups (13), a remainder work-group (70 = 2 x 32 + 6), 2D and 3D work-groups
    // whose rows are not a multiple of any sub-group size, and a 2D remainder.
    const std::vector<Shape> shapes = {{1, {39, 1, 1}, {13, 1, 1}},
                                       {2, {10, 6, 1}, {5, 3, 1}},
                                       {1, {70, 1, 1}, {32, 1, 1}},
                                       {3, {6, 2, 4}, {3, 2, 2}},
                                       {2, {12, 3, 1}, {8, 2, 1}}};
    std::mt19937 random(16);
    size_t checked = 0;
    for (const auto& [f, t] : cases) {
      Kernel kernel = createKernel(program, kernelName(f, t));
      // Every shape for int, float and ulong; the 1D one with partial sub-groups for the other
      // types, which keeps the suite within its time (each shape is a pipeline on lavapipe).
      std::string type = t.name;
      bool representative = type == "int" || type == "float" || type == "ulong";
      for (size_t s = 0; s < (representative ? shapes.size() : 1); ++s) {
        for (int mode = 0; mode < (f.nonUniform ? kModes : 1); ++mode) {
          const Shape& shape = shapes[s];
          std::string mismatch = check(kernel, f, t, shape, mode, random);
          EXPECT_EQ(mismatch, "") << kernelName(f, t) << " over " << shape.local[0] << "x" << shape.local[1] << "x"
                                  << shape.local[2] << ", " << kModeNames[mode];
          if (!mismatch.empty()) return;
          ++checked;
        }
      }
    }
    EXPECT_GT(checked, 0u);
  }

  std::string extensions_;
};

TEST_F(SubgroupExtensions, ExtendedTypes) { runExtension("cl_khr_subgroup_extended_types"); }
TEST_F(SubgroupExtensions, NonUniformVote) { runExtension("cl_khr_subgroup_non_uniform_vote"); }
TEST_F(SubgroupExtensions, Ballot) { runExtension("cl_khr_subgroup_ballot"); }
TEST_F(SubgroupExtensions, NonUniformArithmetic) { runExtension("cl_khr_subgroup_non_uniform_arithmetic"); }
TEST_F(SubgroupExtensions, Shuffle) { runExtension("cl_khr_subgroup_shuffle"); }
TEST_F(SubgroupExtensions, ShuffleRelative) { runExtension("cl_khr_subgroup_shuffle_relative"); }
TEST_F(SubgroupExtensions, ClusteredReduce) { runExtension("cl_khr_subgroup_clustered_reduce"); }
TEST_F(SubgroupExtensions, Rotate) { runExtension("cl_khr_subgroup_rotate"); }

// cl_khr_subgroups needs independent forward progress; without it the device offers OpenCL 3.0's
// __opencl_c_subgroups alone, and the queries agree (docs/collectives.md).
TEST_F(SubgroupExtensions, ForwardProgressAndExtensionAgree) {
  cl_bool progress = deviceInfo<cl_bool>(device_, CL_DEVICE_SUB_GROUP_INDEPENDENT_FORWARD_PROGRESS);
  EXPECT_EQ(hasWord(extensions_, "cl_khr_subgroups"), progress == CL_TRUE);
  cl_device_type type = deviceInfo<cl_device_type>(device_, CL_DEVICE_TYPE);
  EXPECT_EQ(progress == CL_TRUE,
            type == CL_DEVICE_TYPE_GPU && deviceInfo<cl_uint>(device_, CL_DEVICE_MAX_NUM_SUB_GROUPS) > 0);
}

// cl_khr_subgroup_extended_types and cl_khr_subgroup_non_uniform_arithmetic both need subgroup
// arithmetic with shaderSubgroupExtendedTypes, and nothing else: 8/16-bit integers a device
// lacks (SwiftShader) are computed in 32 bits, so the two come together.
TEST_F(SubgroupExtensions, ExtendedTypesComeWithNonUniformArithmetic) {
  EXPECT_EQ(hasWord(extensions_, "cl_khr_subgroup_extended_types"),
            hasWord(extensions_, "cl_khr_subgroup_non_uniform_arithmetic"))
      << extensions_;
}

// intel_reqd_sub_group_size (cl_intel_required_subgroup_size): each size the device lists gives
// sub-groups of that size (VK_EXT_subgroup_size_control where the device has several), reported
// by CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL and the sub-group queries; a size it cannot give is a
// build error that names the kernel and the attribute.
TEST_F(SubgroupExtensions, RequiredSubgroupSize) {
  ASSERT_TRUE(hasWord(extensions_, "cl_intel_required_subgroup_size"));
  std::vector<size_t> sizes = deviceInfoArray<size_t>(device_, CL_DEVICE_SUB_GROUP_SIZES_INTEL);
  ASSERT_FALSE(sizes.empty());
  auto source = [](size_t size) {
    return "__attribute__((intel_reqd_sub_group_size(" + std::to_string(size) +
           "))) kernel void required(global uint* out) {\n"
           "  size_t i = get_global_id(0);\n"
           "  out[2 * i] = get_max_sub_group_size();\n"
           "  out[2 * i + 1] = get_num_sub_groups();\n"
           "}\n";
  };
  for (size_t size : sizes) {
    Program program = buildSource(source(size), "-cl-std=CL3.0");
    ASSERT_TRUE(program.get()) << size;
    Kernel kernel = createKernel(program, "required");
    size_t compiled = 0, local = 2 * size + 3, count = 0;
    EXPECT_CL_SUCCESS(clGetKernelSubGroupInfo(kernel, device_, CL_KERNEL_COMPILE_SUB_GROUP_SIZE_INTEL, 0, nullptr,
                                              sizeof(compiled), &compiled, nullptr));
    EXPECT_EQ(compiled, size);
    EXPECT_CL_SUCCESS(clGetKernelSubGroupInfo(kernel, device_, CL_KERNEL_SUB_GROUP_COUNT_FOR_NDRANGE, sizeof(local),
                                              &local, sizeof(count), &count, nullptr));
    EXPECT_EQ(count, 3u) << "2 full sub-groups of " << size << " and one of 3";
    Buffer out = createBuffer(2 * local * sizeof(cl_uint));
    setArgs(kernel, out);
    run1d(kernel, local, local);
    std::vector<cl_uint> seen = read<cl_uint>(out, 2 * local);
    for (size_t i = 0; i < local; ++i) {
      EXPECT_EQ(seen[2 * i], size) << "work-item " << i;
      EXPECT_EQ(seen[2 * i + 1], 3u) << "work-item " << i;
    }
  }
  const char* text = nullptr;
  std::string impossible = source(sizes.back() * 2);
  text = impossible.c_str();
  cl_int status = CL_SUCCESS;
  Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_CL_ERROR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &device_, "-cl-std=CL3.0", nullptr, nullptr));
  std::string log = programBuildLog(program, device_);
  EXPECT_NE(log.find("kernel 'required': intel_reqd_sub_group_size(" + std::to_string(sizes.back() * 2) + ")"),
            std::string::npos)
      << log;
}

// The broadcasts of vectors: cl_khr_subgroup_extended_types's sub_group_broadcast and
// cl_khr_subgroup_ballot's sub_group_non_uniform_broadcast, every type at 2, 3, 4, 8 and 16
// components (8 and 16 in 4-wide parts), each component from the work-item of lane 1.
TEST_F(SubgroupExtensions, VectorBroadcasts) {
  struct Broadcast {
    std::string function, extension;
  };
  std::vector<Broadcast> broadcasts;
  for (Broadcast b : {Broadcast{"sub_group_broadcast", "cl_khr_subgroup_extended_types"},
                      Broadcast{"sub_group_non_uniform_broadcast", "cl_khr_subgroup_ballot"}}) {
    if (hasWord(extensions_, b.extension))
      broadcasts.push_back(b);
    else
      std::cout << "[ SKIPPED ] " << b.function << " of vectors: the device does not offer " << b.extension << "\n";
  }
  if (broadcasts.empty()) GTEST_SKIP() << "no sub-group broadcast of vectors";
  std::string source = hasWord(extensions_, "cl_khr_fp16") ? "#pragma OPENCL EXTENSION cl_khr_fp16 : enable\n" : "";
  // The results travel as double, or as float without cl_khr_fp64 (they are small integers).
  std::string storage = fp64() ? "double" : "float";
  std::vector<std::tuple<std::string, TypeInfo, int>> cases;
  for (const Broadcast& b : broadcasts) {
    for (const TypeInfo& t : kAllTypes) {
      if (!missing(Function{b.extension, "", "", {}, false, {}}, t).empty()) continue;
      for (int n : {2, 3, 4, 8, 16}) {
        std::string v = std::string(t.name) + std::to_string(n), name = b.function + "_" + v;
        source += "kernel void " + name + "(global const long* in, global " + storage +
                  "* out, global uint* info) {\n"
                  "  size_t i = get_global_linear_id();\n"
                  "  info[2 * i] = get_sub_group_id(); info[2 * i + 1] = get_sub_group_local_id();\n"
                  "  " +
                  t.name +
                  " a[16], o[16];\n"
                  "  for (int c = 0; c < 16; ++c) a[c] = (" +
                  t.name +
                  ")(in[i] + c);\n"
                  "  vstore" +
                  std::to_string(n) + "(" + b.function + "(vload" + std::to_string(n) +
                  "(0, a), 1u), 0, o);\n"
                  "  for (int c = 0; c < " +
                  std::to_string(n) + "; ++c) out[16 * i + c] = (" + storage +
                  ")o[c];\n"
                  "}\n";
        cases.emplace_back(name, t, n);
      }
    }
  }
  Program program = buildSource(source, "-cl-std=CL3.0");
  ASSERT_TRUE(program.get());
  const std::vector<Shape> shapes = {{1, {39, 1, 1}, {13, 1, 1}}, {2, {10, 6, 1}, {5, 3, 1}}};
  for (const auto& [name, t, n] : cases) {
    Kernel kernel = createKernel(program, name);
    for (const Shape& shape : shapes) {
      size_t items = shape.global[0] * shape.global[1];
      std::vector<int64_t> in(items);
      for (size_t i = 0; i < items; ++i) in[i] = static_cast<int64_t>((i * 7) % 23);
      Buffer dIn = bufferOf(in), dOut = createBuffer(items * 16 * sizeof(double)),
             dInfo = createBuffer(items * 2 * sizeof(cl_uint));
      setArgs(kernel, dIn, dOut, dInfo);
      ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, shape.dims, nullptr, shape.global.data(),
                                               shape.local.data(), 0, nullptr, nullptr));
      std::vector<double> out = read<double>(dOut, items * 16);
      if (!fp64()) {
        std::vector<float> narrow = read<float>(dOut, items * 16);
        out.assign(narrow.begin(), narrow.end());
      }
      std::vector<cl_uint> info = read<cl_uint>(dInfo, items * 2);
      // The work-item of lane 1 in each (work-group, sub-group).
      std::map<std::tuple<size_t, size_t, cl_uint>, size_t> laneOne;
      auto group = [&](size_t i) {
        return std::make_pair(i % shape.global[0] / shape.local[0], i / shape.global[0] / shape.local[1]);
      };
      for (size_t i = 0; i < items; ++i)
        if (info[2 * i + 1] == 1) laneOne[{group(i).first, group(i).second, info[2 * i]}] = i;
      for (size_t i = 0; i < items; ++i) {
        auto source = laneOne.find({group(i).first, group(i).second, info[2 * i]});
        if (source == laneOne.end()) continue;  // a sub-group of one work-item: undefined
        for (int c = 0; c < n; ++c) {
          ASSERT_EQ(out[16 * i + c], static_cast<double>(in[source->second] + c))
              << name << ", work-item " << i << ", component " << c << ", local " << shape.local[0] << "x"
              << shape.local[1];
        }
      }
    }
  }
}

}  // namespace
}  // namespace cl2vk::test
