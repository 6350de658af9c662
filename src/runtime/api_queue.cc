// The OpenCL entry points for command queues (section 5.1 of the OpenCL 3.0 API specification) and
// for flushing and finishing them (5.15). No device has device-side queues
// (clSetDefaultDeviceCommandQueue is in api_unsupported.cc).
#include "runtime/api_util.h"
#include "runtime/queue.h"

using namespace cl2vk::runtime;

namespace {

cl_command_queue createQueue(cl_context context, cl_device_id device, cl_command_queue_properties properties,
                             std::vector<cl_queue_properties> list, cl_int* errcode_ret) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return withError<cl_command_queue>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  Device* foundDevice = Device::find(device);
  if (foundDevice == nullptr || !found->hasDevice(foundDevice))
    return withError<cl_command_queue>(errcode_ret, CL_INVALID_DEVICE, nullptr);
  constexpr cl_command_queue_properties kKnown = CL_QUEUE_OUT_OF_ORDER_EXEC_MODE_ENABLE | CL_QUEUE_PROFILING_ENABLE |
                                                 CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT;
  if ((properties & ~kKnown) != 0) return withError<cl_command_queue>(errcode_ret, CL_INVALID_VALUE, nullptr);
  if (properties & (CL_QUEUE_ON_DEVICE | CL_QUEUE_ON_DEVICE_DEFAULT))
    return withError<cl_command_queue>(errcode_ret, CL_INVALID_QUEUE_PROPERTIES, nullptr);
  if (cl_int lost = found->checkNotLost("clCreateCommandQueue"); lost != CL_SUCCESS)
    return withError<cl_command_queue>(errcode_ret, lost, nullptr);
  auto queue = std::shared_ptr<CommandQueue>(new CommandQueue(found, *foundDevice, properties, std::move(list)));
  return withError(errcode_ret, CL_SUCCESS, CommandQueue::publish(queue));
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueueWithProperties(cl_context context, cl_device_id device,
                                                                             const cl_queue_properties* properties,
                                                                             cl_int* errcode_ret) {
  cl_command_queue_properties bits = 0;
  std::vector<cl_queue_properties> list;
  if (properties != nullptr) {
    bool bitsSeen = false;
    for (const cl_queue_properties* p = properties; *p != 0; p += 2) {
      if (p[0] == CL_QUEUE_PROPERTIES && !bitsSeen) {
        bits = static_cast<cl_command_queue_properties>(p[1]);
        bitsSeen = true;
      } else if (p[0] == CL_QUEUE_SIZE) {
        return withError<cl_command_queue>(errcode_ret, CL_INVALID_QUEUE_PROPERTIES, nullptr);
      } else {
        return withError<cl_command_queue>(errcode_ret, CL_INVALID_VALUE, nullptr);
      }
      list.push_back(p[0]);
      list.push_back(p[1]);
    }
    list.push_back(0);
  }
  return createQueue(context, device, bits, std::move(list), errcode_ret);
}

CL_API_ENTRY cl_command_queue CL_API_CALL clCreateCommandQueue(cl_context context, cl_device_id device,
                                                               cl_command_queue_properties properties,
                                                               cl_int* errcode_ret) {
  return createQueue(context, device, properties, {}, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clRetainCommandQueue(cl_command_queue command_queue) {
  return retainObject<CommandQueue>(command_queue, CL_INVALID_COMMAND_QUEUE);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseCommandQueue(cl_command_queue command_queue) {
  return releaseObject<CommandQueue>(command_queue, CL_INVALID_COMMAND_QUEUE);
}

CL_API_ENTRY cl_int CL_API_CALL clGetCommandQueueInfo(cl_command_queue command_queue, cl_command_queue_info param_name,
                                                      size_t param_value_size, void* param_value,
                                                      size_t* param_value_size_ret) {
  return objectInfo<CommandQueue>(command_queue, CL_INVALID_COMMAND_QUEUE, param_name, param_value_size, param_value,
                                  param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clSetCommandQueueProperty(cl_command_queue command_queue, cl_command_queue_properties,
                                                          cl_bool, cl_command_queue_properties*) {
  // Deprecated since OpenCL 1.1: properties are set when the queue is created.
  return CommandQueue::find(command_queue) ? CL_INVALID_OPERATION : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  std::shared_ptr<CommandQueue> found = CommandQueue::find(command_queue);
  if (!found) return CL_INVALID_COMMAND_QUEUE;
  // Batched launches start (queue.h); other commands start as soon as their events allow.
  found->flush();
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  std::shared_ptr<CommandQueue> found = CommandQueue::find(command_queue);
  if (!found) return CL_INVALID_COMMAND_QUEUE;
  found->finish();
  // Its commands have ended; on a lost device they failed (their events say so).
  return found->context().lost() ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

}  // extern "C"
