// CLBlast as a user calls it (Debian's libclblast, linked dynamically): sgemm, saxpy or sdot on
// the device pickDevice() finds, one warm-up call, then timed calls each ended by clFinish; the
// result of the last call checked against the CPU. For sgemm, --params-out writes the kernel
// parameters CLBlast chose for the device and --params-in overrides them (OverrideParameters), so
// that two implementations can run the very same GEMM kernels.
#include <clblast.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "client.h"

using namespace cl2vk::clients;

namespace {

constexpr const char* kUsage =
    "cl2vk-client-clblast --bench sgemm|saxpy|sdot --shape N|MxNxK [--runs R]"
    " [--params-out FILE] [--params-in FILE]";

// The kernels a single-precision GEMM may build, whose parameters --params-in/--params-out carry:
// the indirect kernel and the helpers that pad, copy and transpose its operands, the direct
// kernel, and the routine's choice between the two (GemmRoutine's XGEMM_MIN_INDIRECT_SIZE).
constexpr const char* kGemmKernels[] = {"Xgemm",     "XgemmDirect",  "Copy",       "Pad",
                                        "Transpose", "Padtranspose", "GemmRoutine"};

std::string statusText(const char* routine, clblast::StatusCode status) {
  return std::string(routine) + " returned CLBlast status " + std::to_string(static_cast<int>(status)) +
         (status == clblast::StatusCode::kOpenCLBuildProgramFailure ? " (kernel build failed)" : "");
}

// "Kernel NAME=VALUE NAME=VALUE ..." per line.
std::string writeParameters(cl_device_id device, const std::string& path) {
  std::ofstream file(path);
  for (const char* kernel : kGemmKernels) {
    std::unordered_map<std::string, size_t> parameters;
    clblast::StatusCode status = clblast::RetrieveParameters(device, kernel, clblast::Precision::kSingle, parameters);
    if (status != clblast::StatusCode::kSuccess) {
      return statusText((std::string("RetrieveParameters(") + kernel + ")").c_str(), status);
    }
    // Sorted, so that the file reads the same from run to run.
    std::map<std::string, size_t> sorted(parameters.begin(), parameters.end());
    file << kernel;
    for (const auto& [name, value] : sorted) file << ' ' << name << '=' << value;
    file << '\n';
  }
  return file ? "" : "cannot write " + path;
}

std::string overrideParameters(cl_device_id device, const std::string& path) {
  std::ifstream file(path);
  if (!file) return "cannot read " + path;
  std::string line;
  while (std::getline(file, line)) {
    std::istringstream words(line);
    std::string kernel, word;
    if (!(words >> kernel)) continue;
    std::unordered_map<std::string, size_t> parameters;
    while (words >> word) {
      size_t equals = word.find('=');
      if (equals == std::string::npos) return "bad parameter '" + word + "' in " + path;
      parameters[word.substr(0, equals)] = std::stoull(word.substr(equals + 1));
    }
    clblast::StatusCode status = clblast::OverrideParameters(device, kernel, clblast::Precision::kSingle, parameters);
    if (status != clblast::StatusCode::kSuccess) {
      return statusText(("OverrideParameters(" + kernel + ")").c_str(), status);
    }
  }
  return "";
}

void sgemm(const Options& options, Session& session, Result& result) {
  size_t m = options.shape[0];
  size_t n = options.shape.size() > 1 ? options.shape[1] : m;
  size_t k = options.shape.size() > 2 ? options.shape[2] : m;
  result.shape = shapeText({m, n, k});
  result.metric = "GFLOP/s";
  result.workPerCall = 2.0 * m * n * k;
  // Beyond 2^30 multiply-adds the CPU checks 2^16 entries at pseudo-random positions.
  bool everyEntry = double(m) * n * k <= double(1u << 30);
  result.check = std::string(everyEntry ? "every entry" : "65536 sampled entries") +
                 ": |C - C_cpu| <= 2^-16 * sum_k |A_ik B_kj| (C_cpu in double)";
  std::vector<float> a = uniformFloats(m * k, 1), b = uniformFloats(k * n, 2), c(m * n);
  cl_mem aBuffer = session.buffer(a.size() * 4, a.data());
  cl_mem bBuffer = session.buffer(b.size() * 4, b.data());
  cl_mem cBuffer = session.buffer(c.size() * 4, nullptr);
  if (!session.ok()) {
    result.error = session.error();
    return;
  }
  cl_command_queue queue = session.queue();
  result.timing = timeCalls(queue, options.runs, [&]() -> std::string {
    clblast::StatusCode status =
        clblast::Gemm<float>(clblast::Layout::kRowMajor, clblast::Transpose::kNo, clblast::Transpose::kNo, m, n, k,
                             1.0f, aBuffer, 0, k, bBuffer, 0, n, 0.0f, cBuffer, 0, n, &queue, nullptr);
    return status == clblast::StatusCode::kSuccess ? "" : statusText("Gemm<float>", status);
  });
  if (!result.timing.error.empty() || !session.read(cBuffer, c.size() * 4, c.data())) {
    result.error = result.timing.error.empty() ? session.error() : result.timing.error;
    return;
  }
  // B transposed, so that the CPU walks both operands along rows.
  std::vector<float> bTransposed(k * n);
  for (size_t p = 0; p < k; ++p) {
    for (size_t j = 0; j < n; ++j) bTransposed[j * k + p] = b[p * n + j];
  }
  std::mt19937_64 positions(3);
  size_t checks = everyEntry ? m * n : 65536;
  for (size_t check = 0; check < checks; ++check) {
    size_t entry = everyEntry ? check : positions() % (m * n);
    size_t i = entry / n, j = entry % n;
    double sum = 0, magnitude = 0;
    for (size_t p = 0; p < k; ++p) {
      double product = double(a[i * k + p]) * bTransposed[j * k + p];
      sum += product;
      magnitude += std::fabs(product);
    }
    if (std::fabs(c[entry] - sum) > std::ldexp(magnitude, -16)) {
      char text[160];
      std::snprintf(text, sizeof text, "C[%zu][%zu] = %.9g, the CPU gives %.9g", i, j, c[entry], sum);
      result.error = text;
      return;
    }
  }
  result.verified = true;
}

void saxpy(const Options& options, Session& session, Result& result) {
  size_t n = options.shape[0];
  result.shape = shapeText({n});
  result.metric = "GB/s";
  result.workPerCall = 12.0 * n;  // x and y read, y written
  result.check =
      "y += 0.75x replayed on the CPU in float for every call: |y - y_cpu| <= "
      "calls * 2^-22 * (|y_cpu| + 1)";
  const float alpha = 0.75f;
  std::vector<float> x = uniformFloats(n, 4), y = uniformFloats(n, 5);
  cl_mem xBuffer = session.buffer(n * 4, x.data());
  cl_mem yBuffer = session.buffer(n * 4, y.data());
  if (!session.ok()) {
    result.error = session.error();
    return;
  }
  cl_command_queue queue = session.queue();
  result.timing = timeCalls(queue, options.runs, [&]() -> std::string {
    clblast::StatusCode status = clblast::Axpy<float>(n, alpha, xBuffer, 0, 1, yBuffer, 0, 1, &queue, nullptr);
    return status == clblast::StatusCode::kSuccess ? "" : statusText("Axpy<float>", status);
  });
  std::vector<float> device(n);
  if (!result.timing.error.empty() || !session.read(yBuffer, n * 4, device.data())) {
    result.error = result.timing.error.empty() ? session.error() : result.timing.error;
    return;
  }
  // Every call (the warm-up included) added alpha * x once more.
  int calls = options.runs + 1;
  for (size_t i = 0; i < n; ++i) {
    float expected = y[i];
    for (int call = 0; call < calls; ++call) expected = alpha * x[i] + expected;
    if (std::fabs(device[i] - expected) > calls * std::ldexp(std::fabs(expected) + 1, -22)) {
      char text[160];
      std::snprintf(text, sizeof text, "y[%zu] = %.9g, the CPU gives %.9g", i, device[i], expected);
      result.error = text;
      return;
    }
  }
  result.verified = true;
}

void sdot(const Options& options, Session& session, Result& result) {
  size_t n = options.shape[0];
  result.shape = shapeText({n});
  result.metric = "GB/s";
  result.workPerCall = 8.0 * n;
  // Integers in {-2..2}: products and every partial sum of 2^26 of them stay far below 2^24, so
  // any summation order gives the exact integer.
  result.check = "exact (inputs are integers in [-2, 2])";
  std::vector<float> x = smallIntegerFloats(n, 6), y = smallIntegerFloats(n, 7);
  cl_mem xBuffer = session.buffer(n * 4, x.data());
  cl_mem yBuffer = session.buffer(n * 4, y.data());
  cl_mem dotBuffer = session.buffer(4, nullptr);
  if (!session.ok()) {
    result.error = session.error();
    return;
  }
  cl_command_queue queue = session.queue();
  result.timing = timeCalls(queue, options.runs, [&]() -> std::string {
    clblast::StatusCode status = clblast::Dot<float>(n, dotBuffer, 0, xBuffer, 0, 1, yBuffer, 0, 1, &queue, nullptr);
    return status == clblast::StatusCode::kSuccess ? "" : statusText("Dot<float>", status);
  });
  float dot = 0;
  if (!result.timing.error.empty() || !session.read(dotBuffer, 4, &dot)) {
    result.error = result.timing.error.empty() ? session.error() : result.timing.error;
    return;
  }
  int64_t expected = 0;
  for (size_t i = 0; i < n; ++i) expected += int64_t(x[i]) * int64_t(y[i]);
  if (dot != float(expected)) {
    result.error = "dot = " + std::to_string(dot) + ", the CPU gives " + std::to_string(expected);
    return;
  }
  result.verified = true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options = parseOptions(argc, argv, kUsage);
  if (options.bench != "sgemm" && options.bench != "saxpy" && options.bench != "sdot") {
    std::fprintf(stderr, "unknown --bench %s\nusage: %s\n", options.bench.c_str(), kUsage);
    return 2;
  }
  return runClient(options, "clblast", [&](const Device& device, Session& session, Result& result) {
    if (!options.paramsOut.empty()) result.error = writeParameters(device.device, options.paramsOut);
    if (result.error.empty() && !options.paramsIn.empty()) {
      result.error = overrideParameters(device.device, options.paramsIn);
    }
    if (!result.error.empty()) return;
    if (options.bench == "sgemm") {
      sgemm(options, session, result);
    } else if (options.bench == "saxpy") {
      saxpy(options, session, result);
    } else {
      sdot(options, session, result);
    }
  });
}
