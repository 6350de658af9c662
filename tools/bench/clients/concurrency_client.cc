// Independent kernels at once (issue 27): two launches of a kernel that keeps --shape GROUPSxSTEPS
// work-groups of 256 work-items busy for STEPS dependent steps x = x * x + i each (a chain no
// compiler can shorten, unlike a linear recurrence, whose unrolled steps fold into one; GROUPS about
// half the device's multiprocessors: each launch fills half the GPU), each on a buffer of its own,
// enqueued by one of
//   serial        one in-order queue: the second launch starts after the first
//   two-queues    one in-order queue each, both flushed, then both finished
//   out-of-order  one out-of-order queue, no event between them
// Each call ends when both launches have finished (clFinish on every queue used), timed on the host
// clock; Gop/s counts the multiply-adds of both launches, so two-queues or out-of-order over serial
// is how much the device ran them at once (2 at most). Every call's results are checked: a sample
// of work-items of each launch against the same arithmetic on the CPU.
#include <cstdio>

#include "client.h"

using namespace cl2vk::clients;

namespace {

constexpr const char* kUsage =
    "cl2vk-client-concurrency --bench serial|two-queues|out-of-order --shape GROUPSxSTEPS [--runs R]";

constexpr const char* kSource = R"(
kernel void spin(global uint* out, uint steps, uint seed) {
  uint x = (uint)get_global_id(0) ^ seed;
  for (uint i = 0; i < steps; ++i) x = x * x + i;
  out[get_global_id(0)] = x;
}
)";

constexpr size_t kLocal = 256;
constexpr cl_uint kSeeds[2] = {0x1234u, 0xabcd0u};

cl_uint spun(cl_uint item, cl_uint steps, cl_uint seed) {
  cl_uint x = item ^ seed;
  for (cl_uint i = 0; i < steps; ++i) x = x * x + i;
  return x;
}

void concurrency(const Options& options, const Device& picked, Session& session, Result& result) {
  result.metric = "Gop/s";
  result.check = "a sample of 64 work-items per launch exactly";
  const std::string& bench = options.bench;
  if (options.shape.size() != 2 || options.shape[0] == 0 || options.shape[1] == 0) {
    result.error = std::string("--shape must be GROUPSxSTEPS\nusage: ") + kUsage;
    return;
  }
  if (bench != "serial" && bench != "two-queues" && bench != "out-of-order") {
    result.error = "unknown --bench " + bench + "\nusage: " + kUsage;
    return;
  }
  const size_t items = options.shape[0] * kLocal;
  const cl_uint steps = static_cast<cl_uint>(options.shape[1]);
  result.workPerCall = 2.0 * static_cast<double>(items) * steps;

  cl_context context = session.context();
  std::string error;
  cl_int status = CL_SUCCESS;
  // The queues the launches go to: the session's, another in-order one, or an out-of-order one.
  cl_command_queue queues[2] = {session.queue(), session.queue()};
  cl_command_queue made = nullptr;
  if (error.empty() && bench != "serial") {
    cl_command_queue_properties properties = bench == "out-of-order" ? CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE : 0;
    made = clCreateCommandQueue(context, picked.device, properties, &status);
    error = failure("clCreateCommandQueue", status);
    queues[1] = made;
    if (bench == "out-of-order") queues[0] = made;
  }
  cl_mem out[2] = {session.buffer(items * sizeof(cl_uint), nullptr), session.buffer(items * sizeof(cl_uint), nullptr)};
  if (error.empty() && (!out[0] || !out[1])) error = session.error();

  cl_program program = nullptr;
  cl_kernel kernels[2] = {nullptr, nullptr};
  if (error.empty()) program = buildProgram(context, kSource, error);
  for (int k = 0; k < 2 && error.empty(); ++k) {
    kernels[k] = clCreateKernel(program, "spin", &status);
    error = failure("clCreateKernel", status);
    if (error.empty()) error = failure("clSetKernelArg", clSetKernelArg(kernels[k], 0, sizeof out[k], &out[k]));
    if (error.empty()) error = failure("clSetKernelArg", clSetKernelArg(kernels[k], 1, sizeof steps, &steps));
    if (error.empty()) error = failure("clSetKernelArg", clSetKernelArg(kernels[k], 2, sizeof kSeeds[k], &kSeeds[k]));
  }

  Call call = [&] {
    for (int k = 0; k < 2; ++k) {
      std::string failed =
          failure("clEnqueueNDRangeKernel",
                  clEnqueueNDRangeKernel(queues[k], kernels[k], 1, nullptr, &items, &kLocal, 0, nullptr, nullptr));
      if (failed.empty()) failed = failure("clFlush", clFlush(queues[k]));
      if (!failed.empty()) return failed;
    }
    for (cl_command_queue queue : queues) {
      std::string failed = failure("clFinish", clFinish(queue));
      if (!failed.empty()) return failed;
    }
    return std::string();
  };
  if (error.empty()) {
    result.timing = timeCalls(session.queue(), options.runs, call);
    error = result.timing.error;
  }
  std::vector<cl_uint> host(items);
  for (int k = 0; k < 2 && error.empty(); ++k) {
    if (!session.read(out[k], items * sizeof(cl_uint), host.data())) {
      error = session.error();
      break;
    }
    for (size_t sample = 0; sample < 64 && error.empty(); ++sample) {
      size_t item = sample * (items - 1) / 63;
      cl_uint expected = spun(static_cast<cl_uint>(item), steps, kSeeds[k]);
      if (host[item] != expected) {
        error = "launch " + std::to_string(k) + ", work-item " + std::to_string(item) + ": " +
                std::to_string(host[item]) + ", expected " + std::to_string(expected);
      }
    }
  }
  for (cl_kernel kernel : kernels) {
    if (kernel) clReleaseKernel(kernel);
  }
  if (program) clReleaseProgram(program);
  if (made) clReleaseCommandQueue(made);
  result.error = error;
  result.verified = error.empty();
}

}  // namespace

int main(int argc, char** argv) {
  Options options = parseOptions(argc, argv, kUsage);
  return runClient(options, "concurrency", [&](const Device& device, Session& session, Result& result) {
    concurrency(options, device, session, result);
  });
}
