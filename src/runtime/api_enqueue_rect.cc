// The rectangular buffer transfers (clEnqueue{Read,Write,Copy}BufferRect). The rows are gathered
// and scattered on the host around one download (and, for writes and copies, one upload) of the
// span of the buffer that the rectangle covers.
#include <cstring>

#include "runtime/api_util.h"
#include "runtime/memory.h"
#include "runtime/queue.h"

using namespace cl2vk::runtime;
using cl2vk::Expected;

namespace {

// A 3D rectangle's place in linear memory: its origin and pitches (0 pitches take their defaults).
struct RectLayout {
  size_t origin[3];
  size_t rowPitch;
  size_t slicePitch;

  size_t at(size_t z, size_t y) const { return (origin[2] + z) * slicePitch + (origin[1] + y) * rowPitch + origin[0]; }
  size_t begin() const { return at(0, 0); }
  size_t end(const size_t* region) const { return at(region[2] - 1, region[1] - 1) + region[0]; }
};

// Fills in default pitches and checks them: CL_INVALID_VALUE when they cannot hold the region.
cl_int makeLayout(const size_t* origin, const size_t* region, size_t rowPitch, size_t slicePitch, RectLayout* layout) {
  if (origin == nullptr || region == nullptr || region[0] == 0 || region[1] == 0 || region[2] == 0)
    return CL_INVALID_VALUE;
  if (rowPitch == 0) rowPitch = region[0];
  if (slicePitch == 0) slicePitch = region[1] * rowPitch;
  if (rowPitch < region[0] || slicePitch < region[1] * rowPitch || slicePitch % rowPitch != 0) return CL_INVALID_VALUE;
  *layout = RectLayout{{origin[0], origin[1], origin[2]}, rowPitch, slicePitch};
  return CL_SUCCESS;
}

// Copies every row of `region` from `from` (laid out as `fromLayout`, relative to `fromBase`) to `to`.
void copyRows(const size_t* region, const std::byte* from, const RectLayout& fromLayout, size_t fromBase, std::byte* to,
              const RectLayout& toLayout, size_t toBase) {
  for (size_t z = 0; z < region[2]; ++z) {
    for (size_t y = 0; y < region[1]; ++y) {
      std::memcpy(to + toLayout.at(z, y) - toBase, from + fromLayout.at(z, y) - fromBase, region[0]);
    }
  }
}

struct Span {
  size_t begin, end;
};

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

// Downloads bytes [span.begin, span.end) of `memory` on `device`.
Expected<std::vector<std::byte>> download(Memory& memory, Device& device, Span span) {
  Expected<Memory::Location> location = memory.locate(device);
  if (!location) return location.error();
  std::vector<std::byte> bytes(span.end - span.begin);
  cl2vk::Status status = location->buffer->read(bytes, location->offset + span.begin);
  if (!status) return status.error();
  return bytes;
}

cl2vk::Status upload(Memory& memory, Device& device, Span span, const std::vector<std::byte>& bytes) {
  Expected<Memory::Location> location = memory.locate(device);
  if (!location) return location.error();
  return location->buffer->write(bytes, location->offset + span.begin);
}

CommandOutcome outcomeOf(const cl2vk::Status& status, const char* what) {
  return status ? CommandOutcome{} : commandFailure(what, status.error());
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
  Span span{device.begin(), device.end(region)};
  if (span.end > memory->size()) return CL_INVALID_VALUE;
  const size_t extent[3] = {region[0], region[1], region[2]};
  Device& target = command.queue->device();
  auto* bytes = static_cast<std::byte*>(ptr);
  auto work = [memory, &target, span, device, host, extent, bytes, toHost]() -> CommandOutcome {
    const char* what = toHost ? "clEnqueueReadBufferRect" : "clEnqueueWriteBufferRect";
    Expected<std::vector<std::byte>> contents = download(*memory, target, span);
    if (!contents) return outcomeOf(contents.error(), what);
    if (toHost) {
      copyRows(extent, contents->data(), device, span.begin, bytes, host, 0);
      return CommandOutcome{};
    }
    copyRows(extent, bytes, host, 0, contents->data(), device, span.begin);
    return outcomeOf(upload(*memory, target, span, *contents), what);
  };
  return submit(command, toHost ? CL_COMMAND_READ_BUFFER_RECT : CL_COMMAND_WRITE_BUFFER_RECT, work, blocking, event);
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
  Span fromSpan{from.begin(), from.end(region)}, toSpan{to.begin(), to.end(region)};
  if (fromSpan.end > source->size() || toSpan.end > destination->size()) return CL_INVALID_VALUE;
  if (source == destination) {
    // Within one buffer the specification refuses pitches that both differ, and rectangles that
    // share a byte; rectangles whose rows interleave without touching are copied.
    if (from.rowPitch != to.rowPitch && from.slicePitch != to.slicePitch) return CL_INVALID_VALUE;
    if (rectanglesOverlap(region, from, to)) return CL_MEM_COPY_OVERLAP;
  }
  const size_t extent[3] = {region[0], region[1], region[2]};
  Device& target = command.queue->device();
  auto work = [source, destination, &target, from, to, fromSpan, toSpan, extent]() -> CommandOutcome {
    const char* what = "clEnqueueCopyBufferRect";
    Expected<std::vector<std::byte>> input = download(*source, target, fromSpan);
    if (!input) return outcomeOf(input.error(), what);
    Expected<std::vector<std::byte>> output = download(*destination, target, toSpan);
    if (!output) return outcomeOf(output.error(), what);
    copyRows(extent, input->data(), from, fromSpan.begin, output->data(), to, toSpan.begin);
    return outcomeOf(upload(*destination, target, toSpan, *output), what);
  };
  return submit(command, CL_COMMAND_COPY_BUFFER_RECT, work, false, event);
}

}  // extern "C"
