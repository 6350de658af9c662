#include "runtime/rect_transfer.h"

#include <array>
#include <cstring>

#include "runtime/queue.h"

namespace cl2vk::runtime {
namespace {

// Copies every row of `region` from `from` (laid out as `fromLayout`, relative to `fromBase`) to `to`.
void copyRows(const std::array<size_t, 3>& region, const std::byte* from, const RectLayout& fromLayout, size_t fromBase,
              std::byte* to, const RectLayout& toLayout, size_t toBase) {
  for (size_t z = 0; z < region[2]; ++z) {
    for (size_t y = 0; y < region[1]; ++y) {
      std::memcpy(to + toLayout.at(z, y) - toBase, from + fromLayout.at(z, y) - fromBase, region[0]);
    }
  }
}

struct Span {
  size_t begin, end;
};

// Downloads bytes [span.begin, span.end) of `memory` on `device`.
Expected<std::vector<std::byte>> download(Memory& memory, Device& device, Span span) {
  Expected<Memory::Location> location = memory.locate(device);
  if (!location) return location.error();
  std::vector<std::byte> bytes(span.end - span.begin);
  Status status = location->buffer->read(bytes, location->offset + span.begin);
  if (!status) return status.error();
  return bytes;
}

Status upload(Memory& memory, Device& device, Span span, const std::vector<std::byte>& bytes) {
  Expected<Memory::Location> location = memory.locate(device);
  if (!location) return location.error();
  return location->buffer->write(bytes, location->offset + span.begin);
}

// Whether `layout` holds `region` (x in bytes) as one run of bytes: rows and slices back to back.
bool contiguous(const RectLayout& layout, const size_t* region) {
  return layout.rowPitch == region[0] && (region[2] == 1 || layout.slicePitch == region[0] * region[1]);
}

// Reads (`toHost`) or writes bytes [span.begin, span.end) of `memory` straight from or into `host`.
Status moveSpan(Memory& memory, Device& device, Span span, std::byte* host, bool toHost) {
  Expected<Memory::Location> location = memory.locate(device);
  if (!location) return location.error();
  std::span<std::byte> bytes(host, span.end - span.begin);
  return toHost ? location->buffer->read(bytes, location->offset + span.begin)
                : location->buffer->write(bytes, location->offset + span.begin);
}

CommandOutcome outcomeOf(const Status& status, const char* what) {
  return status ? CommandOutcome{} : commandFailure(what, status.error());
}

std::array<size_t, 3> extentOf(const size_t* region) { return {region[0], region[1], region[2]}; }

}  // namespace

cl_int makeLayout(const size_t* origin, const size_t* region, size_t rowPitch, size_t slicePitch, RectLayout* layout) {
  if (origin == nullptr || region == nullptr || region[0] == 0 || region[1] == 0 || region[2] == 0)
    return CL_INVALID_VALUE;
  if (rowPitch == 0) rowPitch = region[0];
  if (slicePitch == 0) slicePitch = region[1] * rowPitch;
  if (rowPitch < region[0] || slicePitch < region[1] * rowPitch || slicePitch % rowPitch != 0) return CL_INVALID_VALUE;
  *layout = RectLayout{{origin[0], origin[1], origin[2]}, rowPitch, slicePitch};
  return CL_SUCCESS;
}

cl_int enqueueHostRect(Enqueue& command, std::shared_ptr<Memory> memory, bool toHost, bool blocking,
                       const RectLayout& device, const RectLayout& host, const size_t* region, std::byte* pointer,
                       cl_command_type type, const char* what, cl_event* event) {
  Span span{device.begin(), device.end(region)};
  Device& target = command.queue->device();
  // A region that is one run of bytes on both sides (a whole image or tight rows) moves directly;
  // others are gathered or scattered around a download of the span.
  bool direct = contiguous(device, region) && contiguous(host, region);
  auto work = [memory, &target, span, device, host, extent = extentOf(region), pointer, toHost, what,
               direct]() -> CommandOutcome {
    if (direct) return outcomeOf(moveSpan(*memory, target, span, pointer + host.begin(), toHost), what);
    Expected<std::vector<std::byte>> contents = download(*memory, target, span);
    if (!contents) return outcomeOf(contents.error(), what);
    if (toHost) {
      copyRows(extent, contents->data(), device, span.begin, pointer, host, 0);
      return CommandOutcome{};
    }
    copyRows(extent, pointer, host, 0, contents->data(), device, span.begin);
    return outcomeOf(upload(*memory, target, span, *contents), what);
  };
  return submit(command, type, work, blocking, event);
}

cl_int enqueueCopyRect(Enqueue& command, std::shared_ptr<Memory> source, std::shared_ptr<Memory> destination,
                       const RectLayout& from, const RectLayout& to, const size_t* region, cl_command_type type,
                       const char* what, cl_event* event) {
  Span fromSpan{from.begin(), from.end(region)}, toSpan{to.begin(), to.end(region)};
  Device& target = command.queue->device();
  auto work = [source, destination, &target, from, to, fromSpan, toSpan, extent = extentOf(region),
               what]() -> CommandOutcome {
    Expected<std::vector<std::byte>> input = download(*source, target, fromSpan);
    if (!input) return outcomeOf(input.error(), what);
    Expected<std::vector<std::byte>> output = download(*destination, target, toSpan);
    if (!output) return outcomeOf(output.error(), what);
    copyRows(extent, input->data(), from, fromSpan.begin, output->data(), to, toSpan.begin);
    return outcomeOf(upload(*destination, target, toSpan, *output), what);
  };
  return submit(command, type, work, false, event);
}

cl_int enqueueFillRect(Enqueue& command, std::shared_ptr<Memory> memory, const RectLayout& layout, const size_t* region,
                       std::vector<std::byte> pattern, cl_command_type type, const char* what, cl_event* event) {
  const size_t bytes[3] = {region[0] * pattern.size(), region[1], region[2]};
  Span span{layout.begin(), layout.end(bytes)};
  Device& target = command.queue->device();
  auto work = [memory, &target, span, layout, extent = extentOf(region), pattern = std::move(pattern),
               what]() -> CommandOutcome {
    Expected<std::vector<std::byte>> contents = download(*memory, target, span);
    if (!contents) return outcomeOf(contents.error(), what);
    for (size_t z = 0; z < extent[2]; ++z) {
      for (size_t y = 0; y < extent[1]; ++y) {
        std::byte* row = contents->data() + layout.at(z, y) - span.begin;
        for (size_t x = 0; x < extent[0]; ++x) std::memcpy(row + x * pattern.size(), pattern.data(), pattern.size());
      }
    }
    return outcomeOf(upload(*memory, target, span, *contents), what);
  };
  return submit(command, type, work, false, event);
}

}  // namespace cl2vk::runtime
