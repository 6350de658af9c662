// The OpenCL entry points that enqueue kernels (section 5.10 of the OpenCL 3.0 API specification).
// clEnqueueNDRangeKernel checks its arguments on the caller's thread (the error codes of the
// specification) and queues the launch for the queue's worker (queue.h), which may batch it with
// the launches next to it. No device runs native
// kernels (clEnqueueNativeKernel is in api_unsupported.cc).
#include "runtime/api_util.h"
#include "runtime/kernel.h"
#include "runtime/memory.h"
#include "runtime/queue.h"

using namespace cl2vk::runtime;
using cl2vk::Expected;

namespace {

// The work-group size checks of clEnqueueNDRangeKernel that do not need the translated kernel.
cl_int checkWorkSizes(const Kernel& kernel, Device& device, cl_uint dimensions, const size_t* offset,
                      const size_t* global, const size_t* local, bool uniform) {
  const auto& limits = device.info().limits;
  size_t items = 1;
  for (cl_uint d = 0; d < dimensions; ++d) {
    if (global[d] > UINT32_MAX) return CL_INVALID_GLOBAL_WORK_SIZE;
    if (offset != nullptr && (offset[d] > UINT32_MAX || global[d] + offset[d] > (size_t{1} << 32)))
      return CL_INVALID_GLOBAL_OFFSET;
    if (local == nullptr) continue;
    if (local[d] == 0 || local[d] > limits.maxComputeWorkGroupSize[d]) return CL_INVALID_WORK_ITEM_SIZE;
    items *= local[d];
    if (uniform && global[d] % local[d] != 0) return CL_INVALID_WORK_GROUP_SIZE;
  }
  const auto& required = kernel.reflection().requiredWorkGroupSize;
  if (local != nullptr) {
    if (items > device.maxWorkGroupSize()) return CL_INVALID_WORK_GROUP_SIZE;
    if (required) {
      for (cl_uint d = 0; d < 3; ++d) {
        if ((*required)[d] != (d < dimensions ? local[d] : 1)) return CL_INVALID_WORK_GROUP_SIZE;
      }
    }
  }
  return CL_SUCCESS;
}

// The arguments of a launch on `device`: buffer addresses are resolved there.
Expected<std::vector<cl2vk::launch::KernelArg>> launchArguments(const std::vector<ArgumentValue>& values,
                                                                Device& device) {
  std::vector<cl2vk::launch::KernelArg> args;
  for (const ArgumentValue& value : values) {
    cl2vk::launch::KernelArg arg;
    if (value.localSize > 0) {
      arg = cl2vk::launch::KernelArg::local(value.localSize);
    } else if (value.image) {
      Expected<std::vector<std::byte>> record = value.memory->imageRecord(device);
      if (!record) return record.error();
      arg = cl2vk::launch::KernelArg::raw(record->data(), record->size());
    } else if (!value.bytes.empty()) {
      arg = cl2vk::launch::KernelArg::raw(value.bytes.data(), value.bytes.size());
    } else {
      arg.kind = cl2vk::launch::KernelArg::Kind::kBuffer;
      if (value.memory) {
        Expected<Memory::Location> location = value.memory->locate(device);
        if (!location) return location.error();
        arg = cl2vk::launch::KernelArg::buffer(*location->buffer, location->offset);
      }
    }
    args.push_back(std::move(arg));
  }
  return args;
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueNDRangeKernel(cl_command_queue command_queue, cl_kernel kernel,
                                                       cl_uint work_dim, const size_t* global_work_offset,
                                                       const size_t* global_work_size, const size_t* local_work_size,
                                                       cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                       cl_event* event) {
  Enqueue enqueue;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &enqueue);
      status != CL_SUCCESS)
    return status;
  std::shared_ptr<Kernel> found = Kernel::find(kernel);
  if (!found) return CL_INVALID_KERNEL;
  if (&found->program().context() != &enqueue.queue->context()) return CL_INVALID_CONTEXT;
  Device& device = enqueue.queue->device();
  if (!found->program().translation(&device)) return CL_INVALID_PROGRAM_EXECUTABLE;
  if (work_dim < 1 || work_dim > 3) return CL_INVALID_WORK_DIMENSION;
  // Since OpenCL 2.1 a NULL global size, like a zero one, enqueues a launch in which nothing runs.
  static constexpr size_t kNoWorkItems[3] = {0, 0, 0};
  if (global_work_size == nullptr) global_work_size = kNoWorkItems;
  if (found->firstUnsetArgument()) return CL_INVALID_KERNEL_ARGS;
  if (cl_int status = checkWorkSizes(*found, device, work_dim, global_work_offset, global_work_size, local_work_size,
                                     found->program().uniformWorkGroups(&device));
      status != CL_SUCCESS)
    return status;
  if (found->localArgumentBytes() + found->reflection().workgroupBytes >
      device.info().limits.maxComputeSharedMemorySize)
    return CL_OUT_OF_RESOURCES;

  cl2vk::launch::NDRange range;
  range.dimensions = work_dim;
  range.uniformWorkGroups = found->program().uniformWorkGroups(&device);
  bool empty = false;
  for (cl_uint d = 0; d < work_dim; ++d) {
    range.globalSize[d] = global_work_size[d];
    range.globalOffset[d] = global_work_offset != nullptr ? global_work_offset[d] : 0;
    empty |= global_work_size[d] == 0;  // allowed since OpenCL 2.1: nothing runs
  }
  if (local_work_size != nullptr) {
    std::array<uint32_t, 3> local{1, 1, 1};
    for (cl_uint d = 0; d < work_dim; ++d) local[d] = static_cast<uint32_t>(local_work_size[d]);
    range.localSize = local;
  }
  // The launch holds its buffers until it has run. A buffer released since it was set is gone.
  std::optional<std::vector<ArgumentValue>> held = found->arguments();
  if (!held) {
    enqueue.queue->context().report("clEnqueueNDRangeKernel: kernel '" + found->name() +
                                    "': a buffer argument was released after clSetKernelArg");
    return CL_INVALID_KERNEL_ARGS;
  }
  std::vector<ArgumentValue> arguments = std::move(*held);
  std::shared_ptr<cl2vk::vulkan::Buffer> globals = found->program().globalVariables(&device);
  auto work = [found, &device, range, arguments = std::move(arguments), globals, empty]() -> PreparedKernel {
    if (empty) return PreparedKernel{};
    std::string what = "kernel '" + found->name() + "'";
    Expected<cl2vk::launch::LaunchableKernel*> launcher = found->launcher(device);
    if (!launcher) return PreparedKernel{commandFailure(what, launcher.error()), std::nullopt};
    Expected<std::vector<cl2vk::launch::KernelArg>> args = launchArguments(arguments, device);
    if (!args)
      return PreparedKernel{commandFailure(what, args.error(), CL_MEM_OBJECT_ALLOCATION_FAILURE), std::nullopt};
    Expected<cl2vk::launch::PreparedLaunch> prepared =
        (*launcher)->prepare(range, *args, globals ? globals->deviceAddress() : 0);
    if (!prepared) return PreparedKernel{commandFailure(what, prepared.error()), std::nullopt};
    return PreparedKernel{CommandOutcome{}, std::move(*prepared)};
  };
  returnEvent(enqueue.queue->enqueueKernel(std::move(enqueue.waitList), std::move(work)), event);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueTask(cl_command_queue command_queue, cl_kernel kernel,
                                              cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                              cl_event* event) {
  const size_t one = 1;
  return clEnqueueNDRangeKernel(command_queue, kernel, 1, nullptr, &one, &one, num_events_in_wait_list, event_wait_list,
                                event);
}

}  // extern "C"
