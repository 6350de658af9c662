#include "passes/types/widen_odd_integers.h"

#include <algorithm>
#include <vector>

#include "analysis/call_graph.h"
#include "ir/capabilities.h"
#include "ir/types.h"
#include "passes/types/odd_integer_lowering.h"

namespace cl2vk {
namespace odd {
namespace {

constexpr std::string_view kExtension = "SPV_INTEL_arbitrary_precision_integers";

// Instructions whose lowering is the same instruction on the widened values: they move bits
// without carrying past the width, or compare and divide zero-extended values as they are.
bool keepsOpcode(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpPhi:
    case spv::Op::OpSelect:
    case spv::Op::OpCompositeConstruct:
    case spv::Op::OpCompositeExtract:
    case spv::Op::OpCompositeInsert:
    case spv::Op::OpVectorShuffle:
    case spv::Op::OpCopyObject:
    case spv::Op::OpUndef:
    case spv::Op::OpBitwiseAnd:
    case spv::Op::OpBitwiseOr:
    case spv::Op::OpBitwiseXor:
    case spv::Op::OpUDiv:
    case spv::Op::OpUMod:
    case spv::Op::OpShiftRightLogical:
    case spv::Op::OpBitCount:  // of the zero-extended value: the same count
    case spv::Op::OpIEqual:
    case spv::Op::OpINotEqual:
    case spv::Op::OpULessThan:
    case spv::Op::OpULessThanEqual:
    case spv::Op::OpUGreaterThan:
    case spv::Op::OpUGreaterThanEqual:
    case spv::Op::OpConvertUToF:
    case spv::Op::OpConvertUToPtr:
    // Functions keep the widened values across calls.
    case spv::Op::OpFunctionCall:
    case spv::Op::OpReturnValue:
    // Pointers to such integers: their pointee types change, the layout does not (an iN takes
    // the alloc size of the next standard width, as LLVM lays it out).
    case spv::Op::OpVariable:
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain:
    case spv::Op::OpPtrCastToGeneric:
    case spv::Op::OpGenericCastToPtr:
    case spv::Op::OpGenericCastToPtrExplicit:
    case spv::Op::OpCopyMemory:
    case spv::Op::OpCopyMemorySized:
    case spv::Op::OpLifetimeStart:
    case spv::Op::OpLifetimeStop: return true;
    default: return false;
  }
}

bool isStandardWidth(uint32_t width) { return width == 8 || width == 16 || width == 32 || width == 64; }

}  // namespace

uint32_t widenedWidth(uint32_t width) {
  for (uint32_t standard : {8u, 16u, 32u}) {
    if (width <= standard) return standard;
  }
  return 64;
}

uint32_t OddIntegerWidening::oddWidth(uint32_t type) const {
  uint32_t width = ir::intWidth(module_, type);
  return width == 0 || isStandardWidth(width) ? 0 : width;
}

uint32_t OddIntegerWidening::mapNonAggregate(const Instruction& def) {
  switch (def.opcode()) {
    case spv::Op::OpTypeInt: {
      uint32_t width = widenedWidth(def.wordOperand(0));
      if (width == 8) ir::requireCapability(module_, spv::Capability::Int8);
      if (width == 16) ir::requireCapability(module_, spv::Capability::Int16);
      if (width == 64) ir::requireCapability(module_, spv::Capability::Int64);
      return ir::typeInt(module_, width);
    }
    case spv::Op::OpTypeVector: return ir::typeVector(module_, mapType(def.idOperand(0)), def.wordOperand(1));
    case spv::Op::OpTypePointer:
      return ir::typePointer(module_, static_cast<spv::StorageClass>(def.wordOperand(0)), mapType(def.idOperand(1)));
    default: return def.resultId();
  }
}

Status OddIntegerWidening::lowerGlobals() {
  std::vector<Instruction*> variables;
  for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
    if (!involves(inst.typeId())) continue;
    spv::Op opcode = inst.opcode();
    if (opcode == spv::Op::OpSpecConstant || opcode == spv::Op::OpSpecConstantComposite ||
        opcode == spv::Op::OpSpecConstantOp)
      return Error(module_.describe(inst) + ": specialization constants of " + std::to_string(oddWidth(inst.typeId())) +
                   "-bit integer type are not supported");
    if (opcode == spv::Op::OpVariable) variables.push_back(&inst);
  }
  for (Instruction* variable : variables) retype(*variable);
  return okStatus();
}

Status OddIntegerWidening::lowerFunctionHeaders() {
  std::vector<uint32_t> kernels;
  for (const Instruction& entry : module_.section(ir::Section::kEntryPoint)) kernels.push_back(entry.idOperand(1));
  for (ir::Function& function : module_.functions()) {
    Instruction& definition = function.definition();
    uint32_t functionType = definition.idOperand(1);
    if (!involves(functionType)) continue;
    if (std::find(kernels.begin(), kernels.end(), function.id()) != kernels.end())
      return ir::refuse(module_, definition,
                        "a kernel parameter of an integer type of a width other than 8, 16, 32 or 64 bits");
    std::vector<ir::Operand> operands = definition.operands();
    operands[1] = ir::Operand::id(mapType(functionType));
    module_.update(&definition, Instruction(spv::Op::OpFunction, mapType(definition.typeId()), definition.resultId(),
                                            std::move(operands)));
    for (Instruction& parameter : function.header()) {
      if (parameter.opcode() == spv::Op::OpFunctionParameter) retype(parameter);
    }
  }
  return okStatus();
}

Status OddIntegerWidening::removeOldTypes() {
  CL2VK_TRY(removeUnusedOldTypes());
  for (const Instruction& inst : module_.section(ir::Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpTypeInt || !oddWidth(inst.resultId())) continue;
    std::string user = module_.uses(inst.resultId()).empty()
                           ? std::string("?")
                           : module_.describe(*module_.uses(inst.resultId()).front().user);
    return Error(user + ": still uses a " + std::to_string(inst.wordOperand(0)) +
                 "-bit integer type after widen-odd-integers (a construct this pass does not widen)");
  }
  // The capability and the extension go with the types.
  std::vector<Instruction*> declarations;
  for (Instruction& inst : module_.section(ir::Section::kCapability)) {
    if (inst.wordOperand(0) == static_cast<uint32_t>(spv::Capability::ArbitraryPrecisionIntegersINTEL))
      declarations.push_back(&inst);
  }
  for (Instruction& inst : module_.section(ir::Section::kExtension)) {
    if (inst.stringOperand(0) == kExtension) declarations.push_back(&inst);
  }
  return module_.removeAll(declarations);
}

Status OddIntegerWidening::lowerInstruction(Instruction& inst) {
  if (!startInstruction(inst)) return okStatus();
  if (inst.opcode() == spv::Op::OpSwitch) {
    widenSwitch(inst);
    return okStatus();
  }
  for (auto lowering : {&OddIntegerWidening::lowerMemory, &OddIntegerWidening::lowerArithmetic,
                        &OddIntegerWidening::lowerConversion, &OddIntegerWidening::lowerOpenclStd}) {
    Expected<bool> lowered = (this->*lowering)(inst);
    if (!lowered) return lowered.error();
    if (*lowered) return okStatus();
  }
  if (!keepsOpcode(inst.opcode()))
    return ir::refuse(module_, inst,
                      "cannot be computed on integers of a width other than 8, 16, 32 or 64 bits (widen-odd-integers "
                      "does not know this instruction)");
  retype(inst);
  return okStatus();
}

Expected<PassResult> OddIntegerWidening::run() {
  bool any = false;
  for (const Instruction& inst : module_.section(ir::Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpTypeInt || !oddWidth(inst.resultId())) continue;
    if (inst.wordOperand(0) > 64)
      return Error(module_.describe(inst) + ": integers wider than 64 bits are not supported");
    any = true;
  }
  if (!any) return PassResult::kUnchanged;

  CL2VK_TRY(lowerGlobals());
  CL2VK_TRY(lowerFunctionHeaders());
  std::vector<Instruction*> work;
  for (ir::Function& function : module_.functions()) {
    for (ir::Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) work.push_back(&inst);
    }
  }
  for (Instruction* inst : work) CL2VK_TRY(lowerInstruction(*inst));
  CL2VK_TRY(removeOldTypes());
  module_.sortGlobals();
  return PassResult::kChanged;
}

}  // namespace odd

Expected<PassResult> widenOddIntegers(ir::Module& module, const Target&) {
  return odd::OddIntegerWidening(module).run();
}

}  // namespace cl2vk
