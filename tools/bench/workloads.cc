#include "workloads.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>

namespace cl2vk::bench {
namespace {

Workload collective(Scope scope, Operation operation, const char* name, ElementType element, const char* type,
                    ClProgram program) {
  std::string prefix = scope == Scope::kWorkGroup ? "work_group_" : "sub_group_";
  std::string kernelPrefix = scope == Scope::kWorkGroup ? "wg_" : "sg_";
  return Workload{prefix + name, type, element, scope, operation, program, kernelPrefix + name + "_" + type};
}

// The collectives of one scope, in the order the issue lists them.
void addCollectives(std::vector<Workload>& list, Scope scope) {
  bool workGroup = scope == Scope::kWorkGroup;
  ClProgram program = workGroup ? ClProgram::kWorkGroup : ClProgram::kSubGroup;
  ClProgram uniformArithmetic =
      workGroup ? ClProgram::kWorkGroupUniformArithmetic : ClProgram::kSubGroupUniformArithmetic;
  using E = ElementType;
  using O = Operation;
  list.push_back(collective(scope, O::kReduceAdd, "reduce_add", E::kFloat, "float", program));
  list.back().hasLocalTree = workGroup;
  list.push_back(collective(scope, O::kReduceAdd, "reduce_add", E::kInt, "int", program));
  list.push_back(collective(scope, O::kScanInclusiveAdd, "scan_inclusive_add", E::kInt, "int", program));
  list.push_back(collective(scope, O::kScanInclusiveAdd, "scan_inclusive_add", E::kFloat, "float", program));
  list.push_back(collective(scope, O::kScanExclusiveMax, "scan_exclusive_max", E::kInt, "int", program));
  list.push_back(collective(scope, O::kBroadcastLast, "broadcast", E::kInt, "int", program));
  list.push_back(collective(scope, O::kAll, "all", E::kInt, "int", program));
  list.push_back(collective(scope, O::kReduceLogicalXor, "reduce_logical_xor", E::kInt, "int", uniformArithmetic));
}

double decode(ElementType element, uint32_t word) {
  switch (element) {
    case ElementType::kInt: return static_cast<double>(static_cast<int32_t>(word));
    case ElementType::kFloat: return static_cast<double>(std::bit_cast<float>(word));
    case ElementType::kUint:
    case ElementType::kUint4: return static_cast<double>(word);
  }
  return 0;
}

constexpr double kFloatEpsilon = 0x1p-23;

// Each segment of `values` (a work-group or a sub-group) -> the reference's words for it.
void forEachSegment(std::span<const double> values, uint32_t segment,
                    const std::function<void(std::span<const double>)>& visit) {
  for (size_t begin = 0; begin + segment <= values.size(); begin += segment) visit(values.subspan(begin, segment));
}

double sumOfMagnitudes(std::span<const double> values) {
  double sum = 0;
  for (double value : values) sum += std::fabs(value);
  return sum;
}

}  // namespace

uint32_t Workload::wordsPerItem() const {
  if (operation == Operation::kReduce16Add) return 16;
  if (element == ElementType::kUint4) return 4;
  return 1;
}

uint64_t Workload::outputWords(uint64_t n, uint32_t workGroupSize, uint32_t subgroupSize) const {
  uint64_t items = workItems(n);
  switch (operation) {
    case Operation::kReduceAdd:
    case Operation::kAll:
    case Operation::kReduceLogicalXor:
    case Operation::kReduce16Add: return items / (scope == Scope::kSubGroup ? subgroupSize : workGroupSize);
    case Operation::kCopy: return n;
    default: return items;
  }
}

uint64_t Workload::bytesMoved(uint64_t n, uint32_t workGroupSize, uint32_t subgroupSize) const {
  return 4 * (n + outputWords(n, workGroupSize, subgroupSize));
}

const std::vector<Workload>& workloads() {
  static const std::vector<Workload> list = [] {
    std::vector<Workload> all;
    addCollectives(all, Scope::kWorkGroup);
    addCollectives(all, Scope::kSubGroup);
    all.push_back(Workload{"reduce16", "float", ElementType::kFloat, Scope::kWorkGroup, Operation::kReduce16Add,
                           ClProgram::kWorkGroup, "reduce16_float"});
    all.push_back(
        Workload{"copy", "uint", ElementType::kUint, Scope::kNone, Operation::kCopy, ClProgram::kBasic, "copy_uint"});
    all.push_back(Workload{"copy", "uint4", ElementType::kUint4, Scope::kNone, Operation::kCopy, ClProgram::kBasic,
                           "copy_uint4"});
    return all;
  }();
  return list;
}

Reference computeReference(const Workload& workload, std::span<const uint32_t> input, uint32_t workGroupSize,
                           uint32_t subgroupSize) {
  std::vector<double> values(input.size());
  std::transform(input.begin(), input.end(), values.begin(),
                 [&](uint32_t word) { return decode(workload.element, word); });
  bool isFloat = workload.element == ElementType::kFloat;
  Reference reference;
  auto emit = [&](double expected, double tolerance) {
    reference.expected.push_back(expected);
    reference.tolerance.push_back(isFloat ? tolerance : 0.0);
  };

  if (workload.operation == Operation::kCopy) {
    for (double value : values) emit(value, 0);
    return reference;
  }
  if (workload.operation == Operation::kReduce16Add) {
    // A work-group's 16 * wg inputs are contiguous, so their sum is the segment's.
    forEachSegment(values, 16 * workGroupSize, [&](std::span<const double> group) {
      double sum = 0;
      for (double value : group) sum += value;
      emit(sum, static_cast<double>(group.size()) * kFloatEpsilon * sumOfMagnitudes(group));
    });
    return reference;
  }

  uint32_t segment = workload.scope == Scope::kSubGroup ? subgroupSize : workGroupSize;
  forEachSegment(values, segment, [&](std::span<const double> group) {
    double tolerance = static_cast<double>(group.size()) * kFloatEpsilon * sumOfMagnitudes(group);
    switch (workload.operation) {
      case Operation::kReduceAdd: {
        double sum = 0;
        for (double value : group) sum += value;
        emit(sum, tolerance);
        break;
      }
      case Operation::kScanInclusiveAdd: {
        double sum = 0;
        for (double value : group) emit(sum += value, tolerance);
        break;
      }
      case Operation::kScanExclusiveMax: {
        double max = std::numeric_limits<int32_t>::min();
        for (double value : group) {
          emit(max, 0);
          max = std::max(max, value);
        }
        break;
      }
      case Operation::kBroadcastLast:
        for (size_t i = 0; i < group.size(); ++i) emit(group.back(), 0);
        break;
      case Operation::kAll:
        emit(std::all_of(group.begin(), group.end(), [](double value) { return value != 0; }) ? 1 : 0, 0);
        break;
      case Operation::kReduceLogicalXor: {
        size_t trues = std::count_if(group.begin(), group.end(), [](double value) { return value != 0; });
        emit(static_cast<double>(trues % 2), 0);
        break;
      }
      case Operation::kReduce16Add:
      case Operation::kCopy: break;  // Handled above.
    }
  });
  return reference;
}

std::string compareOutput(const Workload& workload, const Reference& reference, std::span<const uint32_t> output) {
  if (output.size() != reference.expected.size()) {
    return "got " + std::to_string(output.size()) + " words, expected " + std::to_string(reference.expected.size());
  }
  std::string firstMismatches;
  size_t mismatches = 0;
  for (size_t i = 0; i < output.size(); ++i) {
    double got = decode(workload.element, output[i]);
    // work_group_all may return any non-zero value for true.
    if (workload.operation == Operation::kAll && got != 0) got = 1;
    if (std::fabs(got - reference.expected[i]) <= reference.tolerance[i]) continue;
    if (++mismatches <= 3) {
      firstMismatches += (firstMismatches.empty() ? "" : "; ") + std::string("word ") + std::to_string(i) + ": got " +
                         std::to_string(got) + ", expected " + std::to_string(reference.expected[i]);
    }
  }
  if (mismatches == 0) return "";
  return std::to_string(mismatches) + " of " + std::to_string(output.size()) + " words wrong (" + firstMismatches + ")";
}

}  // namespace cl2vk::bench
