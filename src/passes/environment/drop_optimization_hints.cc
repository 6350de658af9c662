#include "passes/environment/drop_optimization_hints.h"

#include <bit>
#include <vector>

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Module;
using ir::Operand;
using ir::Section;

constexpr uint32_t kAliasMemoryOperands = static_cast<uint32_t>(spv::MemoryAccessMask::AliasScopeINTELMask) |
                                          static_cast<uint32_t>(spv::MemoryAccessMask::NoAliasINTELMask);
constexpr uint32_t kIntelFastMathBits = static_cast<uint32_t>(spv::FPFastMathModeMask::AllowContractFastINTEL) |
                                        static_cast<uint32_t>(spv::FPFastMathModeMask::AllowReassocINTEL);

// The capabilities and extensions of the hints this pass removes.
constexpr spv::Capability kHintCapabilities[] = {
    spv::Capability::OptNoneINTEL, spv::Capability::ExpectAssumeKHR, spv::Capability::UnstructuredLoopControlsINTEL,
    spv::Capability::MemoryAccessAliasingINTEL, spv::Capability::FPFastMathModeINTEL};
constexpr std::string_view kHintExtensions[] = {"SPV_INTEL_optnone", "SPV_KHR_expect_assume",
                                                "SPV_INTEL_unstructured_loop_controls",
                                                "SPV_INTEL_memory_access_aliasing", "SPV_INTEL_fp_fast_math_mode"};

bool isMemoryAccessKind(spv_operand_type_t kind) {
  return kind == SPV_OPERAND_TYPE_MEMORY_ACCESS || kind == SPV_OPERAND_TYPE_OPTIONAL_MEMORY_ACCESS;
}

// The operands without the alias-scope ids of each memory-operand set (OpCopyMemory has two).
// Those are the last operands of their set, their mask bits being the highest; nullopt when there
// are none.
std::optional<std::vector<Operand>> withoutAliasScopes(const Instruction& inst) {
  std::vector<Operand> result;
  bool changed = false;
  const std::vector<Operand>& operands = inst.operands();
  for (size_t i = 0; i < operands.size(); ++i) {
    const Operand& operand = operands[i];
    uint32_t mask = operand.words.empty() ? 0 : operand.words[0];
    if (!isMemoryAccessKind(operand.kind) || (mask & kAliasMemoryOperands) == 0) {
      result.push_back(operand);
      continue;
    }
    using M = spv::MemoryAccessMask;
    uint32_t withOperand = static_cast<uint32_t>(M::Aligned) | static_cast<uint32_t>(M::MakePointerAvailable) |
                           static_cast<uint32_t>(M::MakePointerVisible) | kAliasMemoryOperands;
    size_t kept = std::popcount(mask & withOperand & ~kAliasMemoryOperands);
    size_t dropped = std::popcount(mask & kAliasMemoryOperands);
    result.push_back(Operand::enumerant(operand.kind, mask & ~kAliasMemoryOperands));
    for (size_t k = 0; k < kept && i + 1 < operands.size(); ++k) result.push_back(operands[++i]);
    i += dropped;
    changed = true;
  }
  if (!changed) return std::nullopt;
  return result;
}

bool dropFunctionControls(Module& module) {
  bool changed = false;
  constexpr uint32_t kOptNone = static_cast<uint32_t>(spv::FunctionControlMask::OptNoneINTEL);
  for (ir::Function& function : module.functions()) {
    Instruction& definition = function.definition();
    uint32_t control = definition.wordOperand(0);
    if ((control & kOptNone) == 0) continue;
    std::vector<Operand> operands = definition.operands();
    operands[0] = Operand::enumerant(operands[0].kind, control & ~kOptNone);
    module.update(&definition,
                  Instruction(definition.opcode(), definition.typeId(), definition.resultId(), std::move(operands)));
    changed = true;
  }
  return changed;
}

// Expect, assume and loop-control instructions, and alias scopes on memory accesses.
Expected<bool> dropInstructionHints(Module& module) {
  bool changed = false;
  std::vector<Instruction*> doomed;
  for (ir::Function& function : module.functions()) {
    for (ir::Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        switch (inst.opcode()) {
          case spv::Op::OpExpectKHR:
            // OpExpectKHR %type %value %expected: its result is %value.
            module.replaceAllUses(inst.resultId(), inst.idOperand(0));
            doomed.push_back(&inst);
            break;
          case spv::Op::OpAssumeTrueKHR:
          case spv::Op::OpLoopControlINTEL: doomed.push_back(&inst); break;
          default:
            if (auto operands = withoutAliasScopes(inst)) {
              module.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), std::move(*operands)));
              changed = true;
            }
        }
      }
    }
  }
  if (doomed.empty()) return changed;
  CL2VK_TRY(module.removeAll(doomed));
  return true;
}

// Alias-scope decorations and declarations, and the INTEL bits of FPFastMathMode.
Expected<bool> dropModuleHints(Module& module) {
  bool changed = false;
  std::vector<Instruction*> doomed;
  for (Instruction& inst : module.section(Section::kAnnotation)) {
    if (inst.numOperands() < 2 || inst.operand(1).kind != SPV_OPERAND_TYPE_DECORATION) continue;
    auto decoration = static_cast<spv::Decoration>(inst.wordOperand(1));
    if (decoration == spv::Decoration::AliasScopeINTEL || decoration == spv::Decoration::NoAliasINTEL) {
      doomed.push_back(&inst);
    } else if (decoration == spv::Decoration::FPFastMathMode && (inst.wordOperand(2) & kIntelFastMathBits) != 0) {
      std::vector<Operand> operands = inst.operands();
      operands[2] = Operand::enumerant(operands[2].kind, inst.wordOperand(2) & ~kIntelFastMathBits);
      module.update(&inst, Instruction(inst.opcode(), 0, 0, std::move(operands)));
      changed = true;
    }
  }
  for (Instruction& inst : module.section(Section::kGlobal)) {
    spv::Op op = inst.opcode();
    if (op == spv::Op::OpAliasDomainDeclINTEL || op == spv::Op::OpAliasScopeDeclINTEL ||
        op == spv::Op::OpAliasScopeListDeclINTEL)
      doomed.push_back(&inst);
  }
  for (Instruction& inst : module.section(Section::kCapability)) {
    for (spv::Capability capability : kHintCapabilities) {
      if (inst.wordOperand(0) == static_cast<uint32_t>(capability)) doomed.push_back(&inst);
    }
  }
  for (Instruction& inst : module.section(Section::kExtension)) {
    for (std::string_view extension : kHintExtensions) {
      if (inst.stringOperand(0) == extension) doomed.push_back(&inst);
    }
  }
  if (doomed.empty()) return changed;
  CL2VK_TRY(module.removeAll(doomed));
  return true;
}

}  // namespace

Expected<PassResult> dropOptimizationHints(ir::Module& module, const Target&) {
  bool changed = dropFunctionControls(module);
  Expected<bool> instructions = dropInstructionHints(module);
  if (!instructions) return instructions.error();
  Expected<bool> globals = dropModuleHints(module);
  if (!globals) return globals.error();
  return changed || *instructions || *globals ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
