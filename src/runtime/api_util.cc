#include "runtime/api_util.h"

namespace cl2vk::runtime {

cl_int resolveDevices(const Context& context, cl_uint count, const cl_device_id* list, std::vector<Device*>* devices) {
  if ((count == 0) != (list == nullptr)) return CL_INVALID_VALUE;
  devices->clear();
  if (list == nullptr) {
    *devices = context.devices();
    return CL_SUCCESS;
  }
  for (cl_uint i = 0; i < count; ++i) {
    Device* device = Device::find(list[i]);
    if (device == nullptr || !context.hasDevice(device)) return CL_INVALID_DEVICE;
    devices->push_back(device);
  }
  return CL_SUCCESS;
}

cl_int resolveWaitList(const Context& context, cl_uint count, const cl_event* list,
                       std::vector<std::shared_ptr<Event>>* events) {
  if ((count == 0) != (list == nullptr)) return CL_INVALID_EVENT_WAIT_LIST;
  events->clear();
  for (cl_uint i = 0; i < count; ++i) {
    std::shared_ptr<Event> event = Event::find(list[i]);
    if (!event) return CL_INVALID_EVENT_WAIT_LIST;
    if (&event->context() != &context) return CL_INVALID_CONTEXT;
    events->push_back(std::move(event));
  }
  return CL_SUCCESS;
}

cl_int keptMemoryProperties(const cl_mem_properties* properties, std::vector<cl_mem_properties>* kept) {
  kept->clear();
  if (properties == nullptr) return CL_SUCCESS;
  if (properties[0] != 0) return CL_INVALID_PROPERTY;
  kept->push_back(0);
  return CL_SUCCESS;
}

void returnEvent(const std::shared_ptr<Event>& event, cl_event* handle) {
  if (handle != nullptr) *handle = Event::publish(event);
}

cl_int prepareEnqueue(cl_command_queue handle, cl_uint count, const cl_event* list, Enqueue* enqueue) {
  enqueue->queue = CommandQueue::find(handle);
  if (!enqueue->queue) return CL_INVALID_COMMAND_QUEUE;
  if (cl_int status = resolveWaitList(enqueue->queue->context(), count, list, &enqueue->waitList); status != CL_SUCCESS)
    return status;
  return enqueue->queue->context().checkNotLost("clEnqueue*");
}

cl_int findMemoryObject(cl_mem handle, CommandQueue& queue, std::shared_ptr<Memory>* memory) {
  *memory = Memory::find(handle);
  if (!*memory) return CL_INVALID_MEM_OBJECT;
  return &(*memory)->context() == &queue.context() ? CL_SUCCESS : CL_INVALID_CONTEXT;
}

cl_int findBuffer(cl_mem handle, CommandQueue& queue, std::shared_ptr<Memory>* buffer) {
  cl_int status = findMemoryObject(handle, queue, buffer);
  return status == CL_SUCCESS && (*buffer)->image() ? CL_INVALID_MEM_OBJECT : status;
}

cl_int findImage(cl_mem handle, CommandQueue& queue, std::shared_ptr<Memory>* image) {
  cl_int status = findMemoryObject(handle, queue, image);
  return status == CL_SUCCESS && !(*image)->image() ? CL_INVALID_MEM_OBJECT : status;
}

cl_int submit(Enqueue& enqueue, cl_command_type type, CommandWork work, bool blocking, cl_event* event) {
  std::shared_ptr<Event> queued = enqueue.queue->enqueue(type, std::move(enqueue.waitList), std::move(work));
  returnEvent(queued, event);
  // A blocking call returns the command's own error (CL_OUT_OF_RESOURCES ...), or
  // CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST when an event it waited for had failed.
  cl_int status = blocking ? queued->wait() : CL_COMPLETE;
  return status < 0 ? status : CL_SUCCESS;
}

}  // namespace cl2vk::runtime
