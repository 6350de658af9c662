// cl_mem buffers. A buffer's contents live in device-local Vulkan memory (vulkan::Buffer), reached
// by kernels through its device address; the host reads and writes them through staging copies,
// or directly on a CPU device, whose device memory is host memory (vulkan::Buffer::write).
// Sub-buffers share their parent's storage at an offset.
//
// Maps (docs/runtime.md, "Transfers and maps"): CL_MEM_USE_HOST_PTR's host memory is the buffer's
// memory on a CPU device that can import it (its only device); elsewhere it is copied in at
// creation, and the map copies the contents into it and the unmap back (the specification lets an
// implementation cache it on the device between maps). On a CPU device in a context of one device a
// map returns the buffer's own memory and copies nothing. Otherwise the map returns host memory of
// the runtime's for the whole buffer (CL_MEM_ALLOC_HOST_PTR included), allocated at the first map
// as pinned memory that the device copies into and out of itself (vulkan::Buffer::createHostMemory;
// plain memory and staging copies where it cannot be had), which the map fills and the unmap
// writes back. In a context of several devices the contents move, through the host, to the device
// of the queue that uses them.
#pragma once

#include <array>
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

#include "cl2vk/expected.h"
#include "runtime/context.h"
#include "runtime/object.h"
#include "vulkan/buffer.h"

namespace cl2vk::runtime {

class BufferStorage {
 public:
  // Allocates on the context's first device. Errors name the size and Vulkan's reason. The
  // context outlives the storage (the buffers that hold it hold the context).
  static Expected<std::shared_ptr<BufferStorage>> create(Context& context, size_t size);
  // CL_MEM_USE_HOST_PTR's storage: the application's `size` bytes at `hostPtr` themselves,
  // imported (vulkan::Buffer::importHostMemory), where the context is one CPU device that can
  // import them; nothing where not (the caller allocates and copies).
  static std::shared_ptr<BufferStorage> importHost(Context& context, void* hostPtr, size_t size);

  // The Vulkan buffer on `device`, holding the current contents (moved there if they were on
  // another device).
  Expected<vulkan::Buffer*> on(Device& device);
  // Whether the memory is the application's, imported (importHost).
  bool importedHost() const { return importedHost_; }

 private:
  BufferStorage(Context& context, size_t size) : context_(context), size_(size) {}

  Context& context_;
  size_t size_;
  std::mutex mutex_;
  std::map<Device*, vulkan::Buffer> copies_;
  Device* current_ = nullptr;
  bool importedHost_ = false;
};

using MemoryDestructorCallback = void(CL_CALLBACK*)(cl_mem memobj, void* user_data);

class Memory;

// What makes a memory object an image (docs/images.md): its texels lie in its buffer storage one
// row after another, rows `rowPitch` bytes apart and slices (3D) or layers (arrays) `slicePitch`
// bytes apart, and kernels address them in software.
struct ImageDescription {
  cl_mem_object_type type = 0;
  cl_image_format format{};
  size_t texelSize = 0;
  size_t width = 1, height = 1, depth = 1, arraySize = 1;
  size_t rowPitch = 0, slicePitch = 0;
  // The buffer whose memory the image is (CL_MEM_OBJECT_IMAGE1D_BUFFER, 2D images from buffers).
  std::shared_ptr<Memory> buffer;

  // The image's dimensions as a 3D region: layers of arrays count as rows (1D) or slices (2D).
  std::array<size_t, 3> extent() const;
  bool isArray() const { return type == CL_MEM_OBJECT_IMAGE1D_ARRAY || type == CL_MEM_OBJECT_IMAGE2D_ARRAY; }
  // The pitch between the rows, and between the slices, of extent().
  size_t rowStride() const { return type == CL_MEM_OBJECT_IMAGE1D_ARRAY ? slicePitch : rowPitch; }
};

class Memory : public Object<Memory, _cl_mem> {
 public:
  // A buffer; `hostPtr` is the application's memory for CL_MEM_USE_HOST_PTR and
  // CL_MEM_COPY_HOST_PTR. The error is the OpenCL code, explained through the context.
  static std::shared_ptr<Memory> createBuffer(std::shared_ptr<Context> context, cl_mem_flags flags, size_t size,
                                              void* hostPtr, std::vector<cl_mem_properties> properties, cl_int* error);
  static std::shared_ptr<Memory> createSubBuffer(std::shared_ptr<Memory> parent, cl_mem_flags flags, size_t origin,
                                                 size_t size, cl_int* error);
  // An image (clCreateImage; image.cc); `hostPtr` as for buffers, laid out with `desc`'s pitches.
  static std::shared_ptr<Memory> createImage(std::shared_ptr<Context> context, cl_mem_flags flags,
                                             const cl_image_format* format, const cl_image_desc* desc, void* hostPtr,
                                             std::vector<cl_mem_properties> properties, cl_int* error);
  ~Memory() override;

  Context& context() { return *context_; }
  const std::shared_ptr<Context>& sharedContext() const { return context_; }
  cl_mem_flags flags() const { return flags_; }
  // Whether the host-access flags let the host read (clEnqueueRead*, a map for reading) or write it.
  bool hostMayRead() const { return !(flags_ & (CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_NO_ACCESS)); }
  bool hostMayWrite() const { return !(flags_ & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS)); }
  size_t size() const { return size_; }
  bool isSubBuffer() const { return parent_ != nullptr; }
  // The image this object is, or null for a buffer.
  const ImageDescription* image() const { return image_ ? &*image_ : nullptr; }
  // The 48-byte record of an image kernel argument on `device` (docs/images.md).
  Expected<std::vector<std::byte>> imageRecord(Device& device);
  // Whether the buffer's memory is CL_MEM_USE_HOST_PTR's memory itself (BufferStorage::importHost):
  // then a map returns it and copies nothing, as does the CPU device's own memory.
  bool importedHost() const { return storage_->importedHost(); }

  // The Vulkan buffer on `device` and where this object starts in it.
  struct Location {
    vulkan::Buffer* buffer;
    size_t offset;
  };
  Expected<Location> locate(Device& device);

  // Mapping: the host address for [offset, offset + size) of this buffer, mapped by a queue on
  // `device`, recorded until unmapped.
  void* beginMap(Device& device, size_t offset, size_t size, cl_map_flags flags);
  // Brings the contents of [offset, offset + size) into the mapping at `pointer` (beginMap), on
  // `device`: a map's command, for reading or writing.
  Status fillMapping(Device& device, void* pointer, size_t offset, size_t size);
  // Writes the mapping at `pointer` back into [offset, offset + size): an unmap's command after a
  // map for writing.
  Status writeBackMapping(Device& device, const void* pointer, size_t offset, size_t size);
  struct Mapping {
    size_t offset;
    size_t size;
    cl_map_flags flags;
  };
  // The mapping at `pointer`, removed; nothing when `pointer` is not a mapped address.
  std::optional<Mapping> endMap(void* pointer);

  void addDestructorCallback(MemoryDestructorCallback callback, void* userData);
  cl_int getInfo(cl_mem_info param, const InfoOut& out);
  cl_int getImageInfo(cl_image_info param, const InfoOut& out);

 private:
  Memory(std::shared_ptr<Context> context, cl_mem_flags flags, size_t size)
      : context_(std::move(context)), flags_(flags), size_(size) {}
  // Host memory backing maps that are not the buffer's own memory: the application's
  // (USE_HOST_PTR) or the runtime's, for the whole buffer, pinned on `device` where it can be.
  // Under mutex_.
  std::byte* hostBase(Device& device);
  // The pinned memory behind the maps, if that is what hostBase allocated.
  vulkan::Buffer* pinnedShadow();
  // What a mapping at `pointer` of the range at `offset` goes through on `device`: the Vulkan
  // buffer and where the range is in it; whether the mapping is that buffer's own memory; the
  // pinned memory it is in, if so.
  struct MappedRange {
    vulkan::Buffer* buffer;
    size_t at;
    bool own;
    vulkan::Buffer* pinned;
  };
  Expected<MappedRange> mappedRange(Device& device, const void* pointer, size_t offset);

  std::shared_ptr<Context> context_;
  cl_mem_flags flags_;
  size_t size_;
  void* hostPtr_ = nullptr;  // CL_MEM_USE_HOST_PTR's memory, or null
  std::vector<cl_mem_properties> properties_;
  std::shared_ptr<Memory> parent_;
  size_t origin_ = 0;
  std::shared_ptr<BufferStorage> storage_;
  std::optional<ImageDescription> image_;

  std::mutex mutex_;
  std::optional<vulkan::Buffer> pinnedShadow_;
  std::unique_ptr<std::byte[]> shadow_;
  std::multimap<void*, Mapping> mappings_;
  std::vector<std::pair<MemoryDestructorCallback, void*>> destructorCallbacks_;
};

}  // namespace cl2vk::runtime
