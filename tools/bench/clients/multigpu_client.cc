// Work split over several GPUs (issue 27): one context holding the first G GPUs of the platform
// that the client picks (--bench NAME-Ggpu, G = 1 or 2), one in-order queue per GPU, and each GPU
// given an equal part of
//   saxpy-Ggpu   y = a * x + y over --shape N floats (bandwidth-bound)
//   sgemm-Ggpu   C = A * B of --shape N: N x N floats, a 16 x 16 tiled kernel; each GPU computes
//                its rows of C from its rows of A and all of B
// Each GPU's part lives in buffers of its own, written once before the timing (so the timed calls
// move nothing between GPUs): a call enqueues every part, flushes every queue, then finishes them
// all, timed on the host clock. And
//   move-2gpu    one buffer of --shape N floats that GPU 0 and then GPU 1 add 1 to, the second
//                waiting for the first's event: each call moves the buffer to GPU 1 and back
//                (GB/s counts the two moves' bytes)
// The result is checked against the CPU: saxpy and move exactly (small integers, so every call's
// sum is exact), sgemm on 256 sampled entries within 1e-3 relative.
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "client.h"

using namespace cl2vk::clients;

namespace {

constexpr const char* kUsage =
    "cl2vk-client-multigpu --bench saxpy-1gpu|saxpy-2gpu|sgemm-1gpu|sgemm-2gpu|move-2gpu --shape N [--runs R]";

constexpr const char* kSource = R"(
kernel void increment(global float* values) { values[get_global_id(0)] += 1.0f; }

kernel void saxpy(float a, global const float* x, global float* y) {
  size_t i = get_global_id(0);
  y[i] = a * x[i] + y[i];
}

// C (rows x n) = A (rows x n) * B (n x n), n a multiple of 16.
kernel __attribute__((reqd_work_group_size(16, 16, 1)))
void sgemm(uint n, global const float* A, global const float* B, global float* C) {
  local float tileA[16][16], tileB[16][16];
  uint col = get_global_id(0), row = get_global_id(1);
  uint lx = get_local_id(0), ly = get_local_id(1);
  float sum = 0.0f;
  for (uint k = 0; k < n; k += 16) {
    tileA[ly][lx] = A[row * n + k + lx];
    tileB[ly][lx] = B[(k + ly) * n + col];
    barrier(CLK_LOCAL_MEM_FENCE);
    for (uint j = 0; j < 16; ++j) sum += tileA[ly][j] * tileB[j][lx];
    barrier(CLK_LOCAL_MEM_FENCE);
  }
  C[row * n + col] = sum;
}
)";

// The first `count` GPUs of `platform`, `first` among them first.
std::vector<cl_device_id> gpus(cl_platform_id platform, cl_device_id first, size_t count) {
  cl_uint total = 0;
  if (clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, 0, nullptr, &total) != CL_SUCCESS) total = 0;
  std::vector<cl_device_id> all(total);
  if (total > 0) clGetDeviceIDs(platform, CL_DEVICE_TYPE_GPU, total, all.data(), nullptr);
  std::vector<cl_device_id> chosen{first};
  for (cl_device_id device : all) {
    if (chosen.size() < count && device != first) chosen.push_back(device);
  }
  return chosen;
}

struct Part {
  cl_command_queue queue = nullptr;
  cl_kernel kernel = nullptr;
  std::vector<cl_mem> buffers;
};

// move-2gpu: one buffer, incremented on GPU 0 and then on GPU 1 in every call.
void move(const Options& options, const Device& picked, Result& result) {
  const size_t n = options.shape[0];
  result.metric = "GB/s";
  result.workPerCall = 2.0 * n * sizeof(float);
  result.check = "exactly";
  std::vector<cl_device_id> devices = gpus(picked.platform, picked.device, 2);
  if (devices.size() < 2) {
    result.error = "the platform has " + std::to_string(devices.size()) + " GPU(s); move-2gpu needs 2";
    return;
  }
  result.device = "2 x " + picked.deviceName;
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, 2, devices.data(), nullptr, nullptr, &status);
  std::string error = failure("clCreateContext", status);
  cl_command_queue queues[2] = {nullptr, nullptr};
  for (int g = 0; g < 2 && error.empty(); ++g) {
    queues[g] = clCreateCommandQueue(context, devices[g], 0, &status);
    error = failure("clCreateCommandQueue", status);
  }
  cl_program program = nullptr;
  cl_kernel kernel = nullptr;
  cl_mem values = nullptr;
  std::vector<float> host = smallIntegerFloats(n, 3);
  if (error.empty()) program = buildProgram(context, kSource, error);
  if (error.empty()) kernel = clCreateKernel(program, "increment", &status);
  if (error.empty()) error = failure("clCreateKernel", status);
  if (error.empty()) {
    values = clCreateBuffer(context, CL_MEM_READ_WRITE | CL_MEM_COPY_HOST_PTR, n * sizeof(float), host.data(), &status);
    error = failure("clCreateBuffer", status);
  }
  if (error.empty()) error = failure("clSetKernelArg", clSetKernelArg(kernel, 0, sizeof values, &values));
  Call call = [&] {
    cl_event first = nullptr;
    std::string failed = failure("clEnqueueNDRangeKernel", clEnqueueNDRangeKernel(queues[0], kernel, 1, nullptr, &n,
                                                                                  nullptr, 0, nullptr, &first));
    if (failed.empty()) failed = failure("clFlush", clFlush(queues[0]));
    if (failed.empty()) {
      failed = failure("clEnqueueNDRangeKernel",
                       clEnqueueNDRangeKernel(queues[1], kernel, 1, nullptr, &n, nullptr, 1, &first, nullptr));
    }
    if (first) clReleaseEvent(first);
    if (failed.empty()) failed = failure("clFinish", clFinish(queues[1]));
    if (failed.empty()) failed = failure("clFinish", clFinish(queues[0]));
    return failed;
  };
  if (error.empty()) {
    result.timing = timeCalls(queues[0], options.runs, call);
    error = result.timing.error;
  }
  std::vector<float> got(n);
  if (error.empty()) {
    error = failure("clEnqueueReadBuffer", clEnqueueReadBuffer(queues[0], values, CL_TRUE, 0, n * sizeof(float),
                                                               got.data(), 0, nullptr, nullptr));
  }
  const float added = 2.0f * (1 + options.runs);
  for (size_t i = 0; i < n && error.empty(); ++i) {
    if (got[i] != host[i] + added) {
      error = "move-2gpu: element " + std::to_string(i) + ": " + std::to_string(got[i]) + ", expected " +
              std::to_string(host[i] + added);
    }
  }
  if (values) clReleaseMemObject(values);
  if (kernel) clReleaseKernel(kernel);
  if (program) clReleaseProgram(program);
  for (cl_command_queue queue : queues) {
    if (queue) clReleaseCommandQueue(queue);
  }
  if (context) clReleaseContext(context);
  result.error = error;
  result.verified = error.empty();
}

void multigpu(const Options& options, const Device& picked, Result& result) {
  const std::string& bench = options.bench;
  size_t dash = bench.find('-');
  std::string kind = bench.substr(0, dash);
  size_t count = dash == std::string::npos ? 0 : static_cast<size_t>(std::atoi(bench.c_str() + dash + 1));
  if (kind == "move" && count == 2 && options.shape.size() == 1) {
    move(options, picked, result);
    return;
  }
  if ((kind != "saxpy" && kind != "sgemm") || (count != 1 && count != 2) || options.shape.size() != 1) {
    result.error = "unknown --bench " + bench + " or --shape\nusage: " + kUsage;
    return;
  }
  const size_t n = options.shape[0];
  if (n % (16 * count) != 0) {
    result.error = "--shape must be a multiple of " + std::to_string(16 * count);
    return;
  }
  bool gemm = kind == "sgemm";
  result.metric = gemm ? "GFLOP/s" : "GB/s";
  result.workPerCall = gemm ? 2.0 * n * n * n : 12.0 * n;
  result.check = gemm ? "256 sampled entries within 1e-3 relative to the sum of magnitudes" : "exactly";

  std::vector<cl_device_id> devices = gpus(picked.platform, picked.device, count);
  if (devices.size() < count) {
    result.error =
        "the platform has " + std::to_string(devices.size()) + " GPU(s); " + bench + " needs " + std::to_string(count);
    return;
  }
  result.device = std::to_string(count) + " x " + picked.deviceName;
  cl_int status = CL_SUCCESS;
  cl_context context = clCreateContext(nullptr, static_cast<cl_uint>(count), devices.data(), nullptr, nullptr, &status);
  std::string error = failure("clCreateContext", status);
  cl_program program = nullptr;
  if (error.empty()) program = buildProgram(context, kSource, error);

  // Inputs: small integers, so that saxpy's sums are exact.
  const size_t rows = gemm ? n / count : 0, length = gemm ? 0 : n / count;
  std::vector<float> a = smallIntegerFloats(gemm ? n * n : n, 1), b = smallIntegerFloats(gemm ? n * n : n, 2);
  std::vector<Part> parts(count);
  auto buffer = [&](size_t bytes, const float* data) -> cl_mem {
    cl_mem made = clCreateBuffer(context, CL_MEM_READ_WRITE | (data ? CL_MEM_COPY_HOST_PTR : 0), bytes,
                                 const_cast<float*>(data), &status);
    if (error.empty()) error = failure("clCreateBuffer", status);
    return made;
  };
  for (size_t g = 0; g < count && error.empty(); ++g) {
    Part& part = parts[g];
    part.queue = clCreateCommandQueue(context, devices[g], 0, &status);
    error = failure("clCreateCommandQueue", status);
    if (error.empty()) part.kernel = clCreateKernel(program, kind.c_str(), &status);
    if (error.empty()) error = failure("clCreateKernel", status);
    if (!error.empty()) break;
    if (gemm) {
      cl_uint size = static_cast<cl_uint>(n);
      part.buffers = {buffer(rows * n * sizeof(float), a.data() + g * rows * n),
                      buffer(n * n * sizeof(float), b.data()), buffer(rows * n * sizeof(float), nullptr)};
      if (error.empty()) error = failure("clSetKernelArg", clSetKernelArg(part.kernel, 0, sizeof size, &size));
    } else {
      float factor = 1.0f;
      part.buffers = {buffer(length * sizeof(float), a.data() + g * length),
                      buffer(length * sizeof(float), b.data() + g * length)};
      if (error.empty()) error = failure("clSetKernelArg", clSetKernelArg(part.kernel, 0, sizeof factor, &factor));
    }
    for (size_t i = 0; i < part.buffers.size() && error.empty(); ++i) {
      error = failure("clSetKernelArg",
                      clSetKernelArg(part.kernel, static_cast<cl_uint>(i + 1), sizeof(cl_mem), &part.buffers[i]));
    }
    // Each part's buffers on its GPU before the timing: one call's worth of work does that.
    if (error.empty()) {
      error = failure("clEnqueueMigrateMemObjects",
                      clEnqueueMigrateMemObjects(part.queue, static_cast<cl_uint>(part.buffers.size()),
                                                 part.buffers.data(), 0, 0, nullptr, nullptr));
    }
  }
  Call call = [&] {
    for (Part& part : parts) {
      const size_t global[2] = {gemm ? n : length, gemm ? rows : 1}, local[2] = {16, 16};
      std::string failed = failure("clEnqueueNDRangeKernel",
                                   clEnqueueNDRangeKernel(part.queue, part.kernel, gemm ? 2 : 1, nullptr, global,
                                                          gemm ? local : nullptr, 0, nullptr, nullptr));
      if (failed.empty()) failed = failure("clFlush", clFlush(part.queue));
      if (!failed.empty()) return failed;
    }
    for (Part& part : parts) {
      std::string failed = failure("clFinish", clFinish(part.queue));
      if (!failed.empty()) return failed;
    }
    return std::string();
  };
  if (error.empty()) {
    result.timing = timeCalls(parts[0].queue, options.runs, call);
    error = result.timing.error;
  }
  // The check: what every part holds after the warm-up call and the timed ones.
  const double calls = 1.0 + options.runs;
  for (size_t g = 0; g < count && error.empty(); ++g) {
    Part& part = parts[g];
    std::vector<float> got(gemm ? rows * n : length);
    error = failure("clEnqueueReadBuffer",
                    clEnqueueReadBuffer(part.queue, part.buffers.back(), CL_TRUE, 0, got.size() * sizeof(float),
                                        got.data(), 0, nullptr, nullptr));
    for (size_t s = 0; s < (gemm ? 256 : got.size()) && error.empty(); ++s) {
      size_t at = gemm ? (s * 7919) % got.size() : s;
      double expected = 0, scale = 0;
      if (gemm) {
        size_t row = g * rows + at / n, col = at % n;
        for (size_t k = 0; k < n; ++k) {
          expected += static_cast<double>(a[row * n + k]) * b[k * n + col];
          scale += std::fabs(static_cast<double>(a[row * n + k]) * b[k * n + col]);
        }
      } else {
        expected = b[g * length + at] + calls * a[g * length + at];
      }
      if (std::fabs(got[at] - expected) > (gemm ? 1e-3 * std::max(scale, 1.0) : 0.0)) {
        error = bench + ": GPU " + std::to_string(g) + ", element " + std::to_string(at) + ": " +
                std::to_string(got[at]) + ", expected " + std::to_string(expected);
      }
    }
  }
  for (Part& part : parts) {
    for (cl_mem made : part.buffers) {
      if (made) clReleaseMemObject(made);
    }
    if (part.kernel) clReleaseKernel(part.kernel);
    if (part.queue) clReleaseCommandQueue(part.queue);
  }
  if (program) clReleaseProgram(program);
  if (context) clReleaseContext(context);
  result.error = error;
  result.verified = error.empty();
}

}  // namespace

int main(int argc, char** argv) {
  Options options = parseOptions(argc, argv, kUsage);
  return runClient(options, "multigpu",
                   [&](const Device& device, Session&, Result& result) { multigpu(options, device, result); });
}
