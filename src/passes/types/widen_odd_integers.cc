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

bool isStandardWidth(uint32_t width) { return width == 8 || width == 16 || width == 32 || width == 64; }

// The value of a literal number of one or two words (a constant's).
uint64_t literalValue(const ir::Operand& operand) {
  uint64_t value = operand.words.at(0);
  if (operand.words.size() > 1) value |= uint64_t{operand.words[1]} << 32;
  return value;
}

uint64_t lowBits(uint32_t width) { return width >= 64 ? ~uint64_t{0} : (uint64_t{1} << width) - 1; }

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

bool OddIntegerWidening::involvesOdd(uint32_t type) {
  const Instruction* def = type ? module_.def(type) : nullptr;
  if (!def || !isType(def->opcode())) return false;
  if (auto known = involves_.find(type); known != involves_.end()) return known->second;
  involves_[type] = false;  // a struct that points to itself does not recurse forever
  bool result = false;
  switch (def->opcode()) {
    case spv::Op::OpTypeInt: result = oddWidth(type) != 0; break;
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeArray:
    case spv::Op::OpTypeRuntimeArray: result = involvesOdd(def->idOperand(0)); break;
    case spv::Op::OpTypePointer: result = involvesOdd(def->idOperand(1)); break;
    case spv::Op::OpTypeStruct:
    case spv::Op::OpTypeFunction:
      for (size_t i = 0; i < def->numOperands(); ++i) result = result || involvesOdd(def->idOperand(i));
      break;
    default: break;
  }
  involves_[type] = result;
  return result;
}

uint32_t OddIntegerWidening::mapType(uint32_t type) {
  if (!involvesOdd(type)) return type;
  if (auto known = mapped_.find(type); known != mapped_.end()) return known->second;
  const Instruction* def = module_.def(type);
  // Arrays and structs are made afresh: an equal standard one may carry decorations of its own.
  auto fresh = [&](spv::Op opcode, std::vector<ir::Operand> operands) {
    uint32_t id = module_.takeId();
    module_.append(ir::Section::kGlobal, Instruction(opcode, 0, id, std::move(operands)));
    return id;
  };
  uint32_t result = type;
  switch (def->opcode()) {
    case spv::Op::OpTypeInt: {
      uint32_t width = widenedWidth(def->wordOperand(0));
      if (width == 8) ir::requireCapability(module_, spv::Capability::Int8);
      if (width == 16) ir::requireCapability(module_, spv::Capability::Int16);
      if (width == 64) ir::requireCapability(module_, spv::Capability::Int64);
      result = ir::typeInt(module_, width);
      break;
    }
    case spv::Op::OpTypeVector:
      result = ir::typeVector(module_, mapType(def->idOperand(0)), def->wordOperand(1));
      break;
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
    case spv::Op::OpTypePointer:
      result =
          ir::typePointer(module_, static_cast<spv::StorageClass>(def->wordOperand(0)), mapType(def->idOperand(1)));
      break;
    case spv::Op::OpTypeFunction: {
      std::vector<uint32_t> parameters;
      for (size_t i = 1; i < def->numOperands(); ++i) parameters.push_back(mapType(def->idOperand(i)));
      result = ir::typeFunction(module_, mapType(def->idOperand(0)), parameters);
      break;
    }
    default: break;
  }
  mapped_[type] = result;
  return result;
}

uint32_t OddIntegerWidening::originalType(uint32_t value) const {
  if (auto known = original_.find(value); known != original_.end()) return known->second;
  return ir::typeOf(module_, value);
}

uint32_t OddIntegerWidening::widened(uint32_t value) {
  const Instruction* def = module_.def(value);
  if (!def || def->block() || !isConstantLike(def->opcode()) || !involvesOdd(def->typeId())) return value;
  if (auto known = constants_.find(value); known != constants_.end()) return known->second;
  uint32_t type = mapType(def->typeId());
  uint32_t result = value;
  switch (def->opcode()) {
    case spv::Op::OpConstant:
      // Held zero-extended, whatever high bits the writer left in the literal's word.
      result = ir::constantBits(module_, type, literalValue(def->operand(0)) & lowBits(oddWidth(def->typeId())));
      break;
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

Status OddIntegerWidening::finish(Instruction& inst, uint32_t value, uint32_t original) {
  uint32_t valueType = ir::typeOf(module_, value);
  if (valueType != original || originalType(value) != original) {
    // Only values this lowering made may remember a type of their own: a constant or an older
    // value is shared with uses that read it as what it is, so the result gets an id of its own.
    const Instruction* def = module_.def(value);
    if (!def || !def->block() || value < firstNewId_)
      value = Builder::before(module_, &inst).op(spv::Op::OpCopyObject, valueType, {value});
    if (valueType != original) original_[value] = original;
  }
  module_.replaceAllUses(inst.resultId(), value);
  return module_.remove(&inst);
}

void OddIntegerWidening::retype(Instruction& inst) {
  std::vector<ir::Operand> operands = inst.operands();
  for (ir::Operand& operand : operands) {
    if (operand.isId()) operand = ir::Operand::id(widened(operand.words[0]));
  }
  uint32_t type = inst.typeId() ? mapType(inst.typeId()) : 0;
  if (type != inst.typeId()) original_[inst.resultId()] = inst.typeId();
  module_.update(&inst, Instruction(inst.opcode(), type, inst.resultId(), std::move(operands)));
}

Status OddIntegerWidening::lowerGlobals() {
  std::vector<Instruction*> variables;
  for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
    if (!involvesOdd(inst.typeId())) continue;
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
    if (!involvesOdd(functionType)) continue;
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
  for (bool removed = true; removed;) {
    std::vector<Instruction*> unused;
    for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
      bool old = isType(inst.opcode()) ? involvesOdd(inst.resultId())
                                       : isConstantLike(inst.opcode()) && involvesOdd(inst.typeId());
      if (old && !module_.isUsed(inst.resultId())) unused.push_back(&inst);
    }
    for (auto it = unused.rbegin(); it != unused.rend(); ++it) CL2VK_TRY(module_.remove(*it));
    removed = !unused.empty();
  }
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
  bool involved = involvesOdd(inst.typeId());
  for (const ir::Operand& operand : inst.operands())
    involved = involved || (operand.isId() && involvesOdd(originalType(operand.words[0])));
  if (!involved) return okStatus();
  firstNewId_ = module_.bound();
  if (inst.opcode() == spv::Op::OpSwitch) {
    uint32_t width = oddWidth(originalType(inst.idOperand(0)));
    module_.update(&inst, ir::switchOnWidened(inst, widened(inst.idOperand(0)), width));
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
