// The rectangular buffer transfers (clEnqueue{Read,Write,Copy}BufferRect), through
// rect_transfer.h.
#include "runtime/api_util.h"
#include "runtime/memory.h"
#include "runtime/queue.h"
#include "runtime/rect_transfer.h"

using namespace cl2vk::runtime;

namespace {

// Whether two rectangles of `region` in one buffer share a byte. Each one's rows lie at increasing
// addresses without overlapping each other (makeLayout's pitch checks), so one walk over both row
// lists in address order finds any two rows that intersect.
bool rectanglesOverlap(const size_t* region, const RectLayout& a, const RectLayout& b) {
  const size_t rows = region[1] * region[2];
  auto rowStart = [&](const RectLayout& layout, size_t row) { return layout.at(row / region[1], row % region[1]); };
  for (size_t i = 0, j = 0; i < rows && j < rows;) {
    size_t aStart = rowStart(a, i), bStart = rowStart(b, j);
    if (aStart < bStart + region[0] && bStart < aStart + region[0]) return true;
    if (aStart < bStart) {
      ++i;
    } else {
      ++j;
    }
  }
  return false;
}

// Reads (`toHost`) or writes a rectangle between a buffer and host memory.
cl_int hostRect(cl_command_queue command_queue, cl_mem buffer, bool toHost, bool blocking, const size_t* buffer_origin,
                const size_t* host_origin, const size_t* region, size_t buffer_row_pitch, size_t buffer_slice_pitch,
                size_t host_row_pitch, size_t host_slice_pitch, void* ptr, cl_uint num_events,
                const cl_event* wait_list, cl_event* event) {
  Enqueue command;
  if (cl_int status = prepareEnqueue(command_queue, num_events, wait_list, &command); status != CL_SUCCESS)
    return status;
  std::shared_ptr<Memory> memory;
  if (cl_int status = findBuffer(buffer, *command.queue, &memory); status != CL_SUCCESS) return status;
  if (toHost ? !memory->hostMayRead() : !memory->hostMayWrite()) return CL_INVALID_OPERATION;
  RectLayout device{}, host{};
  if (ptr == nullptr) return CL_INVALID_VALUE;
  if (cl_int status = makeLayout(buffer_origin, region, buffer_row_pitch, buffer_slice_pitch, &device);
      status != CL_SUCCESS)
    return status;
  if (cl_int status = makeLayout(host_origin, region, host_row_pitch, host_slice_pitch, &host); status != CL_SUCCESS)
    return status;
  if (device.end(region) > memory->size()) return CL_INVALID_VALUE;
  return enqueueHostRect(command, std::move(memory), toHost, blocking, device, host, region,
                         static_cast<std::byte*>(ptr),
                         toHost ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT,
                         toHost ? "clEnqueueReadBufferRect" : "clEnqueueWriteBufferRect", event);
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                                        cl_bool blocking_read, const size_t* buffer_origin,
                                                        const size_t* host_origin, const size_t* region,
                                                        size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                                        size_t host_row_pitch, size_t host_slice_pitch, void* ptr,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event* event_wait_list, cl_event* event) {
  return hostRect(command_queue, buffer, true, blocking_read, buffer_origin, host_origin, region, buffer_row_pitch,
                  buffer_slice_pitch, host_row_pitch, host_slice_pitch, ptr, num_events_in_wait_list, event_wait_list,
                  event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBufferRect(cl_command_queue command_queue, cl_mem buffer,
                                                         cl_bool blocking_write, const size_t* buffer_origin,
                                                         const size_t* host_origin, const size_t* region,
                                                         size_t buffer_row_pitch, size_t buffer_slice_pitch,
                                                         size_t host_row_pitch, size_t host_slice_pitch,
                                                         const void* ptr, cl_uint num_events_in_wait_list,
                                                         const cl_event* event_wait_list, cl_event* event) {
  return hostRect(command_queue, buffer, false, blocking_write, buffer_origin, host_origin, region, buffer_row_pitch,
                  buffer_slice_pitch, host_row_pitch, host_slice_pitch, const_cast<void*>(ptr), num_events_in_wait_list,
                  event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferRect(
    cl_command_queue command_queue, cl_mem src_buffer, cl_mem dst_buffer, const size_t* src_origin,
    const size_t* dst_origin, const size_t* region, size_t src_row_pitch, size_t src_slice_pitch, size_t dst_row_pitch,
    size_t dst_slice_pitch, cl_uint num_events_in_wait_list, const cl_event* event_wait_list, cl_event* event) {
  Enqueue command;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &command);
      status != CL_SUCCESS)
    return status;
  std::shared_ptr<Memory> source, destination;
  if (cl_int status = findBuffer(src_buffer, *command.queue, &source); status != CL_SUCCESS) return status;
  if (cl_int status = findBuffer(dst_buffer, *command.queue, &destination); status != CL_SUCCESS) return status;
  RectLayout from{}, to{};
  if (cl_int status = makeLayout(src_origin, region, src_row_pitch, src_slice_pitch, &from); status != CL_SUCCESS)
    return status;
  if (cl_int status = makeLayout(dst_origin, region, dst_row_pitch, dst_slice_pitch, &to); status != CL_SUCCESS)
    return status;
  if (from.end(region) > source->size() || to.end(region) > destination->size()) return CL_INVALID_VALUE;
  if (source == destination) {
    // Within one buffer the specification refuses pitches that both differ, and rectangles that
    // share a byte; rectangles whose rows interleave without touching are copied.
    if (from.rowPitch != to.rowPitch && from.slicePitch != to.slicePitch) return CL_INVALID_VALUE;
    if (rectanglesOverlap(region, from, to)) return CL_MEM_COPY_OVERLAP;
  }
  return enqueueCopyRect(command, std::move(source), std::move(destination), from, to, region,
                         CL_COMMAND_COPY_BUFFER_RECT, "clEnqueueCopyBufferRect", event);
}

}  // extern "C"
