#include "runtime/context.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

#include "cl2vk/cl_ext_cl2vk.h"
#include "support/settings.h"

namespace cl2vk::runtime {

bool loggingEnabled() {
  static const bool enabled = settings::isOn(settings::Setting::kLog);
  return enabled;
}

Expected<std::shared_ptr<Context>> Context::create(std::vector<Device*> devices,
                                                   std::vector<cl_context_properties> properties, ContextNotify notify,
                                                   void* userData) {
  std::shared_ptr<Context> context(new Context(std::move(devices), std::move(properties), notify, userData));
  for (Device* device : context->devices_) {
    if (context->vulkanDevices_.contains(device)) continue;
    std::string shared;
    Expected<std::shared_ptr<vulkan::Device>> opened = device->vulkanDeviceForContext(shared);
    if (!opened) return opened.error();
    context->vulkanDevices_.emplace(device, std::move(*opened));
    if (!shared.empty()) context->report(shared);
  }
  return context;
}

bool Context::lost() const {
  return std::any_of(vulkanDevices_.begin(), vulkanDevices_.end(),
                     [](const auto& entry) { return entry.second->lost(); });
}

cl_int Context::checkNotLost(const char* call) const {
  if (!lost()) return CL_SUCCESS;
  report(std::string(call) +
         ": the context's Vulkan device was lost (VK_ERROR_DEVICE_LOST); the context runs "
         "nothing more: release it and create a new one");
  return CL_OUT_OF_RESOURCES;
}

Context::~Context() {
  // Most recently registered first (the OpenCL specification's order).
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it) it->first(this, it->second);
}

Expected<vulkan::HostRelay*> Context::relay(const Device& first, const Device& second) {
  std::pair<const Device*, const Device*> key = std::minmax(&first, &second);
  std::lock_guard lock(relaysMutex_);
  auto found = relays_.find(key);
  if (found == relays_.end()) {
    Expected<std::unique_ptr<vulkan::HostRelay>> made =
        vulkan::HostRelay::create(vulkanDevice(*key.first), vulkanDevice(*key.second));
    if (!made) return made.error();
    found = relays_.emplace(key, std::move(*made)).first;
  }
  return found->second.get();
}

bool Context::hasDevice(const Device* device) const {
  return std::find(devices_.begin(), devices_.end(), device) != devices_.end();
}

void Context::report(const std::string& message) const {
  if (loggingEnabled()) std::fprintf(stderr, "cl2vk: %s\n", message.c_str());
  if (notify_ != nullptr) notify_(message.c_str(), nullptr, 0, userData_);
}

void Context::addDestructorCallback(ContextDestructorCallback callback, void* userData) {
  std::lock_guard lock(callbacksMutex_);
  destructorCallbacks_.emplace_back(callback, userData);
}

cl_int Context::getInfo(cl_context_info param, const InfoOut& out) {
  switch (param) {
    case CL_CONTEXT_REFERENCE_COUNT: return out.scalar<cl_uint>(referenceCount());
    case CL_CONTEXT_NUM_DEVICES: return out.scalar<cl_uint>(static_cast<cl_uint>(devices_.size()));
    case CL_CONTEXT_DEVICES: {
      std::vector<cl_device_id> handles(devices_.begin(), devices_.end());
      return out.array(handles);
    }
    case CL_CONTEXT_PROPERTIES: return out.array(properties_);
    case CL_CONTEXT_PIPELINES_CREATED_CL2VK: {
      cl_ulong pipelines = 0;
      for (const auto& [device, vulkan] : vulkanDevices_) pipelines += vulkan->pipelinesCreated();
      return out.scalar<cl_ulong>(pipelines);
    }
    case CL_CONTEXT_MEMORY_ALLOCATIONS_CL2VK: {
      cl_ulong allocations = 0;
      for (const auto& [device, vulkan] : vulkanDevices_) allocations += vulkan->memoryAllocations();
      return out.scalar<cl_ulong>(allocations);
    }
    default: return CL_INVALID_VALUE;
  }
}

}  // namespace cl2vk::runtime
