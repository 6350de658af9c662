// The benchmark list: what each benchmark computes, how much memory it moves, and the CPU reference
// its results are checked against. Every implementation (cl2vk, GLSL, a native OpenCL, CUB) runs
// the same workload over the same inputs with the same output convention:
// - reductions, all and logical xor write one value per work-group (work-group scope, by local id 0,
//   at the group's index) or per sub-group (sub-group scope, by sub-group local id 0, at index
//   group * sub-groups per group + sub-group id);
// - scans, broadcasts (of the last work-item's value) and copies write one value per work-item;
// - bytes writes the four bytes of each input word transformed, one word per work-item;
// - reduce16 sums 16 coalesced values per work-item (element group*16*wg + k*wg + lid), then
//   reduces over the work-group.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace cl2vk::bench {

// The element type of a workload's input and output.
enum class ElementType { kInt, kFloat, kUint, kUint4, kDouble, kUlong };

// Which input buffers a workload reads: the integer set (also read as uint), the float set or the
// double set (pairs of words).
enum class InputSet { kInts, kFloats, kDoubles };
inline constexpr InputSet kInputSets[] = {InputSet::kInts, InputSet::kFloats, InputSet::kDoubles};

enum class Scope { kWorkGroup, kSubGroup, kNone };

enum class Operation {
  kReduceAdd,
  kScanInclusiveAdd,
  kScanExclusiveMax,
  kBroadcastLast,
  kAll,
  kReduceLogicalXor,
  // The cl_khr_subgroup_* functions, one value per work-item: shuffle_xor(x, 1), the bit count
  // of ballot(x > 0), clustered_reduce_add(x, 4), and non_uniform_reduce_add(x) in the odd lanes
  // (x in the even ones).
  kShuffleXor1,
  kBallotCount,
  kClusteredReduceAdd4,
  kNonUniformReduceAddOdd,
  kReduce16Add,
  kCopy,
  kMath,       // one OpenCL.std function per work-item (Workload::function), see mathArguments()
  kBytes,      // four uchar loads and stores per work-item, each byte b becoming byteTransform(b)
  kTranspose,  // the input as rows of 256 words, written transposed (transpose_uint)
  kHash,       // MurmurHash3's 64-bit finalizer plus a mul_hi, per ulong (hash_ulong)
};

// What the bytes workload computes of each byte (kernels.cl's bytes_uchar, shaders/bench/bytes_uchar.comp).
inline uint8_t byteTransform(uint8_t b) { return static_cast<uint8_t>(static_cast<uint8_t>(b * 3 + 7) ^ (b >> 1)); }

// Which OpenCL program of kernels.cl holds a kernel (built separately, so that a platform lacking
// a feature skips only the kernels needing it): the BENCH_PROGRAM_<name> macro selects it.
enum class ClProgram {
  kBasic,
  kWorkGroup,
  kWorkGroupUniformArithmetic,
  kSubGroup,
  kSubGroupUniformArithmetic,
  kSubGroupExtensions,  // the cl_khr_subgroup_* functions
  kMathDouble,          // needs cl_khr_fp64
};

struct Workload {
  std::string benchmark;  // "work_group_reduce_add": the OpenCL name, or "reduce16", "copy"
  std::string type;       // "int", "float", "uint", "uint4"
  ElementType element;
  Scope scope;
  Operation operation;
  ClProgram program;
  std::string kernel;  // the OpenCL kernel in kernels.cl and the GLSL shader in shaders/bench/
  // Also runs as the classic __local barrier tree (kernel "local_tree_reduce_add_float").
  bool hasLocalTree = false;
  // kMath: the OpenCL C function ("sin"), and the kernel calling its native_ form ("" if none).
  std::string function{};
  std::string nativeKernel{};
  // Whether shaders/bench/ has a GLSL baseline (the index and ulong workloads measure cl2vk with and
  // without shaderInt64 against itself, cl2vk-bench --no-int64).
  bool hasGlsl = true;

  InputSet inputSet() const {
    if (element == ElementType::kFloat) return InputSet::kFloats;
    return element == ElementType::kDouble ? InputSet::kDoubles : InputSet::kInts;
  }
  // Input words one work-item reads: 16 for reduce16, 4 for the uint4 copy, 2 for a double or a
  // ulong, else 1.
  uint32_t wordsPerItem() const;
  uint64_t workItems(uint64_t n) const { return n / wordsPerItem(); }
  // The 32-bit words written over `n` input words.
  uint64_t outputWords(uint64_t n, uint32_t workGroupSize, uint32_t subgroupSize) const;
  // Bytes read plus bytes written.
  uint64_t bytesMoved(uint64_t n, uint32_t workGroupSize, uint32_t subgroupSize) const;
};

// Every benchmark, in table order.
const std::vector<Workload>& workloads();

inline constexpr const char* kLocalTreeKernel = "local_tree_reduce_add_float";
// The same tree through a reinterpreted __local pointer (word-addressed in cl2vk).
inline constexpr const char* kLocalTreeWordsKernel = "local_tree_reduce_add_float_words";

// What a correct run writes: each output word's exact value (integers, and floats computed in
// double) and the distance from it that passes (0 for integers; for a float combining m values,
// m * 2^-23 * sum|x| over those values, which bounds the rounding of any summation order).
struct Reference {
  std::vector<double> expected;
  std::vector<double> tolerance;
};

// The arguments a math workload passes its function for input x in [-1, 1), computed in the
// workload's precision exactly as the kernels do (kernels.cl, shaders/bench/math_*.comp): sin(100x),
// exp(10x), log(|x| + 2^-10), pow(|x| + 0.5, 8x), fmod(1000x, |x| + 0.25).
template <typename T>
std::pair<T, T> mathArguments(const std::string& function, T x);

Reference computeReference(const Workload& workload, std::span<const uint32_t> input, uint32_t workGroupSize,
                           uint32_t subgroupSize);

// Empty when `output` matches, else how many words are wrong and the first few ("word 17: got 3,
// expected 4").
std::string compareOutput(const Workload& workload, const Reference& reference, std::span<const uint32_t> output);

}  // namespace cl2vk::bench
