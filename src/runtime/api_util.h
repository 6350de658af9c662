// Helpers shared by the OpenCL entry points (api_*.cc): handle lookups, error returns, event wait
// lists and returned events; and the declarations of the extension entry points.
#pragma once

#include <memory>
#include <vector>

#include "runtime/context.h"
#include "runtime/event.h"
#include "runtime/info.h"
#include "runtime/memory.h"
#include "runtime/platform.h"
#include "runtime/queue.h"

namespace cl2vk::runtime {

// Stores `code` through errcode_ret when given; returns `result` (the API's null handle on error).
template <typename T>
T withError(cl_int* errcodeReturn, cl_int code, T result) {
  if (errcodeReturn != nullptr) *errcodeReturn = code;
  return result;
}

// The devices a call names: all of them must be devices of `context`; none given means the
// context's devices. CL_INVALID_VALUE / CL_INVALID_DEVICE on misuse.
cl_int resolveDevices(const Context& context, cl_uint count, const cl_device_id* list, std::vector<Device*>* devices);

// An event wait list: CL_INVALID_EVENT_WAIT_LIST when the count and the pointer disagree or an
// event is not valid, CL_INVALID_CONTEXT when an event belongs to another context.
cl_int resolveWaitList(const Context& context, cl_uint count, const cl_event* list,
                       std::vector<std::shared_ptr<Event>>* events);

// The properties of clCreateBufferWithProperties and clCreateImageWithProperties as the memory
// object keeps them for CL_MEM_PROPERTIES: none for NULL, a lone 0 for an empty list. No property
// is supported: any other list is CL_INVALID_PROPERTY.
cl_int keptMemoryProperties(const cl_mem_properties* properties, std::vector<cl_mem_properties>* kept);

// Hands `event` to the application through `handle` when it asked for it.
void returnEvent(const std::shared_ptr<Event>& event, cl_event* handle);

// clRetain* and clRelease* of a reference-counted object: `invalid` when the handle is not live.
template <typename T>
cl_int retainObject(typename T::HandleType handle, cl_int invalid) {
  std::shared_ptr<T> found = T::find(handle);
  if (!found) return invalid;
  found->retain();
  return CL_SUCCESS;
}
template <typename T>
cl_int releaseObject(typename T::HandleType handle, cl_int invalid) {
  std::shared_ptr<T> found = T::find(handle);
  if (!found) return invalid;
  found->release();
  return CL_SUCCESS;
}

// clGet*Info of a reference-counted object (its getInfo).
template <typename T, typename Param>
cl_int objectInfo(typename T::HandleType handle, cl_int invalid, Param param, size_t size, void* value,
                  size_t* sizeReturned) {
  std::shared_ptr<T> found = T::find(handle);
  if (!found) return invalid;
  return found->getInfo(param, InfoOut{size, value, sizeReturned});
}

// What every clEnqueue* call checks first: its queue and its wait list.
struct Enqueue {
  std::shared_ptr<CommandQueue> queue;
  std::vector<std::shared_ptr<Event>> waitList;
};
cl_int prepareEnqueue(cl_command_queue handle, cl_uint count, const cl_event* list, Enqueue* enqueue);

// A memory object argument of a command: CL_INVALID_MEM_OBJECT, or CL_INVALID_CONTEXT when it
// belongs to another context than the queue. findBuffer refuses images, findImage buffers.
cl_int findMemoryObject(cl_mem handle, CommandQueue& queue, std::shared_ptr<Memory>* memory);
cl_int findBuffer(cl_mem handle, CommandQueue& queue, std::shared_ptr<Memory>* buffer);
cl_int findImage(cl_mem handle, CommandQueue& queue, std::shared_ptr<Memory>* image);

// The command of clEnqueueMapBuffer and clEnqueueMapImage: maps bytes [offset, offset + size) of
// `memory` (checked by the caller) with `flags`, which it checks.
void* enqueueMap(Enqueue& enqueue, std::shared_ptr<Memory> memory, bool blocking, cl_map_flags flags, size_t offset,
                 size_t size, cl_command_type type, const char* what, cl_event* event, cl_int* errcode_ret);

// A command that failed: `status` for its event, and `what` failed and why for the context.
inline CommandOutcome commandFailure(const std::string& what, const Error& error, cl_int status = CL_OUT_OF_RESOURCES) {
  return CommandOutcome{status, std::nullopt, what + ": " + error.message()};
}

// Queues the work; with `blocking`, waits for it. The event goes to the application if it asked.
cl_int submit(Enqueue& enqueue, cl_command_type type, CommandWork work, bool blocking, cl_event* event);

}  // namespace cl2vk::runtime

// The extension entry points the library defines, for the dispatch table and
// clGetExtensionFunctionAddress.
extern "C" {
CL_API_ENTRY cl_int CL_API_CALL clIcdGetPlatformIDsKHR(cl_uint, cl_platform_id*, cl_uint*);
CL_API_ENTRY cl_int CL_API_CALL clGetKernelSubGroupInfoKHR(cl_kernel, cl_device_id, cl_kernel_sub_group_info, size_t,
                                                           const void*, size_t, void*, size_t*);
CL_API_ENTRY cl_program CL_API_CALL clCreateProgramWithILKHR(cl_context, const void*, size_t, cl_int*);
}  // extern "C"
