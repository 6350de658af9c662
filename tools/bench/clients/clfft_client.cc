// clFFT as a user calls it (Debian's libclFFT, linked dynamically): a single-precision complex
// forward transform, 1D (--shape N) or 2D (--shape NXxNY), out of place, on the device
// pickDevice() finds; the plan is baked before the warm-up call, then timed calls each end with
// clFinish. The last output is checked against a double-precision FFT on the CPU.
#include <clFFT.h>

#include <cmath>
#include <complex>
#include <cstdio>

#include "client.h"

using namespace cl2vk::clients;

namespace {

constexpr const char* kUsage = "cl2vk-client-clfft --bench fft --shape N|NXxNY [--runs R]";

using Complex = std::complex<double>;

// In-place iterative radix-2 FFT over `count` points `stride` apart, with e^(-2 pi i jk / count)
// like clFFT's forward direction. `count` is a power of two.
void cpuFft(Complex* data, size_t count, size_t stride) {
  for (size_t i = 1, j = 0; i < count; ++i) {
    size_t bit = count >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j |= bit;
    if (i < j) std::swap(data[i * stride], data[j * stride]);
  }
  const double pi = std::acos(-1.0);
  for (size_t length = 2; length <= count; length <<= 1) {
    for (size_t start = 0; start < count; start += length) {
      for (size_t t = 0; t < length / 2; ++t) {
        Complex twiddle = std::polar(1.0, -2 * pi * double(t) / double(length));
        Complex& even = data[(start + t) * stride];
        Complex& odd = data[(start + t + length / 2) * stride];
        Complex product = odd * twiddle;
        odd = even - product;
        even += product;
      }
    }
  }
}

std::string fftStatus(const char* call, clfftStatus status) {
  return std::string(call) + " returned clFFT status " + std::to_string(static_cast<int>(status));
}

bool isPowerOfTwo(size_t n) { return n != 0 && (n & (n - 1)) == 0; }

void fft(const Options& options, Session& session, Result& result) {
  size_t nx = options.shape[0];
  size_t ny = options.shape.size() > 1 ? options.shape[1] : 1;
  bool twoD = options.shape.size() > 1;
  if (!isPowerOfTwo(nx) || !isPowerOfTwo(ny) || options.shape.size() > 2) {
    result.error = "the CPU reference takes 1D or 2D powers of two";
    return;
  }
  size_t points = nx * ny;
  result.metric = "GFLOP/s";
  result.workPerCall = 5.0 * double(points) * std::log2(double(points));  // the usual 5 N log2 N
  result.check =
      "relative L2 error <= 1e-5 and every point within 1e-4 * max|X_cpu| "
      "(X_cpu: radix-2 FFT in double)";
  std::vector<float> input = uniformFloats(2 * points, 8);
  cl_mem inBuffer = session.buffer(input.size() * 4, input.data());
  cl_mem outBuffer = session.buffer(input.size() * 4, nullptr);
  if (!session.ok()) {
    result.error = session.error();
    return;
  }
  clfftSetupData setup;
  clfftStatus status = clfftInitSetupData(&setup);
  if (status == CLFFT_SUCCESS) status = clfftSetup(&setup);
  if (status != CLFFT_SUCCESS) {
    result.error = fftStatus("clfftSetup", status);
    return;
  }
  clfftPlanHandle plan = 0;
  size_t lengths[2] = {nx, ny};
  cl_command_queue queue = session.queue();
  status = clfftCreateDefaultPlan(&plan, session.context(), twoD ? CLFFT_2D : CLFFT_1D, lengths);
  if (status == CLFFT_SUCCESS) status = clfftSetPlanPrecision(plan, CLFFT_SINGLE);
  if (status == CLFFT_SUCCESS) {
    status = clfftSetLayout(plan, CLFFT_COMPLEX_INTERLEAVED, CLFFT_COMPLEX_INTERLEAVED);
  }
  if (status == CLFFT_SUCCESS) status = clfftSetResultLocation(plan, CLFFT_OUTOFPLACE);
  if (status == CLFFT_SUCCESS) status = clfftBakePlan(plan, 1, &queue, nullptr, nullptr);
  if (status != CLFFT_SUCCESS) {
    result.error = fftStatus("creating and baking the plan", status);
    clfftTeardown();
    return;
  }
  result.timing = timeCalls(queue, options.runs, [&]() -> std::string {
    clfftStatus s =
        clfftEnqueueTransform(plan, CLFFT_FORWARD, 1, &queue, 0, nullptr, nullptr, &inBuffer, &outBuffer, nullptr);
    return s == CLFFT_SUCCESS ? "" : fftStatus("clfftEnqueueTransform", s);
  });
  std::vector<float> output(2 * points);
  bool read = result.timing.error.empty() && session.read(outBuffer, output.size() * 4, output.data());
  clfftDestroyPlan(&plan);
  clfftTeardown();
  if (!read) {
    result.error = result.timing.error.empty() ? session.error() : result.timing.error;
    return;
  }
  std::vector<Complex> expected(points);
  for (size_t i = 0; i < points; ++i) expected[i] = Complex(input[2 * i], input[2 * i + 1]);
  for (size_t row = 0; row < ny; ++row) cpuFft(&expected[row * nx], nx, 1);
  if (twoD) {
    for (size_t column = 0; column < nx; ++column) cpuFft(&expected[column], ny, nx);
  }
  double errorSquares = 0, referenceSquares = 0, largest = 0, worst = 0;
  size_t worstAt = 0;
  for (size_t i = 0; i < points; ++i) {
    double error = std::abs(Complex(output[2 * i], output[2 * i + 1]) - expected[i]);
    errorSquares += error * error;
    referenceSquares += std::norm(expected[i]);
    largest = std::max(largest, std::abs(expected[i]));
    if (error > worst) worst = error, worstAt = i;
  }
  double relative = std::sqrt(errorSquares / referenceSquares);
  if (!(relative <= 1e-5) || !(worst <= 1e-4 * largest)) {
    char text[200];
    std::snprintf(text, sizeof text, "relative L2 error %.3g, worst point %zu off by %.3g (max |X_cpu| %.3g)", relative,
                  worstAt, worst, largest);
    result.error = text;
    return;
  }
  result.verified = true;
}

}  // namespace

int main(int argc, char** argv) {
  Options options = parseOptions(argc, argv, kUsage);
  if (options.bench != "fft") {
    std::fprintf(stderr, "unknown --bench %s\nusage: %s\n", options.bench.c_str(), kUsage);
    return 2;
  }
  return runClient(options, "clfft",
                   [&](const Device&, Session& session, Result& result) { fft(options, session, result); });
}
