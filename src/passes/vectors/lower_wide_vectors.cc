#include "passes/vectors/lower_wide_vectors.h"

#include <spirv/unified1/OpenCL.std.h>

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/builder.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "analysis/data_layout.h"
#include "passes/lowering.h"
#include "passes/vectors/wide_vectors_parts.h"

namespace cl2vk {
namespace {

using ir::Builder;
using ir::Instruction;
using ir::Module;
using ir::Operand;

bool isAccessChain(spv::Op op) {
  return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain || op == spv::Op::OpPtrAccessChain ||
         op == spv::Op::OpInBoundsPtrAccessChain;
}

// Opcodes whose result component i depends only on component i of each vector operand (a scalar
// operand, such as OpSelect's condition or OpVectorTimesScalar's scalar, stands for all of them).
bool isComponentWise(spv::Op op) {
  switch (op) {
    case spv::Op::OpSNegate: case spv::Op::OpFNegate: case spv::Op::OpIAdd: case spv::Op::OpFAdd:
    case spv::Op::OpISub: case spv::Op::OpFSub: case spv::Op::OpIMul: case spv::Op::OpFMul:
    case spv::Op::OpUDiv: case spv::Op::OpSDiv: case spv::Op::OpFDiv: case spv::Op::OpUMod:
    case spv::Op::OpSRem: case spv::Op::OpSMod: case spv::Op::OpFRem: case spv::Op::OpFMod:
    case spv::Op::OpVectorTimesScalar:
    case spv::Op::OpShiftRightLogical: case spv::Op::OpShiftRightArithmetic: case spv::Op::OpShiftLeftLogical:
    case spv::Op::OpBitwiseOr: case spv::Op::OpBitwiseXor: case spv::Op::OpBitwiseAnd: case spv::Op::OpNot:
    case spv::Op::OpBitCount: case spv::Op::OpBitReverse:
    case spv::Op::OpLogicalEqual: case spv::Op::OpLogicalNotEqual: case spv::Op::OpLogicalOr:
    case spv::Op::OpLogicalAnd: case spv::Op::OpLogicalNot: case spv::Op::OpSelect:
    case spv::Op::OpIEqual: case spv::Op::OpINotEqual: case spv::Op::OpUGreaterThan: case spv::Op::OpSGreaterThan:
    case spv::Op::OpUGreaterThanEqual: case spv::Op::OpSGreaterThanEqual: case spv::Op::OpULessThan:
    case spv::Op::OpSLessThan: case spv::Op::OpULessThanEqual: case spv::Op::OpSLessThanEqual:
    case spv::Op::OpFOrdEqual: case spv::Op::OpFUnordEqual: case spv::Op::OpFOrdNotEqual: case spv::Op::OpFUnordNotEqual:
    case spv::Op::OpFOrdLessThan: case spv::Op::OpFUnordLessThan: case spv::Op::OpFOrdGreaterThan:
    case spv::Op::OpFUnordGreaterThan: case spv::Op::OpFOrdLessThanEqual: case spv::Op::OpFUnordLessThanEqual:
    case spv::Op::OpFOrdGreaterThanEqual: case spv::Op::OpFUnordGreaterThanEqual:
    case spv::Op::OpIsNan: case spv::Op::OpIsInf: case spv::Op::OpIsFinite: case spv::Op::OpIsNormal:
    case spv::Op::OpSignBitSet: case spv::Op::OpLessOrGreater: case spv::Op::OpOrdered: case spv::Op::OpUnordered:
    case spv::Op::OpConvertFToU: case spv::Op::OpConvertFToS: case spv::Op::OpConvertSToF: case spv::Op::OpConvertUToF:
    case spv::Op::OpUConvert: case spv::Op::OpSConvert: case spv::Op::OpFConvert: case spv::Op::OpSatConvertSToU:
    case spv::Op::OpSatConvertUToS:
      return true;
    default:
      return false;
  }
}

// OpenCL.std instructions that are not component-wise: the vector loads and stores become several
// 4-wide ones; the rest have no meaning on 8 or 16 components or are not supported.
enum class ExtKind { kComponentWise, kLoad, kStore, kUnsupported };

ExtKind extKind(uint32_t instruction) {
  using namespace OpenCLLIB;
  switch (instruction) {
    case Vloadn: case Vload_halfn: case Vloada_halfn:
      return ExtKind::kLoad;
    case Vstoren: case Vstore_halfn: case Vstore_halfn_r: case Vstorea_halfn: case Vstorea_halfn_r:
      return ExtKind::kStore;
    case Shuffle: case Shuffle2: case Printf: case Prefetch: case Cross: case Distance: case Length: case Normalize:
    case Fast_distance: case Fast_length: case Fast_normalize: case Vload_half: case Vstore_half: case Vstore_half_r:
      return ExtKind::kUnsupported;
    default:
      return ExtKind::kComponentWise;
  }
}

class WideVectorLowering {
 public:
  explicit WideVectorLowering(Module& module) : module_(module), parts_(module) {}

  Expected<PassResult> run() {
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

 private:
  Error unsupported(const Instruction& inst, const std::string& why) const {
    return Error(module_.describe(inst) + ": " + why);
  }

  bool wanted(const Instruction& inst) const {
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
  Status retypeMemory() {
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
  Status replaceGlobalValues() {
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
          parts.assign(type.parts(), parts_.undef(type.part));
          replacement = parts_.undef(memoryType);
          break;
        default:
          return unsupported(*inst, "a global value of a vector type of 8 or 16 components is not supported");
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
  void splitParameters() {
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
        module_.update(&param, Instruction(spv::Op::OpFunctionParameter, parts_.memoryType(param.typeId()), param.resultId()));
        Builder b = Builder::before(module_, top);
        std::vector<uint32_t> parts;
        for (uint32_t k = 0; k < type.parts(); ++k) {
          Instruction* part = b.add(spv::Op::OpCompositeExtract, type.part, {Operand::id(param.resultId()), Operand::literal(k)});
          parameterParts_.insert(part);
          parts.push_back(part->resultId());
        }
        parts_.setParts(param.resultId(), parts);
        parts_.setMemoryValue(param.resultId(), param.resultId());
      }
    }
  }

  // --- Function bodies: one small lowering per kind of instruction. ---

  Status lower(Instruction& inst) {
    spv::Op op = inst.opcode();
    if (isComponentWise(op)) return componentWise(inst);
    switch (op) {
      case spv::Op::OpExtInst: return extInst(inst);
      case spv::Op::OpBitcast: return bitcast(inst);
      case spv::Op::OpAny: case spv::Op::OpAll: return anyAll(inst);
      case spv::Op::OpCompositeConstruct: return compositeConstruct(inst);
      case spv::Op::OpCompositeExtract: return compositeExtract(inst);
      case spv::Op::OpCompositeInsert: return compositeInsert(inst);
      case spv::Op::OpVectorExtractDynamic: return vectorExtractDynamic(inst);
      case spv::Op::OpVectorInsertDynamic: return vectorInsertDynamic(inst);
      case spv::Op::OpVectorShuffle: return vectorShuffle(inst);
      case spv::Op::OpPhi: return phi(inst);
      case spv::Op::OpCopyObject: return copyObject(inst);
      case spv::Op::OpUndef: return undef(inst);
      case spv::Op::OpLoad: return load(inst);
      case spv::Op::OpStore: return store(inst);
      case spv::Op::OpAccessChain: case spv::Op::OpInBoundsAccessChain:
      case spv::Op::OpPtrAccessChain: case spv::Op::OpInBoundsPtrAccessChain:
        return accessChain(inst);
      default:
        return unsupported(inst, "vectors of 8 or 16 components are not supported in " + ir::opcodeName(op));
    }
  }

  // The result replaced by `parts`; the instruction goes when every user has been rewritten.
  void replaceByParts(Instruction& inst, std::vector<uint32_t> parts) {
    parts_.setParts(inst.resultId(), std::move(parts));
    dead_.push_back(&inst);
  }
  void replaceByValue(Instruction& inst, uint32_t value) {
    module_.replaceAllUses(inst.resultId(), value);
    dead_.push_back(&inst);
  }

  // Operand `operand` of part `k`: the part of a wide value, a pointer to the part of a wide
  // vector in memory, or the operand itself.
  Expected<Operand> partOperand(Builder& b, const Operand& operand, uint32_t k) {
    if (!operand.isId()) return operand;
    uint32_t id = operand.words[0];
    if (parts_.isWide(id)) {
      Expected<std::vector<uint32_t>> parts = parts_.partsOf(id);
      if (!parts) return parts.error();
      return Operand::id(parts->at(k));
    }
    if (parts_.pointsToWideMemory(id)) return Operand::id(parts_.partPointer(b, id, k));
    return operand;
  }

  Status componentWise(Instruction& inst) {
    if (!parts_.isWideType(inst.typeId())) return unsupported(inst, "expected a result of 8 or 16 components");
    const WideType& type = parts_.wideType(inst.typeId());
    Builder b = Builder::before(module_, &inst);
    std::vector<uint32_t> parts;
    for (uint32_t k = 0; k < type.parts(); ++k) {
      std::vector<Operand> operands;
      for (const Operand& operand : inst.operands()) {
        Expected<Operand> part = partOperand(b, operand, k);
        if (!part) return part.error().withContext(module_.describe(inst));
        operands.push_back(*part);
      }
      parts.push_back(b.value(inst.opcode(), type.part, std::move(operands)));
      parts_.copyDecorations(inst.resultId(), parts.back());
    }
    replaceByParts(inst, std::move(parts));
    return okStatus();
  }

  Status extInst(Instruction& inst) {
    std::optional<uint32_t> instruction = ir::openclStdInstruction(module_, inst);
    if (!instruction)
      return unsupported(inst, "vectors of 8 or 16 components are not supported in this extended instruction set");
    switch (extKind(*instruction)) {
      case ExtKind::kComponentWise: return componentWise(inst);
      case ExtKind::kLoad: return vectorLoad(inst);
      case ExtKind::kStore: return vectorStore(inst);
      case ExtKind::kUnsupported: break;
    }
    return unsupported(inst, "this OpenCL.std function is not supported on vectors of 8 or 16 components");
  }

  // offset * (n / 4) + k: vloadn(offset, p) reads p[offset * n + i], so part k is
  // vload4(offset * n / 4 + k, p).
  uint32_t partOffset(Builder& b, uint32_t offset, uint32_t n, uint32_t k) {
    uint32_t type = module_.def(offset)->typeId();
    uint32_t scaled = b.valueOfIds(spv::Op::OpIMul, type, {offset, ir::constantBits(module_, type, n / 4)});
    return k == 0 ? scaled : b.valueOfIds(spv::Op::OpIAdd, type, {scaled, ir::constantBits(module_, type, k)});
  }

  Status vectorLoad(Instruction& inst) {
    // offset, p, n
    uint32_t n = inst.wordOperand(4);
    if (!parts_.isWideType(inst.typeId()) || (n != 8 && n != 16)) return unsupported(inst, "expected n of 8 or 16");
    const WideType& type = parts_.wideType(inst.typeId());
    Builder b = Builder::before(module_, &inst);
    std::vector<uint32_t> parts;
    for (uint32_t k = 0; k < type.parts(); ++k) {
      uint32_t offset = partOffset(b, inst.idOperand(2), n, k);
      parts.push_back(b.value(spv::Op::OpExtInst, type.part,
                              {inst.operand(0), inst.operand(1), Operand::id(offset), inst.operand(3), Operand::literal(4)}));
    }
    replaceByParts(inst, std::move(parts));
    return okStatus();
  }

  Status vectorStore(Instruction& inst) {
    // data, offset, p, [rounding mode]
    uint32_t data = inst.idOperand(2);
    Expected<std::vector<uint32_t>> parts = parts_.partsOf(data);
    if (!parts) return parts.error().withContext(module_.describe(inst));
    uint32_t n = static_cast<uint32_t>(parts->size()) * 4;
    Builder b = Builder::before(module_, &inst);
    for (uint32_t k = 0; k < parts->size(); ++k) {
      std::vector<Operand> operands = inst.operands();
      operands[2] = Operand::id(parts->at(k));
      operands[3] = Operand::id(partOffset(b, inst.idOperand(3), n, k));
      b.add(spv::Op::OpExtInst, inst.typeId(), std::move(operands));
    }
    dead_.push_back(&inst);
    return okStatus();
  }

  Status bitcast(Instruction& inst) {
    uint32_t source = inst.idOperand(0);
    bool wideSource = parts_.isWide(source), wideResult = parts_.isWideType(inst.typeId());
    if (wideSource && wideResult &&
        parts_.wideType(inst.typeId()).count == ir::componentCount(module_, ir::typeOf(module_, source)))
      return componentWise(inst);
    Builder b = Builder::before(module_, &inst);
    Expected<std::vector<uint32_t>> words = parts_.words(b, source);
    if (!words) return words.error().withContext(module_.describe(inst));
    if (!wideResult) {
      Expected<uint32_t> value = parts_.fromWords(b, *words, 0, inst.typeId());
      if (!value) return value.error().withContext(module_.describe(inst));
      replaceByValue(inst, *value);
      return okStatus();
    }
    const WideType& type = parts_.wideType(inst.typeId());
    uint32_t wordsPerPart = static_cast<uint32_t>(words->size()) / type.parts();
    std::vector<uint32_t> parts;
    for (uint32_t k = 0; k < type.parts(); ++k) {
      Expected<uint32_t> part = parts_.fromWords(b, *words, k * wordsPerPart, type.part);
      if (!part) return part.error().withContext(module_.describe(inst));
      parts.push_back(*part);
    }
    replaceByParts(inst, std::move(parts));
    return okStatus();
  }

  // any / all of each part, combined with or / and.
  Status anyAll(Instruction& inst) {
    Expected<std::vector<uint32_t>> parts = parts_.partsOf(inst.idOperand(0));
    if (!parts) return parts.error().withContext(module_.describe(inst));
    Builder b = Builder::before(module_, &inst);
    spv::Op combine = inst.opcode() == spv::Op::OpAny ? spv::Op::OpLogicalOr : spv::Op::OpLogicalAnd;
    uint32_t result = 0;
    for (uint32_t part : *parts) {
      uint32_t partResult = b.valueOfIds(inst.opcode(), inst.typeId(), {part});
      result = result ? b.valueOfIds(combine, inst.typeId(), {result, partResult}) : partResult;
    }
    replaceByValue(inst, result);
    return okStatus();
  }

  // Components of each constituent in order, regrouped four at a time.
  Status compositeConstruct(Instruction& inst) {
    Builder b = Builder::before(module_, &inst);
    if (!parts_.isWideType(inst.typeId())) {
      // A struct or array with wide members holds them as arrays of parts.
      std::vector<Operand> operands;
      for (const Operand& operand : inst.operands()) {
        uint32_t id = operand.words[0];
        operands.push_back(parts_.isWide(id) ? Operand::id(parts_.memoryValue(b, id)) : operand);
      }
      module_.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), std::move(operands)));
      return okStatus();
    }
    std::vector<Component> components;
    for (const Operand& operand : inst.operands()) {
      Expected<std::vector<Component>> more = parts_.components(operand.words[0]);
      if (!more) return more.error().withContext(module_.describe(inst));
      components.insert(components.end(), more->begin(), more->end());
    }
    replaceByParts(inst, regroup(b, inst, components));
    return okStatus();
  }

  std::vector<uint32_t> regroup(Builder& b, const Instruction& inst, const std::vector<Component>& components) {
    const WideType& type = parts_.wideType(inst.typeId());
    std::vector<uint32_t> parts;
    for (uint32_t k = 0; k < type.parts(); ++k) {
      std::vector<Component> four(components.begin() + 4 * k, components.begin() + 4 * k + 4);
      parts.push_back(parts_.assemble(b, four, type.part));
    }
    return parts;
  }

  Status vectorShuffle(Instruction& inst) {
    std::vector<Component> sources;
    for (size_t i = 0; i < 2; ++i) {
      Expected<std::vector<Component>> more = parts_.components(inst.idOperand(i));
      if (!more) return more.error().withContext(module_.describe(inst));
      sources.insert(sources.end(), more->begin(), more->end());
    }
    std::vector<Component> selected;
    for (size_t i = 2; i < inst.numOperands(); ++i) {
      uint32_t index = inst.wordOperand(i);
      if (index == 0xFFFFFFFF) {
        selected.push_back(Component::undefined());
      } else if (index < sources.size()) {
        selected.push_back(sources[index]);
      } else {
        return unsupported(inst, "shuffle index out of range");
      }
    }
    Builder b = Builder::before(module_, &inst);
    if (parts_.isWideType(inst.typeId())) {
      replaceByParts(inst, regroup(b, inst, selected));
    } else {
      replaceByValue(inst, parts_.assemble(b, selected, inst.typeId()));
    }
    return okStatus();
  }

  Status compositeExtract(Instruction& inst) {
    uint32_t composite = inst.idOperand(0);
    Builder b = Builder::before(module_, &inst);
    if (parts_.isWide(composite)) {
      Expected<std::vector<uint32_t>> parts = parts_.partsOf(composite);
      if (!parts) return parts.error().withContext(module_.describe(inst));
      uint32_t index = inst.wordOperand(1);
      if (inst.numOperands() != 2 || index / 4 >= parts->size()) return unsupported(inst, "bad component index");
      replaceByValue(inst, b.value(spv::Op::OpCompositeExtract, inst.typeId(),
                                   {Operand::id(parts->at(index / 4)), Operand::literal(index % 4)}));
      return okStatus();
    }
    std::vector<Operand> path(inst.operands().begin() + 1, inst.operands().end());
    bool changed = splitLiteralPath(ir::typeOf(module_, composite), path);
    if (parts_.isWideType(inst.typeId())) {
      // A wide member of an aggregate: take out its array, then the parts.
      std::vector<Operand> operands = {Operand::id(composite)};
      operands.insert(operands.end(), path.begin(), path.end());
      const WideType& type = parts_.wideType(inst.typeId());
      uint32_t array = b.value(spv::Op::OpCompositeExtract, parts_.memoryType(inst.typeId()), std::move(operands));
      std::vector<uint32_t> parts;
      for (uint32_t k = 0; k < type.parts(); ++k) {
        parts.push_back(b.value(spv::Op::OpCompositeExtract, type.part, {Operand::id(array), Operand::literal(k)}));
      }
      replaceByParts(inst, std::move(parts));
      parts_.setMemoryValue(inst.resultId(), array);
    } else if (changed) {
      std::vector<Operand> operands = {Operand::id(composite)};
      operands.insert(operands.end(), path.begin(), path.end());
      module_.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), std::move(operands)));
    }
    return okStatus();
  }

  Status compositeInsert(Instruction& inst) {
    uint32_t object = inst.idOperand(0), composite = inst.idOperand(1);
    Builder b = Builder::before(module_, &inst);
    if (parts_.isWideType(inst.typeId())) {
      Expected<std::vector<uint32_t>> parts = parts_.partsOf(composite);
      if (!parts) return parts.error().withContext(module_.describe(inst));
      uint32_t index = inst.wordOperand(2);
      if (inst.numOperands() != 3 || index / 4 >= parts->size()) return unsupported(inst, "bad component index");
      std::vector<uint32_t> updated = *parts;
      updated[index / 4] = b.value(spv::Op::OpCompositeInsert, parts_.wideType(inst.typeId()).part,
                                   {Operand::id(object), Operand::id(updated[index / 4]), Operand::literal(index % 4)});
      replaceByParts(inst, std::move(updated));
      return okStatus();
    }
    std::vector<Operand> path(inst.operands().begin() + 2, inst.operands().end());
    bool changed = splitLiteralPath(ir::typeOf(module_, composite), path);
    if (!changed && !parts_.isWide(object)) return okStatus();
    uint32_t stored = parts_.isWide(object) ? parts_.memoryValue(b, object) : object;
    std::vector<Operand> operands = {Operand::id(stored), Operand::id(composite)};
    operands.insert(operands.end(), path.begin(), path.end());
    module_.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), std::move(operands)));
    return okStatus();
  }

  // A literal index path through an aggregate type: an index into a wide vector, now an array of
  // parts, becomes the part and the component in it.
  bool splitLiteralPath(uint32_t type, std::vector<Operand>& path) {
    bool changed = false;
    std::vector<Operand> split;
    for (const Operand& index : path) {
      uint32_t i = index.words[0];
      if (parts_.isMemoryType(type)) {
        split.push_back(Operand::literal(i / 4));
        split.push_back(Operand::literal(i % 4));
        type = parts_.memoryComponent(type);
        changed = true;
        continue;
      }
      split.push_back(index);
      type = parts_.elementType(type, i);
    }
    path = std::move(split);
    return changed;
  }

  // The part holding component `index` (index >> 2), chosen by selects.
  Status vectorExtractDynamic(Instruction& inst) {
    Expected<std::vector<uint32_t>> parts = parts_.partsOf(inst.idOperand(0));
    if (!parts) return parts.error().withContext(module_.describe(inst));
    Builder b = Builder::before(module_, &inst);
    uint32_t index = inst.idOperand(1);
    auto [part, lane] = parts_.splitIndex(b, index);
    uint32_t result = 0;
    for (uint32_t k = 0; k < parts->size(); ++k) {
      uint32_t component = b.valueOfIds(spv::Op::OpVectorExtractDynamic, inst.typeId(), {parts->at(k), lane});
      if (k == 0) {
        result = component;
        continue;
      }
      uint32_t isPart = b.valueOfIds(spv::Op::OpIEqual, ir::typeBool(module_),
                                     {part, ir::constantBits(module_, ir::typeOf(module_, index), k)});
      result = b.valueOfIds(spv::Op::OpSelect, inst.typeId(), {isPart, component, result});
    }
    replaceByValue(inst, result);
    return okStatus();
  }

  Status vectorInsertDynamic(Instruction& inst) {
    Expected<std::vector<uint32_t>> parts = parts_.partsOf(inst.idOperand(0));
    if (!parts) return parts.error().withContext(module_.describe(inst));
    Builder b = Builder::before(module_, &inst);
    uint32_t object = inst.idOperand(1), index = inst.idOperand(2);
    auto [part, lane] = parts_.splitIndex(b, index);
    const WideType& type = parts_.wideType(inst.typeId());
    uint32_t bool4 = ir::typeVector(module_, ir::typeBool(module_), 4);
    std::vector<uint32_t> updated;
    for (uint32_t k = 0; k < parts->size(); ++k) {
      uint32_t inserted = b.valueOfIds(spv::Op::OpVectorInsertDynamic, type.part, {parts->at(k), object, lane});
      uint32_t isPart = b.valueOfIds(spv::Op::OpIEqual, ir::typeBool(module_),
                                     {part, ir::constantBits(module_, ir::typeOf(module_, index), k)});
      uint32_t mask = b.valueOfIds(spv::Op::OpCompositeConstruct, bool4, {isPart, isPart, isPart, isPart});
      updated.push_back(b.valueOfIds(spv::Op::OpSelect, type.part, {mask, inserted, parts->at(k)}));
    }
    replaceByParts(inst, std::move(updated));
    return okStatus();
  }

  // One phi per part; their incoming values are filled in once every value has its parts.
  Status phi(Instruction& inst) {
    const WideType& type = parts_.wideType(inst.typeId());
    std::vector<uint32_t> parts;
    for (uint32_t k = 0; k < type.parts(); ++k) {
      Instruction* part = module_.insertBefore(&inst, Instruction(spv::Op::OpPhi, type.part, module_.takeId(), inst.operands()));
      partPhis_.push_back({part, k});
      parts.push_back(part->resultId());
    }
    replaceByParts(inst, std::move(parts));
    return okStatus();
  }

  Status completePhis() {
    for (auto [phi, k] : partPhis_) {
      std::vector<Operand> operands = phi->operands();
      for (size_t i = 0; i < operands.size(); i += 2) {
        Expected<std::vector<uint32_t>> parts = parts_.partsOf(operands[i].words[0]);
        if (!parts) return parts.error().withContext(module_.describe(*phi));
        operands[i] = Operand::id(parts->at(k));
      }
      module_.update(phi, Instruction(spv::Op::OpPhi, phi->typeId(), phi->resultId(), std::move(operands)));
    }
    return okStatus();
  }

  Status copyObject(Instruction& inst) {
    if (!parts_.isWideType(inst.typeId())) return unsupported(inst, "expected a vector of 8 or 16 components");
    Expected<std::vector<uint32_t>> parts = parts_.partsOf(inst.idOperand(0));
    if (!parts) return parts.error().withContext(module_.describe(inst));
    replaceByParts(inst, *parts);
    return okStatus();
  }

  Status undef(Instruction& inst) {
    const WideType& type = parts_.wideType(inst.typeId());
    replaceByParts(inst, std::vector<uint32_t>(type.parts(), parts_.undef(type.part)));
    return okStatus();
  }

  // Loads and stores of a wide vector go part by part through pointers to the parts.
  Status load(Instruction& inst) {
    uint32_t pointer = inst.idOperand(0);
    if (!parts_.isWideType(inst.typeId()) || !parts_.pointsToWideMemory(pointer))
      return unsupported(inst, "expected a load of a vector of 8 or 16 components");
    const WideType& type = parts_.wideType(inst.typeId());
    Builder b = Builder::before(module_, &inst);
    std::vector<uint32_t> parts;
    for (uint32_t k = 0; k < type.parts(); ++k) {
      std::vector<Operand> operands = parts_.partMemoryAccess(inst.operands(), 1, type.part);
      operands.insert(operands.begin(), Operand::id(parts_.partPointer(b, pointer, k)));
      parts.push_back(b.value(spv::Op::OpLoad, type.part, std::move(operands)));
    }
    replaceByParts(inst, std::move(parts));
    return okStatus();
  }

  Status store(Instruction& inst) {
    uint32_t pointer = inst.idOperand(0), object = inst.idOperand(1);
    Expected<std::vector<uint32_t>> parts = parts_.partsOf(object);
    if (!parts) return parts.error().withContext(module_.describe(inst));
    if (!parts_.pointsToWideMemory(pointer)) return unsupported(inst, "expected a pointer to a vector of 8 or 16 components");
    Builder b = Builder::before(module_, &inst);
    for (uint32_t k = 0; k < parts->size(); ++k) {
      std::vector<Operand> operands = parts_.partMemoryAccess(inst.operands(), 2, ir::typeOf(module_, parts->at(k)));
      operands.insert(operands.begin(), {Operand::id(parts_.partPointer(b, pointer, k)), Operand::id(parts->at(k))});
      b.add(spv::Op::OpStore, 0, std::move(operands));
    }
    dead_.push_back(&inst);
    return okStatus();
  }

  // An index into a wide vector in memory, now an array of parts, becomes two indices.
  Status accessChain(Instruction& inst) {
    size_t first = inst.opcode() == spv::Op::OpPtrAccessChain || inst.opcode() == spv::Op::OpInBoundsPtrAccessChain ? 2 : 1;
    uint32_t type = parts_.pointee(ir::typeOf(module_, inst.idOperand(0)));
    std::vector<Operand> operands(inst.operands().begin(), inst.operands().begin() + first);
    bool changed = false;
    Builder b = Builder::before(module_, &inst);
    for (size_t i = first; i < inst.numOperands(); ++i) {
      uint32_t index = inst.idOperand(i);
      if (parts_.isMemoryType(type)) {
        auto [part, lane] = parts_.splitIndex(b, index);
        operands.push_back(Operand::id(part));
        operands.push_back(Operand::id(lane));
        type = parts_.memoryComponent(type);
        changed = true;
        continue;
      }
      operands.push_back(inst.operand(i));
      std::optional<uint64_t> constant = constantValue(module_, index);
      type = parts_.elementType(type, constant ? static_cast<uint32_t>(*constant) : 0);
    }
    if (changed) module_.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), std::move(operands)));
    return okStatus();
  }

  // --- The end. ---

  Status removeWideTypes() {
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

  Module& module_;
  WideParts parts_;
  std::vector<Instruction*> dead_;
  std::vector<std::pair<Instruction*, uint32_t>> partPhis_;
  std::unordered_set<const Instruction*> parameterParts_;  // made before the walk, not to be lowered again
};

}  // namespace

Expected<PassResult> lowerWideVectors(ir::Module& module, const Target&) { return WideVectorLowering(module).run(); }

}  // namespace cl2vk
