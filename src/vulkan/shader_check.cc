#include "vulkan/shader_check.h"

#include <spirv-tools/libspirv.h>
#include <volk.h>

#include <cstring>
#include <memory>
#include <vector>

namespace cl2vk::vulkan {
namespace {

constexpr uint32_t kMagicNumber = 0x07230203;
constexpr uint32_t kOpEntryPoint = 15;
constexpr uint32_t kExecutionModelGLCompute = 5;
constexpr size_t kHeaderWords = 5;

// The names of the GLCompute entry points; the module is already known to be valid.
std::vector<std::string> computeEntryPoints(std::span<const uint32_t> words) {
  std::vector<std::string> names;
  for (size_t at = kHeaderWords; at < words.size();) {
    uint32_t wordCount = words[at] >> 16;
    uint32_t opcode = words[at] & 0xffff;
    if (wordCount == 0 || at + wordCount > words.size()) break;
    if (opcode == kOpEntryPoint && wordCount > 3 && words[at + 1] == kExecutionModelGLCompute) {
      const char* name = reinterpret_cast<const char*>(&words[at + 3]);
      names.emplace_back(name, strnlen(name, (wordCount - 3) * sizeof(uint32_t)));
    }
    at += wordCount;
  }
  return names;
}

}  // namespace

Status checkComputeShader(std::span<const uint32_t> words, const std::string& entryPoint, uint32_t apiVersion,
                          const DeviceFeatures& features) {
  if (words.size() < kHeaderWords || words[0] != kMagicNumber) {
    return Error("not a SPIR-V module: " + std::to_string(words.size()) +
                 " words without the SPIR-V magic number in native byte order");
  }
  spv_target_env env = apiVersion >= VK_API_VERSION_1_3 ? SPV_ENV_VULKAN_1_3 : SPV_ENV_VULKAN_1_2;
  std::unique_ptr<spv_context_t, decltype(&spvContextDestroy)> context(spvContextCreate(env), spvContextDestroy);
  std::unique_ptr<spv_validator_options_t, decltype(&spvValidatorOptionsDestroy)> options(spvValidatorOptionsCreate(),
                                                                                          spvValidatorOptionsDestroy);
  // The layouts and execution modes the device was created with, as the validation layer does.
  spvValidatorOptionsSetScalarBlockLayout(options.get(), features.scalarBlockLayout);
  spvValidatorOptionsSetUniformBufferStandardLayout(options.get(), features.uniformBufferStandardLayout);
  spvValidatorOptionsSetAllowLocalSizeId(options.get(), features.maintenance4);

  spv_const_binary_t binary{words.data(), words.size()};
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result = spvValidateWithOptions(context.get(), options.get(), &binary, &diagnostic);
  if (result != SPV_SUCCESS) {
    std::string message = diagnostic && diagnostic->error ? diagnostic->error : "no diagnostic";
    spvDiagnosticDestroy(diagnostic);
    return Error("invalid SPIR-V for " + std::string(spvTargetEnvDescription(env)) + ": " + message);
  }
  spvDiagnosticDestroy(diagnostic);

  std::vector<std::string> entryPoints = computeEntryPoints(words);
  for (const std::string& name : entryPoints) {
    if (name == entryPoint) return okStatus();
  }
  std::string known;
  for (const std::string& name : entryPoints) known += (known.empty() ? "" : ", ") + name;
  return Error("the module has no GLCompute entry point named '" + entryPoint +
               "' (it has: " + (known.empty() ? "none" : known) + ")");
}

}  // namespace cl2vk::vulkan
