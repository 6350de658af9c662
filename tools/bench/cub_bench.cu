// The CUDA baseline of cl2vk-bench: the same streaming work as the OpenCL kernels, written with
// CUB's block and warp primitives (cub::BlockReduce, cub::BlockScan, cub::WarpReduce,
// cub::WarpScan), one value per thread, at block sizes 64, 256 and 1024, plus the 16-items-per-thread
// reduction and plain copies. Each result is checked against the CPU before it is timed; times are
// CUDA events around each launch, the median of the runs after warm-up, with the input rotated
// over three buffers. Prints one JSON object per line in cl2vk-bench's schema (implementation
// "cub"), for cl2vk-bench --merge.
//
//   nvcc -O3 -std=c++17 -arch=native tools/bench/cub_bench.cu -o cub_bench && ./cub_bench --n 67108864
#include <cub/cub.cuh>

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <vector>

namespace {

#define CUDA_CHECK(call)                                                                          \
  do {                                                                                            \
    cudaError_t error_ = (call);                                                                  \
    if (error_ != cudaSuccess) {                                                                  \
      std::fprintf(stderr, "cub_bench: %s failed: %s\n", #call, cudaGetErrorString(error_));      \
      std::exit(1);                                                                               \
    }                                                                                             \
  } while (0)

constexpr int kWarp = 32;
constexpr int kItemsPerThread = 16;  // reduce16

struct Xor {
  __device__ int operator()(int a, int b) const { return a ^ b; }
};
struct Max {
  __device__ int operator()(int a, int b) const { return a > b ? a : b; }
};

// ---------------------------------------------------------------------------------------------
// Kernels. Reductions, all and logical xor write one value per block (work-group) or per warp
// (sub-group); scans and broadcasts one value per thread.

template <typename T, int B>
__global__ void blockReduceAdd(const T* in, T* out) {
  using Reduce = cub::BlockReduce<T, B>;
  __shared__ typename Reduce::TempStorage storage;
  T sum = Reduce(storage).Sum(in[blockIdx.x * B + threadIdx.x]);
  if (threadIdx.x == 0) out[blockIdx.x] = sum;
}

template <typename T, int B>
__global__ void blockScanInclusiveAdd(const T* in, T* out) {
  using Scan = cub::BlockScan<T, B>;
  __shared__ typename Scan::TempStorage storage;
  size_t i = size_t(blockIdx.x) * B + threadIdx.x;
  T result;
  Scan(storage).InclusiveSum(in[i], result);
  out[i] = result;
}

template <int B>
__global__ void blockScanExclusiveMax(const int* in, int* out) {
  using Scan = cub::BlockScan<int, B>;
  __shared__ typename Scan::TempStorage storage;
  size_t i = size_t(blockIdx.x) * B + threadIdx.x;
  int result;
  Scan(storage).ExclusiveScan(in[i], result, INT_MIN, Max());
  out[i] = result;
}

template <int B>
__global__ void blockBroadcastLast(const int* in, int* out) {
  __shared__ int value;
  size_t i = size_t(blockIdx.x) * B + threadIdx.x;
  int v = in[i];
  if (threadIdx.x == B - 1) value = v;
  __syncthreads();
  out[i] = value;
}

template <int B>
__global__ void blockAll(const int* in, int* out) {
  int all = __syncthreads_and(in[blockIdx.x * B + threadIdx.x] != 0);
  if (threadIdx.x == 0) out[blockIdx.x] = all ? 1 : 0;
}

template <int B>
__global__ void blockLogicalXor(const int* in, int* out) {
  using Reduce = cub::BlockReduce<int, B>;
  __shared__ typename Reduce::TempStorage storage;
  int x = Reduce(storage).Reduce(in[blockIdx.x * B + threadIdx.x] != 0 ? 1 : 0, Xor());
  if (threadIdx.x == 0) out[blockIdx.x] = x;
}

template <typename T, int B>
__global__ void blockReduce16(const T* in, T* out) {
  using Reduce = cub::BlockReduce<T, B>;
  __shared__ typename Reduce::TempStorage storage;
  const T* base = in + size_t(blockIdx.x) * B * kItemsPerThread + threadIdx.x;
  T sum = 0;
#pragma unroll
  for (int k = 0; k < kItemsPerThread; ++k) sum += base[k * B];
  T total = Reduce(storage).Sum(sum);
  if (threadIdx.x == 0) out[blockIdx.x] = total;
}

template <typename T, int B>
__global__ void warpReduceAdd(const T* in, T* out) {
  using Reduce = cub::WarpReduce<T>;
  __shared__ typename Reduce::TempStorage storage[B / kWarp];
  size_t i = size_t(blockIdx.x) * B + threadIdx.x;
  T sum = Reduce(storage[threadIdx.x / kWarp]).Sum(in[i]);
  if (threadIdx.x % kWarp == 0) out[i / kWarp] = sum;
}

template <typename T, int B>
__global__ void warpScanInclusiveAdd(const T* in, T* out) {
  using Scan = cub::WarpScan<T>;
  __shared__ typename Scan::TempStorage storage[B / kWarp];
  size_t i = size_t(blockIdx.x) * B + threadIdx.x;
  T result;
  Scan(storage[threadIdx.x / kWarp]).InclusiveSum(in[i], result);
  out[i] = result;
}

template <int B>
__global__ void warpScanExclusiveMax(const int* in, int* out) {
  using Scan = cub::WarpScan<int>;
  __shared__ typename Scan::TempStorage storage[B / kWarp];
  size_t i = size_t(blockIdx.x) * B + threadIdx.x;
  int result;
  Scan(storage[threadIdx.x / kWarp]).ExclusiveScan(in[i], result, INT_MIN, Max());
  out[i] = result;
}

template <int B>
__global__ void warpBroadcastLast(const int* in, int* out) {
  size_t i = size_t(blockIdx.x) * B + threadIdx.x;
  out[i] = __shfl_sync(0xffffffffu, in[i], kWarp - 1);
}

template <int B>
__global__ void warpAll(const int* in, int* out) {
  size_t i = size_t(blockIdx.x) * B + threadIdx.x;
  int all = __all_sync(0xffffffffu, in[i] != 0);
  if (threadIdx.x % kWarp == 0) out[i / kWarp] = all ? 1 : 0;
}

template <int B>
__global__ void warpLogicalXor(const int* in, int* out) {
  size_t i = size_t(blockIdx.x) * B + threadIdx.x;
  int x = __popc(__ballot_sync(0xffffffffu, in[i] != 0)) & 1;
  if (threadIdx.x % kWarp == 0) out[i / kWarp] = x;
}

template <typename V>
__global__ void copy(const V* in, V* out) {
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  out[i] = in[i];
}

// copy<unsigned> holding dynamic shared memory that it touches only for a value the input never
// has (it is all 0x5A bytes), so that the shared memory caps the blocks resident on a
// multiprocessor while the copy stays a copy (--shared-sweep; shaders/bench/copy_uint_shared.comp).
__global__ void copySharedHeld(const unsigned* in, unsigned* out) {
  extern __shared__ unsigned reserved[];
  size_t i = size_t(blockIdx.x) * blockDim.x + threadIdx.x;
  unsigned value = in[i];
  if (value == 0x7fffffffu) {
    reserved[threadIdx.x] = value;
    value = reserved[(threadIdx.x + 1) % blockDim.x];
  }
  out[i] = value;
}

// ---------------------------------------------------------------------------------------------
// CPU references over one block (work-group) or warp (sub-group) of `in`.

enum class Shape { kPerGroup, kPerItem };

template <typename T>
using Reference = std::function<void(const T* in, size_t size, T* out)>;

template <typename T>
void referenceSum(const T* in, size_t size, T* out) {
  double sum = 0;
  for (size_t i = 0; i < size; ++i) sum += in[i];
  out[0] = T(sum);
}
template <typename T>
void referenceInclusiveSum(const T* in, size_t size, T* out) {
  double sum = 0;
  for (size_t i = 0; i < size; ++i) out[i] = T(sum += in[i]);
}
void referenceExclusiveMax(const int* in, size_t size, int* out) {
  int best = INT_MIN;
  for (size_t i = 0; i < size; ++i) {
    out[i] = best;
    best = std::max(best, in[i]);
  }
}
void referenceBroadcastLast(const int* in, size_t size, int* out) {
  for (size_t i = 0; i < size; ++i) out[i] = in[size - 1];
}
void referenceAll(const int* in, size_t size, int* out) {
  out[0] = std::all_of(in, in + size, [](int v) { return v != 0; }) ? 1 : 0;
}
void referenceLogicalXor(const int* in, size_t size, int* out) {
  int x = 0;
  for (size_t i = 0; i < size; ++i) x ^= in[i] != 0;
  out[0] = x;
}

// ---------------------------------------------------------------------------------------------

struct Options {
  size_t n = size_t{1} << 26;
  int runs = 20;
  int warmup = 3;
};

std::string deviceName() {
  int device = 0;
  CUDA_CHECK(cudaGetDevice(&device));
  cudaDeviceProp properties{};
  CUDA_CHECK(cudaGetDeviceProperties(&properties, device));
  return properties.name;
}

template <typename T>
bool close(T got, T want, double tolerance) {
  if constexpr (std::is_floating_point_v<T>) {
    return std::fabs(double(got) - double(want)) <= tolerance;
  } else {
    return got == want;
  }
}

// Runs one benchmark: checks the first run against `reference`, then times `runs` launches.
template <typename T>
void measure(const Options& options, const std::string& benchmark, const char* type, int block, int groupSize,
             Shape shape, size_t inputElements, size_t bytesPerInput, const std::vector<T*>& inputs,
             const std::vector<std::vector<T>>& hostInputs, T* output,
             const std::function<void(const T*, T*)>& launch, const Reference<T>& reference) {
  size_t groups = inputElements / groupSize;
  size_t outputCount = shape == Shape::kPerGroup ? groups : inputElements;
  std::vector<T> got(outputCount);
  launch(inputs[0], output);
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaDeviceSynchronize());
  CUDA_CHECK(cudaMemcpy(got.data(), output, outputCount * sizeof(T), cudaMemcpyDeviceToHost));
  bool verified = true;
  std::vector<T> want(groupSize);
  const T* in = hostInputs[0].data();
  for (size_t g = 0; g < groups && verified; ++g) {
    reference(in + g * groupSize, groupSize, want.data());
    double magnitude = 0;
    for (int i = 0; i < groupSize; ++i) magnitude += std::fabs(double(in[g * groupSize + i]));
    double tolerance = groupSize * 1.2e-7 * magnitude;
    size_t count = shape == Shape::kPerGroup ? 1 : groupSize;
    for (size_t i = 0; i < count; ++i) {
      T value = got[shape == Shape::kPerGroup ? g : g * groupSize + i];
      if (!close(value, want[i], tolerance)) {
        std::fprintf(stderr, "cub_bench: %s %s block %d: group %zu item %zu: got %g, want %g\n", benchmark.c_str(), type,
                     block, g, i, double(value), double(want[i]));
        verified = false;
        break;
      }
    }
  }

  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int run = 0; run < options.warmup + options.runs; ++run) {
    const T* in = inputs[run % inputs.size()];
    CUDA_CHECK(cudaEventRecord(start));
    launch(in, output);
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (run >= options.warmup) times.push_back(ms);
  }
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  double medianNs = times[times.size() / 2] * 1e6;
  size_t bytes = inputElements * bytesPerInput + outputCount * sizeof(T);
  std::printf(
      "{\"device\": \"%s\", \"implementation\": \"cub\", \"benchmark\": \"%s\", \"type\": \"%s\", \"work_group\": %d, "
      "\"n\": %zu, \"bytes\": %zu, \"median_ns\": %.1f, \"gbps\": %.3f, \"verified\": %s}\n",
      deviceName().c_str(), benchmark.c_str(), type, block, inputElements, bytes, medianNs, bytes / medianNs,
      verified ? "true" : "false");
  std::fflush(stdout);
}

template <typename T>
std::vector<std::vector<T>> randomInputs(size_t n, bool predicates) {
  std::vector<std::vector<T>> sets(3, std::vector<T>(n));
  std::mt19937 random(12345);
  for (auto& set : sets) {
    for (T& v : set) {
      if (predicates) {
        v = T(random() % 64 != 0);  // mostly true, so that `all` varies between groups
      } else if constexpr (std::is_floating_point_v<T>) {
        v = T(std::uniform_real_distribution<float>(-1.0f, 1.0f)(random));
      } else {
        v = T(int(random() % 2001) - 1000);
      }
    }
  }
  return sets;
}

template <typename T>
std::vector<T*> upload(const std::vector<std::vector<T>>& sets) {
  std::vector<T*> buffers;
  for (const auto& set : sets) {
    T* device = nullptr;
    CUDA_CHECK(cudaMalloc(&device, set.size() * sizeof(T)));
    CUDA_CHECK(cudaMemcpy(device, set.data(), set.size() * sizeof(T), cudaMemcpyHostToDevice));
    buffers.push_back(device);
  }
  return buffers;
}

template <typename T>
void release(std::vector<T*>& buffers) {
  for (T* b : buffers) CUDA_CHECK(cudaFree(b));
  buffers.clear();
}

template <typename T, int B>
void typedBenchmarks(const Options& options, const char* type, const std::vector<std::vector<T>>& host,
                     const std::vector<T*>& inputs, T* output) {
  size_t n = options.n;
  unsigned grid = unsigned(n / B);
  measure<T>(options, "work_group_reduce_add", type, B, B, Shape::kPerGroup, n, sizeof(T), inputs, host, output,
             [&](const T* in, T* out) { blockReduceAdd<T, B><<<grid, B>>>(in, out); }, referenceSum<T>);
  measure<T>(options, "work_group_scan_inclusive_add", type, B, B, Shape::kPerItem, n, sizeof(T), inputs, host, output,
             [&](const T* in, T* out) { blockScanInclusiveAdd<T, B><<<grid, B>>>(in, out); }, referenceInclusiveSum<T>);
  measure<T>(options, "sub_group_reduce_add", type, B, kWarp, Shape::kPerGroup, n, sizeof(T), inputs, host, output,
             [&](const T* in, T* out) { warpReduceAdd<T, B><<<grid, B>>>(in, out); }, referenceSum<T>);
  measure<T>(options, "sub_group_scan_inclusive_add", type, B, kWarp, Shape::kPerItem, n, sizeof(T), inputs, host, output,
             [&](const T* in, T* out) { warpScanInclusiveAdd<T, B><<<grid, B>>>(in, out); }, referenceInclusiveSum<T>);
}

template <int B>
void intOnlyBenchmarks(const Options& options, const std::vector<std::vector<int>>& host, const std::vector<int*>& inputs,
                       const std::vector<std::vector<int>>& predicateHost, const std::vector<int*>& predicates, int* output) {
  size_t n = options.n;
  unsigned grid = unsigned(n / B);
  measure<int>(options, "work_group_scan_exclusive_max", "int", B, B, Shape::kPerItem, n, 4, inputs, host, output,
               [&](const int* in, int* out) { blockScanExclusiveMax<B><<<grid, B>>>(in, out); }, referenceExclusiveMax);
  measure<int>(options, "work_group_broadcast", "int", B, B, Shape::kPerItem, n, 4, inputs, host, output,
               [&](const int* in, int* out) { blockBroadcastLast<B><<<grid, B>>>(in, out); }, referenceBroadcastLast);
  measure<int>(options, "work_group_all", "int", B, B, Shape::kPerGroup, n, 4, predicates, predicateHost, output,
               [&](const int* in, int* out) { blockAll<B><<<grid, B>>>(in, out); }, referenceAll);
  measure<int>(options, "work_group_reduce_logical_xor", "int", B, B, Shape::kPerGroup, n, 4, predicates, predicateHost,
               output, [&](const int* in, int* out) { blockLogicalXor<B><<<grid, B>>>(in, out); }, referenceLogicalXor);
  measure<int>(options, "sub_group_scan_exclusive_max", "int", B, kWarp, Shape::kPerItem, n, 4, inputs, host, output,
               [&](const int* in, int* out) { warpScanExclusiveMax<B><<<grid, B>>>(in, out); }, referenceExclusiveMax);
  measure<int>(options, "sub_group_broadcast", "int", B, kWarp, Shape::kPerItem, n, 4, inputs, host, output,
               [&](const int* in, int* out) { warpBroadcastLast<B><<<grid, B>>>(in, out); }, referenceBroadcastLast);
  measure<int>(options, "sub_group_all", "int", B, kWarp, Shape::kPerGroup, n, 4, predicates, predicateHost, output,
               [&](const int* in, int* out) { warpAll<B><<<grid, B>>>(in, out); }, referenceAll);
  measure<int>(options, "sub_group_reduce_logical_xor", "int", B, kWarp, Shape::kPerGroup, n, 4, predicates, predicateHost,
               output, [&](const int* in, int* out) { warpLogicalXor<B><<<grid, B>>>(in, out); }, referenceLogicalXor);
}

template <int B>
void reduce16Benchmark(const Options& options, const std::vector<std::vector<float>>& host,
                       const std::vector<float*>& inputs, float* output) {
  size_t n = options.n;
  unsigned grid = unsigned(n / (size_t(B) * kItemsPerThread));
  // One group's 16 * B inputs: thread t sums elements t, t + B, ... (what the reference sums too).
  measure<float>(options, "reduce16", "float", B, B * kItemsPerThread, Shape::kPerGroup, n, 4, inputs, host, output,
                 [&](const float* in, float* out) { blockReduce16<float, B><<<grid, B>>>(in, out); },
                 referenceSum<float>);
}

// The median time of `launch` in nanoseconds, CUDA events around each launch, after the warm-ups.
double medianLaunchNs(const Options& options, const std::function<void()>& launch) {
  cudaEvent_t start, stop;
  CUDA_CHECK(cudaEventCreate(&start));
  CUDA_CHECK(cudaEventCreate(&stop));
  std::vector<float> times;
  for (int run = 0; run < options.warmup + options.runs; ++run) {
    CUDA_CHECK(cudaEventRecord(start));
    launch();
    CUDA_CHECK(cudaEventRecord(stop));
    CUDA_CHECK(cudaEventSynchronize(stop));
    float ms = 0;
    CUDA_CHECK(cudaEventElapsedTime(&ms, start, stop));
    if (run >= options.warmup) times.push_back(ms);
  }
  CUDA_CHECK(cudaGetLastError());
  CUDA_CHECK(cudaEventDestroy(start));
  CUDA_CHECK(cudaEventDestroy(stop));
  std::sort(times.begin(), times.end());
  return times[times.size() / 2] * 1e6;
}

template <typename V>
void copyBenchmark(const Options& options, const char* name, int block) {
  size_t count = options.n * 4 / sizeof(V);  // the same bytes for both widths
  V *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, count * sizeof(V)));
  CUDA_CHECK(cudaMalloc(&out, count * sizeof(V)));
  CUDA_CHECK(cudaMemset(in, 0x5A, count * sizeof(V)));
  unsigned grid = unsigned(count / block);
  copy<V><<<grid, block>>>(in, out);
  CUDA_CHECK(cudaDeviceSynchronize());
  std::vector<unsigned char> check(count * sizeof(V));
  CUDA_CHECK(cudaMemcpy(check.data(), out, check.size(), cudaMemcpyDeviceToHost));
  bool verified = std::all_of(check.begin(), check.end(), [](unsigned char b) { return b == 0x5A; });
  double medianNs = medianLaunchNs(options, [&] { copy<V><<<grid, block>>>(in, out); });
  size_t bytes = 2 * count * sizeof(V);
  std::printf(
      "{\"device\": \"%s\", \"implementation\": \"cub\", \"benchmark\": \"%s\", \"type\": \"uint\", \"work_group\": %d, "
      "\"n\": %zu, \"bytes\": %zu, \"median_ns\": %.1f, \"gbps\": %.3f, \"verified\": %s}\n",
      deviceName().c_str(), name, block, count, bytes, medianNs, bytes / medianNs, verified ? "true" : "false");
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
}

// The 4-byte copy at each block size with 0 to 48 KiB of shared memory held per block: GB/s
// against the blocks a multiprocessor can hold (cudaOccupancyMaxActiveBlocksPerMultiprocessor),
// with the shared-memory carveout at its largest so that shared memory alone sets that count.
// One JSON object per line, benchmark "copy4_shared", with "shared_bytes" and "blocks_per_sm".
void copySharedSweep(const Options& options) {
  size_t count = options.n;
  unsigned *in = nullptr, *out = nullptr;
  CUDA_CHECK(cudaMalloc(&in, count * sizeof(unsigned)));
  CUDA_CHECK(cudaMalloc(&out, count * sizeof(unsigned)));
  CUDA_CHECK(cudaMemset(in, 0x5A, count * sizeof(unsigned)));
  CUDA_CHECK(cudaFuncSetAttribute(copySharedHeld, cudaFuncAttributePreferredSharedMemoryCarveout,
                                  cudaSharedmemCarveoutMaxShared));
  for (int block : {64, 256, 1024}) {
    for (int kib : {0, 1, 16, 24, 28, 32, 40, 48}) {
      size_t shared = size_t(kib) * 1024;
      int blocksPerSm = 0;
      CUDA_CHECK(cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocksPerSm, copySharedHeld, block, shared));
      unsigned grid = unsigned(count / block);
      CUDA_CHECK(cudaMemset(out, 0, count * sizeof(unsigned)));
      copySharedHeld<<<grid, block, shared>>>(in, out);
      CUDA_CHECK(cudaGetLastError());
      std::vector<unsigned> check(count);
      CUDA_CHECK(cudaMemcpy(check.data(), out, count * sizeof(unsigned), cudaMemcpyDeviceToHost));
      bool verified = std::all_of(check.begin(), check.end(), [](unsigned v) { return v == 0x5A5A5A5Au; });
      double medianNs = medianLaunchNs(options, [&] { copySharedHeld<<<grid, block, shared>>>(in, out); });
      size_t bytes = 2 * count * sizeof(unsigned);
      std::printf(
          "{\"device\": \"%s\", \"implementation\": \"cuda\", \"benchmark\": \"copy4_shared\", \"type\": \"uint\", "
          "\"work_group\": %d, \"shared_bytes\": %zu, \"blocks_per_sm\": %d, \"n\": %zu, \"bytes\": %zu, "
          "\"median_ns\": %.1f, \"gbps\": %.3f, \"verified\": %s}\n",
          deviceName().c_str(), block, shared, blocksPerSm, count, bytes, medianNs, bytes / medianNs,
          verified ? "true" : "false");
      std::fflush(stdout);
    }
  }
  CUDA_CHECK(cudaFree(in));
  CUDA_CHECK(cudaFree(out));
}

template <int B>
void allBenchmarks(const Options& options) {
  auto floatHost = randomInputs<float>(options.n, false);
  auto intHost = randomInputs<int>(options.n, false);
  auto predicateHost = randomInputs<int>(options.n, true);
  auto floats = upload(floatHost);
  auto ints = upload(intHost);
  auto predicates = upload(predicateHost);
  float* floatOut = nullptr;
  int* intOut = nullptr;
  CUDA_CHECK(cudaMalloc(&floatOut, options.n * sizeof(float)));
  CUDA_CHECK(cudaMalloc(&intOut, options.n * sizeof(int)));
  typedBenchmarks<float, B>(options, "float", floatHost, floats, floatOut);
  typedBenchmarks<int, B>(options, "int", intHost, ints, intOut);
  intOnlyBenchmarks<B>(options, intHost, ints, predicateHost, predicates, intOut);
  reduce16Benchmark<B>(options, floatHost, floats, floatOut);
  copyBenchmark<unsigned>(options, "copy4", B);
  copyBenchmark<uint4>(options, "copy16", B);
  release(floats);
  release(ints);
  release(predicates);
  CUDA_CHECK(cudaFree(floatOut));
  CUDA_CHECK(cudaFree(intOut));
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  bool sharedSweep = false;  // instead of the benchmarks (copySharedSweep)
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto next = [&]() -> const char* {
      if (i + 1 >= argc) {
        std::fprintf(stderr, "cub_bench: %s needs a value\n", arg.c_str());
        std::exit(2);
      }
      return argv[++i];
    };
    if (arg == "--n") {
      options.n = std::strtoull(next(), nullptr, 0);
    } else if (arg == "--runs") {
      options.runs = std::atoi(next());
    } else if (arg == "--warmup") {
      options.warmup = std::atoi(next());
    } else if (arg == "--shared-sweep") {
      sharedSweep = true;
    } else {
      std::fprintf(stderr, "usage: cub_bench [--n N] [--runs R] [--warmup W] [--shared-sweep]\n");
      return 2;
    }
  }
  if (options.n % (1024 * kItemsPerThread) != 0 || options.runs < 1) {
    std::fprintf(stderr, "cub_bench: --n must be a multiple of %d and --runs at least 1\n", 1024 * kItemsPerThread);
    return 2;
  }
  if (sharedSweep) {
    copySharedSweep(options);
    return 0;
  }
  allBenchmarks<64>(options);
  allBenchmarks<256>(options);
  allBenchmarks<1024>(options);
  return 0;
}
