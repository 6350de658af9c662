#include "cl2vk/translator.h"

#include <algorithm>
#include <cstdint>
#include <set>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/reader.h"
#include "ir/validate.h"
#include "ir/writer.h"
#include "passes/pass.h"
#include "spirv-tools/optimizer.hpp"

namespace cl2vk {

namespace {

// What makes a module an OpenCL kernel module at all, checked before anything reads it as one.
Status checkIsKernelModule(const ir::Module& module) {
  bool kernelCapability = false;
  for (const ir::Instruction& inst : module.section(ir::Section::kCapability))
    kernelCapability |= inst.wordOperand(0) == static_cast<uint32_t>(spv::Capability::Kernel);
  if (!kernelCapability)
    return Error(
        "not an OpenCL module: it does not declare the Kernel capability (cl2vk reads what clang -target "
        "spir64 and llvm-spirv produce, not Vulkan or GLSL shaders)");
  for (const ir::Instruction& inst : module.section(ir::Section::kEntryPoint)) {
    if (inst.wordOperand(0) == static_cast<uint32_t>(spv::ExecutionModel::Kernel)) return okStatus();
  }
  return Error("the module has no kernel (no OpEntryPoint with the Kernel execution model)");
}

// The integer width a scalar or vector type holds, else 0.
uint32_t integerWidth(const ir::Module& module, uint32_t typeId) {
  const ir::Instruction* type = typeId ? module.def(typeId) : nullptr;
  if (type && type->opcode() == spv::Op::OpTypeVector) type = module.def(type->idOperand(0));
  return type && type->opcode() == spv::Op::OpTypeInt ? type->wordOperand(0) : 0;
}

// Vulkan refuses a module that declares a capability the device did not enable, so a translation
// that needs an integer width, or 8/16-bit values in buffers, that the target lacks is refused
// here. It names the first instruction that computes in that width (or the buffer type).
Status checkDeviceHasWhatTheTranslationNeeds(const ir::Module& module, const ModuleRequirements& needs,
                                             const Target& target) {
  struct Integer {
    bool needed, present;
    uint32_t width;
    const char* reason;
  } integers[] = {
      {needs.int8, target.int8, 8, "8-bit integers (char) need Vulkan's shaderInt8, which this device lacks"},
      {needs.int16, target.int16, 16, "16-bit integers (short) need Vulkan's shaderInt16, which this device lacks"},
      {needs.int64, target.int64, 64,
       "64-bit integers (long, size_t and pointers) need Vulkan's shaderInt64, which this device lacks"},
  };
  for (const Integer& integer : integers) {
    if (!integer.needed || integer.present) continue;
    for (const ir::Function& function : module.functions()) {
      for (const ir::Block& block : function.blocks()) {
        for (const ir::Instruction& inst : block.instructions()) {
          if (integerWidth(module, inst.typeId()) == integer.width) return ir::refuse(module, inst, integer.reason);
        }
      }
    }
    return Error(integer.reason);  // a constant or a type alone
  }
  if (needs.storageBuffer8BitAccess && !target.storage8)
    return Error("8-bit values in buffers (char) need Vulkan's storageBuffer8BitAccess, which this device lacks");
  if (needs.storageBuffer16BitAccess && !target.storage16)
    return Error(
        "16-bit values in buffers (short, half) need Vulkan's storageBuffer16BitAccess, which this device lacks");
  return okStatus();
}

// The bytes of fixed-size Workgroup memory each kernel uses (KernelReflection::workgroupBytes):
// every Workgroup variable its function refers to (functions are inlined by now), but those whose
// array length is a specialization constant, which are the __local arguments.
void measureWorkgroupMemory(const ir::Module& module, ModuleReflection& reflection) {
  for (const ir::Instruction& entry : module.section(ir::Section::kEntryPoint)) {
    KernelReflection* kernel = reflection.kernel(entry.stringOperand(2));
    const ir::Function* function = module.function(entry.idOperand(1));
    if (!kernel || !function) continue;
    std::set<uint32_t> variables;
    for (const ir::Block& block : function->blocks()) {
      for (const ir::Instruction& inst : block.instructions()) {
        for (size_t i = 0; i < inst.numOperands(); ++i) {
          if (!inst.operand(i).isId()) continue;
          const ir::Instruction* def = module.def(inst.operand(i).words[0]);
          if (def && def->opcode() == spv::Op::OpVariable && !def->function() &&
              static_cast<spv::StorageClass>(def->wordOperand(0)) == spv::StorageClass::Workgroup)
            variables.insert(def->resultId());
        }
      }
    }
    // The collectives' scratch may be sized by the work-group size (a specialization constant
    // expression): then lower-collectives' count of it stands in.
    uint64_t bytes = 0;
    bool scratchUnmeasured = false;
    for (uint32_t variable : variables) {
      uint32_t pointee = module.def(module.def(variable)->typeId())->idOperand(1);
      const ir::Instruction* type = module.def(pointee);
      if (type->opcode() == spv::Op::OpTypeArray) {
        const ir::Instruction* length = module.def(type->idOperand(1));
        if (length && length->opcode() == spv::Op::OpSpecConstant) continue;  // a __local argument
      }
      if (Expected<TypeLayout> layout = layoutOf(module, pointee))
        bytes += layout->size;
      else
        scratchUnmeasured = true;
    }
    if (scratchUnmeasured) bytes += kernel->collectives.scratchBytes;
    kernel->workgroupBytes = static_cast<uint32_t>(std::min<uint64_t>(bytes, UINT32_MAX));
  }
}

// The largest id bound SPIR-V's validator (its universal limit) and drivers accept.
constexpr uint32_t kMostIds = 0x3FFFFF;

constexpr const char* kInvalidTranslation =
    "internal error: the translation is not valid Vulkan SPIR-V (a cl2vk bug; please report it)";

// `module`, valid in all but its id bound (SPIRV-Tools' optimizer assumes a valid module),
// renumbered so that its ids run from 1 without gaps (SPIRV-Tools' compact-ids), where its bound
// is above kMostIds: the passes take fresh ids and leave the old ones unused, and a large kernel
// ended above the limit with far fewer ids in use (hashcat's SHA-512 kernels, their 80 rounds
// unrolled), as may an input another generator wrote.
Status keepIdsWithinTheLimit(std::unique_ptr<ir::Module>& module, spv_target_env env) {
  if (module->bound() <= kMostIds) return okStatus();
  std::vector<uint32_t> words = ir::writeBinary(*module);
  spvtools::Optimizer optimizer(env);
  optimizer.RegisterPass(spvtools::CreateCompactIdsPass());
  std::vector<uint32_t> compacted;
  spvtools::OptimizerOptions options;
  options.set_run_validator(false);
  if (!optimizer.Run(words.data(), words.size(), &compacted, options))
    return Error("renumbering the module's ids (its id bound " + std::to_string(module->bound()) + ") failed");
  Expected<std::unique_ptr<ir::Module>> renumbered = ir::readBinary(compacted);
  if (!renumbered) return renumbered.error().withContext("renumbering the module's ids");
  module = std::move(*renumbered);
  if (module->bound() > kMostIds)
    return Error("the module uses " + std::to_string(module->bound() - 1) + " ids, more than SPIR-V's limit of " +
                 std::to_string(kMostIds));
  return okStatus();
}

// The checks of a translation's result, and what the reflection measures of it.
Expected<ModuleReflection> finishTranslation(ir::Module& module, const Target& target, ModuleReflection reflection) {
  if (Status valid = ir::validate(module, target.vulkanEnv); !valid.ok())
    return valid.error().withContext(kInvalidTranslation);
  CL2VK_TRY(checkDeviceHasWhatTheTranslationNeeds(module, reflection.requirements, target));
  measureWorkgroupMemory(module, reflection);
  return reflection;
}

// The whole translation of a module in memory, changed or replaced (renumbered); returns the
// reflection.
Expected<ModuleReflection> translateModule(std::unique_ptr<ir::Module>& module, const Target& target) {
  CL2VK_TRY(checkIsKernelModule(*module));
  // The registered pipeline, in its order, with the input validated between its two stages.
  std::vector<const PassInfo*> inputPasses, loweringPasses;
  for (const PassInfo& pass : registeredPasses())
    (pass.stage == PassStage::kInput ? inputPasses : loweringPasses).push_back(&pass);
  PassContext context{target, {}};
  if (Expected<PassResult> prepared = runPasses(*module, context, inputPasses); !prepared) return prepared.error();
  // SPIR-V's core rules, not an OpenCL profile's: the device decides which extensions it has. A
  // kernel may take as many arguments as CL_DEVICE_MAX_PARAMETER_SIZE bytes hold (4096 chars), more
  // than SPIR-V's universal limit of 255 function parameters, which llvm-spirv does not keep to.
  constexpr uint32_t kMostKernelParameters = 4096;
  const spv_target_env inputEnv = ir::universalEnvironment(*module);
  if (Status valid = ir::validate(*module, inputEnv, kMostKernelParameters, std::max(module->bound(), kMostIds));
      !valid.ok())
    return valid.error().withContext("the input is not valid SPIR-V");
  if (Status kept = keepIdsWithinTheLimit(module, inputEnv); !kept.ok()) return kept.error().withContext("the input");

  Expected<PassResult> result = runPasses(*module, context, loweringPasses);
  if (!result) return result.error();
  if (module->bound() > kMostIds) {
    if (Status valid = ir::validate(*module, target.vulkanEnv, 255, module->bound()); !valid.ok())
      return valid.error().withContext(kInvalidTranslation);
    if (Status kept = keepIdsWithinTheLimit(module, target.vulkanEnv); !kept.ok())
      return kept.error().withContext("the translation");
  }
  return finishTranslation(*module, target, std::move(context.reflection));
}

}  // namespace

Expected<Translation> translate(std::span<const uint32_t> kernelSpirv, const Target& target) {
  auto module = ir::readBinary(kernelSpirv);
  if (!module) return module.error();
  Expected<ModuleReflection> reflection = translateModule(*module, target);
  if (!reflection) return reflection.error();
  return Translation{ir::writeBinary(**module), std::move(*reflection)};
}

std::vector<PassDescription> passes() {
  std::vector<PassDescription> descriptions;
  for (const PassInfo& pass : registeredPasses()) descriptions.push_back({pass.name, pass.summary});
  return descriptions;
}

Expected<Translation> runPasses(std::span<const uint32_t> spirv, const std::vector<std::string>& names,
                                const Target& target) {
  std::vector<const PassInfo*> pipeline;
  for (const std::string& name : names) {
    const PassInfo* found = nullptr;
    for (const PassInfo& pass : registeredPasses()) {
      if (pass.name == name) found = &pass;
    }
    if (!found) return Error("there is no pass named '" + name + "'");
    pipeline.push_back(found);
  }
  auto module = ir::readBinary(spirv);
  if (!module) return module.error();
  PassContext context{target, {}};
  Expected<PassResult> result = runPasses(**module, context, pipeline);
  if (!result) return result.error();
  return Translation{ir::writeBinary(**module), std::move(context.reflection)};
}

}  // namespace cl2vk
