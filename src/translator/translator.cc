#include "translator/translator.h"

#include <spirv-tools/optimizer.hpp>

#include <set>

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

Expected<std::vector<uint32_t>> kernelModule(std::span<const uint32_t> translatedSpirv, const std::string& kernel) {
  auto module = ir::readBinary(translatedSpirv);
  if (!module) return module.error();
  bool found = false;
  std::set<uint32_t> otherKernels;  // their functions' ids
  std::vector<ir::Instruction*> dropped;
  for (ir::Instruction& entry : (*module)->section(ir::Section::kEntryPoint)) {
    if (entry.stringOperand(2) == kernel) {
      found = true;
    } else {
      otherKernels.insert(entry.idOperand(1));
      dropped.push_back(&entry);
    }
  }
  if (!found) return Error("the module has no kernel named '" + kernel + "'");
  for (ir::Instruction& mode : (*module)->section(ir::Section::kExecutionMode)) {
    if (otherKernels.count(mode.idOperand(0))) dropped.push_back(&mode);
  }
  if (Status removed = (*module)->removeAll(dropped); !removed.ok()) return removed.error();

  // The other kernels' functions are now unreachable, and their variables unused.
  spvtools::Optimizer optimizer(SPV_ENV_UNIVERSAL_1_5);
  optimizer.RegisterPass(spvtools::CreateEliminateDeadFunctionsPass())
      .RegisterPass(spvtools::CreateDeadVariableEliminationPass());
  std::vector<uint32_t> words = ir::writeBinary(**module);
  std::vector<uint32_t> result;
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);  // Pipeline::create validates what it is given.
  if (!optimizer.Run(words.data(), words.size(), &result, options))
    return Error("internal error: cannot extract kernel '" + kernel + "' from its module (a cl2vk bug; please report it)");
  return result;
}

}  // namespace cl2vk
