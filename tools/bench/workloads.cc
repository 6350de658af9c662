#include "workloads.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
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
  if (workGroup) return;
  ClProgram extensions = ClProgram::kSubGroupExtensions;
  list.push_back(collective(scope, O::kShuffleXor1, "shuffle_xor", E::kInt, "int", extensions));
  list.push_back(collective(scope, O::kBallotCount, "ballot_bit_count", E::kInt, "int", extensions));
  list.push_back(collective(scope, O::kClusteredReduceAdd4, "clustered_reduce_add", E::kInt, "int", extensions));
  list.push_back(collective(scope, O::kNonUniformReduceAddOdd, "non_uniform_reduce_add", E::kInt, "int", extensions));
}

double decode(ElementType element, uint32_t word) {
  switch (element) {
    case ElementType::kDouble: return 0;  // read in pairs by the math workloads
    case ElementType::kInt: return static_cast<double>(static_cast<int32_t>(word));
    case ElementType::kFloat: return static_cast<double>(std::bit_cast<float>(word));
    case ElementType::kUint:
    case ElementType::kUint4:
    case ElementType::kUlong: return static_cast<double>(word);  // a ulong compares word by word
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
  if (operation == Operation::kRead16) return 64;
  if (operation == Operation::kReduce16Add) return 16;
  if (element == ElementType::kUint4) return 4;
  if (element == ElementType::kDouble || element == ElementType::kUlong) return 2;
  return 1;
}

uint64_t Workload::outputWords(uint64_t n, uint32_t workGroupSize, uint32_t subgroupSize) const {
  uint64_t items = workItems(n);
  switch (operation) {
    case Operation::kReduceAdd:
    case Operation::kAll:
    case Operation::kReduceLogicalXor:
    case Operation::kReduce16Add: return items / (scope == Scope::kSubGroup ? subgroupSize : workGroupSize);
    case Operation::kCopy:
    case Operation::kBytes:
    case Operation::kMath:
    case Operation::kTranspose:
    case Operation::kHash:
    case Operation::kRotate: return n;
    case Operation::kRead16: return items;
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
    all.push_back(Workload{"read16", "float4", ElementType::kFloat, Scope::kNone, Operation::kRead16, ClProgram::kBasic,
                           "read16_float4"});
    all.push_back(
        Workload{"copy", "uint", ElementType::kUint, Scope::kNone, Operation::kCopy, ClProgram::kBasic, "copy_uint"});
    all.push_back(Workload{"copy", "uint4", ElementType::kUint4, Scope::kNone, Operation::kCopy, ClProgram::kBasic,
                           "copy_uint4"});
    // Byte processing: native 8-bit storage, or lower-narrow-integers' words on a device without
    // it (CL2VK_DEVICE_LACKS=int8,storage8 forces that on one that has it).
    all.push_back(Workload{"bytes", "uchar", ElementType::kUint, Scope::kNone, Operation::kBytes, ClProgram::kBasic,
                           "bytes_uchar"});
    Workload transpose{"transpose",       "uint",          ElementType::kUint, Scope::kNone, Operation::kTranspose,
                       ClProgram::kBasic, "transpose_uint"};
    transpose.hasGlsl = false;
    all.push_back(transpose);
    Workload transposeInt = transpose;
    transposeInt.type = "uint, int index";
    transposeInt.kernel = "transpose_uint_int";
    all.push_back(transposeInt);
    Workload hash{"hash",           "ulong",           ElementType::kUlong, Scope::kNone,
                  Operation::kHash, ClProgram::kBasic, "hash_ulong"};
    hash.hasGlsl = false;
    all.push_back(hash);
    Workload rotates = hash;
    rotates.benchmark = "rotate";
    rotates.operation = Operation::kRotate;
    rotates.kernel = "rotate_ulong";
    all.push_back(rotates);
    for (const char* function : {"sin", "exp", "log", "pow", "fmod"}) {
      std::string name = function;
      bool hasNative = name != "fmod";
      Workload single{name,
                      "float",
                      ElementType::kFloat,
                      Scope::kNone,
                      Operation::kMath,
                      ClProgram::kBasic,
                      "math_" + name + "_float"};
      single.function = name;
      if (hasNative) single.nativeKernel = "math_native_" + name + "_float";
      all.push_back(single);
      Workload wide{name,
                    "double",
                    ElementType::kDouble,
                    Scope::kNone,
                    Operation::kMath,
                    ClProgram::kMathDouble,
                    "math_" + name + "_double"};
      wide.function = name;
      all.push_back(wide);
    }
    for (const MathFunction& function : mathFunctionTable()) {
      for (bool isDouble : {false, true}) {
        std::string type = isDouble ? "double" : "float";
        Workload row{function.name,
                     type,
                     isDouble ? ElementType::kDouble : ElementType::kFloat,
                     Scope::kNone,
                     Operation::kMath,
                     isDouble ? ClProgram::kMathFunctionsDouble : ClProgram::kMathFunctions,
                     std::string("math_") + function.name + "_" + type};
        row.function = function.name;
        row.hasGlsl = false;
        all.push_back(row);
      }
    }
    return all;
  }();
  return list;
}

namespace {

using Second = MathFunction::Second;
constexpr long double kPi = 3.141592653589793238462643383279502884L;

const MathFunction* findMathFunction(const std::string& name) {
  for (const MathFunction& function : mathFunctionTable()) {
    if (name == function.name) return &function;
  }
  return nullptr;
}

}  // namespace

const std::vector<MathFunction>& mathFunctionTable() {
  using L = long double;
  static const std::vector<MathFunction> table{
      {"cos", Second::kNone, 0, 100, 0, 0, [](L a, L) { return std::cos(a); }},
      {"tan", Second::kNone, 0, 100, 0, 0, [](L a, L) { return std::tan(a); }},
      {"sinpi", Second::kNone, 0, 100, 0, 0, [](L a, L) { return std::sin(kPi * a); }},
      {"cospi", Second::kNone, 0, 100, 0, 0, [](L a, L) { return std::cos(kPi * a); }},
      {"tanpi", Second::kNone, 0, 0.4921875, 0, 0, [](L a, L) { return std::tan(kPi * a); }},
      {"asin", Second::kNone, 0, 0.9921875, 0, 0, [](L a, L) { return std::asin(a); }},
      {"acos", Second::kNone, 0, 0.9921875, 0, 0, [](L a, L) { return std::acos(a); }},
      {"atan", Second::kNone, 0, 20, 0, 0, [](L a, L) { return std::atan(a); }},
      {"atan2", Second::kSame, 0, 10, -10, 20, [](L a, L b) { return std::atan2(a, b); }},
      {"asinpi", Second::kNone, 0, 0.9921875, 0, 0, [](L a, L) { return std::asin(a) / kPi; }},
      {"acospi", Second::kNone, 0, 0.9921875, 0, 0, [](L a, L) { return std::acos(a) / kPi; }},
      {"atanpi", Second::kNone, 0, 20, 0, 0, [](L a, L) { return std::atan(a) / kPi; }},
      {"atan2pi", Second::kSame, 0, 10, -10, 20, [](L a, L b) { return std::atan2(a, b) / kPi; }},
      {"sinh", Second::kNone, 0, 80, 0, 0, [](L a, L) { return std::sinh(a); }},
      {"cosh", Second::kNone, 0, 80, 0, 0, [](L a, L) { return std::cosh(a); }},
      {"tanh", Second::kNone, 0, 10, 0, 0, [](L a, L) { return std::tanh(a); }},
      {"asinh", Second::kNone, 0, 30, 0, 0, [](L a, L) { return std::asinh(a); }},
      {"acosh", Second::kNone, 16, 15, 0, 0, [](L a, L) { return std::acosh(a); }},
      {"atanh", Second::kNone, 0, 0.9921875, 0, 0, [](L a, L) { return std::atanh(a); }},
      {"exp2", Second::kNone, 0, 100, 0, 0, [](L a, L) { return std::exp2(a); }},
      {"exp10", Second::kNone, 0, 30, 0, 0, [](L a, L) { return std::pow(10.0L, a); }},
      {"expm1", Second::kNone, 0, 50, 0, 0, [](L a, L) { return std::expm1(a); }},
      {"log2", Second::kNone, 50, 49.5, 0, 0, [](L a, L) { return std::log2(a); }},
      {"log10", Second::kNone, 50, 49.5, 0, 0, [](L a, L) { return std::log10(a); }},
      {"log1p", Second::kNone, 4.5, 5.25, 0, 0, [](L a, L) { return std::log1p(a); }},
      {"logb", Second::kNone, 1000.5, 999.5, 0, 0, [](L a, L) { return std::logb(a); }},
      {"cbrt", Second::kNone, 0, 1000, 0, 0, [](L a, L) { return std::cbrt(a); }},
      {"powr", Second::kSame, 1, 0.5, -8, 16, [](L a, L b) { return std::pow(a, b); }},
      {"pown", Second::kInt, 1.25, 0.75, -20, 40, [](L a, L b) { return std::pow(a, b); }},
      {"rootn", Second::kInt, 50.5, 49.5, 1, 8, [](L a, L b) { return std::pow(a, 1 / b); }},
      {"remainder", Second::kSame, 0, 1000, 0.25, 1, [](L a, L b) { return std::remainder(a, b); }},
      {"erf", Second::kNone, 0, 5, 0, 0, [](L a, L) { return std::erf(a); }},
      {"erfc", Second::kNone, 4, 6, 0, 0, [](L a, L) { return std::erfc(a); }},
      {"tgamma", Second::kNone, 15, 14, 0, 0, [](L a, L) { return std::tgamma(a); }},
      {"lgamma", Second::kNone, 15, 14.75, 0, 0, [](L a, L) { return std::lgamma(a); }},
  };
  return table;
}

std::string mathKernelSource(bool isDouble) {
  std::string type = isDouble ? "double" : "float";
  std::string source = isDouble ? "#pragma OPENCL EXTENSION cl_khr_fp64 : enable\n" : "";
  source += "#pragma OPENCL FP_CONTRACT OFF\n";
  auto literal = [&](double value) {
    char text[64];
    std::snprintf(text, sizeof text, "(%s)%a", type.c_str(), value);
    return std::string(text);
  };
  for (const MathFunction& function : mathFunctionTable()) {
    std::string call =
        std::string(function.name) + "(" + literal(function.center) + " + " + literal(function.radius) + " * x";
    if (function.second != Second::kNone) {
      std::string second = literal(function.low) + " + " + literal(function.span) + " * (x * x)";
      call += ", " + (function.second == Second::kInt ? "(int)(" + second + ")" : second);
    }
    source += "kernel void math_" + std::string(function.name) + "_" + type + "(global const " + type +
              "* in, global " + type + "* out) {\n  size_t i = get_global_id(0);\n  " + type +
              " x = in[i];\n  out[i] = " + call + ");\n}\n";
  }
  return source;
}

namespace {

// mathArguments with the function's table row (null for the five functions of kernels.cl) already
// found: the reference looks it up once per workload, not once per value.
template <typename T>
std::pair<T, T> argumentsFor(const MathFunction* row, const std::string& function, T x) {
  if (row) {
    T a = static_cast<T>(row->center) + static_cast<T>(row->radius) * x;
    if (row->second == Second::kNone) return {a, 0};
    T square = x * x;
    T b = static_cast<T>(row->low) + static_cast<T>(row->span) * square;
    return {a, row->second == Second::kInt ? static_cast<T>(static_cast<int>(b)) : b};
  }
  if (function == "sin") return {x * T(100), 0};
  if (function == "exp") return {x * T(10), 0};
  if (function == "log") return {std::fabs(x) + T(0x1p-10), 0};
  if (function == "pow") return {std::fabs(x) + T(0.5), x * T(8)};
  return {x * T(1000), std::fabs(x) + T(0.25)};  // fmod
}

}  // namespace

template <typename T>
std::pair<T, T> mathArguments(const std::string& function, T x) {
  return argumentsFor(findMathFunction(function), function, x);
}
template std::pair<float, float> mathArguments(const std::string&, float);
template std::pair<double, double> mathArguments(const std::string&, double);

namespace {

// The function of a math workload in long double, on arguments already rounded as the kernel
// rounds them (`row` as for argumentsFor).
long double mathFunction(const MathFunction* row, const std::string& function, long double a, long double b) {
  if (row) return row->reference(a, b);
  if (function == "sin") return std::sin(a);
  if (function == "exp") return std::exp(a);
  if (function == "log") return std::log(a);
  if (function == "pow") return std::pow(a, b);
  return std::fmod(a, b);
}

// The benchmark times the functions; their accuracy is tested against MPFR elsewhere
// (docs/precision.md). The check here only catches a wrong function or a broken kernel, so that
// the GLSL baselines, which Vulkan lets be far less accurate, pass too: 10^-3 relative, and for
// fmod anything within one divisor of the exact remainder (x - y * trunc(x / y) is off by y when
// the quotient rounds to the next integer).
constexpr double kMathTolerance = 1e-3;

Reference mathReference(const Workload& workload, std::span<const uint32_t> input) {
  Reference reference;
  bool remainder = workload.function == "fmod" || workload.function == "remainder";
  const MathFunction* row = findMathFunction(workload.function);
  long double divisor = 0;
  auto emit = [&](long double exact, size_t words) {
    double tolerance = kMathTolerance * std::max(1.0, std::fabs(static_cast<double>(exact)));
    if (remainder) tolerance += static_cast<double>(divisor);
    for (size_t i = 0; i < words; ++i) {
      reference.expected.push_back(static_cast<double>(exact));
      reference.tolerance.push_back(tolerance);
    }
  };
  if (workload.element == ElementType::kDouble) {
    for (size_t i = 0; i + 1 < input.size(); i += 2) {
      double x = std::bit_cast<double>(uint64_t{input[i]} | uint64_t{input[i + 1]} << 32);
      auto [a, b] = argumentsFor<double>(row, workload.function, x);
      divisor = b;
      emit(mathFunction(row, workload.function, a, b), 2);
    }
  } else {
    for (uint32_t word : input) {
      auto [a, b] = argumentsFor<float>(row, workload.function, std::bit_cast<float>(word));
      divisor = b;
      emit(mathFunction(row, workload.function, a, b), 1);
    }
  }
  return reference;
}

// rotate_ulong's rounds (kernels.cl).
uint64_t rotateRounds(uint64_t in) {
  auto rotl = [](uint64_t v, int n) { return (v << n) | (v >> (64 - n)); };
  uint64_t x = in, y = in ^ 0x6a09e667f3bcc908ULL;
  for (int round = 0; round < 32; ++round) {
    x += rotl(y, 36) ^ rotl(y, 30) ^ rotl(y, 25);
    y += rotl(x, 50) ^ rotl(x, 46) ^ rotl(x, 23);
  }
  return x ^ y;
}

// transpose_uint, hash_ulong and rotate_ulong, exactly.
Reference integerReference(const Workload& workload, std::span<const uint32_t> input) {
  Reference reference;
  reference.expected.resize(input.size());
  reference.tolerance.assign(input.size(), 0.0);
  if (workload.operation == Operation::kTranspose) {
    size_t rows = input.size() / 256;
    for (size_t i = 0; i < input.size(); ++i) reference.expected[(i % 256) * rows + i / 256] = input[i];
    return reference;
  }
  for (size_t i = 0; i + 1 < input.size(); i += 2) {
    uint64_t in = uint64_t{input[i]} | uint64_t{input[i + 1]} << 32, x = in;
    if (workload.operation == Operation::kRotate) {
      uint64_t result = rotateRounds(in);
      reference.expected[i] = static_cast<double>(static_cast<uint32_t>(result));
      reference.expected[i + 1] = static_cast<double>(static_cast<uint32_t>(result >> 32));
      continue;
    }
    x ^= x >> 33;
    x *= 0xff51afd7ed558ccdULL;
    x ^= x >> 33;
    x *= 0xc4ceb9fe1a85ec53ULL;
    x ^= x >> 33;
    __extension__ typedef unsigned __int128 u128;
    uint64_t result = x + static_cast<uint64_t>((static_cast<u128>(x) * in) >> 64);
    reference.expected[i] = static_cast<double>(static_cast<uint32_t>(result));
    reference.expected[i + 1] = static_cast<double>(static_cast<uint32_t>(result >> 32));
  }
  return reference;
}

}  // namespace

Reference computeReference(const Workload& workload, std::span<const uint32_t> input, uint32_t workGroupSize,
                           uint32_t subgroupSize) {
  if (workload.operation == Operation::kMath) return mathReference(workload, input);
  if (workload.operation == Operation::kTranspose || workload.operation == Operation::kHash ||
      workload.operation == Operation::kRotate)
    return integerReference(workload, input);
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
  if (workload.operation == Operation::kBytes) {
    for (uint32_t word : input) {
      uint32_t transformed = 0;
      for (int k = 0; k < 4; ++k)
        transformed |= uint32_t{byteTransform(static_cast<uint8_t>(word >> (8 * k)))} << (8 * k);
      emit(static_cast<double>(transformed), 0);
    }
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
  if (workload.operation == Operation::kRead16) {
    // Work-item lid of a group reads float4 k*wg + lid of the group's 16 * wg, for k < 16.
    forEachSegment(values, 64 * workGroupSize, [&](std::span<const double> group) {
      for (uint32_t lid = 0; lid < workGroupSize; ++lid) {
        double sum = 0, magnitudes = 0;
        for (uint32_t k = 0; k < 16; ++k) {
          for (uint32_t lane = 0; lane < 4; ++lane) {
            double value = group[4 * (k * workGroupSize + lid) + lane];
            sum += value;
            magnitudes += std::fabs(value);
          }
        }
        emit(sum, 64 * kFloatEpsilon * magnitudes);
      }
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
      case Operation::kShuffleXor1:
        for (size_t i = 0; i < group.size(); ++i) emit(group[i ^ 1], 0);
        break;
      case Operation::kBallotCount: {
        double count = static_cast<double>(std::count_if(group.begin(), group.end(), [](double v) { return v > 0; }));
        for (size_t i = 0; i < group.size(); ++i) emit(count, 0);
        break;
      }
      case Operation::kClusteredReduceAdd4:
        for (size_t i = 0; i < group.size(); ++i) {
          size_t first = i & ~size_t{3};
          emit(group[first] + group[first + 1] + group[first + 2] + group[first + 3], 0);
        }
        break;
      case Operation::kNonUniformReduceAddOdd: {
        double odd = 0;
        for (size_t i = 1; i < group.size(); i += 2) odd += group[i];
        for (size_t i = 0; i < group.size(); ++i) emit(i & 1 ? odd : group[i], 0);
        break;
      }
      case Operation::kReduce16Add:
      case Operation::kRead16:
      case Operation::kCopy:
      case Operation::kBytes:
      case Operation::kMath:
      case Operation::kTranspose:
      case Operation::kHash:
      case Operation::kRotate: break;  // Handled above.
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
    if (workload.element == ElementType::kDouble) {  // both words of a double: its value
      size_t first = i & ~size_t{1};
      got = std::bit_cast<double>(uint64_t{output[first]} | uint64_t{output[first + 1]} << 32);
    }
    if (std::isnan(got)) got = std::numeric_limits<double>::infinity();
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
