// The image commands (section 5.3.3 to 5.3.6 of the OpenCL 3.0 API specification). An image's
// texels are rows in a buffer (docs/images.md), so each command is the rectangular transfer of
// rect_transfer.h over the texels' bytes, and a map maps the span of rows the region covers.
#include "runtime/api_util.h"
#include "runtime/image_format.h"
#include "runtime/memory.h"
#include "runtime/queue.h"
#include "runtime/rect_transfer.h"

using namespace cl2vk::runtime;

namespace {

// Where `region` at `origin` (in texels; for arrays the layer is the index after the image's
// dimensions) lies in the image's memory, and its extent with x in bytes. CL_INVALID_VALUE for a
// region outside the image or with more dimensions than it has.
cl_int imageRegion(const ImageDescription& image, const size_t* origin, const size_t* region, RectLayout* layout,
                   size_t bytes[3]) {
  if (origin == nullptr || region == nullptr) return CL_INVALID_VALUE;
  std::array<size_t, 3> extent = image.extent();
  for (int d = 0; d < 3; ++d) {
    if (region[d] == 0 || origin[d] >= extent[d] || region[d] > extent[d] - origin[d]) return CL_INVALID_VALUE;
  }
  size_t slicePitch = image.slicePitch != 0 ? image.slicePitch : image.rowStride() * extent[1];
  *layout = RectLayout{{origin[0] * image.texelSize, origin[1], origin[2]}, image.rowStride(), slicePitch};
  bytes[0] = region[0] * image.texelSize;
  bytes[1] = region[1];
  bytes[2] = region[2];
  return CL_SUCCESS;
}

// The host side of a read or write: its pitches as the application gives them (0 for the
// defaults), in the rows and slices of ImageDescription::extent() (a 1D array's layers are rows,
// `slicePitch` apart, or `rowPitch` when that is 0). Unlike a buffer rectangle's, an image's slice
// pitch need not be a multiple of its row pitch; 1D and 2D images take no slice pitch.
cl_int hostLayout(const ImageDescription& image, const size_t* bytes, size_t rowPitch, size_t slicePitch,
                  RectLayout* layout) {
  bool sliced = image.type == CL_MEM_OBJECT_IMAGE3D || image.type == CL_MEM_OBJECT_IMAGE2D_ARRAY;
  if (image.type == CL_MEM_OBJECT_IMAGE1D_ARRAY) {
    if (slicePitch != 0) rowPitch = slicePitch;
    slicePitch = 0;
  } else if (!sliced && slicePitch != 0) {
    return CL_INVALID_VALUE;
  }
  if (rowPitch == 0) rowPitch = bytes[0];
  if (slicePitch == 0) slicePitch = rowPitch * bytes[1];
  if (rowPitch < bytes[0] || slicePitch < rowPitch * bytes[1]) return CL_INVALID_VALUE;
  *layout = RectLayout{{0, 0, 0}, rowPitch, slicePitch};
  return CL_SUCCESS;
}

cl_int hostImage(cl_command_queue command_queue, cl_mem image, bool toHost, bool blocking, const size_t* origin,
                 const size_t* region, size_t rowPitch, size_t slicePitch, void* ptr, cl_uint num_events,
                 const cl_event* wait_list, cl_event* event) {
  Enqueue command;
  if (cl_int status = prepareEnqueue(command_queue, num_events, wait_list, &command); status != CL_SUCCESS)
    return status;
  std::shared_ptr<Memory> memory;
  if (cl_int status = findImage(image, *command.queue, &memory); status != CL_SUCCESS) return status;
  if (toHost ? !memory->hostMayRead() : !memory->hostMayWrite()) return CL_INVALID_OPERATION;
  if (ptr == nullptr) return CL_INVALID_VALUE;
  RectLayout device{}, host{};
  size_t bytes[3];
  if (cl_int status = imageRegion(*memory->image(), origin, region, &device, bytes); status != CL_SUCCESS)
    return status;
  if (cl_int status = hostLayout(*memory->image(), bytes, rowPitch, slicePitch, &host); status != CL_SUCCESS)
    return status;
  return enqueueHostRect(command, std::move(memory), toHost, blocking, device, host, bytes,
                         static_cast<std::byte*>(ptr), toHost ? CL_COMMAND_READ_IMAGE : CL_COMMAND_WRITE_IMAGE,
                         toHost ? "clEnqueueReadImage" : "clEnqueueWriteImage", event);
}

// Whether two boxes of `region` in one image share a texel.
bool boxesOverlap(const size_t* a, const size_t* b, const size_t* region) {
  for (int d = 0; d < 3; ++d) {
    if (a[d] + region[d] <= b[d] || b[d] + region[d] <= a[d]) return false;
  }
  return true;
}

// A buffer's side of a copy to or from an image: `bytes` packed tightly from `offset`.
cl_int bufferLayout(const Memory& buffer, size_t offset, const size_t* bytes, RectLayout* layout) {
  const size_t origin[3] = {offset, 0, 0};
  makeLayout(origin, bytes, 0, 0, layout);
  return layout->end(bytes) > buffer.size() ? CL_INVALID_VALUE : CL_SUCCESS;
}

// clEnqueueCopyImageToBuffer (`toBuffer`) and clEnqueueCopyBufferToImage.
cl_int copyBetween(cl_command_queue command_queue, cl_mem image, cl_mem buffer, bool toBuffer, const size_t* origin,
                   const size_t* region, size_t offset, cl_uint num_events, const cl_event* wait_list,
                   cl_event* event) {
  Enqueue command;
  if (cl_int status = prepareEnqueue(command_queue, num_events, wait_list, &command); status != CL_SUCCESS)
    return status;
  std::shared_ptr<Memory> imageMemory, bufferMemory;
  if (cl_int status = findImage(image, *command.queue, &imageMemory); status != CL_SUCCESS) return status;
  if (cl_int status = findBuffer(buffer, *command.queue, &bufferMemory); status != CL_SUCCESS) return status;
  RectLayout inImage{}, inBuffer{};
  size_t bytes[3];
  if (cl_int status = imageRegion(*imageMemory->image(), origin, region, &inImage, bytes); status != CL_SUCCESS)
    return status;
  if (cl_int status = bufferLayout(*bufferMemory, offset, bytes, &inBuffer); status != CL_SUCCESS) return status;
  if (toBuffer)
    return enqueueCopyRect(command, std::move(imageMemory), std::move(bufferMemory), inImage, inBuffer, bytes,
                           CL_COMMAND_COPY_IMAGE_TO_BUFFER, "clEnqueueCopyImageToBuffer", event);
  return enqueueCopyRect(command, std::move(bufferMemory), std::move(imageMemory), inBuffer, inImage, bytes,
                         CL_COMMAND_COPY_BUFFER_TO_IMAGE, "clEnqueueCopyBufferToImage", event);
}

}  // namespace

extern "C" {

CL_API_ENTRY cl_int CL_API_CALL clEnqueueReadImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_read,
                                                   const size_t* origin, const size_t* region, size_t row_pitch,
                                                   size_t slice_pitch, void* ptr, cl_uint num_events_in_wait_list,
                                                   const cl_event* event_wait_list, cl_event* event) {
  return hostImage(command_queue, image, true, blocking_read, origin, region, row_pitch, slice_pitch, ptr,
                   num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueWriteImage(cl_command_queue command_queue, cl_mem image,
                                                    cl_bool blocking_write, const size_t* origin, const size_t* region,
                                                    size_t input_row_pitch, size_t input_slice_pitch, const void* ptr,
                                                    cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                    cl_event* event) {
  return hostImage(command_queue, image, false, blocking_write, origin, region, input_row_pitch, input_slice_pitch,
                   const_cast<void*>(ptr), num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImage(cl_command_queue command_queue, cl_mem src_image, cl_mem dst_image,
                                                   const size_t* src_origin, const size_t* dst_origin,
                                                   const size_t* region, cl_uint num_events_in_wait_list,
                                                   const cl_event* event_wait_list, cl_event* event) {
  Enqueue command;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &command);
      status != CL_SUCCESS)
    return status;
  std::shared_ptr<Memory> source, destination;
  if (cl_int status = findImage(src_image, *command.queue, &source); status != CL_SUCCESS) return status;
  if (cl_int status = findImage(dst_image, *command.queue, &destination); status != CL_SUCCESS) return status;
  const cl_image_format& from = source->image()->format;
  const cl_image_format& to = destination->image()->format;
  if (from.image_channel_order != to.image_channel_order || from.image_channel_data_type != to.image_channel_data_type)
    return CL_IMAGE_FORMAT_MISMATCH;
  RectLayout fromLayout{}, toLayout{};
  size_t bytes[3], ignored[3];
  if (cl_int status = imageRegion(*source->image(), src_origin, region, &fromLayout, bytes); status != CL_SUCCESS)
    return status;
  if (cl_int status = imageRegion(*destination->image(), dst_origin, region, &toLayout, ignored); status != CL_SUCCESS)
    return status;
  if (source == destination && boxesOverlap(src_origin, dst_origin, region)) return CL_MEM_COPY_OVERLAP;
  return enqueueCopyRect(command, std::move(source), std::move(destination), fromLayout, toLayout, bytes,
                         CL_COMMAND_COPY_IMAGE, "clEnqueueCopyImage", event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueFillImage(cl_command_queue command_queue, cl_mem image, const void* fill_color,
                                                   const size_t* origin, const size_t* region,
                                                   cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                   cl_event* event) {
  Enqueue command;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &command);
      status != CL_SUCCESS)
    return status;
  std::shared_ptr<Memory> memory;
  if (cl_int status = findImage(image, *command.queue, &memory); status != CL_SUCCESS) return status;
  if (fill_color == nullptr) return CL_INVALID_VALUE;
  RectLayout layout{};
  size_t bytes[3];
  if (cl_int status = imageRegion(*memory->image(), origin, region, &layout, bytes); status != CL_SUCCESS)
    return status;
  std::vector<std::byte> texel = fillTexel(memory->image()->format, fill_color);
  return enqueueFillRect(command, std::move(memory), layout, region, std::move(texel), CL_COMMAND_FILL_IMAGE,
                         "clEnqueueFillImage", event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyImageToBuffer(cl_command_queue command_queue, cl_mem src_image,
                                                           cl_mem dst_buffer, const size_t* src_origin,
                                                           const size_t* region, size_t dst_offset,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event* event_wait_list, cl_event* event) {
  return copyBetween(command_queue, src_image, dst_buffer, true, src_origin, region, dst_offset,
                     num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY cl_int CL_API_CALL clEnqueueCopyBufferToImage(cl_command_queue command_queue, cl_mem src_buffer,
                                                           cl_mem dst_image, size_t src_offset,
                                                           const size_t* dst_origin, const size_t* region,
                                                           cl_uint num_events_in_wait_list,
                                                           const cl_event* event_wait_list, cl_event* event) {
  return copyBetween(command_queue, dst_image, src_buffer, false, dst_origin, region, src_offset,
                     num_events_in_wait_list, event_wait_list, event);
}

CL_API_ENTRY void* CL_API_CALL clEnqueueMapImage(cl_command_queue command_queue, cl_mem image, cl_bool blocking_map,
                                                 cl_map_flags map_flags, const size_t* origin, const size_t* region,
                                                 size_t* image_row_pitch, size_t* image_slice_pitch,
                                                 cl_uint num_events_in_wait_list, const cl_event* event_wait_list,
                                                 cl_event* event, cl_int* errcode_ret) {
  Enqueue command;
  if (cl_int status = prepareEnqueue(command_queue, num_events_in_wait_list, event_wait_list, &command);
      status != CL_SUCCESS)
    return withError<void*>(errcode_ret, status, nullptr);
  std::shared_ptr<Memory> memory;
  if (cl_int status = findImage(image, *command.queue, &memory); status != CL_SUCCESS)
    return withError<void*>(errcode_ret, status, nullptr);
  const ImageDescription& description = *memory->image();
  bool slices = description.type == CL_MEM_OBJECT_IMAGE3D || description.isArray();
  if (image_row_pitch == nullptr || (slices && image_slice_pitch == nullptr))
    return withError<void*>(errcode_ret, CL_INVALID_VALUE, nullptr);
  RectLayout layout{};
  size_t bytes[3];
  if (cl_int status = imageRegion(description, origin, region, &layout, bytes); status != CL_SUCCESS)
    return withError<void*>(errcode_ret, status, nullptr);
  // The map shows the image's own layout from the region's first texel on.
  *image_row_pitch = description.rowPitch;
  if (image_slice_pitch != nullptr) *image_slice_pitch = description.slicePitch;
  size_t offset = layout.begin();
  return enqueueMap(command, std::move(memory), blocking_map, map_flags, offset, layout.end(bytes) - offset,
                    CL_COMMAND_MAP_IMAGE, "clEnqueueMapImage", event, errcode_ret);
}

}  // extern "C"
