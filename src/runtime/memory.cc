#include "runtime/memory.h"

#include <bit>
#include <cstdio>
#include <cstring>

namespace cl2vk::runtime {
namespace {

constexpr cl_mem_flags kAccessFlags = CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY | CL_MEM_READ_ONLY;
constexpr cl_mem_flags kHostAccessFlags = CL_MEM_HOST_WRITE_ONLY | CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_NO_ACCESS;
constexpr cl_mem_flags kHostPointerFlags = CL_MEM_USE_HOST_PTR | CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR;

bool atMostOne(cl_mem_flags flags, cl_mem_flags group) { return std::popcount(flags & group) <= 1; }

}  // namespace

Expected<std::shared_ptr<BufferStorage>> BufferStorage::create(Context& context, size_t size) {
  std::shared_ptr<BufferStorage> storage(new BufferStorage(context, size));
  Expected<vulkan::Buffer*> first = storage->on(*context.devices().front());
  if (!first) return first.error();
  return storage;
}

std::shared_ptr<BufferStorage> BufferStorage::importHost(Context& context, void* hostPtr, size_t size) {
  // On a GPU the kernels would reach imported memory across the bus: it stays a cache there.
  if (context.devices().size() != 1) return nullptr;
  Device& device = *context.devices().front();
  if (device.info().type != VK_PHYSICAL_DEVICE_TYPE_CPU || device.info().importedHostPointerAlignment == 0)
    return nullptr;
  auto copied = [](const std::string& why) {
    if (loggingEnabled())
      std::fprintf(stderr, "cl2vk: clCreateBuffer: CL_MEM_USE_HOST_PTR memory copied, not imported: %s\n", why.c_str());
    return nullptr;
  };
  // Kernels may rely on CL_DEVICE_MEM_BASE_ADDR_ALIGN (a float16 argument's loads do).
  if (reinterpret_cast<uintptr_t>(hostPtr) % Device::kBaseAddressAlignment != 0)
    return copied("the address is not aligned to CL_DEVICE_MEM_BASE_ADDR_ALIGN (" +
                  std::to_string(Device::kBaseAddressAlignment) + " bytes)");
  Expected<vulkan::Buffer> imported = vulkan::Buffer::importHostMemory(context.vulkanDevice(device), hostPtr, size);
  if (!imported) return copied(imported.error().message());
  std::shared_ptr<BufferStorage> storage(new BufferStorage(context, size));
  storage->copies_.emplace(&device, std::move(*imported));
  storage->current_ = &device;
  storage->importedHost_ = true;
  return storage;
}

Expected<vulkan::Buffer*> BufferStorage::on(Device& device) {
  std::lock_guard lock(mutex_);
  auto found = copies_.find(&device);
  if (found == copies_.end()) {
    Expected<vulkan::Buffer> buffer = vulkan::Buffer::create(context_.vulkanDevice(device), size_);
    if (!buffer)
      return buffer.error().withContext("allocating " + std::to_string(size_) + " bytes on " + device.info().name);
    found = copies_.emplace(&device, std::move(*buffer)).first;
  }
  if (current_ != nullptr && current_ != &device) {
    vulkan::Buffer& from = copies_.at(current_);
    Expected<vulkan::HostRelay*> relay = context_.relay(*current_, device);
    if (!relay) return relay.error();
    if (*relay != nullptr) {
      CL2VK_TRY((*relay)->copy(from, found->second, size_));
    } else {
      std::vector<std::byte> contents(size_);
      CL2VK_TRY(from.download(contents));
      CL2VK_TRY(found->second.upload(contents));
    }
  }
  current_ = &device;
  return &found->second;
}

std::shared_ptr<Memory> Memory::createBuffer(std::shared_ptr<Context> context, cl_mem_flags flags, size_t size,
                                             void* hostPtr, std::vector<cl_mem_properties> properties, cl_int* error) {
  constexpr cl_mem_flags kKnown = kAccessFlags | kHostAccessFlags | kHostPointerFlags | CL_MEM_KERNEL_READ_AND_WRITE;
  if ((flags & ~kKnown) != 0 || !atMostOne(flags, kAccessFlags) || !atMostOne(flags, kHostAccessFlags) ||
      ((flags & CL_MEM_USE_HOST_PTR) && (flags & (CL_MEM_ALLOC_HOST_PTR | CL_MEM_COPY_HOST_PTR)))) {
    *error = CL_INVALID_VALUE;
    return nullptr;
  }
  bool needsHostPtr = (flags & (CL_MEM_USE_HOST_PTR | CL_MEM_COPY_HOST_PTR)) != 0;
  if (needsHostPtr != (hostPtr != nullptr)) {
    *error = CL_INVALID_HOST_PTR;
    return nullptr;
  }
  if (size == 0) {
    *error = CL_INVALID_BUFFER_SIZE;
    return nullptr;
  }
  for (Device* device : context->devices()) {
    cl_ulong largest = 0;
    device->getInfo(CL_DEVICE_MAX_MEM_ALLOC_SIZE, InfoOut{sizeof largest, &largest, nullptr});
    if (size > largest) {
      context->report("clCreateBuffer: " + std::to_string(size) + " bytes is above CL_DEVICE_MAX_MEM_ALLOC_SIZE (" +
                      std::to_string(largest) + ") of " + device->info().name);
      *error = CL_INVALID_BUFFER_SIZE;
      return nullptr;
    }
  }
  if (!(flags & kAccessFlags)) flags |= CL_MEM_READ_WRITE;
  if (cl_int lost = context->checkNotLost("clCreateBuffer"); lost != CL_SUCCESS) {
    *error = lost;
    return nullptr;
  }

  std::shared_ptr<BufferStorage> imported;
  if (flags & CL_MEM_USE_HOST_PTR) imported = BufferStorage::importHost(*context, hostPtr, size);
  Expected<std::shared_ptr<BufferStorage>> storage =
      imported ? std::move(imported) : BufferStorage::create(*context, size);
  if (!storage) {
    context->report("clCreateBuffer: " + storage.error().message());
    *error = CL_MEM_OBJECT_ALLOCATION_FAILURE;
    return nullptr;
  }
  std::shared_ptr<Memory> memory(new Memory(context, flags, size));
  memory->storage_ = std::move(*storage);
  memory->properties_ = std::move(properties);
  if (flags & CL_MEM_USE_HOST_PTR) memory->hostPtr_ = hostPtr;
  if (needsHostPtr && !memory->importedHost()) {
    Expected<vulkan::Buffer*> buffer = memory->storage_->on(*context->devices().front());
    Status uploaded =
        buffer ? (*buffer)->upload(std::span(static_cast<const std::byte*>(hostPtr), size)) : Status(buffer.error());
    if (!uploaded) {
      context->report("clCreateBuffer: copying the host memory in: " + uploaded.error().message());
      *error = CL_OUT_OF_RESOURCES;
      return nullptr;
    }
  }
  *error = CL_SUCCESS;
  return memory;
}

std::shared_ptr<Memory> Memory::createSubBuffer(std::shared_ptr<Memory> parent, cl_mem_flags flags, size_t origin,
                                                size_t size, cl_int* error) {
  constexpr cl_mem_flags kKnown = kAccessFlags | kHostAccessFlags;
  const cl_mem_flags parentFlags = parent->flags_;
  if ((flags & ~kKnown) != 0 || !atMostOne(flags, kAccessFlags) || !atMostOne(flags, kHostAccessFlags)) {
    *error = CL_INVALID_VALUE;
    return nullptr;
  }
  // A sub-buffer may not be given more access than its parent has.
  bool deviceConflict = ((parentFlags & CL_MEM_WRITE_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_READ_ONLY))) ||
                        ((parentFlags & CL_MEM_READ_ONLY) && (flags & (CL_MEM_READ_WRITE | CL_MEM_WRITE_ONLY)));
  bool hostConflict =
      ((parentFlags & CL_MEM_HOST_WRITE_ONLY) && (flags & CL_MEM_HOST_READ_ONLY)) ||
      ((parentFlags & CL_MEM_HOST_READ_ONLY) && (flags & CL_MEM_HOST_WRITE_ONLY)) ||
      ((parentFlags & CL_MEM_HOST_NO_ACCESS) && (flags & (CL_MEM_HOST_READ_ONLY | CL_MEM_HOST_WRITE_ONLY)));
  if (deviceConflict || hostConflict) {
    *error = CL_INVALID_VALUE;
    return nullptr;
  }
  if (size == 0) {
    *error = CL_INVALID_BUFFER_SIZE;
    return nullptr;
  }
  if (origin > parent->size_ || size > parent->size_ - origin) {
    *error = CL_INVALID_VALUE;
    return nullptr;
  }
  if (origin % Device::kBaseAddressAlignment != 0) {
    *error = CL_MISALIGNED_SUB_BUFFER_OFFSET;
    return nullptr;
  }
  // Inherited: the access flags not given, the host access flags not given, the host pointer flags.
  if (!(flags & kAccessFlags)) flags |= parentFlags & kAccessFlags;
  if (!(flags & kHostAccessFlags)) flags |= parentFlags & kHostAccessFlags;
  flags |= parentFlags & kHostPointerFlags;

  std::shared_ptr<Memory> memory(new Memory(parent->context_, flags, size));
  memory->storage_ = parent->storage_;
  memory->origin_ = origin;
  if (parent->hostPtr_ != nullptr) memory->hostPtr_ = static_cast<std::byte*>(parent->hostPtr_) + origin;
  memory->parent_ = std::move(parent);
  *error = CL_SUCCESS;
  return memory;
}

Memory::~Memory() {
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it) it->first(this, it->second);
}

Expected<Memory::Location> Memory::locate(Device& device) {
  Expected<vulkan::Buffer*> buffer = storage_->on(device);
  if (!buffer) return buffer.error();
  return Location{*buffer, origin_};
}

std::byte* Memory::hostBase(Device& device) {
  if (hostPtr_ != nullptr) return static_cast<std::byte*>(hostPtr_);
  if (pinnedShadow_) return pinnedShadow_->hostAddress();
  if (shadow_) return shadow_.get();
  // Pinned memory is worth having where the device is not the CPU: the device copies into it at
  // the speed of its link, and the host reads it at the speed of its own memory.
  if (device.info().type != VK_PHYSICAL_DEVICE_TYPE_CPU) {
    Expected<vulkan::Buffer> pinned = vulkan::Buffer::createHostMemory(context_->vulkanDevice(device), size_);
    if (pinned) {
      pinnedShadow_ = std::move(*pinned);
      return pinnedShadow_->hostAddress();
    }
  }
  shadow_.reset(new std::byte[size_]);
  return shadow_.get();
}

vulkan::Buffer* Memory::pinnedShadow() {
  std::lock_guard lock(mutex_);
  return pinnedShadow_ ? &*pinnedShadow_ : nullptr;
}

void* Memory::beginMap(Device& device, size_t offset, size_t size, cl_map_flags flags) {
  std::byte* base = nullptr;
  // On a CPU device the buffer's own memory is host memory: mapping it copies nothing. Only where
  // the contents cannot move to another device while mapped.
  if (hostPtr_ == nullptr && context_->devices().size() == 1) {
    Expected<Location> location = locate(device);
    if (location && location->buffer->hostAddress() != nullptr)
      base = location->buffer->hostAddress() + location->offset;
  }
  std::lock_guard lock(mutex_);
  void* pointer = (base != nullptr ? base : hostBase(device)) + offset;
  mappings_.emplace(pointer, Mapping{offset, size, flags});
  return pointer;
}

Expected<Memory::MappedRange> Memory::mappedRange(Device& device, const void* pointer, size_t offset) {
  Expected<Location> location = locate(device);
  if (!location) return location.error();
  MappedRange range{location->buffer, location->offset + offset, false, nullptr};
  const std::byte* own = range.buffer->hostAddress();
  range.own = own != nullptr && pointer == own + range.at;
  vulkan::Buffer* pinned = pinnedShadow();
  if (pinned != nullptr && &pinned->device() == &range.buffer->device() && pointer == pinned->hostAddress() + offset)
    range.pinned = pinned;
  return range;
}

Status Memory::fillMapping(Device& device, void* pointer, size_t offset, size_t size) {
  Expected<MappedRange> range = mappedRange(device, pointer, offset);
  if (!range) return range.error();
  if (range->own) return range->buffer->checkNotLost();
  if (range->pinned) return range->pinned->copyFrom(*range->buffer, range->at, offset, size);
  return range->buffer->read(std::span(static_cast<std::byte*>(pointer), size), range->at);
}

Status Memory::writeBackMapping(Device& device, const void* pointer, size_t offset, size_t size) {
  Expected<MappedRange> range = mappedRange(device, pointer, offset);
  if (!range) return range.error();
  if (range->own) return range->buffer->checkNotLost();
  if (range->pinned) return range->buffer->copyFrom(*range->pinned, offset, range->at, size);
  return range->buffer->write(std::span(static_cast<const std::byte*>(pointer), size), range->at);
}

std::optional<Memory::Mapping> Memory::endMap(void* pointer) {
  std::lock_guard lock(mutex_);
  auto found = mappings_.find(pointer);
  if (found == mappings_.end()) return std::nullopt;
  Mapping mapping = found->second;
  mappings_.erase(found);
  return mapping;
}

void Memory::addDestructorCallback(MemoryDestructorCallback callback, void* userData) {
  std::lock_guard lock(mutex_);
  destructorCallbacks_.emplace_back(callback, userData);
}

cl_int Memory::getInfo(cl_mem_info param, const InfoOut& out) {
  switch (param) {
    case CL_MEM_TYPE: return out.scalar<cl_mem_object_type>(image_ ? image_->type : CL_MEM_OBJECT_BUFFER);
    case CL_MEM_FLAGS: return out.scalar<cl_mem_flags>(flags_);
    case CL_MEM_SIZE: return out.scalar<size_t>(size_);
    case CL_MEM_HOST_PTR: return out.scalar<void*>(hostPtr_);
    case CL_MEM_MAP_COUNT: {
      std::lock_guard lock(mutex_);
      return out.scalar<cl_uint>(static_cast<cl_uint>(mappings_.size()));
    }
    case CL_MEM_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_MEM_CONTEXT: return out.scalar<cl_context>(context_->handle());
    case CL_MEM_ASSOCIATED_MEMOBJECT: {
      const std::shared_ptr<Memory>& associated = image_ ? image_->buffer : parent_;
      return out.scalar<cl_mem>(associated ? associated->handle() : nullptr);
    }
    case CL_MEM_OFFSET: return out.scalar<size_t>(image_ ? 0 : origin_);
    case CL_MEM_USES_SVM_POINTER: return out.scalar<cl_bool>(CL_FALSE);
    case CL_MEM_PROPERTIES: return out.array(properties_);
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace cl2vk::runtime
