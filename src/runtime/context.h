// cl_context: a set of devices of the platform, the properties it was created with and the
// application's error callback, through which the runtime explains what an error code alone
// cannot (a translation failure, a Vulkan error).
//
// Each context has a Vulkan logical device (VkDevice) of its own on each of its devices: Vulkan
// loses devices one VkDevice at a time, so a device lost fails the commands of the context that
// lost it and no other context's. A lost context refuses new work with CL_OUT_OF_RESOURCES; a new
// context opens a new VkDevice and works. Where the driver opens no more VkDevices, a new context
// shares an open one (Device::vulkanDeviceForContext), and says so through its callback.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "runtime/object.h"
#include "runtime/platform.h"
#include "vulkan/host_relay.h"

namespace cl2vk::runtime {

using ContextNotify = void(CL_CALLBACK*)(const char* errinfo, const void* private_info, size_t cb, void* user_data);
using ContextDestructorCallback = void(CL_CALLBACK*)(cl_context context, void* user_data);

class Context : public Object<Context, _cl_context> {
 public:
  // Opens a Vulkan device for each of `devices`; the error says which one could not be opened.
  static Expected<std::shared_ptr<Context>> create(std::vector<Device*> devices,
                                                   std::vector<cl_context_properties> properties, ContextNotify notify,
                                                   void* userData);
  ~Context() override;

  const std::vector<Device*>& devices() const { return devices_; }
  bool hasDevice(const Device* device) const;
  // The context's Vulkan device on `device`, one of its devices.
  vulkan::Device& vulkanDevice(const Device& device) const { return *vulkanDevices_.at(&device); }
  // What moves buffers' contents between the Vulkan devices of `first` and `second`, two of the
  // context's devices, made on first use and kept with the context; null where the two cannot
  // share host memory (then a move goes through the host).
  Expected<vulkan::HostRelay*> relay(const Device& first, const Device& second);
  // Whether one of the context's Vulkan devices was lost: then nothing more runs in the context.
  bool lost() const;
  // CL_OUT_OF_RESOURCES, explained to the application, when the context is lost; else CL_SUCCESS.
  cl_int checkNotLost(const char* call) const;
  const std::vector<cl_context_properties>& properties() const { return properties_; }

  // Tells the application (the pfn_notify of clCreateContext) and, with CL2VK_LOG=1, stderr.
  void report(const std::string& message) const;

  void addDestructorCallback(ContextDestructorCallback callback, void* userData);

  cl_int getInfo(cl_context_info param, const InfoOut& out);

 private:
  Context(std::vector<Device*> devices, std::vector<cl_context_properties> properties, ContextNotify notify,
          void* userData)
      : devices_(std::move(devices)), properties_(std::move(properties)), notify_(notify), userData_(userData) {}

  std::vector<Device*> devices_;
  std::map<const Device*, std::shared_ptr<vulkan::Device>> vulkanDevices_;
  // Per pair of devices (the lower address first), or null where none can be made; destroyed
  // before the Vulkan devices.
  std::mutex relaysMutex_;
  std::map<std::pair<const Device*, const Device*>, std::unique_ptr<vulkan::HostRelay>> relays_;
  std::vector<cl_context_properties> properties_;  // as given, with its terminating 0; empty if none
  ContextNotify notify_;
  void* userData_;
  std::mutex callbacksMutex_;
  std::vector<std::pair<ContextDestructorCallback, void*>> destructorCallbacks_;
};

// Whether CL2VK_LOG=1 asks for the runtime's messages on stderr.
bool loggingEnabled();

}  // namespace cl2vk::runtime
