// CLBlast (Debian's libclblast 1.5.3) through the ICD loader and cl2vk, against a CPU GEMM.
//
// CLBlast writes its kernels at run time from its templates and per-device parameters: its tuning
// database is keyed by CL_DEVICE_VENDOR and CL_DEVICE_NAME, and some switches depend on the
// vendor alone (on NVIDIA, ARM and Qualcomm its helpers are C99 `inline` functions). To build on
// lavapipe what a user of an NVIDIA GPU gets, this program answers those two queries itself: its
// clGetDeviceInfo, exported from the executable, comes before the ICD loader's in the lookup of
// libclblast's calls and forwards everything else (docs/clients.md, "CLBlast"). Parameter sets
// of CLBlast's NVIDIA database entries, and shapes the kernels accept beyond them, are imposed with
// clblast::OverrideParameters.
#include <CL/cl.h>
#include <clblast.h>
#include <dlfcn.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <map>
#include <ostream>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace {

// The identity CLBlast is shown; empty strings show the device's own.
std::string gVendor, gName;

}  // namespace

extern "C" cl_int clGetDeviceInfo(cl_device_id device, cl_device_info name, size_t size, void* value,
                                  size_t* sizeReturned) {
  using Query = cl_int (*)(cl_device_id, cl_device_info, size_t, void*, size_t*);
  static Query loaders = reinterpret_cast<Query>(dlsym(RTLD_NEXT, "clGetDeviceInfo"));
  const std::string* shown = name == CL_DEVICE_VENDOR ? &gVendor : name == CL_DEVICE_NAME ? &gName : nullptr;
  if (!shown || shown->empty()) return loaders(device, name, size, value, sizeReturned);
  if (sizeReturned) *sizeReturned = shown->size() + 1;
  if (value) {
    if (size < shown->size() + 1) return CL_INVALID_VALUE;
    std::memcpy(value, shown->c_str(), shown->size() + 1);
  }
  return CL_SUCCESS;
}

namespace {

using Parameters = std::unordered_map<std::string, size_t>;

// A configuration: who CLBlast thinks the device is, and the kernel parameters imposed on it.
struct Configuration {
  const char* label;
  const char* vendor;  // "" for the device's own
  const char* name;
  std::map<std::string, Parameters> overrides;  // kernel name -> parameters, for float and double
};

// gtest names a failing configuration by its label.
void PrintTo(const Configuration& configuration, std::ostream* out) { *out << configuration.label; }

const char* kNvidia = "NVIDIA Corporation";

// The Xgemm parameters in CLBlast's database order, GEMMK and KREG first.
Parameters xgemm(size_t gemmk, size_t kreg, size_t kwg, size_t kwi, size_t mdima, size_t mdimc, size_t mwg,
                 size_t ndimb, size_t ndimc, size_t nwg, size_t sa, size_t sb, size_t strm, size_t strn, size_t vwm,
                 size_t vwn) {
  return {{"GEMMK", gemmk}, {"KREG", kreg},   {"KWG", kwg},     {"KWI", kwi}, {"MDIMA", mdima}, {"MDIMC", mdimc},
          {"MWG", mwg},     {"NDIMB", ndimb}, {"NDIMC", ndimc}, {"NWG", nwg}, {"SA", sa},       {"SB", sb},
          {"STRM", strm},   {"STRN", strn},   {"VWM", vwm},     {"VWN", vwn}};
}

Parameters xgemmDirect(size_t wgd, size_t mdimcd, size_t ndimcd, size_t mdimad, size_t ndimbd, size_t kwid, size_t vwmd,
                       size_t vwnd, size_t pada, size_t padb) {
  return {{"WGD", wgd},   {"MDIMCD", mdimcd}, {"NDIMCD", ndimcd}, {"MDIMAD", mdimad}, {"NDIMBD", ndimbd},
          {"KWID", kwid}, {"VWMD", vwmd},     {"VWND", vwnd},     {"PADA", pada},     {"PADB", padb}};
}

Parameters padTranspose(size_t tile, size_t wpt, size_t pad) {
  return {{"PADTRA_TILE", tile}, {"PADTRA_WPT", wpt}, {"PADTRA_PAD", pad}};
}

Parameters indirectFrom(size_t size) { return {{"XGEMM_MIN_INDIRECT_SIZE", size}}; }

std::vector<Configuration> configurations() {
  return {
      {"LavapipeDefaults", "", "", {}},
      // What CLBlast chooses on the H200 through cl2vk (the vendor's default entries).
      {"NvidiaH200", kNvidia, "NVIDIA H200", {}},
      // The same, every size through the indirect kernels (pad, transpose, Xgemm).
      {"NvidiaH200Indirect", kNvidia, "NVIDIA H200", {{"GemmRoutine", indirectFrom(1)}}},
      // NVIDIA database entries (GeForce GTX 1080, TITAN X Pascal, Tesla K40m) with 8x8 transpose
      // tiles of 4 and 2 items, and the direct kernel with padded and unpadded local tiles.
      {"NvidiaGtx1080",
       kNvidia,
       "GeForce GTX 1080",
       {{"GemmRoutine", indirectFrom(1)},
        {"Xgemm", xgemm(0, 1, 32, 2, 16, 8, 64, 8, 8, 64, 1, 1, 1, 1, 4, 8)},
        {"Padtranspose", padTranspose(16, 2, 1)}}},
      {"NvidiaTitanXPascal",
       kNvidia,
       "TITAN X (Pascal)",
       {{"GemmRoutine", indirectFrom(1)},
        {"Xgemm", xgemm(0, 1, 32, 2, 16, 16, 64, 8, 8, 64, 1, 1, 0, 0, 4, 1)},
        {"Padtranspose", padTranspose(8, 4, 0)}}},
      // Not here: a 64-wide direct tile (WGD=64, KWID=8, VWMD=VWND=4) is correct but its program
      // takes 18 s of CPU to translate and longer to compile on lavapipe; CLBlast's GEMMK=1 kernel
      // has constraints its database does not show (PoCL computes the same wrong result as cl2vk
      // with the shapes tried) (docs/clients.md).
      {"NvidiaK40mDirect",
       kNvidia,
       "Tesla K40m",
       {{"GemmRoutine", indirectFrom(4096)}, {"XgemmDirect", xgemmDirect(32, 16, 16, 16, 16, 2, 2, 2, 1, 1)}}},
  };
}

// C = alpha * A * B + beta * C on the CPU in double, row-major, A m x k, B k x n.
template <typename T>
std::vector<T> cpuGemm(size_t m, size_t n, size_t k, T alpha, const std::vector<T>& a, const std::vector<T>& b, T beta,
                       const std::vector<T>& c) {
  std::vector<T> result(m * n);
  for (size_t i = 0; i < m; ++i) {
    for (size_t j = 0; j < n; ++j) {
      double sum = 0;
      for (size_t p = 0; p < k; ++p) sum += double(a[i * k + p]) * double(b[p * n + j]);
      result[i * n + j] = T(double(alpha) * sum + double(beta) * double(c[i * n + j]));
    }
  }
  return result;
}

class Clblast : public testing::TestWithParam<Configuration> {
 protected:
  void SetUp() override {
    cl_uint count = 0;
    ASSERT_EQ(clGetPlatformIDs(0, nullptr, &count), CL_SUCCESS);
    std::vector<cl_platform_id> platforms(count);
    ASSERT_EQ(clGetPlatformIDs(count, platforms.data(), nullptr), CL_SUCCESS);
    // $CL2VK_TEST_PLATFORM checks the test itself against another implementation (PoCL).
    const char* wanted = std::getenv("CL2VK_TEST_PLATFORM") ? std::getenv("CL2VK_TEST_PLATFORM") : "cl2vk";
    for (cl_platform_id platform : platforms) {
      char name[256] = {};
      clGetPlatformInfo(platform, CL_PLATFORM_NAME, sizeof name, name, nullptr);
      if (std::strstr(name, wanted) && clGetDeviceIDs(platform, CL_DEVICE_TYPE_ALL, 1, &device_, nullptr) == CL_SUCCESS)
        break;
    }
    ASSERT_NE(device_, nullptr) << "no " << wanted << " platform (is OCL_ICD_VENDORS set?)";
    cl_int status;
    context_ = clCreateContext(nullptr, 1, &device_, nullptr, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);
    queue_ = clCreateCommandQueueWithProperties(context_, device_, nullptr, &status);
    ASSERT_EQ(status, CL_SUCCESS);

    const Configuration& configuration = GetParam();
    gVendor = configuration.vendor;
    gName = configuration.name;
    // Programs and database entries CLBlast keeps belong to the identity it saw.
    ASSERT_EQ(clblast::ClearCache(), clblast::StatusCode::kSuccess);
    for (const auto& [kernel, parameters] : configuration.overrides) {
      for (clblast::Precision precision : {clblast::Precision::kSingle, clblast::Precision::kDouble}) {
        ASSERT_EQ(clblast::OverrideParameters(device_, kernel, precision, parameters), clblast::StatusCode::kSuccess)
            << kernel;
      }
    }
  }

  void TearDown() override {
    if (queue_) clReleaseCommandQueue(queue_);
    if (context_) clReleaseContext(context_);
    gVendor.clear();
    gName.clear();
    clblast::ClearCache();
  }

  cl_mem buffer(const void* data, size_t bytes) {
    cl_int status;
    cl_mem memory =
        clCreateBuffer(context_, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, bytes, const_cast<void*>(data), &status);
    EXPECT_EQ(status, CL_SUCCESS);
    return memory;
  }

  // One GEMM of m x n x k (row-major, A transposed or not) through CLBlast, checked against the CPU
  // within 4(k+2) epsilons of the type (the terms are below 1.5 in size), the summation order being the kernel's.
  template <typename T>
  void checkGemm(size_t m, size_t n, size_t k, bool transposeA) {
    SCOPED_TRACE(std::string(sizeof(T) == 4 ? "float " : "double ") + std::to_string(m) + "x" + std::to_string(n) +
                 "x" + std::to_string(k) + (transposeA ? " A^T" : ""));
    std::mt19937 random(static_cast<uint32_t>(m * 131 + n * 7 + k));
    std::uniform_real_distribution<double> uniform(-1.0, 1.0);
    std::vector<T> a(m * k), b(k * n), c(m * n);
    for (T& x : a) x = T(uniform(random));
    for (T& x : b) x = T(uniform(random));
    for (T& x : c) x = T(uniform(random));
    const T alpha = T(1.5), beta = T(-0.75);
    // Transposed A is stored k x m; the CPU multiplies the matrix it stands for.
    std::vector<T> rowMajorA = a;
    if (transposeA) {
      for (size_t i = 0; i < m; ++i) {
        for (size_t p = 0; p < k; ++p) rowMajorA[i * k + p] = a[p * m + i];
      }
    }
    std::vector<T> expected = cpuGemm(m, n, k, alpha, rowMajorA, b, beta, c);

    cl_mem bufferA = buffer(a.data(), a.size() * sizeof(T));
    cl_mem bufferB = buffer(b.data(), b.size() * sizeof(T));
    cl_mem bufferC = buffer(c.data(), c.size() * sizeof(T));
    clblast::StatusCode status =
        clblast::Gemm<T>(clblast::Layout::kRowMajor, transposeA ? clblast::Transpose::kYes : clblast::Transpose::kNo,
                         clblast::Transpose::kNo, m, n, k, alpha, bufferA, 0, transposeA ? m : k, bufferB, 0, n, beta,
                         bufferC, 0, n, &queue_, nullptr);
    EXPECT_EQ(status, clblast::StatusCode::kSuccess) << "CLBlast status " << static_cast<int>(status);
    std::vector<T> result(m * n);
    if (status == clblast::StatusCode::kSuccess) {
      EXPECT_EQ(clEnqueueReadBuffer(queue_, bufferC, CL_TRUE, 0, result.size() * sizeof(T), result.data(), 0, nullptr,
                                    nullptr),
                CL_SUCCESS);
      const double tolerance = double(k + 2) * 4.0 * std::numeric_limits<T>::epsilon();
      int wrong = 0;
      for (size_t i = 0; i < m * n; ++i) {
        if (std::fabs(double(result[i]) - double(expected[i])) > tolerance && ++wrong <= 3) {
          ADD_FAILURE() << "C[" << i / n << "][" << i % n << "] = " << result[i] << ", the CPU says " << expected[i];
        }
      }
      EXPECT_EQ(wrong, 0);
    }
    clReleaseMemObject(bufferA);
    clReleaseMemObject(bufferB);
    clReleaseMemObject(bufferC);
  }

  cl_device_id device_ = nullptr;
  cl_context context_ = nullptr;
  cl_command_queue queue_ = nullptr;
};

// Sizes below, at and past the tiles (8 to 64), none of them a multiple of every tile.
TEST_P(Clblast, SgemmAndDgemmMatchTheCpu) {
  const size_t sizes[][3] = {{1, 1, 1}, {7, 9, 5}, {64, 64, 64}, {100, 33, 71}, {129, 130, 67}};
  for (const auto& size : sizes) {
    checkGemm<float>(size[0], size[1], size[2], false);
    checkGemm<double>(size[0], size[1], size[2], false);
  }
  checkGemm<float>(65, 47, 90, true);
  checkGemm<double>(65, 47, 90, true);
}

// Level 1 and 2 routines and a triangular solve (level 3, built on GEMM and its own kernels),
// float, under the same identities: CLBlast's other kernels (reductions in local memory, gemv's
// tiles, trsm's diagonal-block inversion) against the CPU.
TEST_P(Clblast, AxpyDotNrm2GemvAndTrsmMatchTheCpu) {
  const size_t n = 1000, rows = 70, columns = 90, m = 50, right = 30;
  std::vector<float> x(n), y(n);
  for (size_t i = 0; i < n; ++i) {
    x[i] = float((i * 37) % 101) / 101.0f - 0.5f;
    y[i] = float((i * 53) % 97) / 97.0f - 0.4f;
  }
  const float epsilon = std::numeric_limits<float>::epsilon();
  auto close = [](double value, double expected, double tolerance) { return std::fabs(value - expected) <= tolerance; };

  cl_mem bufferX = buffer(x.data(), n * sizeof(float));
  cl_mem bufferY = buffer(y.data(), n * sizeof(float));
  std::vector<float> scalar(1, 0.0f);
  cl_mem bufferS = buffer(scalar.data(), sizeof(float));
  ASSERT_EQ(clblast::Axpy<float>(n, 2.5f, bufferX, 0, 1, bufferY, 0, 1, &queue_), clblast::StatusCode::kSuccess);
  std::vector<float> axpy(n);
  ASSERT_EQ(clEnqueueReadBuffer(queue_, bufferY, CL_TRUE, 0, n * sizeof(float), axpy.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t i = 0; i < n; ++i) {  // fused or not, as the device pleases
    float unfused = 2.5f * x[i];
    unfused += y[i];
    ASSERT_TRUE(axpy[i] == std::fma(2.5f, x[i], y[i]) || axpy[i] == unfused) << "axpy " << i << ": " << axpy[i];
  }

  double dot = 0, squares = 0;
  for (size_t i = 0; i < n; ++i) {
    dot += double(x[i]) * double(axpy[i]);
    squares += double(x[i]) * double(x[i]);
  }
  ASSERT_EQ(clblast::Dot<float>(n, bufferS, 0, bufferX, 0, 1, bufferY, 0, 1, &queue_), clblast::StatusCode::kSuccess);
  ASSERT_EQ(clEnqueueReadBuffer(queue_, bufferS, CL_TRUE, 0, sizeof(float), scalar.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(close(scalar[0], dot, n * epsilon * 2)) << "dot " << scalar[0] << ", the CPU says " << dot;
  ASSERT_EQ(clblast::Nrm2<float>(n, bufferS, 0, bufferX, 0, 1, &queue_), clblast::StatusCode::kSuccess);
  ASSERT_EQ(clEnqueueReadBuffer(queue_, bufferS, CL_TRUE, 0, sizeof(float), scalar.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  EXPECT_TRUE(close(scalar[0], std::sqrt(squares), n * epsilon * 2)) << "nrm2 " << scalar[0];

  // gemv: z = 1.5 A x (row-major A, rows x columns).
  std::vector<float> a(rows * columns), z(rows, 0.0f);
  for (size_t i = 0; i < a.size(); ++i) a[i] = float((i * 29) % 89) / 89.0f - 0.5f;
  cl_mem bufferA = buffer(a.data(), a.size() * sizeof(float));
  cl_mem bufferZ = buffer(z.data(), z.size() * sizeof(float));
  ASSERT_EQ(clblast::Gemv<float>(clblast::Layout::kRowMajor, clblast::Transpose::kNo, rows, columns, 1.5f, bufferA, 0,
                                 columns, bufferX, 0, 1, 0.0f, bufferZ, 0, 1, &queue_),
            clblast::StatusCode::kSuccess);
  ASSERT_EQ(clEnqueueReadBuffer(queue_, bufferZ, CL_TRUE, 0, rows * sizeof(float), z.data(), 0, nullptr, nullptr),
            CL_SUCCESS);
  for (size_t r = 0; r < rows; ++r) {
    double expected = 0;
    for (size_t c = 0; c < columns; ++c) expected += 1.5 * double(a[r * columns + c]) * double(x[c]);
    EXPECT_TRUE(close(z[r], expected, columns * epsilon * 4)) << "gemv row " << r << ": " << z[r] << " vs " << expected;
  }

  // trsm: L X = B, L lower triangular m x m with a heavy diagonal, B m x right; checked by L X.
  std::vector<float> lower(m * m, 0.0f), b(m * right);
  for (size_t r = 0; r < m; ++r) {
    for (size_t c = 0; c <= r; ++c)
      lower[r * m + c] = r == c ? 4.0f + float(r % 3) : float((r * 7 + c) % 13) / 13.0f - 0.5f;
  }
  for (size_t i = 0; i < b.size(); ++i) b[i] = float((i * 11) % 23) / 23.0f - 0.5f;
  cl_mem bufferL = buffer(lower.data(), lower.size() * sizeof(float));
  cl_mem bufferB = buffer(b.data(), b.size() * sizeof(float));
  ASSERT_EQ(clblast::Trsm<float>(clblast::Layout::kRowMajor, clblast::Side::kLeft, clblast::Triangle::kLower,
                                 clblast::Transpose::kNo, clblast::Diagonal::kNonUnit, m, right, 1.0f, bufferL, 0, m,
                                 bufferB, 0, right, &queue_),
            clblast::StatusCode::kSuccess);
  std::vector<float> solution(m * right);
  ASSERT_EQ(clEnqueueReadBuffer(queue_, bufferB, CL_TRUE, 0, solution.size() * sizeof(float), solution.data(), 0,
                                nullptr, nullptr),
            CL_SUCCESS);
  int wrong = 0;
  for (size_t r = 0; r < m; ++r) {
    for (size_t c = 0; c < right; ++c) {
      double product = 0;
      for (size_t k = 0; k <= r; ++k) product += double(lower[r * m + k]) * double(solution[k * right + c]);
      if (!close(product, b[r * right + c], 1e-4) && ++wrong <= 3) {
        ADD_FAILURE() << "(L X)[" << r << "][" << c << "] = " << product << ", B says " << b[r * right + c];
      }
    }
  }
  EXPECT_EQ(wrong, 0);
  for (cl_mem memory : {bufferX, bufferY, bufferS, bufferA, bufferZ, bufferL, bufferB}) clReleaseMemObject(memory);
}

INSTANTIATE_TEST_SUITE_P(Parameters, Clblast, testing::ValuesIn(configurations()),
                         [](const testing::TestParamInfo<Configuration>& info) { return info.param.label; });

}  // namespace
