#include "passes/types/lower_narrow_integers.h"

#include <unordered_set>
#include <vector>

#include "analysis/call_graph.h"
#include "ir/types.h"
#include "passes/types/narrow_lowering.h"

namespace cl2vk {
namespace narrow {
namespace {

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
    case spv::Op::OpVectorExtractDynamic:  // a char16's element at a run-time index (the CTS's
    case spv::Op::OpVectorInsertDynamic:   // op_vector_char16_extract/insert on SwiftShader)
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
    // __local and __private memory: typed variables get 32-bit elements (buffers are
    // narrow_memory.cc's, which sees them first).
    case spv::Op::OpVariable:
    case spv::Op::OpLoad:
    case spv::Op::OpStore:
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpGroupNonUniformBroadcast:
    case spv::Op::OpGroupNonUniformBroadcastFirst:
    case spv::Op::OpGroupNonUniformShuffle:
    case spv::Op::OpGroupNonUniformShuffleXor:
    case spv::Op::OpGroupNonUniformShuffleUp:
    case spv::Op::OpGroupNonUniformShuffleDown: return true;
    default: return false;
  }
}

}  // namespace

NarrowLowering::NarrowLowering(Module& module, const Target& target)
    : IntegerWidening(module),
      target_(target),
      lower8_(!target.int8 || !target.storage8),
      lower16_(!target.int16 || !target.storage16),
      lowerHalf_(lower16_ || !target.float16) {}

uint32_t NarrowLowering::narrowWidth(uint32_t type) const {
  if (ir::floatWidth(module_, type) == 16) return lowerHalf_ ? 16 : 0;
  uint32_t width = ir::intWidth(module_, type);
  return (width == 8 && lower8_) || (width == 16 && lower16_) ? width : 0;
}

uint32_t NarrowLowering::mapNonAggregate(const Instruction& def) {
  switch (def.opcode()) {
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: return ir::typeInt(module_, 32);  // a half: its bits
    case spv::Op::OpTypeVector: return ir::typeVector(module_, ir::typeInt(module_, 32), def.wordOperand(1));
    case spv::Op::OpTypePointer: {
      auto storage = static_cast<spv::StorageClass>(def.wordOperand(0));
      // Buffer pointers to such types are addresses: bytes inside a word have no typed pointer.
      return storage == spv::StorageClass::PhysicalStorageBuffer
                 ? ir::typeInt(module_, 64)
                 : ir::typePointer(module_, storage, mapType(def.idOperand(1)));
    }
    default: return def.resultId();
  }
}

Status NarrowLowering::lowerGlobals() {
  std::vector<Instruction*> variables;
  for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
    if (!involves(inst.typeId())) continue;
    spv::Op opcode = inst.opcode();
    if (opcode == spv::Op::OpSpecConstant || opcode == spv::Op::OpSpecConstantComposite ||
        opcode == spv::Op::OpSpecConstantOp)
      return Error(module_.describe(inst) +
                   ": specialization constants of 8/16-bit integer type cannot be lowered to "
                   "32 bits (the device lacks shaderInt8/shaderInt16 or 8/16-bit storage)");
    if (opcode == spv::Op::OpVariable) variables.push_back(&inst);
  }
  for (Instruction* variable : variables) {
    if (variable->wordOperand(0) == static_cast<uint32_t>(spv::StorageClass::PhysicalStorageBuffer))
      return Error(module_.describe(*variable) + ": a buffer variable of 8/16-bit type");
    retype(*variable);
  }
  return okStatus();
}

Status NarrowLowering::removeOldTypes() {
  CL2VK_TRY(removeUnusedOldTypes());
  for (const Instruction& inst : module_.section(ir::Section::kGlobal)) {
    bool scalar = inst.opcode() == spv::Op::OpTypeInt || inst.opcode() == spv::Op::OpTypeFloat;
    if (!scalar || !narrowWidth(inst.resultId())) continue;
    std::string user = module_.uses(inst.resultId()).empty()
                           ? std::string("?")
                           : module_.describe(*module_.uses(inst.resultId()).front().user);
    return Error(user + ": still uses a " + std::to_string(inst.wordOperand(0)) +
                 "-bit type after lower-narrow-integers (a function the inliner left, or a type this "
                 "pass does not lower)");
  }
  // The capabilities go with the types.
  std::vector<Instruction*> capabilities;
  for (Instruction& inst : module_.section(ir::Section::kCapability)) {
    auto capability = static_cast<spv::Capability>(inst.wordOperand(0));
    if ((capability == spv::Capability::Int8 && lower8_) || (capability == spv::Capability::Int16 && lower16_) ||
        (capability == spv::Capability::Float16 && lowerHalf_))
      capabilities.push_back(&inst);
  }
  return module_.removeAll(capabilities);
}

bool NarrowLowering::involvesHalf(const Instruction& inst) const {
  auto isHalf = [&](uint32_t type) { return ir::floatWidth(module_, type) == 16; };
  bool half = isHalf(inst.typeId());
  for (const ir::Operand& operand : inst.operands())
    half = half || (operand.isId() && isHalf(originalType(operand.words[0])));
  return half;
}

Status NarrowLowering::lowerInstruction(Instruction& inst) {
  if (!startInstruction(inst)) return okStatus();
  if (inst.opcode() == spv::Op::OpSwitch) {
    widenSwitch(inst);
    return okStatus();
  }
  Expected<bool> lowered = lowerMemory(inst);
  if (!lowered) return lowered.error();
  if (*lowered) return okStatus();
  lowered = lowerArithmetic(inst);
  if (!lowered) return lowered.error();
  if (*lowered) return okStatus();
  if (!keepsOpcode(inst.opcode()) && involvesHalf(inst)) {
    // Halves are bits here when any of these is missing; name the ones that are.
    std::string missing;
    for (auto [present, name] :
         {std::pair{target_.float16, "shaderFloat16"}, std::pair{target_.storage16, "storageBuffer16BitAccess"},
          std::pair{target_.int16, "shaderInt16"}})
      if (!present) missing += std::string(missing.empty() ? "" : ", ") + name;
    return ir::refuse(module_, inst,
                      "half arithmetic needs Vulkan's shaderFloat16, storageBuffer16BitAccess and shaderInt16; "
                      "this device lacks " +
                          missing + " (vload_half, vstore_half and half copies work without them)");
  }
  if (!keepsOpcode(inst.opcode()))
    return ir::refuse(module_, inst,
                      "cannot be computed on 8/16-bit integers widened to 32 bits (the device lacks " +
                          std::string(lower8_ ? "shaderInt8 or storageBuffer8BitAccess" : "") +
                          (lower8_ && lower16_ ? ", " : "") +
                          (lower16_ ? "shaderInt16 or storageBuffer16BitAccess" : "") + ")");
  retype(inst);
  return okStatus();
}

Expected<PassResult> NarrowLowering::run() {
  if (!lower8_ && !lower16_ && !lowerHalf_) return PassResult::kUnchanged;
  bool any = false;
  for (const Instruction& inst : module_.section(ir::Section::kGlobal)) {
    bool scalar = inst.opcode() == spv::Op::OpTypeInt || inst.opcode() == spv::Op::OpTypeFloat;
    any = any || (scalar && narrowWidth(inst.resultId()));
  }
  if (!any) return PassResult::kUnchanged;

  CL2VK_TRY(lowerGlobals());
  std::vector<Instruction*> work;
  for (ir::Function& function : module_.functions()) {
    for (Instruction& parameter : function.header()) {
      if (involves(parameter.typeId()))
        return ir::refuse(module_, parameter,
                          "a function with 8/16-bit integer parameters or results that the inliner left");
    }
    for (ir::Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) work.push_back(&inst);
    }
  }
  for (Instruction* inst : work) CL2VK_TRY(lowerInstruction(*inst));
  CL2VK_TRY(removeOldTypes());
  module_.sortGlobals();
  return PassResult::kChanged;
}

}  // namespace narrow

Expected<PassResult> lowerNarrowIntegers(ir::Module& module, const Target& target) {
  return narrow::NarrowLowering(module, target).run();
}

}  // namespace cl2vk
