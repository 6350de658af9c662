#include "ir/validate.h"

#include <spirv/unified1/OpenCL.std.h>
#include <spirv-tools/libspirv.hpp>

#include "ir/opcode_classes.h"
#include "ir/writer.h"

namespace cl2vk::ir {
namespace {

struct NamedEnvironment {
  spv_target_env env;
  const char* name;
};

constexpr NamedEnvironment kEnvironments[] = {
    {SPV_ENV_VULKAN_1_1, "vulkan1.1"}, {SPV_ENV_VULKAN_1_2, "vulkan1.2"}, {SPV_ENV_VULKAN_1_3, "vulkan1.3"},
    {SPV_ENV_OPENCL_2_0, "opencl2.0"}, {SPV_ENV_OPENCL_2_1, "opencl2.1"}, {SPV_ENV_OPENCL_2_2, "opencl2.2"},
    {SPV_ENV_UNIVERSAL_1_0, "spv1.0"}, {SPV_ENV_UNIVERSAL_1_1, "spv1.1"}, {SPV_ENV_UNIVERSAL_1_2, "spv1.2"},
    {SPV_ENV_UNIVERSAL_1_3, "spv1.3"}, {SPV_ENV_UNIVERSAL_1_4, "spv1.4"}, {SPV_ENV_UNIVERSAL_1_5, "spv1.5"},
    {SPV_ENV_UNIVERSAL_1_6, "spv1.6"},
};

bool isVstoreHalf(uint32_t instruction) {
  switch (instruction) {
    case OpenCLLIB::Vstore_half:
    case OpenCLLIB::Vstore_half_r:
    case OpenCLLIB::Vstore_halfn:
    case OpenCLLIB::Vstore_halfn_r:
    case OpenCLLIB::Vstorea_halfn:
    case OpenCLLIB::Vstorea_halfn_r: return true;
    default: return false;
  }
}

// SPIRV-Tools 2023.1 reads the bit width of the vstore_half family's Data before it checks that
// Data is a float, and dereferences a null pointer when Data is a pointer, a structure or an array
// (found by the fuzzer; spirv-val itself crashes on such a module). The OpenCL.std specification
// asks for a float scalar or vector; this check runs first and says so.
Status checkVstoreHalfData(const Module& module) {
  for (const Function& function : module.functions()) {
    for (const Block& block : function.blocks()) {
      for (const Instruction& inst : block.instructions()) {
        std::optional<uint32_t> instruction = openclStdInstruction(module, inst);
        if (!instruction || !isVstoreHalf(*instruction) || inst.numOperands() < 3) continue;
        const Instruction* data = module.def(inst.idOperand(2));
        const Instruction* type = data ? module.def(data->typeId()) : nullptr;
        if (type && type->opcode() == spv::Op::OpTypeVector) type = module.def(type->idOperand(0));
        if (!type || type->opcode() != spv::Op::OpTypeFloat)
          return Error(module.describe(inst) + ": the data of a vstore_half must be a float scalar or vector");
      }
    }
  }
  return okStatus();
}

// Rules of the SPIR-V specification that SPIRV-Tools (2023.1) does not check, or checks only after
// it has crashed on their breach, and that the passes rely on; each was found by the fuzzer.
Status checkWhatTheValidatorMisses(const Module& module) {
  bool kernel = declaresCapability(module, spv::Capability::Kernel);
  for (const Instruction& inst : module.section(Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpTypeInt) continue;
    // Passes build integer types by width and signedness; a third signedness made a second
    // 64-bit type that no other one matched.
    if (inst.wordOperand(1) > 1)
      return Error(module.describe(inst) + ": the signedness of an integer type must be 0 or 1, not " +
                   std::to_string(inst.wordOperand(1)));
    // "The Signedness in OpTypeInt must always be 0" (the SPIR-V specification's validation rules
    // for Kernel capabilities). The passes build Kernel integer types with signedness 0, and a
    // structure with a signed member no longer matched its constituents.
    if (kernel && inst.wordOperand(1) != 0)
      return Error(module.describe(inst) + ": the signedness of an integer type must be 0 in a Kernel module, not " +
                   std::to_string(inst.wordOperand(1)));
  }
  return checkVstoreHalfData(module);
}

}  // namespace

spv_target_env validationEnvironment(const Module& module, spv_target_env vulkanEnv) {
  if (!declaresCapability(module, spv::Capability::Kernel)) return vulkanEnv;
  uint32_t minor = (module.header().version >> 8) & 0xff;
  switch (minor) {
    case 0: return SPV_ENV_OPENCL_2_0;
    case 1: return SPV_ENV_OPENCL_2_1;
    case 2: return SPV_ENV_OPENCL_2_2;
    case 3: return SPV_ENV_UNIVERSAL_1_3;
    case 4: return SPV_ENV_UNIVERSAL_1_4;
    case 5: return SPV_ENV_UNIVERSAL_1_5;
    default: return SPV_ENV_UNIVERSAL_1_6;
  }
}

spv_target_env universalEnvironment(const Module& module) { return universalEnvironment(module.header().version); }

spv_target_env universalEnvironment(uint32_t version) {
  switch ((version >> 8) & 0xff) {
    case 0: return SPV_ENV_UNIVERSAL_1_0;
    case 1: return SPV_ENV_UNIVERSAL_1_1;
    case 2: return SPV_ENV_UNIVERSAL_1_2;
    case 3: return SPV_ENV_UNIVERSAL_1_3;
    case 4: return SPV_ENV_UNIVERSAL_1_4;
    case 5: return SPV_ENV_UNIVERSAL_1_5;
    default: return SPV_ENV_UNIVERSAL_1_6;
  }
}

Status validate(const Module& module, spv_target_env env) { return validate(module, env, 255); }

Status validate(const Module& module, spv_target_env env, uint32_t maxFunctionParameters, uint32_t maxIdBound) {
  if (Status checked = checkWhatTheValidatorMisses(module); !checked.ok())
    return checked.error().withContext("validation (" + environmentName(env) + ") failed");
  spvtools::SpirvTools tools(env);
  std::string diagnostics;
  tools.SetMessageConsumer(
      [&diagnostics](spv_message_level_t, const char*, const spv_position_t&, const char* message) {
        if (!diagnostics.empty()) diagnostics += "; ";
        diagnostics += message;
      });
  std::vector<uint32_t> words = writeBinary(module);
  spvtools::ValidatorOptions options;
  options.SetUniversalLimit(spv_validator_limit_max_function_args, maxFunctionParameters);
  options.SetUniversalLimit(spv_validator_limit_max_id_bound, maxIdBound);
  if (!tools.Validate(words.data(), words.size(), options))
    return Error("SPIRV-Tools validation (" + environmentName(env) + ") failed: " + diagnostics);
  return okStatus();
}

Expected<spv_target_env> parseVulkanEnvironment(std::string_view name) {
  for (const auto& [env, envName] : kEnvironments) {
    if (name == envName && std::string_view(envName).starts_with("vulkan")) return env;
  }
  return Error("unknown target environment '" + std::string(name) + "' (expected vulkan1.1, vulkan1.2 or vulkan1.3)");
}

std::string environmentName(spv_target_env env) {
  for (const auto& [known, name] : kEnvironments) {
    if (known == env) return name;
  }
  return spvTargetEnvDescription(env);
}

}  // namespace cl2vk::ir
