// The translator's fuzz target: any bytes go through load, translate and validate. Every input must
// end in a module that SPIRV-Tools accepts for the target's Vulkan environment, or in an error
// value with a message; a crash, a sanitizer report, a leak, a hang or an error the translator
// calls internal is a bug. The same function runs under libFuzzer (the CL2VK_FUZZ build) and in
// every build's regression replay.

#include <spirv-tools/libspirv.hpp>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "cl2vk/translator.h"
#include "fuzz_input.h"
#include "ir/validate.h"

namespace cl2vk::fuzz {
namespace {

[[noreturn]] void fail(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "\ntranslate_fuzzer: %s\n%s\n", what.c_str(), detail.c_str());
  std::fflush(stderr);
  std::abort();
}

// The translator validates its output itself; this second check does not trust it, so that a
// translation handed out unchecked (a missed path, an error ignored) is caught.
void checkIsValidVulkan(const std::vector<uint32_t>& spirv, spv_target_env env) {
  spvtools::SpirvTools tools(env);
  std::string diagnostics;
  tools.SetMessageConsumer([&diagnostics](spv_message_level_t, const char*, const spv_position_t&,
                                          const char* message) { diagnostics += std::string(message) + "\n"; });
  if (!tools.Validate(spirv.data(), spirv.size(), spvtools::ValidatorOptions()))
    fail("translate() returned a module that fails " + ir::environmentName(env) + " validation", diagnostics);
}

// An error the translator reports as its own bug: it accepted the input, and its passes made
// invalid Vulkan SPIR-V of it. It is an error value, but a bug all the same, so it fails the input;
// CL2VK_FUZZ_INTERNAL_ERRORS=allow lets a run go on past known ones while they are being fixed.
// (translateModule in src/translator/translator.cc gives such errors this prefix.)
bool isInternalError(const Error& error) { return error.message().starts_with("internal error:"); }

bool internalErrorsAllowed() {
  static const bool allowed = [] {
    const char* setting = std::getenv("CL2VK_FUZZ_INTERNAL_ERRORS");
    return setting != nullptr && std::string(setting) == "allow";
  }();
  return allowed;
}

int translateOneInput(std::span<const uint8_t> bytes) {
  FuzzInput input = decodeFuzzInput(bytes);
  Expected<Translation> translation = translate(input.words, input.target);
  if (!translation) {
    const Error& error = translation.error();
    if (error.message().empty()) fail("translate() failed with an empty error message", "");
    if (isInternalError(error) && !internalErrorsAllowed())
      fail("the translator reported an internal error", error.message());
    return 0;
  }
  if (translation->spirv.empty()) fail("translate() succeeded with an empty module", "");
  checkIsValidVulkan(translation->spirv, input.target.vulkanEnv);
  return 0;
}

}  // namespace
}  // namespace cl2vk::fuzz

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  return cl2vk::fuzz::translateOneInput(std::span<const uint8_t>(data, size));
}
