#include "translator/translator.h"

#include "ir/reader.h"
#include "ir/validate.h"
#include "ir/writer.h"
#include "passes/check_supported.h"

namespace cl2vk {

namespace {

// What makes a module an OpenCL kernel module at all, checked before anything reads it as one.
Status checkIsKernelModule(const ir::Module& module) {
  bool kernelCapability = false;
  for (const ir::Instruction& inst : module.section(ir::Section::kCapability))
    kernelCapability |= inst.wordOperand(0) == static_cast<uint32_t>(spv::Capability::Kernel);
  if (!kernelCapability)
    return Error("not an OpenCL module: it does not declare the Kernel capability (cl2vk reads what clang -target "
                 "spir64 and llvm-spirv produce, not Vulkan or GLSL shaders)");
  for (const ir::Instruction& inst : module.section(ir::Section::kEntryPoint)) {
    if (inst.wordOperand(0) == static_cast<uint32_t>(spv::ExecutionModel::Kernel)) return okStatus();
  }
  return Error("the module has no kernel (no OpEntryPoint with the Kernel execution model)");
}

}  // namespace

Expected<ModuleReflection> translateModule(ir::Module& module, const Target& target) {
  CL2VK_TRY(checkIsKernelModule(module));
  // What cl2vk cannot translate gets its own message before the validator's, which may know
  // less about it.
  if (Expected<PassResult> supported = checkSupported(module, target); !supported) return supported.error();
  // SPIR-V's core rules, not an OpenCL profile's: the device decides which extensions it has.
  if (Status valid = ir::validate(module, ir::universalEnvironment(module)); !valid.ok())
    return valid.error().withContext("the input is not valid SPIR-V");

  PassContext context{target, {}};
  std::vector<const PassInfo*> pipeline;
  for (const PassInfo& pass : registeredPasses()) pipeline.push_back(&pass);
  Expected<PassResult> result = runPasses(module, context, pipeline);
  if (!result) return result.error();

  if (Status valid = ir::validate(module, target.vulkanEnv); !valid.ok())
    return valid.error().withContext("internal error: the translation is not valid Vulkan SPIR-V (a cl2vk bug; please report it)");
  return std::move(context.reflection);
}

Expected<Translation> translate(std::span<const uint32_t> kernelSpirv, const Target& target) {
  auto module = ir::readBinary(kernelSpirv);
  if (!module) return module.error();
  Expected<ModuleReflection> reflection = translateModule(**module, target);
  if (!reflection) return reflection.error();
  return Translation{ir::writeBinary(**module), std::move(*reflection)};
}

}  // namespace cl2vk
