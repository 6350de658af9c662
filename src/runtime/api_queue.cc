// The OpenCL entry points for command queues and events.
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
  return objectInfo<CommandQueue>(command_queue, CL_INVALID_COMMAND_QUEUE,
                                  param_name, param_value_size, param_value, param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clSetDefaultDeviceCommandQueue(cl_context context, cl_device_id, cl_command_queue) {
  // No device supports device-side queues.
  return Context::find(context) ? CL_INVALID_OPERATION : CL_INVALID_CONTEXT;
}

CL_API_ENTRY cl_int CL_API_CALL clFlush(cl_command_queue command_queue) {
  // Commands start as soon as they are enqueued and their events allow.
  return CommandQueue::find(command_queue) ? CL_SUCCESS : CL_INVALID_COMMAND_QUEUE;
}

CL_API_ENTRY cl_int CL_API_CALL clFinish(cl_command_queue command_queue) {
  std::shared_ptr<CommandQueue> found = CommandQueue::find(command_queue);
  if (!found) return CL_INVALID_COMMAND_QUEUE;
  found->finish();
  // Its commands have ended; on a lost device they failed (their events say so).
  return found->context().lost() ? CL_OUT_OF_RESOURCES : CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clWaitForEvents(cl_uint num_events, const cl_event* event_list) {
  if (num_events == 0 || event_list == nullptr) return CL_INVALID_VALUE;
  std::vector<std::shared_ptr<Event>> events;
  for (cl_uint i = 0; i < num_events; ++i) {
    std::shared_ptr<Event> event = Event::find(event_list[i]);
    if (!event) return CL_INVALID_EVENT;
    if (!events.empty() && &event->context() != &events.front()->context()) return CL_INVALID_CONTEXT;
    events.push_back(std::move(event));
  }
  bool failed = false;
  for (const std::shared_ptr<Event>& event : events) failed |= event->wait() < 0;
  return failed ? CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST : CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventInfo(cl_event event, cl_event_info param_name, size_t param_value_size,
                                               void* param_value, size_t* param_value_size_ret) {
  return objectInfo<Event>(event, CL_INVALID_EVENT, param_name, param_value_size, param_value, param_value_size_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clGetEventProfilingInfo(cl_event event, cl_profiling_info param_name,
                                                        size_t param_value_size, void* param_value,
                                                        size_t* param_value_size_ret) {
  std::shared_ptr<Event> found = Event::find(event);
  if (!found) return CL_INVALID_EVENT;
  return found->getProfilingInfo(param_name, InfoOut{param_value_size, param_value, param_value_size_ret});
}

CL_API_ENTRY cl_event CL_API_CALL clCreateUserEvent(cl_context context, cl_int* errcode_ret) {
  std::shared_ptr<Context> found = Context::find(context);
  if (!found) return withError<cl_event>(errcode_ret, CL_INVALID_CONTEXT, nullptr);
  auto event = std::shared_ptr<Event>(new Event(found, nullptr, CL_COMMAND_USER));
  return withError(errcode_ret, CL_SUCCESS, Event::publish(event));
}

CL_API_ENTRY cl_int CL_API_CALL clSetUserEventStatus(cl_event event, cl_int execution_status) {
  std::shared_ptr<Event> found = Event::find(event);
  if (!found || !found->isUserEvent()) return CL_INVALID_EVENT;
  if (execution_status != CL_COMPLETE && execution_status >= 0) return CL_INVALID_VALUE;
  if (found->status() <= CL_COMPLETE) return CL_INVALID_OPERATION;  // set once only
  found->setStatus(execution_status);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clSetEventCallback(cl_event event, cl_int command_exec_callback_type,
                                                   EventCallback pfn_notify, void* user_data) {
  std::shared_ptr<Event> found = Event::find(event);
  if (!found) return CL_INVALID_EVENT;
  if (pfn_notify == nullptr || (command_exec_callback_type != CL_SUBMITTED && command_exec_callback_type != CL_RUNNING &&
                                command_exec_callback_type != CL_COMPLETE))
    return CL_INVALID_VALUE;
  found->addCallback(command_exec_callback_type, pfn_notify, user_data);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event) {
  return retainObject<Event>(event, CL_INVALID_EVENT);
}

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event) {
  return releaseObject<Event>(event, CL_INVALID_EVENT);
}

}  // extern "C"
