#include "runtime/context.h"

#include <algorithm>
#include <cstdio>
#include <cstdlib>

namespace cl2vk::runtime {

bool loggingEnabled() {
  static const bool enabled = [] {
    const char* value = std::getenv("CL2VK_LOG");
    return value != nullptr && std::string(value) == "1";
  }();
  return enabled;
}

Context::~Context() {
  // Most recently registered first (the OpenCL specification's order).
  for (auto it = destructorCallbacks_.rbegin(); it != destructorCallbacks_.rend(); ++it) it->first(this, it->second);
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
    case CL_CONTEXT_REFERENCE_COUNT:
      return out.scalar<cl_uint>(referenceCount());
    case CL_CONTEXT_NUM_DEVICES:
      return out.scalar<cl_uint>(static_cast<cl_uint>(devices_.size()));
    case CL_CONTEXT_DEVICES: {
      std::vector<cl_device_id> handles(devices_.begin(), devices_.end());
      return out.array(handles);
    }
    case CL_CONTEXT_PROPERTIES:
      return out.array(properties_);
    default:
      return CL_INVALID_VALUE;
  }
}

}  // namespace cl2vk::runtime
