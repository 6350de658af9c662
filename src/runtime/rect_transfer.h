// Rectangular transfers between memory objects and host memory, shared by the buffer-rect commands
// (api_enqueue_rect.cc) and the image commands (api_enqueue_image.cc), whose texels are rows in a
// buffer. The rows are gathered and scattered on the host around one download (and, for writes
// and copies, one upload) of the span of the object that the rectangle covers.
#pragma once

#include <cstddef>
#include <memory>

#include "runtime/api_util.h"
#include "runtime/memory.h"

namespace cl2vk::runtime {

// A 3D rectangle's place in linear memory: its origin (x in bytes) and pitches.
struct RectLayout {
  size_t origin[3];
  size_t rowPitch;
  size_t slicePitch;

  size_t at(size_t z, size_t y) const { return (origin[2] + z) * slicePitch + (origin[1] + y) * rowPitch + origin[0]; }
  size_t begin() const { return at(0, 0); }
  size_t end(const size_t* region) const { return at(region[2] - 1, region[1] - 1) + region[0]; }
};

// Fills in default pitches (0) and checks them: CL_INVALID_VALUE when they cannot hold the region
// (`region[0]` in bytes).
cl_int makeLayout(const size_t* origin, const size_t* region, size_t rowPitch, size_t slicePitch, RectLayout* layout);

// Reads (`toHost`) or writes `region` between `memory`, laid out as `device`, and `host` memory at
// `pointer`; the command is `type`, named `what` in errors.
cl_int enqueueHostRect(Enqueue& command, std::shared_ptr<Memory> memory, bool toHost, bool blocking,
                       const RectLayout& device, const RectLayout& host, const size_t* region, std::byte* pointer,
                       cl_command_type type, const char* what, cl_event* event);

// Copies `region` from `source` laid out as `from` to `destination` laid out as `to`.
cl_int enqueueCopyRect(Enqueue& command, std::shared_ptr<Memory> source, std::shared_ptr<Memory> destination,
                       const RectLayout& from, const RectLayout& to, const size_t* region, cl_command_type type,
                       const char* what, cl_event* event);

// Writes the `pattern` (one texel) over every element of `region` (`region[0]` in elements) of
// `memory` laid out as `layout`.
cl_int enqueueFillRect(Enqueue& command, std::shared_ptr<Memory> memory, const RectLayout& layout, const size_t* region,
                       std::vector<std::byte> pattern, cl_command_type type, const char* what, cl_event* event);

}  // namespace cl2vk::runtime
