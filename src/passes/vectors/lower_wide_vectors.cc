// lower-wide-vectors (lower_wide_vectors.h says what it does): the pass in order, and its rewrites
// of the module outside function bodies (memory types, global constants and undefs, by-value
// parameters, and at the end the wide types themselves).
#include "passes/vectors/lower_wide_vectors.h"

#include <unordered_map>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/types.h"
#include "passes/lowering.h"
#include "passes/vectors/wide_vectors_lowering.h"

namespace cl2vk::wide_vectors {
namespace {

bool isAccessChain(spv::Op op) {
  return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain || op == spv::Op::OpPtrAccessChain ||
         op == spv::Op::OpInBoundsPtrAccessChain;
}

}  // namespace

Expected<PassResult> WideVectorLowering::run() {
  parts_.collectWideTypes();
  if (!parts_.anyWideType()) return PassResult::kUnchanged;
  CL2VK_TRY(retypeMemory());
  CL2VK_TRY(replaceGlobalValues());
  splitParameters();
  Expected<PassResult> lowered = lowerInstructions(
      module_, [this](const Instruction& inst) { return wanted(inst); },
      [this](Module&, Instruction& inst) -> Expected<bool> {
        CL2VK_TRY(lower(inst));
        return true;
      });
  if (!lowered) return lowered;
  CL2VK_TRY(completePhis());
  CL2VK_TRY(module_.removeAll(dead_));
  CL2VK_TRY(removeWideTypes());
  module_.sortGlobals();
  return PassResult::kChanged;
}

bool WideVectorLowering::wanted(const Instruction& inst) const {
  if (parameterParts_.contains(&inst)) return false;
  if (parts_.isWideType(inst.typeId()) || isAccessChain(inst.opcode())) return true;
  if (inst.opcode() == spv::Op::OpCompositeExtract || inst.opcode() == spv::Op::OpCompositeInsert) return true;
  for (const Operand& operand : inst.operands()) {
    if (operand.isId() && parts_.isWide(operand.words[0])) return true;
  }
  return false;
}

// --- The module outside function bodies. ---

// Wide vectors in types of memory (pointees, members, elements, parameters) become arrays of
// their parts. The arrays have the sizes of the vectors but a smaller alignment (data_layout.cc
// aligns an array like its element), so a struct whose member offsets or size would move is
// refused rather than silently read at other offsets. A smaller alignment alone moves nothing:
// the struct's size stays a multiple of it, and any struct holding this one is checked too.
Status WideVectorLowering::retypeMemory() {
  struct Layout {
    TypeLayout type;
    std::vector<uint32_t> offsets;
  };
  std::unordered_map<uint32_t, Layout> before;
  std::vector<Instruction*> types;
  for (Instruction& inst : module_.section(ir::Section::kGlobal)) types.push_back(&inst);
  for (Instruction* inst : types) {
    if (inst->opcode() != spv::Op::OpTypeStruct) continue;
    Expected<TypeLayout> layout = layoutOf(module_, inst->resultId());
    Expected<std::vector<uint32_t>> offsets = memberOffsets(module_, inst->resultId());
    if (layout && offsets) before[inst->resultId()] = Layout{*layout, *offsets};
  }
  for (Instruction* inst : types) {
    spv::Op op = inst->opcode();
    if (op != spv::Op::OpTypeArray && op != spv::Op::OpTypeRuntimeArray && op != spv::Op::OpTypeStruct &&
        op != spv::Op::OpTypePointer && op != spv::Op::OpTypeFunction)
      continue;
    std::vector<Operand> operands = inst->operands();
    bool changed = false;
    for (Operand& operand : operands) {
      if (operand.isId() && parts_.isWideType(operand.words[0])) {
        operand = Operand::id(parts_.memoryType(operand.words[0]));
        changed = true;
      }
    }
    if (changed) module_.update(inst, Instruction(op, inst->typeId(), inst->resultId(), std::move(operands)));
  }
  for (const auto& [structType, old] : before) {
    Expected<TypeLayout> layout = layoutOf(module_, structType);
    Expected<std::vector<uint32_t>> offsets = memberOffsets(module_, structType);
    if (!layout || !offsets || layout->size != old.type.size || *offsets != old.offsets) {
      std::string name = module_.name(structType);
      return Error("struct %" + std::to_string(structType) + (name.empty() ? "" : " '" + name + "'") +
                   ": its member offsets or size would change when its vectors of 8 or 16 components become "
                   "arrays of 4-component vectors (aligned like one part, not to their own size); such structs are "
                   "not supported");
    }
  }
  return okStatus();
}

// Wide constants and undefs in the global section become arrays of their parts (so that the
// aggregates and variable initializers that hold them stay consistent); code reads the parts.
Status WideVectorLowering::replaceGlobalValues() {
  std::vector<Instruction*> wide;
  for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
    if (parts_.isWideType(inst.typeId())) wide.push_back(&inst);
  }
  for (Instruction* inst : wide) {
    const WideType& type = parts_.wideType(inst->typeId());
    uint32_t memoryType = parts_.memoryType(inst->typeId());
    std::vector<uint32_t> parts;
    uint32_t replacement;
    switch (inst->opcode()) {
      case spv::Op::OpConstantComposite:
        for (uint32_t k = 0; k < type.parts(); ++k) {
          std::vector<uint32_t> components;
          for (uint32_t i = 0; i < 4; ++i) components.push_back(inst->idOperand(4 * k + i));
          parts.push_back(ir::constantComposite(module_, type.part, components));
        }
        replacement = ir::constantComposite(module_, memoryType, parts);
        break;
      case spv::Op::OpConstantNull:
        parts.assign(type.parts(), ir::constantNull(module_, type.part));
        replacement = ir::constantNull(module_, memoryType);
        break;
      case spv::Op::OpUndef:
        parts.assign(type.parts(), ir::undef(module_, type.part));
        replacement = ir::undef(module_, memoryType);
        break;
      default:
        return ir::refuse(module_, *inst, "a global value of a vector type of 8 or 16 components is not supported");
    }
    module_.replaceAllUses(inst->resultId(), replacement);
    CL2VK_TRY(module_.remove(inst));
    parts_.setParts(replacement, parts);
    parts_.setMemoryValue(replacement, replacement);
  }
  return okStatus();
}

// A wide by-value parameter arrives as the array of its parts; the parts are taken out at the
// top of the entry block.
void WideVectorLowering::splitParameters() {
  for (ir::Function& function : module_.functions()) {
    if (function.isDeclaration()) continue;
    Instruction* top = nullptr;
    for (Instruction& inst : function.blocks().front().instructions()) {
      if (inst.opcode() != spv::Op::OpLabel && inst.opcode() != spv::Op::OpVariable) {
        top = &inst;
        break;
      }
    }
    for (Instruction& param : function.header()) {
      if (param.opcode() != spv::Op::OpFunctionParameter || !parts_.isWideType(param.typeId())) continue;
      const WideType& type = parts_.wideType(param.typeId());
      module_.update(&param,
                     Instruction(spv::Op::OpFunctionParameter, parts_.memoryType(param.typeId()), param.resultId()));
      Builder b = Builder::before(module_, top);
      std::vector<uint32_t> parts;
      for (uint32_t k = 0; k < type.parts(); ++k) {
        Instruction* part =
            b.add(spv::Op::OpCompositeExtract, type.part, {Operand::id(param.resultId()), Operand::literal(k)});
        parameterParts_.insert(part);
        parts.push_back(part->resultId());
      }
      parts_.setParts(param.resultId(), parts);
      parts_.setMemoryValue(param.resultId(), param.resultId());
    }
  }
}

// --- The end. ---

Status WideVectorLowering::removeWideTypes() {
  for (uint32_t type : parts_.wideTypeIds()) {
    Instruction* def = module_.def(type);
    if (!def) continue;
    Status removed = module_.remove(def);
    if (!removed) return removed.error().withContext("a vector type of 8 or 16 components is left");
  }
  std::vector<Instruction*> vector16;
  for (Instruction& inst : module_.section(ir::Section::kCapability)) {
    if (inst.wordOperand(0) == static_cast<uint32_t>(spv::Capability::Vector16)) vector16.push_back(&inst);
  }
  for (Instruction* inst : vector16) CL2VK_TRY(module_.remove(inst));
  return okStatus();
}

}  // namespace cl2vk::wide_vectors

namespace cl2vk {

Expected<PassResult> lowerWideVectors(ir::Module& module, const Target&) {
  return wide_vectors::WideVectorLowering(module).run();
}

}  // namespace cl2vk
