// Images as memory objects (docs/images.md): a buffer holding the texels, and the description
// that clGetImageInfo reports and a kernel's image argument carries.
#include <algorithm>
#include <cstring>

#include "cl2vk/reflection.h"
#include "launch/argument_block.h"
#include "runtime/image_format.h"
#include "runtime/memory.h"

namespace cl2vk::runtime {
namespace {

bool isImageType(cl_mem_object_type type) {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D:
    case CL_MEM_OBJECT_IMAGE1D_BUFFER:
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
    case CL_MEM_OBJECT_IMAGE2D:
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
    case CL_MEM_OBJECT_IMAGE3D: return true;
    default: return false;
  }
}

// The image's dimensions against the device's limits (CL_INVALID_IMAGE_SIZE).
bool fitsDevice(const ImageDescription& image, const Device& device) {
  auto within = [](size_t value, size_t limit) { return value >= 1 && value <= limit; };
  switch (image.type) {
    case CL_MEM_OBJECT_IMAGE1D: return within(image.width, Device::kImage2dMaxSize);
    case CL_MEM_OBJECT_IMAGE1D_BUFFER: return within(image.width, device.imageMaxBufferSize());
    case CL_MEM_OBJECT_IMAGE1D_ARRAY:
      return within(image.width, Device::kImage2dMaxSize) && within(image.arraySize, Device::kImageMaxArraySize);
    case CL_MEM_OBJECT_IMAGE2D:
      return within(image.width, Device::kImage2dMaxSize) && within(image.height, Device::kImage2dMaxSize);
    case CL_MEM_OBJECT_IMAGE2D_ARRAY:
      return within(image.width, Device::kImage2dMaxSize) && within(image.height, Device::kImage2dMaxSize) &&
             within(image.arraySize, Device::kImageMaxArraySize);
    default:
      return within(image.width, Device::kImage3dMaxSize) && within(image.height, Device::kImage3dMaxSize) &&
             within(image.depth, Device::kImage3dMaxSize);
  }
}

// The description `desc` gives, pitches not yet set; the error is the OpenCL code.
cl_int describe(const cl_image_format* format, const cl_image_desc* desc, ImageDescription* image) {
  if (format == nullptr) return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  if (desc == nullptr || !isImageType(desc->image_type) || desc->num_mip_levels != 0 || desc->num_samples != 0)
    return CL_INVALID_IMAGE_DESCRIPTOR;
  image->type = desc->image_type;
  image->format = *format;
  image->texelSize = texelSize(*format);
  if (!imageFormatValid(*format)) return CL_INVALID_IMAGE_FORMAT_DESCRIPTOR;
  if (image->texelSize == 0) return CL_IMAGE_FORMAT_NOT_SUPPORTED;
  image->width = desc->image_width;
  bool twoD = image->type == CL_MEM_OBJECT_IMAGE2D || image->type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
              image->type == CL_MEM_OBJECT_IMAGE3D;
  image->height = twoD ? desc->image_height : 1;
  image->depth = image->type == CL_MEM_OBJECT_IMAGE3D ? desc->image_depth : 1;
  image->arraySize = image->isArray() ? desc->image_array_size : 1;
  return CL_SUCCESS;
}

// Sets the pitches: the host's (`desc`'s, which are 0 for their defaults) or the tight ones.
cl_int setPitches(const cl_image_desc& desc, bool fromHost, ImageDescription* image) {
  size_t tightRow = image->width * image->texelSize;
  size_t rows = image->type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? 1 : image->height;
  if (!fromHost && (desc.image_row_pitch != 0 || desc.image_slice_pitch != 0)) return CL_INVALID_IMAGE_DESCRIPTOR;
  image->rowPitch = desc.image_row_pitch != 0 ? desc.image_row_pitch : tightRow;
  if (image->rowPitch < tightRow || image->rowPitch % image->texelSize != 0) return CL_INVALID_IMAGE_DESCRIPTOR;
  bool slices = image->type == CL_MEM_OBJECT_IMAGE3D || image->isArray();
  size_t tightSlice = image->rowPitch * rows;
  image->slicePitch = slices && desc.image_slice_pitch != 0 ? desc.image_slice_pitch : slices ? tightSlice : 0;
  if (slices && (image->slicePitch < tightSlice || image->slicePitch % image->rowPitch != 0))
    return CL_INVALID_IMAGE_DESCRIPTOR;
  return CL_SUCCESS;
}

// Bytes from the first texel to the end of the last.
size_t storageSize(const ImageDescription& image) {
  std::array<size_t, 3> extent = image.extent();
  size_t slices = extent[2] - 1, rows = extent[1] - 1;
  return slices * image.slicePitch + rows * image.rowStride() + extent[0] * image.texelSize;
}

}  // namespace

std::array<size_t, 3> ImageDescription::extent() const {
  switch (type) {
    case CL_MEM_OBJECT_IMAGE1D_ARRAY: return {width, arraySize, 1};
    case CL_MEM_OBJECT_IMAGE2D_ARRAY: return {width, height, arraySize};
    default: return {width, height, depth};
  }
}

std::shared_ptr<Memory> Memory::createImage(std::shared_ptr<Context> context, cl_mem_flags flags,
                                            const cl_image_format* format, const cl_image_desc* desc, void* hostPtr,
                                            std::vector<cl_mem_properties> properties, cl_int* error) {
  ImageDescription image;
  if (cl_int status = describe(format, desc, &image); status != CL_SUCCESS) {
    *error = status;
    return nullptr;
  }
  for (Device* device : context->devices()) {
    if (!fitsDevice(image, *device)) {
      *error = CL_INVALID_IMAGE_SIZE;
      return nullptr;
    }
  }
  // The image's memory is a buffer's: the one it is made from, or one of its own.
  cl_mem bufferHandle = desc->mem_object;
  bool fromBuffer = bufferHandle != nullptr;
  if (fromBuffer != (image.type == CL_MEM_OBJECT_IMAGE1D_BUFFER) && image.type != CL_MEM_OBJECT_IMAGE2D) {
    *error = CL_INVALID_IMAGE_DESCRIPTOR;
    return nullptr;
  }
  if (fromBuffer) {
    std::shared_ptr<Memory> buffer = Memory::find(bufferHandle);
    if (!buffer || buffer->image() || buffer->context_ != context || hostPtr != nullptr ||
        (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR))) {
      *error = !buffer || buffer->image() ? CL_INVALID_IMAGE_DESCRIPTOR : CL_INVALID_VALUE;
      return nullptr;
    }
    if (cl_int status = setPitches(*desc, true, &image); status != CL_SUCCESS) {
      *error = status;
      return nullptr;
    }
    if (storageSize(image) > buffer->size()) {
      *error = CL_INVALID_IMAGE_SIZE;
      return nullptr;
    }
    // The buffer's flags where the image gives none (OpenCL 3.0, clCreateImage).
    constexpr cl_mem_flags kAccess = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
    constexpr cl_mem_flags kHost = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
    if (!(flags & kAccess)) flags |= buffer->flags_ & kAccess;
    if (!(flags & kHost)) flags |= buffer->flags_ & kHost;
    flags |= buffer->flags_ & (CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR);
    if (!imageFormatSupported(image.format, flags)) {
      *error = CL_IMAGE_FORMAT_NOT_SUPPORTED;
      return nullptr;
    }
    std::shared_ptr<Memory> memory(new Memory(context, flags, storageSize(image)));
    memory->storage_ = buffer->storage_;
    memory->origin_ = buffer->origin_;
    memory->hostPtr_ = buffer->hostPtr_;
    memory->properties_ = std::move(properties);
    image.buffer = std::move(buffer);
    memory->image_ = std::move(image);
    *error = CL_SUCCESS;
    return memory;
  }
  // CL_MEM_USE_HOST_PTR keeps the host's pitches (the application's memory is the image's on a
  // CPU device); CL_MEM_COPY_HOST_PTR copies into tight rows.
  bool usesHost = (flags & CL_MEM_USE_HOST_PTR) != 0;
  if (cl_int status = setPitches(*desc, hostPtr != nullptr, &image); status != CL_SUCCESS) {
    *error = status;
    return nullptr;
  }
  if (!imageFormatSupported(image.format, flags)) {
    *error = CL_IMAGE_FORMAT_NOT_SUPPORTED;
    return nullptr;
  }
  std::vector<std::byte> packed;
  void* initial = hostPtr;
  if (hostPtr != nullptr && !usesHost) {
    ImageDescription tight = image;
    cl_image_desc none = *desc;
    none.image_row_pitch = none.image_slice_pitch = 0;
    setPitches(none, false, &tight);
    std::array<size_t, 3> extent = image.extent();
    packed.resize(storageSize(tight));
    for (size_t z = 0; z < extent[2]; ++z) {
      for (size_t y = 0; y < extent[1]; ++y) {
        std::memcpy(packed.data() + z * tight.slicePitch + y * tight.rowStride(),
                    static_cast<const std::byte*>(hostPtr) + z * image.slicePitch + y * image.rowStride(),
                    extent[0] * image.texelSize);
      }
    }
    image.rowPitch = tight.rowPitch;
    image.slicePitch = tight.slicePitch;
    initial = packed.data();
  }
  std::shared_ptr<Memory> memory =
      createBuffer(std::move(context), flags, storageSize(image), initial, std::move(properties), error);
  if (!memory) {
    if (*error == CL_INVALID_BUFFER_SIZE) *error = CL_INVALID_IMAGE_SIZE;
    return nullptr;
  }
  memory->image_ = std::move(image);
  return memory;
}

Expected<std::vector<std::byte>> Memory::imageRecord(Device& device) {
  Expected<Location> location = locate(device);
  if (!location) return location.error();
  const ImageDescription& image = *image_;
  uint64_t address = location->buffer->deviceAddress() + location->offset;
  uint64_t slicePitch = image.slicePitch;
  std::array<size_t, 3> extent = image.extent();
  bool narrow = launch::imageOffsetsAreNarrow({extent[0], extent[1], extent[2]}, image.texelSize, image.rowStride(),
                                              image.slicePitch);
  uint32_t fields[8] = {static_cast<uint32_t>(image.width),    static_cast<uint32_t>(image.height),
                        static_cast<uint32_t>(image.depth),    static_cast<uint32_t>(image.arraySize),
                        static_cast<uint32_t>(image.rowPitch), image.format.image_channel_order,
                        image.format.image_channel_data_type,  narrow ? 1u : 0u};
  std::vector<std::byte> record(ImageRecordLayout::kBytes);
  std::memcpy(record.data() + ImageRecordLayout::kData, &address, 8);
  std::memcpy(record.data() + ImageRecordLayout::kSlicePitch, &slicePitch, 8);
  std::memcpy(record.data() + ImageRecordLayout::kSize, fields, sizeof fields);
  return record;
}

cl_int Memory::getImageInfo(cl_image_info param, const InfoOut& out) {
  const ImageDescription& image = *image_;
  bool hasHeight = image.type == CL_MEM_OBJECT_IMAGE2D || image.type == CL_MEM_OBJECT_IMAGE2D_ARRAY ||
                   image.type == CL_MEM_OBJECT_IMAGE3D;
  switch (param) {
    case CL_IMAGE_FORMAT: return out.scalar<cl_image_format>(image.format);
    case CL_IMAGE_ELEMENT_SIZE: return out.scalar<size_t>(image.texelSize);
    case CL_IMAGE_ROW_PITCH: return out.scalar<size_t>(image.rowPitch);
    case CL_IMAGE_SLICE_PITCH: return out.scalar<size_t>(image.slicePitch);
    case CL_IMAGE_WIDTH: return out.scalar<size_t>(image.width);
    case CL_IMAGE_HEIGHT: return out.scalar<size_t>(hasHeight ? image.height : 0);
    case CL_IMAGE_DEPTH: return out.scalar<size_t>(image.type == CL_MEM_OBJECT_IMAGE3D ? image.depth : 0);
    case CL_IMAGE_ARRAY_SIZE: return out.scalar<size_t>(image.isArray() ? image.arraySize : 0);
    case CL_IMAGE_BUFFER: return out.scalar<cl_mem>(image.buffer ? image.buffer->handle() : nullptr);
    case CL_IMAGE_NUM_MIP_LEVELS:
    case CL_IMAGE_NUM_SAMPLES: return out.scalar<cl_uint>(0);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace cl2vk::runtime
