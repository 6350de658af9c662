// The OpenCL entry points for events (section 5.11 of the OpenCL 3.0 API specification: waiting for
// them, their queries, user events and callbacks), for the markers, barriers and waits that a queue
// runs (5.12), and for the events' profiling information (5.14).
#include "runtime/api_util.h"
#include "runtime/queue.h"

using namespace cl2vk::runtime;

namespace {

cl_int enqueueMarker(cl_command_queue command_queue, cl_command_type type, cl_uint num_events_in_wait_list,
                     const cl_event* event_wait_list, cl_event* event) {
  Enqueue enqueue;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &enqueue);
      status != CL_SUCCESS)
    return status;
  // The queue runs in order, so every earlier command is done before this one starts.
  return submit(
      enqueue, type, [] { return CommandOutcome{}; }, false, event);
}

}  // namespace

extern "C" {

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
  if (pfn_notify == nullptr || (command_exec_callback_type != CL_SUBMITTED &&
                                command_exec_callback_type != CL_RUNNING && command_exec_callback_type != CL_COMPLETE))
    return CL_INVALID_VALUE;
  found->addCallback(command_exec_callback_type, pfn_notify, user_data);
  return CL_SUCCESS;
}

CL_API_ENTRY cl_int CL_API_CALL clRetainEvent(cl_event event) { return retainObject<Event>(event, CL_INVALID_EVENT); }

CL_API_ENTRY cl_int CL_API_CALL clReleaseEvent(cl_event event) { return releaseObject<Event>(event, CL_INVALID_EVENT); }

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarkerWithWaitList(cl_command_queue command_queue,
                                                            cl_uint num_events_in_wait_list,
                                                            const cl_event* event_wait_list, cl_event* event) {
  return enqueueMarker(command_queue, CL_COMMAND_MARKER, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrierWithWaitList(cl_command_queue command_queue,
                                                             cl_uint num_events_in_wait_list,
                                                             const cl_event* event_wait_list, cl_event* event) {
  return enqueueMarker(command_queue, CL_COMMAND_BARRIER, num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMarker(cl_command_queue command_queue, cl_event* event) {
  if (event == nullptr) return CommandQueue::find(command_queue) ? CL_INVALID_VALUE : CL_INVALID_COMMAND_QUEUE;
  return enqueueMarker(command_queue, CL_COMMAND_MARKER, 0, nullptr, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueBarrier(cl_command_queue command_queue) {
  return enqueueMarker(command_queue, CL_COMMAND_BARRIER, 0, nullptr, nullptr);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWaitForEvents(cl_command_queue command_queue, cl_uint num_events,
                                                       const cl_event* event_list) {
  if (num_events == 0 || event_list == nullptr)
    return CommandQueue::find(command_queue) ? CL_INVALID_VALUE : CL_INVALID_COMMAND_QUEUE;
  return enqueueMarker(command_queue, CL_COMMAND_BARRIER, num_events, event_list, nullptr);
}

}  // extern "C"
