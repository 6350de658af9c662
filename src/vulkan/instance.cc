#include "vulkan/instance.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#include <string_view>

#include "vulkan/process_exit.h"
#include "vulkan/vk_result.h"

namespace cl2vk::vulkan {
namespace {

constexpr const char* kValidationLayer = "VK_LAYER_KHRONOS_validation";

// volkInitialize fills volk's process-wide table of loader entry points; doing it once is enough,
// and a failure (no libvulkan.so.1) is remembered rather than retried.
Status initializeLoader() {
  static const VkResult loaded = volkInitialize();
  if (loaded != VK_SUCCESS) {
    return Error("cannot load the Vulkan loader (libvulkan.so.1): " + resultName(loaded) +
                 "; install libvulkan1 and a driver such as mesa-vulkan-drivers");
  }
  return okStatus();
}

bool hasLayer(const char* name) {
  uint32_t count = 0;
  if (vkEnumerateInstanceLayerProperties(&count, nullptr) != VK_SUCCESS) return false;
  std::vector<VkLayerProperties> layers(count);
  if (vkEnumerateInstanceLayerProperties(&count, layers.data()) < 0) return false;
  layers.resize(count);
  return std::any_of(layers.begin(), layers.end(),
                     [&](const VkLayerProperties& layer) { return std::strcmp(layer.layerName, name) == 0; });
}

// The instance extensions of the loader and drivers, or of one layer when `layer` is given.
std::vector<std::string> instanceExtensions(const char* layer) {
  uint32_t count = 0;
  if (vkEnumerateInstanceExtensionProperties(layer, &count, nullptr) != VK_SUCCESS) return {};
  std::vector<VkExtensionProperties> properties(count);
  if (vkEnumerateInstanceExtensionProperties(layer, &count, properties.data()) < 0) return {};
  std::vector<std::string> names;
  for (uint32_t i = 0; i < count; ++i) names.emplace_back(properties[i].extensionName);
  return names;
}

bool contains(const std::vector<std::string>& names, const char* name) {
  return std::find(names.begin(), names.end(), name) != names.end();
}

const char* severityName(VkDebugUtilsMessageSeverityFlagBitsEXT severity) {
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT) return "error";
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT) return "warning";
  if (severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_INFO_BIT_EXT) return "info";
  return "verbose";
}

VKAPI_ATTR VkBool32 VKAPI_CALL recordMessage(VkDebugUtilsMessageSeverityFlagBitsEXT severity,
                                             VkDebugUtilsMessageTypeFlagsEXT,
                                             const VkDebugUtilsMessengerCallbackDataEXT* data, void* userData) {
  // The loader's own notes (a layer that VK_INSTANCE_LAYERS adds, say) are no finding about cl2vk.
  bool loaderNote = data->pMessageIdName && std::string_view(data->pMessageIdName) == "Loader Message" &&
                    !(severity & VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT);
  if (loaderNote) return VK_FALSE;
  std::string line = severityName(severity);
  line += ": ";
  if (data->pMessageIdName) line += std::string(data->pMessageIdName) + ": ";
  if (data->pMessage) line += data->pMessage;
  static_cast<MessageLog*>(userData)->add(std::move(line));
  return VK_FALSE;  // Never abort the call that triggered the message.
}

}  // namespace

void MessageLog::add(std::string message) {
  std::lock_guard lock(mutex_);
  messages_.push_back(std::move(message));
}

std::vector<std::string> MessageLog::messages() const {
  std::lock_guard lock(mutex_);
  return messages_;
}

void MessageLog::clear() {
  std::lock_guard lock(mutex_);
  messages_.clear();
}

namespace {

std::atomic<bool> exiting{false};

// An exit handler, registered when the first instance is created: it runs before the dynamic
// linker finalizes any library (its own handler was registered at start-up, and handlers run last
// registered first), so before a library's exit-time destructors release objects.
void noteProcessExit() { exiting.store(true, std::memory_order_relaxed); }

}  // namespace

bool processIsExiting() { return exiting.load(std::memory_order_relaxed); }

Expected<std::unique_ptr<Instance>> Instance::create(bool validation) {
  static const bool exitNoted = std::atexit(noteProcessExit) == 0;
  (void)exitNoted;
  CL2VK_TRY(initializeLoader());

  uint32_t loaderVersion = volkGetInstanceVersion();
  if (loaderVersion < VK_API_VERSION_1_2) {
    return Error("the Vulkan loader supports only Vulkan " + std::to_string(VK_API_VERSION_MAJOR(loaderVersion)) + "." +
                 std::to_string(VK_API_VERSION_MINOR(loaderVersion)) + "; cl2vk needs 1.2");
  }
  std::unique_ptr<Instance> instance(new Instance());
  instance->apiVersion_ = std::min<uint32_t>(loaderVersion, VK_API_VERSION_1_3);

  std::vector<const char*> layers;
  std::vector<const char*> extensions;
  std::vector<std::string> available = instanceExtensions(nullptr);
  VkInstanceCreateFlags flags = 0;
  // Lists portability drivers (MoltenVK) too; harmless elsewhere.
  if (contains(available, VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME)) {
    extensions.push_back(VK_KHR_PORTABILITY_ENUMERATION_EXTENSION_NAME);
    flags |= VK_INSTANCE_CREATE_ENUMERATE_PORTABILITY_BIT_KHR;
  }

  VkDebugUtilsMessengerCreateInfoEXT messengerInfo{};
  messengerInfo.sType = VK_STRUCTURE_TYPE_DEBUG_UTILS_MESSENGER_CREATE_INFO_EXT;
  messengerInfo.messageSeverity =
      VK_DEBUG_UTILS_MESSAGE_SEVERITY_WARNING_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_SEVERITY_ERROR_BIT_EXT;
  // Validation and performance messages are about how cl2vk uses Vulkan. General ones are not: the
  // loader's warning that VK_INSTANCE_LAYERS added a layer (as CI's test setup does) is one.
  messengerInfo.messageType =
      VK_DEBUG_UTILS_MESSAGE_TYPE_VALIDATION_BIT_EXT | VK_DEBUG_UTILS_MESSAGE_TYPE_PERFORMANCE_BIT_EXT;
  messengerInfo.pfnUserCallback = recordMessage;
  messengerInfo.pUserData = instance->log_.get();

  VkValidationFeatureEnableEXT enabledChecks[] = {VK_VALIDATION_FEATURE_ENABLE_SYNCHRONIZATION_VALIDATION_EXT};
  VkValidationFeaturesEXT validationFeatures{};
  validationFeatures.sType = VK_STRUCTURE_TYPE_VALIDATION_FEATURES_EXT;
  validationFeatures.enabledValidationFeatureCount = 1;
  validationFeatures.pEnabledValidationFeatures = enabledChecks;

  const void* next = nullptr;
  if (validation) {
    if (!hasLayer(kValidationLayer)) {
      return Error(std::string("validation was requested (CL2VK_VALIDATION=1) but the layer ") + kValidationLayer +
                   " is not installed or not found by the loader; install vulkan-validationlayers "
                   "or check VK_LAYER_PATH");
    }
    layers.push_back(kValidationLayer);
    std::vector<std::string> layerExtensions = instanceExtensions(kValidationLayer);
    if (!contains(available, VK_EXT_DEBUG_UTILS_EXTENSION_NAME) &&
        !contains(layerExtensions, VK_EXT_DEBUG_UTILS_EXTENSION_NAME)) {
      return Error(std::string("validation was requested but ") + VK_EXT_DEBUG_UTILS_EXTENSION_NAME +
                   " is not available, so its messages could not be recorded");
    }
    extensions.push_back(VK_EXT_DEBUG_UTILS_EXTENSION_NAME);
    // The messenger in the chain also sees what happens during vkCreateInstance itself.
    next = &messengerInfo;
    if (contains(layerExtensions, VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME)) {
      extensions.push_back(VK_EXT_VALIDATION_FEATURES_EXTENSION_NAME);
      validationFeatures.pNext = next;
      next = &validationFeatures;
    }
  }

  VkApplicationInfo application{};
  application.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  application.pApplicationName = "cl2vk";
  application.pEngineName = "cl2vk";
  application.apiVersion = instance->apiVersion_;

  VkInstanceCreateInfo createInfo{};
  createInfo.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  createInfo.pNext = next;
  createInfo.flags = flags;
  createInfo.pApplicationInfo = &application;
  createInfo.enabledLayerCount = static_cast<uint32_t>(layers.size());
  createInfo.ppEnabledLayerNames = layers.data();
  createInfo.enabledExtensionCount = static_cast<uint32_t>(extensions.size());
  createInfo.ppEnabledExtensionNames = extensions.data();
  CL2VK_TRY(check(vkCreateInstance(&createInfo, nullptr, &instance->instance_), "vkCreateInstance"));
  // Instance-level entry points are loader trampolines that dispatch on the handle, so loading them
  // again for a second instance leaves the first one working.
  volkLoadInstanceOnly(instance->instance_);

  if (validation) {
    CL2VK_TRY(check(vkCreateDebugUtilsMessengerEXT(instance->instance_, &messengerInfo, nullptr, &instance->messenger_),
                    "vkCreateDebugUtilsMessengerEXT"));
  }
  return instance;
}

Instance::~Instance() {
  if (processIsExiting()) return;
  if (messenger_ != VK_NULL_HANDLE) vkDestroyDebugUtilsMessengerEXT(instance_, messenger_, nullptr);
  if (instance_ != VK_NULL_HANDLE) vkDestroyInstance(instance_, nullptr);
}

Expected<std::vector<VkPhysicalDevice>> Instance::physicalDevices() const {
  uint32_t count = 0;
  CL2VK_TRY(check(vkEnumeratePhysicalDevices(instance_, &count, nullptr), "vkEnumeratePhysicalDevices"));
  std::vector<VkPhysicalDevice> devices(count);
  VkResult result = vkEnumeratePhysicalDevices(instance_, &count, devices.data());
  if (result != VK_SUCCESS && result != VK_INCOMPLETE) return vulkanError("vkEnumeratePhysicalDevices", result);
  devices.resize(count);
  return devices;
}

}  // namespace cl2vk::vulkan
