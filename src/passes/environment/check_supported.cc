#include "passes/environment/check_supported.h"

#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>

#include "analysis/call_graph.h"
#include "ir/collectives.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"

namespace cl2vk {
namespace {

using ir::Function;
using ir::Instruction;
using ir::Module;

// The unsupported construct an instruction belongs to, or "".
std::string constructOf(const Instruction& inst) {
  switch (inst.opcode()) {
    case spv::Op::OpTypePipe:
    case spv::Op::OpTypePipeStorage:
    case spv::Op::OpTypeReserveId:
    case spv::Op::OpReadPipe:
    case spv::Op::OpWritePipe:
    case spv::Op::OpReserveReadPipePackets:
    case spv::Op::OpReserveWritePipePackets: return "pipes";
    case spv::Op::OpTypeQueue:
    case spv::Op::OpTypeDeviceEvent:
    case spv::Op::OpEnqueueKernel:
    case spv::Op::OpEnqueueMarker:
    case spv::Op::OpGetDefaultQueue:
    case spv::Op::OpBuildNDRange:
    case spv::Op::OpGetKernelWorkGroupSize:
    case spv::Op::OpGetKernelNDrangeMaxSubGroupSize:
    case spv::Op::OpGetKernelNDrangeSubGroupCount:
    case spv::Op::OpGetKernelPreferredWorkGroupSizeMultiple: return "device-side enqueue";
    case spv::Op::OpConstantFunctionPointerINTEL:
    case spv::Op::OpFunctionPointerCallINTEL: return "function pointers";
    // What llvm-spirv-15 writes for these under --spirv-ext=+all (docs/frontend.md); without the
    // extension they stay calls to undefined builtins.
    case spv::Op::OpAtomicFAddEXT:
    case spv::Op::OpAtomicFMinEXT:
    case spv::Op::OpAtomicFMaxEXT: return "floating-point atomics";
    case spv::Op::OpSDot:
    case spv::Op::OpUDot:
    case spv::Op::OpSUDot:
    case spv::Op::OpSDotAccSat:
    case spv::Op::OpUDotAccSat:
    case spv::Op::OpSUDotAccSat: return "integer dot products (cl_khr_integer_dot_product)";
    case spv::Op::OpTypeInt: {
      // Under SPV_INTEL_arbitrary_precision_integers (clang's narrowed i2, i4 ..., _BitInt(N)):
      // widen-odd-integers widens up to 64 bits.
      uint32_t width = inst.wordOperand(0);
      return width <= 64 ? "" : std::to_string(width) + "-bit integers";
    }
    default: return "";
  }
}

// The floating-point width of `typeId` (a scalar or vector type) when the target cannot compute in
// it, else 0: Vulkan needs shaderFloat64 for double and shaderFloat16 for half arithmetic.
uint32_t missingFloatWidth(const Module& module, uint32_t typeId, const Target& target) {
  uint32_t width = ir::floatWidth(module, typeId);
  return (width == 64 && !target.float64) || (width == 16 && !target.float16) ? width : 0;
}

std::string missingFloatReason(uint32_t width) {
  return width == 64
             ? "double (64-bit floating point) is not supported on this device (no Vulkan shaderFloat64)"
             : "half arithmetic (16-bit floating point) is not supported on this device (no Vulkan shaderFloat16)";
}

bool isPrintf(const Module& module, const Instruction& inst) {
  return ir::openclStdInstruction(module, inst) == OpenCLLIB::Printf;
}

// A float argument of printf, which the front end promotes to double: lower-printf passes the
// float itself, so the double needs nothing from the device.
bool isPrintfPromotion(const Module& module, const Instruction& inst) {
  if (inst.opcode() != spv::Op::OpFConvert || !inst.resultId()) return false;
  for (const ir::Use& use : module.uses(inst.resultId())) {
    if (!isPrintf(module, *use.user)) return false;
  }
  return true;
}

// The first instruction that computes in a floating-point width the target lacks, named with its
// kernel; the type itself when nothing uses it but printf's promotions.
std::optional<Error> findMissingFloat(const Module& module, const Target& target) {
  for (const Function& function : module.functions()) {
    for (const ir::Block& block : function.blocks()) {
      for (const Instruction& inst : block.instructions()) {
        if (isPrintfPromotion(module, inst) || isPrintf(module, inst)) continue;
        uint32_t width = missingFloatWidth(module, inst.typeId(), target);
        for (size_t i = 0; width == 0 && i < inst.numOperands(); ++i) {
          if (!inst.operand(i).isId()) continue;
          const Instruction* operand = module.def(inst.idOperand(i));
          if (operand) width = missingFloatWidth(module, operand->typeId(), target);
        }
        if (width == 0) continue;
        return ir::refuse(module, inst, missingFloatReason(width));
      }
    }
  }
  for (const Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (uint32_t width = missingFloatWidth(module, inst.resultId(), target);
        width && inst.opcode() == spv::Op::OpTypeFloat) {
      const std::vector<ir::Use>& uses = module.uses(inst.resultId());
      // Types built on it (a half*) are storage, not arithmetic: without 16-bit floats,
      // lower-narrow-integers moves halves as their bits (vload_half, vstore_half, copies).
      bool onlyPromotions = !uses.empty() && std::all_of(uses.begin(), uses.end(), [&](const ir::Use& use) {
        spv::Op user = use.user->opcode();
        return isPrintfPromotion(module, *use.user) || (width == 16 && ir::isTypeDeclaration(user));
      });
      if (!onlyPromotions) return Error(module.describe(inst) + ": " + missingFloatReason(width));
    }
  }
  return std::nullopt;
}

// The SPIR-V extensions cl2vk translates or drops (docs/frontend.md has the decision for each one
// llvm-spirv-15 can write); any other is refused by name, after the constructs above, whose
// messages say more.
constexpr std::string_view kKnownExtensions[] = {
    "SPV_KHR_uniform_group_instructions",      // the collectives
    "SPV_KHR_subgroup_rotate",                 // sub_group_rotate: shuffles (lower-collectives)
    "SPV_KHR_no_integer_wrap_decoration",      // decorations finalize-vulkan drops
    "SPV_KHR_bit_instructions",                // Vulkan's own bit instructions
    "SPV_INTEL_arbitrary_precision_integers",  // odd widths: widen-odd-integers
    "SPV_INTEL_optnone",                       // the rest: drop-optimization-hints
    "SPV_KHR_expect_assume",
    "SPV_INTEL_unstructured_loop_controls",
    "SPV_INTEL_memory_access_aliasing",
    "SPV_INTEL_fp_fast_math_mode",
};

std::optional<Error> findUnknownExtension(const Module& module) {
  for (const Instruction& inst : module.section(ir::Section::kExtension)) {
    std::string name = inst.stringOperand(0);
    if (std::find(std::begin(kKnownExtensions), std::end(kKnownExtensions), name) == std::end(kKnownExtensions))
      return Error("the SPIR-V extension " + name + " is not supported by cl2vk (docs/frontend.md lists what it does " +
                   "with each extension llvm-spirv-15 writes)");
  }
  return std::nullopt;
}

}  // namespace

Expected<PassResult> checkSupported(Module& module, const Target& target) {
  // OpenCL's SPIR-V environment ties the addressing model to CL_DEVICE_ADDRESS_BITS, 64 on every
  // device cl2vk offers: a 32-bit module's pointers and size_t cannot hold its buffer addresses.
  for (const Instruction& inst : module.section(ir::Section::kMemoryModel)) {
    if (inst.wordOperand(0) == static_cast<uint32_t>(spv::AddressingModel::Physical32))
      return Error(
          "the module is for 32-bit devices (the Physical32 addressing model, spir-unknown-unknown); cl2vk's devices "
          "have 64-bit addresses (CL_DEVICE_ADDRESS_BITS is 64): build it for spir64 (Physical64)");
  }
  for (const Instruction& inst : module.section(ir::Section::kGlobal)) {
    std::string construct = constructOf(inst);
    if (!construct.empty())
      return Error(module.describe(inst) + ": " + construct + (construct == "device-side enqueue" ? " is" : " are") +
                   " not supported by cl2vk");
  }
  for (const Function& function : module.functions()) {
    for (const ir::Block& block : function.blocks()) {
      for (const Instruction& inst : block.instructions()) {
        std::string construct = constructOf(inst);
        if (construct.empty()) continue;
        std::string verb = construct == "device-side enqueue" ? " is" : " are";
        return ir::refuse(module, inst, construct + verb + " not supported by cl2vk");
      }
    }
  }
  if (std::optional<Error> unknown = findUnknownExtension(module)) return *unknown;
  if (std::optional<Error> missing = findMissingFloat(module, target)) return *missing;
  return PassResult::kUnchanged;
}

}  // namespace cl2vk
