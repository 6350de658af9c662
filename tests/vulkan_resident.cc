// Under AddressSanitizer, keeps the Vulkan drivers and layers loaded until the process ends.
//
// The loader unloads them with the last VkInstance. What they allocated once and still point to
// from their own globals (lavapipe's one-time initialisation, the validation layer's tables) then
// looks leaked to LeakSanitizer, which checks at exit, and the frames that allocated it can no
// longer be named, so no suppression could single them out. One instance, created before any test
// and never destroyed, keeps every driver and layer loaded; LeakSanitizer then sees what they hold,
// and whatever they really leak comes with their names (tools/sanitizers/lsan.supp).
#include <volk.h>

#if defined(__SANITIZE_ADDRESS__)
namespace {

[[maybe_unused]] const VkInstance residentInstance = [] {
  VkInstance instance = VK_NULL_HANDLE;
  if (volkInitialize() != VK_SUCCESS) return instance;  // the tests themselves will say why
  VkApplicationInfo application{};
  application.sType = VK_STRUCTURE_TYPE_APPLICATION_INFO;
  application.pApplicationName = "cl2vk tests: keeps the drivers loaded";
  application.apiVersion = VK_API_VERSION_1_2;
  VkInstanceCreateInfo info{};
  info.sType = VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO;
  info.pApplicationInfo = &application;
  if (vkCreateInstance(&info, nullptr, &instance) != VK_SUCCESS) instance = VK_NULL_HANDLE;
  return instance;
}();

}  // namespace
#endif
