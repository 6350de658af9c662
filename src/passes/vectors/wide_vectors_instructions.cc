// lower-wide-vectors in function bodies: one small lowering per kind of instruction that makes or
// reads a wide value (component-wise arithmetic, comparisons and conversions on each part;
// composites, shuffles and dynamic indexing by picking parts; bit casts through 32-bit words;
// phis, copies and undefs part by part). Memory accesses are in wide_vectors_memory.cc.
#include <spirv/unified1/GLSL.std.450.h>
#include <spirv/unified1/OpenCL.std.h>

#include <optional>
#include <vector>

#include "analysis/call_graph.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/vectors/wide_vectors_lowering.h"

namespace cl2vk::wide_vectors {
namespace {

// Opcodes whose result component i depends only on component i of each vector operand (a scalar
// operand, such as OpSelect's condition or OpVectorTimesScalar's scalar, stands for all of them).
bool isComponentWise(spv::Op op) {
  switch (op) {
    case spv::Op::OpSNegate:
    case spv::Op::OpFNegate:
    case spv::Op::OpIAdd:
    case spv::Op::OpFAdd:
    case spv::Op::OpISub:
    case spv::Op::OpFSub:
    case spv::Op::OpIMul:
    case spv::Op::OpFMul:
    case spv::Op::OpUDiv:
    case spv::Op::OpSDiv:
    case spv::Op::OpFDiv:
    case spv::Op::OpUMod:
    case spv::Op::OpSRem:
    case spv::Op::OpSMod:
    case spv::Op::OpFRem:
    case spv::Op::OpFMod:
    case spv::Op::OpVectorTimesScalar:
    case spv::Op::OpShiftRightLogical:
    case spv::Op::OpShiftRightArithmetic:
    case spv::Op::OpShiftLeftLogical:
    case spv::Op::OpBitwiseOr:
    case spv::Op::OpBitwiseXor:
    case spv::Op::OpBitwiseAnd:
    case spv::Op::OpNot:
    case spv::Op::OpBitCount:
    case spv::Op::OpBitReverse:
    case spv::Op::OpLogicalEqual:
    case spv::Op::OpLogicalNotEqual:
    case spv::Op::OpLogicalOr:
    case spv::Op::OpLogicalAnd:
    case spv::Op::OpLogicalNot:
    case spv::Op::OpSelect:
    case spv::Op::OpIEqual:
    case spv::Op::OpINotEqual:
    case spv::Op::OpUGreaterThan:
    case spv::Op::OpSGreaterThan:
    case spv::Op::OpUGreaterThanEqual:
    case spv::Op::OpSGreaterThanEqual:
    case spv::Op::OpULessThan:
    case spv::Op::OpSLessThan:
    case spv::Op::OpULessThanEqual:
    case spv::Op::OpSLessThanEqual:
    case spv::Op::OpFOrdEqual:
    case spv::Op::OpFUnordEqual:
    case spv::Op::OpFOrdNotEqual:
    case spv::Op::OpFUnordNotEqual:
    case spv::Op::OpFOrdLessThan:
    case spv::Op::OpFUnordLessThan:
    case spv::Op::OpFOrdGreaterThan:
    case spv::Op::OpFUnordGreaterThan:
    case spv::Op::OpFOrdLessThanEqual:
    case spv::Op::OpFUnordLessThanEqual:
    case spv::Op::OpFOrdGreaterThanEqual:
    case spv::Op::OpFUnordGreaterThanEqual:
    case spv::Op::OpIsNan:
    case spv::Op::OpIsInf:
    case spv::Op::OpIsFinite:
    case spv::Op::OpIsNormal:
    case spv::Op::OpSignBitSet:
    case spv::Op::OpLessOrGreater:
    case spv::Op::OpOrdered:
    case spv::Op::OpUnordered:
    case spv::Op::OpConvertFToU:
    case spv::Op::OpConvertFToS:
    case spv::Op::OpConvertSToF:
    case spv::Op::OpConvertUToF:
    case spv::Op::OpUConvert:
    case spv::Op::OpSConvert:
    case spv::Op::OpFConvert:
    case spv::Op::OpSatConvertSToU:
    case spv::Op::OpSatConvertUToS:
    // sub_group_broadcast (cl_khr_subgroup_extended_types) and sub_group_non_uniform_broadcast
    // (cl_khr_subgroup_ballot) of an 8 or 16-wide vector: a broadcast of each part from the same
    // work-item. The other moves between lanes take the same operands for each part too.
    case spv::Op::OpGroupBroadcast:
    case spv::Op::OpGroupNonUniformBroadcast:
    case spv::Op::OpGroupNonUniformBroadcastFirst:
    case spv::Op::OpGroupNonUniformShuffle:
    case spv::Op::OpGroupNonUniformShuffleXor:
    case spv::Op::OpGroupNonUniformShuffleUp:
    case spv::Op::OpGroupNonUniformShuffleDown:
    case spv::Op::OpGroupNonUniformRotateKHR: return true;
    default: return false;
  }
}

// OpenCL.std instructions that are not component-wise: the vector loads and stores become several
// 4-wide ones; shuffles pick each component at run time; the rest have no meaning on 8 or 16
// components.
enum class ExtKind { kComponentWise, kLoad, kStore, kShuffle, kShuffle2, kUnsupported };

ExtKind extKind(uint32_t instruction) {
  using namespace OpenCLLIB;
  switch (instruction) {
    case Vloadn:
    case Vload_halfn:
    case Vloada_halfn: return ExtKind::kLoad;
    case Vstoren:
    case Vstore_halfn:
    case Vstore_halfn_r:
    case Vstorea_halfn:
    case Vstorea_halfn_r: return ExtKind::kStore;
    case Shuffle: return ExtKind::kShuffle;
    case Shuffle2: return ExtKind::kShuffle2;
    case Printf:
    case Prefetch:
    case Cross:
    case Distance:
    case Length:
    case Normalize:
    case Fast_distance:
    case Fast_length:
    case Fast_normalize:
    case Vload_half:
    case Vstore_half:
    case Vstore_half_r: return ExtKind::kUnsupported;
    default: return ExtKind::kComponentWise;
  }
}

}  // namespace

Status WideVectorLowering::lower(Instruction& inst) {
  spv::Op op = inst.opcode();
  if (isComponentWise(op)) return componentWise(inst);
  switch (op) {
    case spv::Op::OpExtInst: return extInst(inst);
    case spv::Op::OpBitcast: return bitcast(inst);
    case spv::Op::OpAny:
    case spv::Op::OpAll: return anyAll(inst);
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
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain: return accessChain(inst);
    default:
      return ir::refuse(module_, inst, "vectors of 8 or 16 components are not supported in " + ir::opcodeName(op));
  }
}

// The result replaced by `parts`; the instruction goes when every user has been rewritten.
void WideVectorLowering::replaceByParts(Instruction& inst, std::vector<uint32_t> parts) {
  parts_.setParts(inst.resultId(), std::move(parts));
  dead_.push_back(&inst);
}

void WideVectorLowering::replaceByValue(Instruction& inst, uint32_t value) {
  module_.replaceAllUses(inst.resultId(), value);
  dead_.push_back(&inst);
}

// Operand `operand` of part `k`: the part of a wide value, a pointer to the part of a wide
// vector in memory, or the operand itself.
Expected<Operand> WideVectorLowering::partOperand(Builder& b, const Operand& operand, uint32_t k) {
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

Status WideVectorLowering::componentWise(Instruction& inst) {
  if (!parts_.isWideType(inst.typeId())) return ir::refuse(module_, inst, "expected a result of 8 or 16 components");
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

// GLSL.std.450 instructions that work on each component alone (the passes before this one emit
// some: FindUMsb in exact float narrowing): all but the geometric, matrix, packing, struct-result
// and interpolation ones.
namespace {

bool isComponentWiseGlsl(uint32_t instruction) {
  auto glsl = [](GLSLstd450 id) { return static_cast<uint32_t>(id); };
  if (instruction >= glsl(GLSLstd450Round) && instruction <= glsl(GLSLstd450InverseSqrt)) return true;
  if (instruction >= glsl(GLSLstd450FMin) && instruction <= glsl(GLSLstd450Fma)) return true;
  return instruction == glsl(GLSLstd450Ldexp) ||
         (instruction >= glsl(GLSLstd450FindILsb) && instruction <= glsl(GLSLstd450FindUMsb)) ||
         (instruction >= glsl(GLSLstd450NMin) && instruction <= glsl(GLSLstd450NClamp));
}

}  // namespace

Status WideVectorLowering::extInst(Instruction& inst) {
  if (std::optional<uint32_t> glsl = ir::glslStdInstruction(module_, inst)) {
    if (isComponentWiseGlsl(*glsl)) return componentWise(inst);
    return ir::refuse(module_, inst, "this GLSL.std.450 instruction is not supported on vectors of 8 or 16 components");
  }
  std::optional<uint32_t> instruction = ir::openclStdInstruction(module_, inst);
  if (!instruction)
    return ir::refuse(module_, inst,
                      "vectors of 8 or 16 components are not supported in this extended instruction set");
  switch (extKind(*instruction)) {
    case ExtKind::kComponentWise: return componentWise(inst);
    case ExtKind::kLoad: return vectorLoad(inst);
    case ExtKind::kStore: return vectorStore(inst);
    case ExtKind::kShuffle: return shuffle(inst, false);
    case ExtKind::kShuffle2: return shuffle(inst, true);
    case ExtKind::kUnsupported: break;
  }
  return ir::refuse(module_, inst, "this OpenCL.std function is not supported on vectors of 8 or 16 components");
}

Status WideVectorLowering::bitcast(Instruction& inst) {
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
Status WideVectorLowering::anyAll(Instruction& inst) {
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
Status WideVectorLowering::compositeConstruct(Instruction& inst) {
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

std::vector<uint32_t> WideVectorLowering::regroup(Builder& b, const Instruction& inst,
                                                  const std::vector<Component>& components) {
  const WideType& type = parts_.wideType(inst.typeId());
  std::vector<uint32_t> parts;
  for (uint32_t k = 0; k < type.parts(); ++k) {
    std::vector<Component> four(components.begin() + 4 * k, components.begin() + 4 * k + 4);
    parts.push_back(parts_.assemble(b, four, type.part));
  }
  return parts;
}

Status WideVectorLowering::vectorShuffle(Instruction& inst) {
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
      return ir::refuse(module_, inst, "shuffle index out of range");
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

Status WideVectorLowering::compositeExtract(Instruction& inst) {
  uint32_t composite = inst.idOperand(0);
  Builder b = Builder::before(module_, &inst);
  if (parts_.isWide(composite)) {
    Expected<std::vector<uint32_t>> parts = parts_.partsOf(composite);
    if (!parts) return parts.error().withContext(module_.describe(inst));
    uint32_t index = inst.wordOperand(1);
    if (inst.numOperands() != 2 || index / 4 >= parts->size()) return ir::refuse(module_, inst, "bad component index");
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

Status WideVectorLowering::compositeInsert(Instruction& inst) {
  uint32_t object = inst.idOperand(0), composite = inst.idOperand(1);
  Builder b = Builder::before(module_, &inst);
  if (parts_.isWideType(inst.typeId())) {
    Expected<std::vector<uint32_t>> parts = parts_.partsOf(composite);
    if (!parts) return parts.error().withContext(module_.describe(inst));
    uint32_t index = inst.wordOperand(2);
    if (inst.numOperands() != 3 || index / 4 >= parts->size()) return ir::refuse(module_, inst, "bad component index");
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
bool WideVectorLowering::splitLiteralPath(uint32_t type, std::vector<Operand>& path) {
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

Status WideVectorLowering::vectorExtractDynamic(Instruction& inst) {
  Builder b = Builder::before(module_, &inst);
  Expected<uint32_t> component = extractDynamic(b, inst.idOperand(0), inst.idOperand(1), inst.typeId());
  if (!component) return component.error().withContext(module_.describe(inst));
  replaceByValue(inst, *component);
  return okStatus();
}

// Component `index` (a run-time value) of `vector`, wide or not: of a wide one, the part holding
// it (index >> 2) chosen by selects.
Expected<uint32_t> WideVectorLowering::extractDynamic(Builder& b, uint32_t vector, uint32_t index, uint32_t type) {
  if (!parts_.isWide(vector)) return b.valueOfIds(spv::Op::OpVectorExtractDynamic, type, {vector, index});
  Expected<std::vector<uint32_t>> parts = parts_.partsOf(vector);
  if (!parts) return parts.error();
  auto [part, lane] = parts_.splitIndex(b, index);
  uint32_t result = 0;
  for (uint32_t k = 0; k < parts->size(); ++k) {
    uint32_t component = b.valueOfIds(spv::Op::OpVectorExtractDynamic, type, {parts->at(k), lane});
    if (k == 0) {
      result = component;
      continue;
    }
    uint32_t isPart = b.valueOfIds(spv::Op::OpIEqual, ir::typeBool(module_),
                                   {part, ir::constantBits(module_, ir::typeOf(module_, index), k)});
    result = b.valueOfIds(spv::Op::OpSelect, type, {isPart, component, result});
  }
  return result;
}

// shuffle(x, mask) and shuffle2(x, y, mask) where x, y, the mask or the result has 8 or 16
// components: component i of the result is component mask[i] of x, or of x then y, the mask read
// modulo the number of candidates as OpenCL specifies (lower-opencl-std's lowering, on parts).
Status WideVectorLowering::shuffle(Instruction& inst, bool twoInputs) {
  // OpExtInst's operands: the set, the instruction, then x, (y,) mask.
  uint32_t x = inst.idOperand(2), y = twoInputs ? inst.idOperand(3) : 0, mask = inst.idOperand(twoInputs ? 4 : 3);
  Expected<std::vector<Component>> selectors = parts_.components(mask);
  Expected<std::vector<Component>> inputs = parts_.components(x);
  if (!selectors) return selectors.error().withContext(module_.describe(inst));
  if (!inputs) return inputs.error().withContext(module_.describe(inst));
  uint32_t inputCount = static_cast<uint32_t>(inputs->size());
  uint32_t resultType = inst.typeId();
  uint32_t component =
      parts_.isWideType(resultType) ? parts_.wideType(resultType).component : ir::componentType(module_, resultType);
  uint32_t resultCount =
      parts_.isWideType(resultType) ? parts_.wideType(resultType).count : ir::componentCount(module_, resultType);
  if (selectors->size() != resultCount) return ir::refuse(module_, inst, "the mask and the result differ in length");
  Builder b = Builder::before(module_, &inst);
  std::vector<Component> picked;
  for (uint32_t i = 0; i < resultCount; ++i) {
    uint32_t selector = parts_.scalar(b, selectors->at(i));
    uint32_t selectorType = ir::typeOf(module_, selector);
    uint32_t index = b.valueOfIds(spv::Op::OpBitwiseAnd, selectorType,
                                  {selector, ir::constantBits(module_, selectorType, inputCount - 1)});
    Expected<uint32_t> value = extractDynamic(b, x, index, component);
    if (!value) return value.error().withContext(module_.describe(inst));
    if (twoInputs) {
      Expected<uint32_t> fromY = extractDynamic(b, y, index, component);
      if (!fromY) return fromY.error().withContext(module_.describe(inst));
      uint32_t yBit = b.valueOfIds(spv::Op::OpBitwiseAnd, selectorType,
                                   {selector, ir::constantBits(module_, selectorType, inputCount)});
      uint32_t isY =
          b.valueOfIds(spv::Op::OpINotEqual, ir::typeBool(module_), {yBit, ir::constantBits(module_, selectorType, 0)});
      value = b.valueOfIds(spv::Op::OpSelect, component, {isY, *fromY, *value});
    }
    picked.push_back({*value, Component::kScalar});
  }
  if (parts_.isWideType(resultType)) {
    replaceByParts(inst, regroup(b, inst, picked));
  } else {
    replaceByValue(inst, parts_.assemble(b, picked, resultType));
  }
  return okStatus();
}

Status WideVectorLowering::vectorInsertDynamic(Instruction& inst) {
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
Status WideVectorLowering::phi(Instruction& inst) {
  const WideType& type = parts_.wideType(inst.typeId());
  std::vector<uint32_t> parts;
  for (uint32_t k = 0; k < type.parts(); ++k) {
    Instruction* part =
        module_.insertBefore(&inst, Instruction(spv::Op::OpPhi, type.part, module_.takeId(), inst.operands()));
    partPhis_.push_back({part, k});
    parts.push_back(part->resultId());
  }
  replaceByParts(inst, std::move(parts));
  return okStatus();
}

Status WideVectorLowering::completePhis() {
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

Status WideVectorLowering::copyObject(Instruction& inst) {
  if (!parts_.isWideType(inst.typeId())) return ir::refuse(module_, inst, "expected a vector of 8 or 16 components");
  Expected<std::vector<uint32_t>> parts = parts_.partsOf(inst.idOperand(0));
  if (!parts) return parts.error().withContext(module_.describe(inst));
  replaceByParts(inst, *parts);
  return okStatus();
}

Status WideVectorLowering::undef(Instruction& inst) {
  const WideType& type = parts_.wideType(inst.typeId());
  replaceByParts(inst, std::vector<uint32_t>(type.parts(), ir::undef(module_, type.part)));
  return okStatus();
}

}  // namespace cl2vk::wide_vectors
