// The CPU reference for the collectives corpus (spirv/cl, spirv/asm): what a kernel named
// <scope>_<function>_<operator>_<type> computes, random inputs suited to it, and the comparison of
// a whole NDRange's output with the reference. Shared by the suites that run the corpus through
// the launcher (kernels/collectives_test.cc) and through the OpenCL API (icd/collectives_test.cc).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace cl2vk::test::collectives {

enum class Type { kInt, kUint, kLong, kUlong, kFloat, kHalf, kDouble };

struct TypeInfo {
  const char* name;
  Type type;
  size_t size;
};

// Every type a corpus collective comes in.
std::span<const TypeInfo> types();

bool isFloat(Type t);
bool isSigned(Type t);
double halfToDouble(uint16_t h);

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

// The spec of a corpus kernel, or nothing when the name does not follow the corpus convention.
std::optional<KernelSpec> parse(const std::string& name);

// Random inputs suited to the operator (no float overflow; products near 1).
std::vector<Value> inputs(const KernelSpec& spec, size_t n, std::mt19937_64& random);

// The values as the kernel's `in` buffer holds them.
std::vector<std::byte> encode(const TypeInfo& t, const std::vector<Value>& values);

// An NDRange of `groups` work-groups of `local` work-items in `dims` dimensions; with `global` set
// (non-zero), the global size instead, which may leave a smaller remainder group in a dimension.
struct Shape {
  uint32_t dims;
  std::array<uint32_t, 3> local;
  std::array<uint32_t, 3> groups;
  std::array<uint64_t, 3> global = {0, 0, 0};

  std::array<uint64_t, 3> globalSize() const;
  size_t items() const;
  uint32_t localItems() const { return local[0] * local[1] * local[2]; }
  // Whether sub-groups hold consecutive local linear ids (1D, or x a multiple of the sub-group size).
  bool linearSubgroups(uint32_t subgroupSize) const;
};

// The uniform arguments of a broadcast kernel after (in, out): the local id that wg_broadcast_<n>d
// reads from (the first `broadcastIdCount` components, each a ulong), or the lane sg_broadcast reads
// from (a uint). The local id lies inside every work-group of the shape, the smallest included.
struct BroadcastSource {
  std::array<uint64_t, 3> localId;
  uint32_t lane;
};
BroadcastSource broadcastSource(const Shape& shape, uint32_t subgroupSize);
// How many local id arguments the kernel takes: 1 to 3 for wg_broadcast_<n>d, else 0.
int broadcastIdCount(const KernelSpec& spec);

// Whether the reference says what the kernel computes over `shape`: not for a work-group broadcast
// with fewer local ids than dimensions, nor for sub-group functions where sub-groups are not runs
// of consecutive local linear ids (lavapipe reports SubgroupId and SubgroupLocalInvocationId
// inconsistently with its packing there, so no reference can follow it).
bool referenceDefined(const KernelSpec& spec, const Shape& shape, uint32_t subgroupSize);

// Compares the kernel's `out` buffer (shape.items() values of spec.type) with the reference for
// inputs `in`, sub-groups being `subgroupSize` consecutive local linear ids. Integers, min, max and
// broadcasts must match exactly; float add and mul within (n-1)·ε·Σ|x| (n the work-group size).
// Returns a description of the first mismatch, or "".
std::string compare(const KernelSpec& spec, const Shape& shape, uint32_t subgroupSize, const std::vector<Value>& in,
                    std::span<const std::byte> out);

// The collectives corpus modules (file names under corpusDir()) of one build: "O0" or "O2"; the
// hand-written SPIR-V assembly modules come with "O2".
std::vector<std::string> collectiveModules(const std::string& build);

}  // namespace cl2vk::test::collectives
