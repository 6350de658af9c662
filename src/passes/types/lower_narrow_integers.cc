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

bool isConstantLike(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpConstant:
    case spv::Op::OpConstantComposite:
    case spv::Op::OpConstantNull:
    case spv::Op::OpUndef: return true;
    default: return false;
  }
}

bool isType(spv::Op opcode) { return opcode >= spv::Op::OpTypeVoid && opcode <= spv::Op::OpTypeForwardPointer; }

}  // namespace

NarrowLowering::NarrowLowering(Module& module, const Target& target)
    : module_(module),
      target_(target),
      lower8_(!target.int8 || !target.storage8),
      lower16_(!target.int16 || !target.storage16),
      lowerHalf_(lower16_ || !target.float16) {}

uint32_t NarrowLowering::narrowWidth(uint32_t type) const {
  if (ir::floatWidth(module_, type) == 16) return lowerHalf_ ? 16 : 0;
  uint32_t width = ir::intWidth(module_, type);
  return (width == 8 && lower8_) || (width == 16 && lower16_) ? width : 0;
}

bool NarrowLowering::involvesNarrow(uint32_t type) {
  const Instruction* def = type ? module_.def(type) : nullptr;
  if (!def || !isType(def->opcode())) return false;
  if (auto known = involves_.find(type); known != involves_.end()) return known->second;
  involves_[type] = false;  // a struct that points to itself does not recurse forever
  bool result = false;
  switch (def->opcode()) {
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: result = narrowWidth(type) != 0; break;
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeArray:
    case spv::Op::OpTypeRuntimeArray: result = involvesNarrow(def->idOperand(0)); break;
    case spv::Op::OpTypePointer: result = involvesNarrow(def->idOperand(1)); break;
    case spv::Op::OpTypeStruct:
    case spv::Op::OpTypeFunction:
      for (size_t i = 0; i < def->numOperands(); ++i) result = result || involvesNarrow(def->idOperand(i));
      break;
    default: break;
  }
  involves_[type] = result;
  return result;
}

uint32_t NarrowLowering::mapType(uint32_t type) {
  if (!involvesNarrow(type)) return type;
  if (auto known = mapped_.find(type); known != mapped_.end()) return known->second;
  const Instruction* def = module_.def(type);
  // Arrays and structs are made afresh, without the explicit layout that Function and Workgroup
  // variables must not have.
  auto fresh = [&](spv::Op opcode, std::vector<ir::Operand> operands) {
    uint32_t id = module_.takeId();
    module_.append(ir::Section::kGlobal, Instruction(opcode, 0, id, std::move(operands)));
    return id;
  };
  uint32_t result = 0;
  switch (def->opcode()) {
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat: result = ir::typeInt(module_, 32); break;  // a half: its bits
    case spv::Op::OpTypeVector: result = ir::typeVector(module_, ir::typeInt(module_, 32), def->wordOperand(1)); break;
    case spv::Op::OpTypeArray:
      result = fresh(spv::Op::OpTypeArray,
                     {ir::Operand::id(mapType(def->idOperand(0))), ir::Operand::id(def->idOperand(1))});
      break;
    case spv::Op::OpTypeRuntimeArray:
      result = fresh(spv::Op::OpTypeRuntimeArray, {ir::Operand::id(mapType(def->idOperand(0)))});
      break;
    case spv::Op::OpTypeStruct: {
      std::vector<ir::Operand> members;
      for (size_t i = 0; i < def->numOperands(); ++i) members.push_back(ir::Operand::id(mapType(def->idOperand(i))));
      result = fresh(spv::Op::OpTypeStruct, std::move(members));
      break;
    }
    case spv::Op::OpTypePointer: {
      auto storage = static_cast<spv::StorageClass>(def->wordOperand(0));
      // Buffer pointers to such types are addresses: bytes inside a word have no typed pointer.
      result = storage == spv::StorageClass::PhysicalStorageBuffer
                   ? ir::typeInt(module_, 64)
                   : ir::typePointer(module_, storage, mapType(def->idOperand(1)));
      break;
    }
    case spv::Op::OpTypeFunction: {
      std::vector<uint32_t> parameters;
      for (size_t i = 1; i < def->numOperands(); ++i) parameters.push_back(mapType(def->idOperand(i)));
      result = ir::typeFunction(module_, mapType(def->idOperand(0)), parameters);
      break;
    }
    default: result = type; break;
  }
  mapped_[type] = result;
  return result;
}

uint32_t NarrowLowering::originalType(uint32_t value) const {
  if (auto known = original_.find(value); known != original_.end()) return known->second;
  return ir::typeOf(module_, value);
}

uint32_t NarrowLowering::widened(uint32_t value) {
  const Instruction* def = module_.def(value);
  if (!def || def->block() || !isConstantLike(def->opcode()) || !involvesNarrow(def->typeId())) return value;
  if (auto known = constants_.find(value); known != constants_.end()) return known->second;
  uint32_t type = mapType(def->typeId());
  uint32_t result = value;
  switch (def->opcode()) {
    case spv::Op::OpConstant: {
      uint32_t width = narrowWidth(def->typeId());
      result = ir::constantBits(module_, type, def->wordOperand(0) & ((uint64_t{1} << width) - 1));
      break;
    }
    case spv::Op::OpConstantComposite: {
      std::vector<uint32_t> parts;
      for (size_t i = 0; i < def->numOperands(); ++i) parts.push_back(widened(def->idOperand(i)));
      result = ir::constantComposite(module_, type, parts);
      break;
    }
    case spv::Op::OpConstantNull: result = ir::constantNull(module_, type); break;
    default: result = ir::undef(module_, type); break;
  }
  constants_[value] = result;
  return result;
}

Status NarrowLowering::finish(Instruction& inst, uint32_t value, uint32_t original) {
  uint32_t valueType = ir::typeOf(module_, value);
  if (valueType != original || originalType(value) != original) {
    // Only values this lowering made may remember a type of their own: a constant or an older
    // value (a char zero-extended to the uint it was converted to, an address) is shared with
    // uses that read it as what it is, so the result gets an id of its own.
    const Instruction* def = module_.def(value);
    if (!def || !def->block() || value < firstNewId_)
      value = Builder::before(module_, &inst).op(spv::Op::OpCopyObject, valueType, {value});
    if (valueType != original) original_[value] = original;
  }
  module_.replaceAllUses(inst.resultId(), value);
  return module_.remove(&inst);
}

void NarrowLowering::retype(Instruction& inst) {
  std::vector<ir::Operand> operands = inst.operands();
  for (ir::Operand& operand : operands) {
    if (operand.isId()) operand = ir::Operand::id(widened(operand.words[0]));
  }
  uint32_t type = inst.typeId() ? mapType(inst.typeId()) : 0;
  if (type != inst.typeId()) original_[inst.resultId()] = inst.typeId();
  module_.update(&inst, Instruction(inst.opcode(), type, inst.resultId(), std::move(operands)));
}

Status NarrowLowering::lowerGlobals() {
  std::vector<Instruction*> variables;
  for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
    if (!involvesNarrow(inst.typeId())) continue;
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
  for (bool removed = true; removed;) {
    removed = false;
    std::vector<Instruction*> unused;
    for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
      bool old = isType(inst.opcode()) ? involvesNarrow(inst.resultId())
                                       : isConstantLike(inst.opcode()) && involvesNarrow(inst.typeId());
      if (old && !module_.isUsed(inst.resultId())) unused.push_back(&inst);
    }
    for (auto it = unused.rbegin(); it != unused.rend(); ++it) CL2VK_TRY(module_.remove(*it));
    removed = !unused.empty();
  }
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
  bool involved = involvesNarrow(inst.typeId());
  for (const ir::Operand& operand : inst.operands())
    involved = involved || (operand.isId() && involvesNarrow(originalType(operand.words[0])));
  if (!involved) return okStatus();
  firstNewId_ = module_.bound();
  if (inst.opcode() == spv::Op::OpSwitch) {
    uint32_t width = narrowWidth(originalType(inst.idOperand(0)));
    module_.update(&inst, ir::switchOnWidened(inst, widened(inst.idOperand(0)), width));
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
      if (involvesNarrow(parameter.typeId()))
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
