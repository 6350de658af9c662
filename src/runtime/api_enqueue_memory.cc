// The OpenCL entry points that enqueue commands on buffers: reads, writes, copies, fills and maps
// (section 5.2 of the OpenCL 3.0 API specification), unmaps and migrations (5.5). The rectangular
// transfers are in api_enqueue_rect.cc, kernels in api_enqueue_kernel.cc, markers and barriers in
// api_event.cc. Each checks its arguments on the caller's thread (the error codes of the
// specification) and queues the work for the queue's worker (queue.h).
#include <cstring>

#include "runtime/api_util.h"
#include "runtime/memory.h"
#include "runtime/queue.h"

using namespace cl2vk::runtime;
using cl2vk::Expected;

namespace {

bool inRange(const Memory& memory, size_t offset, size_t size) {
  return offset <= memory.size() && size <= memory.size() - offset;
}

// Runs `transfer` on the Vulkan buffer behind `memory` on `device` at the memory's offset.
template <typename Transfer>
CommandOutcome withBuffer(Memory& memory, Device& device, const char* what, Transfer transfer) {
  Expected<Memory::Location> location = memory.locate(device);
  if (!location) return commandFailure(what, location.error(), CL_MEM_OBJECT_ALLOCATION_FAILURE);
  cl2vk::Status status = transfer(*location->buffer, location->offset);
  if (!status) return commandFailure(what, status.error());
  return CommandOutcome{};
}

// A fill as one vkCmdFillBuffer when the pattern repeats within 4 bytes and the range is 4-byte
// aligned in the Vulkan buffer; otherwise the filled bytes are made on the host and uploaded.
CommandOutcome fill(Memory& memory, Device& device, std::vector<std::byte> pattern, size_t offset, size_t size) {
  return withBuffer(memory, device, "clEnqueueFillBuffer", [&](cl2vk::vulkan::Buffer& buffer, size_t base) {
    size_t start = base + offset;
    if (pattern.size() <= 4 && start % 4 == 0 && size % 4 == 0) {
      uint32_t word = 0;
      for (size_t i = 0; i < 4; ++i)
        std::memcpy(reinterpret_cast<std::byte*>(&word) + i, &pattern[i % pattern.size()], 1);
      return buffer.fill(word, start, size);
    }
    std::vector<std::byte> bytes(size);
    for (size_t i = 0; i < size; i += pattern.size()) std::memcpy(bytes.data() + i, pattern.data(), pattern.size());
    return buffer.write(bytes, start);
  });
}

bool validPatternSize(size_t size) {
  for (size_t allowed : {1, 2, 4, 8, 16, 32, 64, 128}) {
    if (size == allowed) return true;
  }
  return false;
}

// clEnqueueReadBuffer (`toHost`) and clEnqueueWriteBuffer.
cl_int hostTransfer(cl_command_queue command_queue, cl_mem buffer, bool toHost, bool blocking, size_t offset,
                    size_t size, void* ptr, cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                    cl_event* event) {
  Enqueue enqueue;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &enqueue);
      status != CL_SUCCESS)
    return status;
  std::shared_ptr<Memory> memory;
  if (cl_int status = findBuffer(buffer, *enqueue.queue, &memory); status != CL_SUCCESS) return status;
  if (ptr == nullptr || size == 0 || !inRange(*memory, offset, size)) return CL_INVALID_VALUE;
  if (toHost ? !memory->hostMayRead() : !memory->hostMayWrite()) return CL_INVALID_OPERATION;
  Device& device = enqueue.queue->device();
  auto work = [memory, &device, offset, size, ptr, toHost] {
    const char* what = toHost ? "clEnqueueReadBuffer" : "clEnqueueWriteBuffer";
    return withBuffer(*memory, device, what, [&](cl2vk::vulkan::Buffer& vk, size_t base) {
      std::span<std::byte> bytes(static_cast<std::byte*>(ptr), size);
      return toHost ? vk.read(bytes, base + offset) : vk.write(bytes, base + offset);
    });
  };
  return submit(enqueue, toHost ? CL_COMMAND_READ_BUFFER : CL_COMMAND_WRITE_BUFFER, work, blocking, event);
}

}  // namespace

namespace cl2vk::runtime {

void* enqueueMap(Enqueue& enqueue, std::shared_ptr<Memory> memory, bool blocking, cl_map_flags flags, size_t offset,
                 size_t size, cl_command_type type, const char* what, cl_event* event, cl_int* errcode_ret) {
  constexpr cl_map_flags kKnown = CL_MAP_READ | CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION;
  bool invalidate = flags & CL_MAP_WRITE_INVALIDATE_REGION;
  if ((flags & ~kKnown) != 0 || (invalidate && (flags & (CL_MAP_READ | CL_MAP_WRITE))))
    return withError<void*>(errcode_ret, CL_INVALID_VALUE, nullptr);
  if (((flags & CL_MAP_READ) && !memory->hostMayRead()) ||
      ((flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION)) && !memory->hostMayWrite()))
    return withError<void*>(errcode_ret, CL_INVALID_OPERATION, nullptr);
  Device& device = enqueue.queue->device();
  void* pointer = memory->beginMap(device, offset, size, flags);
  auto work = [memory, &device, offset, size, pointer, invalidate, what] {
    if (invalidate) return CommandOutcome{};
    cl2vk::Status status = memory->fillMapping(device, pointer, offset, size);
    if (!status) return commandFailure(what, status.error());
    return CommandOutcome{};
  };
  cl_int status = submit(enqueue, type, work, blocking, event);
  return withError<void*>(errcode_ret, status, status == CL_SUCCESS ? pointer : nullptr);
}

}  // namespace cl2vk::runtime

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                    cl_bool blocking_read, size_t offset, size_t size, void* ptr,
                                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                    cl_event* event) {
  return hostTransfer(command_queue, buffer, true, blocking_read, offset, size, ptr, num_events_in_wait_list,
                      event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteBuffer(cl_command_queue command_queue, cl_mem buffer,
                                                     cl_bool blocking_write, size_t offset, size_t size,
                                                     const void* ptr, cl_uint num_events_in_wait_list,
                                                     const cl_event* event_wait_list, cl_event* event) {
  return hostTransfer(command_queue, buffer, false, blocking_write, offset, size, const_cast<void*>(ptr),
                      num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBuffer(cl_command_queue command_queue, cl_mem src_buffer,
                                                    cl_mem dst_buffer, size_t src_offset, size_t dst_offset,
                                                    size_t size, cl_uint num_events_in_wait_list,
                                                    const cl_event* event_wait_list, cl_event* event) {
  Enqueue enqueue;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &enqueue);
      status != CL_SUCCESS)
    return status;
  std::shared_ptr<Memory> source, destination;
  if (cl_int status = findBuffer(src_buffer, *enqueue.queue, &source); status != CL_SUCCESS) return status;
  if (cl_int status = findBuffer(dst_buffer, *enqueue.queue, &destination); status != CL_SUCCESS) return status;
  if (size == 0 || !inRange(*source, src_offset, size) || !inRange(*destination, dst_offset, size))
    return CL_INVALID_VALUE;
  Device& device = enqueue.queue->device();
  Expected<Memory::Location> from = source->locate(device);
  Expected<Memory::Location> to = destination->locate(device);
  if (!from || !to) return CL_MEM_OBJECT_ALLOCATION_FAILURE;
  if (from->buffer == to->buffer) {
    size_t a = from->offset + src_offset, b = to->offset + dst_offset;
    if (a < b + size && b < a + size) return CL_MEM_COPY_OVERLAP;
  }
  auto work = [source, destination, &device, src_offset, dst_offset, size] {
    Expected<Memory::Location> from = source->locate(device);
    if (!from) return commandFailure("clEnqueueCopyBuffer", from.error(), CL_MEM_OBJECT_ALLOCATION_FAILURE);
    return withBuffer(*destination, device, "clEnqueueCopyBuffer", [&](cl2vk::vulkan::Buffer& vk, size_t base) {
      return vk.copyFrom(*from->buffer, from->offset + src_offset, base + dst_offset, size);
    });
  };
  return submit(enqueue, CL_COMMAND_COPY_BUFFER, work, false, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillBuffer(cl_command_queue command_queue, cl_mem buffer, const void* pattern,
                                                    size_t pattern_size, size_t offset, size_t size,
                                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                    cl_event* event) {
  Enqueue enqueue;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &enqueue);
      status != CL_SUCCESS)
    return status;
  std::shared_ptr<Memory> memory;
  if (cl_int status = findBuffer(buffer, *enqueue.queue, &memory); status != CL_SUCCESS) return status;
  if (pattern == nullptr || !validPatternSize(pattern_size) || offset % pattern_size != 0 || size % pattern_size != 0 ||
      !inRange(*memory, offset, size))
    return CL_INVALID_VALUE;
  std::vector<std::byte> bytes(pattern_size);
  std::memcpy(bytes.data(), pattern, pattern_size);
  Device& device = enqueue.queue->device();
  auto work = [memory, &device, bytes, offset, size] { return fill(*memory, device, bytes, offset, size); };
  return submit(enqueue, CL_COMMAND_FILL_BUFFER, work, false, event);
}

CL_API_ENTRY void* CL_API_CALL clEnqueueMapBuffer(cl_command_queue command_queue, cl_mem buffer, cl_bool blocking_map,
                                                  cl_map_flags map_flags, size_t offset, size_t size,
                                                  cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                  cl_event* event, cl_int* errcode_ret) {
  Enqueue enqueue;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &enqueue);
      status != CL_SUCCESS)
    return withError<void*>(errcode_ret, status, nullptr);
  std::shared_ptr<Memory> memory;
  if (cl_int status = findBuffer(buffer, *enqueue.queue, &memory); status != CL_SUCCESS)
    return withError<void*>(errcode_ret, status, nullptr);
  if (size == 0 || !inRange(*memory, offset, size)) return withError<void*>(errcode_ret, CL_INVALID_VALUE, nullptr);
  return enqueueMap(enqueue, std::move(memory), blocking_map, map_flags, offset, size, CL_COMMAND_MAP_BUFFER,
                    "clEnqueueMapBuffer", event, errcode_ret);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueUnmapMemObject(cl_command_queue command_queue, cl_mem memobj, void* mapped_ptr,
                                                        cl_uint num_events_in_wait_list,
                                                        const cl_event* event_wait_list, cl_event* event) {
  Enqueue enqueue;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &enqueue);
      status != CL_SUCCESS)
    return status;
  std::shared_ptr<Memory> memory;
  if (cl_int status = findMemoryObject(memobj, *enqueue.queue, &memory); status != CL_SUCCESS) return status;
  std::optional<Memory::Mapping> mapping = memory->endMap(mapped_ptr);
  if (!mapping) return CL_INVALID_VALUE;
  bool written = mapping->flags & (CL_MAP_WRITE | CL_MAP_WRITE_INVALIDATE_REGION);
  Device& device = enqueue.queue->device();
  auto work = [memory, &device, mapping = *mapping, mapped_ptr, written] {
    if (!written) return CommandOutcome{};
    cl2vk::Status status = memory->writeBackMapping(device, mapped_ptr, mapping.offset, mapping.size);
    if (!status) return commandFailure("clEnqueueUnmapMemObject", status.error());
    return CommandOutcome{};
  };
  return submit(enqueue, CL_COMMAND_UNMAP_MEM_OBJECT, work, false, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueMigrateMemObjects(cl_command_queue command_queue, cl_uint num_mem_objects,
                                                           const cl_mem* mem_objects, cl_mem_migration_flags flags,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event* event_wait_list, cl_event* event) {
  Enqueue enqueue;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &enqueue);
      status != CL_SUCCESS)
    return status;
  if (num_mem_objects == 0 || mem_objects == nullptr ||
      (flags & ~(CL_MIGRATE_MEM_OBJECT_HOST | CL_MIGRATE_MEM_OBJECT_CONTENT_UNDEFINED)) != 0)
    return CL_INVALID_VALUE;
  std::vector<std::shared_ptr<Memory>> memories;
  for (cl_uint i = 0; i < num_mem_objects; ++i) {
    std::shared_ptr<Memory> memory;
    if (cl_int status = findMemoryObject(mem_objects[i], *enqueue.queue, &memory); status != CL_SUCCESS) return status;
    memories.push_back(std::move(memory));
  }
  Device& device = enqueue.queue->device();
  bool toDevice = !(flags & CL_MIGRATE_MEM_OBJECT_HOST);
  auto work = [memories, &device, toDevice]() -> CommandOutcome {
    for (const std::shared_ptr<Memory>& memory : memories) {
      if (!toDevice) continue;  // the host reaches buffers through copies; nothing to move
      Expected<Memory::Location> location = memory->locate(device);
      if (!location)
        return commandFailure("clEnqueueMigrateMemObjects", location.error(), CL_MEM_OBJECT_ALLOCATION_FAILURE);
    }
    return CommandOutcome{};
  };
  return submit(enqueue, CL_COMMAND_MIGRATE_MEM_OBJECTS, work, false, event);
}

}  // extern "C"
