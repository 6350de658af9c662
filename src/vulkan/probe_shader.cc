#include "vulkan/probe_shader.h"

#include <spirv-tools/libspirv.h>

#include <array>
#include <cstring>
#include <map>
#include <mutex>
#include <utility>

#include "vulkan/buffer.h"
#include "vulkan/device.h"
#include "vulkan/dispatch.h"
#include "vulkan/pipeline.h"

namespace cl2vk::vulkan {
namespace {

Expected<std::vector<uint32_t>> assemble(const std::string& what, const char* assembly) {
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_2);
  spv_binary binary = nullptr;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result = spvTextToBinary(context, assembly, std::strlen(assembly), &binary, &diagnostic);
  std::vector<uint32_t> words;
  std::string why = diagnostic ? diagnostic->error : "";
  if (result == SPV_SUCCESS) words.assign(binary->code, binary->code + binary->wordCount);
  spvBinaryDestroy(binary);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  if (result != SPV_SUCCESS) return Error("the " + what + " probe does not assemble: " + why);
  return words;
}

}  // namespace

Expected<std::vector<uint32_t>> runProbeShader(Device& device, const std::string& what, const char* assembly,
                                               std::span<const std::byte> pushConstants, uint32_t outputWords) {
  Expected<std::vector<uint32_t>> spirv = assemble(what, assembly);
  if (!spirv) return spirv.error();
  std::vector<std::byte> push(sizeof(uint64_t));
  push.insert(push.end(), pushConstants.begin(), pushConstants.end());
  push.resize((push.size() + 15) / 16 * 16);
  PipelineDesc desc;
  desc.spirv = *spirv;
  desc.pushConstantSize = static_cast<uint32_t>(push.size());
  Expected<Pipeline> pipeline = Pipeline::create(device, desc);
  if (!pipeline) return pipeline.error();
  Expected<Buffer> out = Buffer::create(device, outputWords * sizeof(uint32_t));
  if (!out) return out.error();
  uint64_t address = out->deviceAddress();
  std::memcpy(push.data(), &address, sizeof address);
  Expected<GpuTime> time = dispatch(device, *pipeline, push, 1);
  if (!time) return time.error();
  return out->downloadValues<uint32_t>(outputWords);
}

Expected<uint32_t> measureOncePerDevice(Device& device, const std::string& what,
                                        const std::function<Expected<uint32_t>(Device&)>& measure) {
  using Key = std::tuple<std::string, std::array<uint8_t, VK_UUID_SIZE>, uint32_t>;
  static std::mutex mutex;
  static std::map<Key, uint32_t> measured;
  std::lock_guard<std::mutex> lock(mutex);
  Key key{what, device.info().deviceUuid, device.info().driverVersion};
  if (auto found = measured.find(key); found != measured.end()) return found->second;
  Expected<uint32_t> value = measure(device);
  if (!value) return value.error().withContext("measuring the " + what + " of " + device.info().name);
  measured[key] = *value;
  return *value;
}

}  // namespace cl2vk::vulkan
