// The OpenCL objects as the ICD loader sees them, and their lifetimes.
//
// The ICD loader (ocl-icd) calls through the dispatch table whose address is the first word of
// every handle, so each handle type is defined here as a struct holding that pointer, and each
// runtime class derives from its handle type: the handle is the address of that base.
//
// Lifetimes: the API's reference count (clRetain*/clRelease*) is kept apart from the runtime's own
// references. An object is created behind a std::shared_ptr and holds a reference to itself while
// its API count is above zero; objects that need another (a kernel its program, a command its
// buffers) hold a shared_ptr to it. When the API count reaches zero the handle stops being valid —
// every later use of it is CL_INVALID_<object> — and the object goes away once the runtime's last
// reference does. Every handle passed in is looked up in a registry of live handles, so NULL,
// released and foreign handles are errors, never a crash. The ICD loader reads a handle's dispatch
// pointer before the runtime sees it, so the memory of a destroyed object is not given back at
// once: it is kept, every word pointing to the dispatch table, for the next few thousand objects
// (retired_objects), and a released handle still reaches the runtime, which refuses it.
#pragma once

#include <CL/cl.h>
#include <CL/cl_icd.h>

#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>

struct _cl_platform_id {
  const cl_icd_dispatch* dispatch;
};
struct _cl_device_id {
  const cl_icd_dispatch* dispatch;
};
struct _cl_context {
  const cl_icd_dispatch* dispatch;
};
struct _cl_command_queue {
  const cl_icd_dispatch* dispatch;
};
struct _cl_mem {
  const cl_icd_dispatch* dispatch;
};
struct _cl_program {
  const cl_icd_dispatch* dispatch;
};
struct _cl_kernel {
  const cl_icd_dispatch* dispatch;
};
struct _cl_event {
  const cl_icd_dispatch* dispatch;
};
struct _cl_sampler {
  const cl_icd_dispatch* dispatch;
};

namespace cl2vk::runtime {

// The table of every entry point, filled in dispatch_table.cc.
const cl_icd_dispatch* dispatchTable();

// The memory of the objects: freed memory is filled with dispatch table pointers and kept in a
// bounded queue before it goes back to the heap (see above).
void* allocateObject(size_t size);
void retireObject(void* memory, size_t size);

// The live handles of one type, keyed by the handle's address: a handle that is not live is never
// cast to the runtime class (it may not be one). Lookups copy the object's self-reference under
// the lock, so an object found stays alive for as long as the caller holds the result.
template <typename Derived, typename Handle>
class HandleRegistry {
 public:
  void add(Derived* object) {
    std::lock_guard lock(mutex_);
    live_.emplace(static_cast<const Handle*>(object), object);
  }
  void remove(Derived* object) {
    std::lock_guard lock(mutex_);
    live_.erase(static_cast<const Handle*>(object));
  }
  std::shared_ptr<Derived> find(const Handle* handle) {
    if (handle == nullptr) return nullptr;
    std::lock_guard lock(mutex_);
    auto found = live_.find(handle);
    if (found == live_.end()) return nullptr;
    return found->second->self_;
  }

 private:
  std::mutex mutex_;
  std::unordered_map<const Handle*, Derived*> live_;
};

// Base of every reference-counted OpenCL object. `Handle` is the handle struct (_cl_mem), `Derived`
// the runtime class (Memory).
template <typename Derived, typename Handle>
class Object : public Handle, public std::enable_shared_from_this<Derived> {
 public:
  using HandleType = Handle*;

  Object() { this->dispatch = dispatchTable(); }
  virtual ~Object() = default;
  // Objects are created with `new` (not std::make_shared, whose memory these do not manage).
  static void* operator new(size_t size) { return allocateObject(size); }
  static void operator delete(void* memory, size_t size) { retireObject(memory, size); }
  Object(const Object&) = delete;
  Object& operator=(const Object&) = delete;

  // Makes `object` a live handle with an API reference count of 1.
  static HandleType publish(const std::shared_ptr<Derived>& object) {
    object->self_ = object;
    object->apiReferences_ = 1;
    registry().add(object.get());
    return object.get();
  }

  // The object behind `handle`, or null when the handle is not a live one of this type.
  static std::shared_ptr<Derived> find(Handle* handle) { return registry().find(handle); }

  HandleType handle() { return this; }

  void retain() { apiReferences_.fetch_add(1, std::memory_order_relaxed); }
  // Drops an API reference; the last one unpublishes the handle.
  void release() {
    if (apiReferences_.fetch_sub(1, std::memory_order_acq_rel) != 1) return;
    registry().remove(static_cast<Derived*>(this));
    std::shared_ptr<Derived> last = std::move(self_);  // may destroy the object on return
  }
  cl_uint referenceCount() const { return apiReferences_.load(std::memory_order_relaxed); }

  std::shared_ptr<Derived> shared() { return this->shared_from_this(); }

 private:
  friend class HandleRegistry<Derived, Handle>;
  static HandleRegistry<Derived, Handle>& registry() {
    static auto* registry = new HandleRegistry<Derived, Handle>();  // outlives exit-time users
    return *registry;
  }

  std::shared_ptr<Derived> self_;
  std::atomic<cl_uint> apiReferences_{0};
};

}  // namespace cl2vk::runtime
