// VK_LAYER_CL2VK_fault_injection: a Vulkan layer for the device-fault tests, written from the
// loader's layer interface (vkNegotiateLoaderLayerInterfaceVersion, interface version 2, and the
// VkLayer{Instance,Device}CreateInfo link chains). It passes every call down the chain except
// four, which it makes fail when the test asks, through the functions at the end of this file
// (the test finds them with dlsym):
//
//   vkCreateDevice    -> VK_ERROR_INITIALIZATION_FAILED (cl2vk_fault_refuse_devices)
//   vkAllocateMemory  -> VK_ERROR_OUT_OF_DEVICE_MEMORY  (cl2vk_fault_fail_allocations)
//   vkQueueSubmit     -> VK_ERROR_DEVICE_LOST           (cl2vk_fault_lose_device_at_submit)
//   vkWaitForFences   -> VK_ERROR_DEVICE_LOST           (cl2vk_fault_lose_device_at_wait)
//
// A device the layer has lost stays lost: its later submissions and waits fail too, as on a real
// device, while every other VkDevice keeps working. So production code carries no injection hooks.

#include <vulkan/vk_layer.h>
#include <vulkan/vulkan.h>

#include <cstring>
#include <mutex>
#include <unordered_map>

namespace {

// Dispatchable handles (instance, physical device, device, queue) start with the loader's
// dispatch table pointer, shared by an instance and its physical devices, and by a device and its
// queues: the key under which the layer keeps what it needs to call down the chain.
using DispatchKey = void*;
template <typename Handle>
DispatchKey keyOf(Handle handle) {
  return *reinterpret_cast<DispatchKey*>(handle);
}

struct InstanceChain {
  PFN_vkGetInstanceProcAddr getProcAddr;
  PFN_vkDestroyInstance destroy;
};

struct DeviceChain {
  PFN_vkGetDeviceProcAddr getProcAddr;
  PFN_vkDestroyDevice destroy;
  PFN_vkAllocateMemory allocateMemory;
  PFN_vkQueueSubmit queueSubmit;
  PFN_vkWaitForFences waitForFences;
  bool lost = false;
};

// What the test armed: how many matching calls pass before the fault, and for allocations how
// many fail then. Zero armed calls means no fault.
struct Faults {
  uint32_t devicesToRefuse = 0;
  uint32_t allocationsToPass = 0, allocationsToFail = 0;
  bool loseAtSubmit = false, loseAtWait = false;
  uint32_t submitsToPass = 0, waitsToPass = 0;
  uint32_t devicesLost = 0;
};

std::mutex mutex;
std::unordered_map<DispatchKey, InstanceChain> instances;
std::unordered_map<DispatchKey, DeviceChain> devices;
Faults faults;

InstanceChain instanceChain(DispatchKey key) {
  std::lock_guard lock(mutex);
  return instances.at(key);
}

// The device's chain; under the lock the caller holds.
DeviceChain& deviceChain(DispatchKey key) { return devices.at(key); }

// The loader's link in a create-info chain for this layer: the instance or device structure
// whose `function` is VK_LAYER_LINK_INFO.
template <typename LinkInfo>
LinkInfo* findLinkInfo(const void* next, VkStructureType type) {
  for (auto* info = static_cast<const VkBaseInStructure*>(next); info != nullptr; info = info->pNext) {
    auto* candidate = reinterpret_cast<LinkInfo*>(const_cast<VkBaseInStructure*>(info));
    if (info->sType == type && candidate->function == VK_LAYER_LINK_INFO) return candidate;
  }
  return nullptr;
}

VKAPI_ATTR VkResult VKAPI_CALL createInstance(const VkInstanceCreateInfo* info, const VkAllocationCallbacks* allocator,
                                              VkInstance* instance) {
  auto* link = findLinkInfo<VkLayerInstanceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_INSTANCE_CREATE_INFO);
  if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr next = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;  // the next layer finds its own link
  auto create = reinterpret_cast<PFN_vkCreateInstance>(next(VK_NULL_HANDLE, "vkCreateInstance"));
  VkResult result = create(info, allocator, instance);
  if (result != VK_SUCCESS) return result;
  auto destroy = reinterpret_cast<PFN_vkDestroyInstance>(next(*instance, "vkDestroyInstance"));
  std::lock_guard lock(mutex);
  instances[keyOf(*instance)] = InstanceChain{next, destroy};
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL destroyInstance(VkInstance instance, const VkAllocationCallbacks* allocator) {
  if (instance == VK_NULL_HANDLE) return;
  InstanceChain chain = instanceChain(keyOf(instance));
  chain.destroy(instance, allocator);
  std::lock_guard lock(mutex);
  instances.erase(keyOf(instance));
}

VKAPI_ATTR VkResult VKAPI_CALL createDevice(VkPhysicalDevice physicalDevice, const VkDeviceCreateInfo* info,
                                            const VkAllocationCallbacks* allocator, VkDevice* device) {
  auto* link = findLinkInfo<VkLayerDeviceCreateInfo>(info->pNext, VK_STRUCTURE_TYPE_LOADER_DEVICE_CREATE_INFO);
  if (link == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  PFN_vkGetInstanceProcAddr nextInstance = link->u.pLayerInfo->pfnNextGetInstanceProcAddr;
  PFN_vkGetDeviceProcAddr nextDevice = link->u.pLayerInfo->pfnNextGetDeviceProcAddr;
  link->u.pLayerInfo = link->u.pLayerInfo->pNext;
  VkInstance owner = VK_NULL_HANDLE;  // the physical device shares its instance's dispatch key
  {
    std::lock_guard lock(mutex);
    if (instances.contains(keyOf(physicalDevice))) owner = reinterpret_cast<VkInstance>(physicalDevice);
  }
  auto create = reinterpret_cast<PFN_vkCreateDevice>(nextInstance(owner, "vkCreateDevice"));
  if (create == nullptr) return VK_ERROR_INITIALIZATION_FAILED;
  {
    std::lock_guard lock(mutex);
    if (faults.devicesToRefuse > 0) {
      --faults.devicesToRefuse;
      return VK_ERROR_INITIALIZATION_FAILED;  // what a driver out of devices (or channels) says
    }
  }
  VkResult result = create(physicalDevice, info, allocator, device);
  if (result != VK_SUCCESS) return result;
  DeviceChain chain;
  chain.getProcAddr = nextDevice;
  chain.destroy = reinterpret_cast<PFN_vkDestroyDevice>(nextDevice(*device, "vkDestroyDevice"));
  chain.allocateMemory = reinterpret_cast<PFN_vkAllocateMemory>(nextDevice(*device, "vkAllocateMemory"));
  chain.queueSubmit = reinterpret_cast<PFN_vkQueueSubmit>(nextDevice(*device, "vkQueueSubmit"));
  chain.waitForFences = reinterpret_cast<PFN_vkWaitForFences>(nextDevice(*device, "vkWaitForFences"));
  std::lock_guard lock(mutex);
  devices[keyOf(*device)] = chain;
  return VK_SUCCESS;
}

VKAPI_ATTR void VKAPI_CALL destroyDevice(VkDevice device, const VkAllocationCallbacks* allocator) {
  if (device == VK_NULL_HANDLE) return;
  PFN_vkDestroyDevice destroy;
  {
    std::lock_guard lock(mutex);
    destroy = deviceChain(keyOf(device)).destroy;
    devices.erase(keyOf(device));
  }
  destroy(device, allocator);
}

VKAPI_ATTR VkResult VKAPI_CALL allocateMemory(VkDevice device, const VkMemoryAllocateInfo* info,
                                              const VkAllocationCallbacks* allocator, VkDeviceMemory* memory) {
  PFN_vkAllocateMemory next;
  {
    std::lock_guard lock(mutex);
    next = deviceChain(keyOf(device)).allocateMemory;
    if (faults.allocationsToFail > 0) {
      if (faults.allocationsToPass > 0) {
        --faults.allocationsToPass;
      } else {
        --faults.allocationsToFail;
        return VK_ERROR_OUT_OF_DEVICE_MEMORY;
      }
    }
  }
  return next(device, info, allocator, memory);
}

// Whether this call loses `chain`'s device: it was lost before, or the fault armed for this kind
// of call has let its calls pass. Under the lock.
bool losesDevice(DeviceChain& chain, bool& armed, uint32_t& toPass) {
  if (chain.lost) return true;
  if (!armed) return false;
  if (toPass > 0) {
    --toPass;
    return false;
  }
  armed = false;
  chain.lost = true;
  ++faults.devicesLost;
  return true;
}

VKAPI_ATTR VkResult VKAPI_CALL queueSubmit(VkQueue queue, uint32_t count, const VkSubmitInfo* submits, VkFence fence) {
  PFN_vkQueueSubmit next;
  {
    std::lock_guard lock(mutex);
    DeviceChain& chain = deviceChain(keyOf(queue));
    if (losesDevice(chain, faults.loseAtSubmit, faults.submitsToPass)) return VK_ERROR_DEVICE_LOST;
    next = chain.queueSubmit;
  }
  return next(queue, count, submits, fence);
}

VKAPI_ATTR VkResult VKAPI_CALL waitForFences(VkDevice device, uint32_t count, const VkFence* fences, VkBool32 waitAll,
                                             uint64_t timeout) {
  PFN_vkWaitForFences next;
  bool lose;
  {
    std::lock_guard lock(mutex);
    DeviceChain& chain = deviceChain(keyOf(device));
    if (chain.lost) return VK_ERROR_DEVICE_LOST;  // its fences may never have been submitted
    lose = losesDevice(chain, faults.loseAtWait, faults.waitsToPass);
    next = chain.waitForFences;
  }
  // The loss is reported once the real work has ended: an application may destroy what a lost
  // device used at once, which must not pull memory from under a kernel that still runs.
  VkResult waited = next(device, count, fences, waitAll, timeout);
  return lose ? VK_ERROR_DEVICE_LOST : waited;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getDeviceProcAddr(VkDevice device, const char* name);

// The entry points the layer defines, by name; null for the others.
PFN_vkVoidFunction intercepted(const char* name) {
  struct Entry {
    const char* name;
    PFN_vkVoidFunction function;
  };
  static const Entry kEntries[] = {
      {"vkCreateInstance", reinterpret_cast<PFN_vkVoidFunction>(createInstance)},
      {"vkDestroyInstance", reinterpret_cast<PFN_vkVoidFunction>(destroyInstance)},
      {"vkCreateDevice", reinterpret_cast<PFN_vkVoidFunction>(createDevice)},
      {"vkDestroyDevice", reinterpret_cast<PFN_vkVoidFunction>(destroyDevice)},
      {"vkGetDeviceProcAddr", reinterpret_cast<PFN_vkVoidFunction>(getDeviceProcAddr)},
      {"vkAllocateMemory", reinterpret_cast<PFN_vkVoidFunction>(allocateMemory)},
      {"vkQueueSubmit", reinterpret_cast<PFN_vkVoidFunction>(queueSubmit)},
      {"vkWaitForFences", reinterpret_cast<PFN_vkVoidFunction>(waitForFences)},
  };
  for (const Entry& entry : kEntries) {
    if (std::strcmp(entry.name, name) == 0) return entry.function;
  }
  return nullptr;
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getInstanceProcAddr(VkInstance instance, const char* name);

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getDeviceProcAddr(VkDevice device, const char* name) {
  if (PFN_vkVoidFunction own = intercepted(name)) return own;
  if (device == VK_NULL_HANDLE) return nullptr;
  PFN_vkGetDeviceProcAddr next;
  {
    std::lock_guard lock(mutex);
    next = deviceChain(keyOf(device)).getProcAddr;
  }
  return next(device, name);
}

VKAPI_ATTR PFN_vkVoidFunction VKAPI_CALL getInstanceProcAddr(VkInstance instance, const char* name) {
  if (std::strcmp(name, "vkGetInstanceProcAddr") == 0) return reinterpret_cast<PFN_vkVoidFunction>(getInstanceProcAddr);
  if (PFN_vkVoidFunction own = intercepted(name)) return own;
  if (instance == VK_NULL_HANDLE) return nullptr;
  return instanceChain(keyOf(instance)).getProcAddr(instance, name);
}

}  // namespace

extern "C" {

__attribute__((visibility("default"))) VKAPI_ATTR VkResult VKAPI_CALL
vkNegotiateLoaderLayerInterfaceVersion(VkNegotiateLayerInterface* negotiation) {
  if (negotiation == nullptr || negotiation->sType != LAYER_NEGOTIATE_INTERFACE_STRUCT)
    return VK_ERROR_INITIALIZATION_FAILED;
  if (negotiation->loaderLayerInterfaceVersion < 2) return VK_ERROR_INITIALIZATION_FAILED;
  negotiation->loaderLayerInterfaceVersion = 2;
  negotiation->pfnGetInstanceProcAddr = getInstanceProcAddr;
  negotiation->pfnGetDeviceProcAddr = getDeviceProcAddr;
  negotiation->pfnGetPhysicalDeviceProcAddr = nullptr;
  return VK_SUCCESS;
}

// The test's controls. Each replaces what was armed of its kind.

// The next `count` vkCreateDevice calls fail with VK_ERROR_INITIALIZATION_FAILED.
__attribute__((visibility("default"))) void cl2vk_fault_refuse_devices(uint32_t count) {
  std::lock_guard lock(mutex);
  faults.devicesToRefuse = count;
}

// The next `count` vkAllocateMemory calls after `pass` more fail with VK_ERROR_OUT_OF_DEVICE_MEMORY.
__attribute__((visibility("default"))) void cl2vk_fault_fail_allocations(uint32_t pass, uint32_t count) {
  std::lock_guard lock(mutex);
  faults.allocationsToPass = pass;
  faults.allocationsToFail = count;
}

// The device of the vkQueueSubmit call after `pass` more is lost (that call fails).
__attribute__((visibility("default"))) void cl2vk_fault_lose_device_at_submit(uint32_t pass) {
  std::lock_guard lock(mutex);
  faults.loseAtSubmit = true;
  faults.submitsToPass = pass;
}

// The device of the vkWaitForFences call after `pass` more is lost (that call fails once the work
// it waited for has ended on the real device).
__attribute__((visibility("default"))) void cl2vk_fault_lose_device_at_wait(uint32_t pass) {
  std::lock_guard lock(mutex);
  faults.loseAtWait = true;
  faults.waitsToPass = pass;
}

// Disarms every fault (devices already lost stay lost).
__attribute__((visibility("default"))) void cl2vk_fault_disarm() {
  std::lock_guard lock(mutex);
  faults.devicesToRefuse = 0;
  faults.allocationsToFail = faults.allocationsToPass = 0;
  faults.loseAtSubmit = faults.loseAtWait = false;
}

// How many devices the layer has lost since it was loaded.
__attribute__((visibility("default"))) uint32_t cl2vk_fault_devices_lost() {
  std::lock_guard lock(mutex);
  return faults.devicesLost;
}

}  // extern "C"
