#include "passes/interface/work_item_builtins.h"

#include <array>

#include "analysis/data_layout.h"
#include "cl2vk/reflection.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Builder;
using ir::Instruction;
using ir::Module;
using ir::Operand;

void decorateWith(Module& module, uint32_t id, spv::Decoration decoration, uint32_t value) {
  spv_operand_type_t kind =
      decoration == spv::Decoration::BuiltIn ? SPV_OPERAND_TYPE_BUILT_IN : SPV_OPERAND_TYPE_LITERAL_INTEGER;
  module.append(
      ir::Section::kAnnotation,
      Instruction(spv::Op::OpDecorate, 0, 0,
                  {Operand::id(id), Operand::enumerant(SPV_OPERAND_TYPE_DECORATION, static_cast<uint32_t>(decoration)),
                   Operand::enumerant(kind, value)}));
}

// Vulkan builtin Input variables, created once per module.
class VulkanInputs {
 public:
  explicit VulkanInputs(Module& module) : module_(module), uint_(ir::typeInt(module, 32)) {}

  uint32_t uintType() const { return uint_; }

  // A component of a uvec3 Vulkan builtin (WorkgroupId, LocalInvocationId).
  uint32_t component(Builder& b, spv::BuiltIn builtin, uint32_t index) {
    uint32_t vector = b.valueOfIds(spv::Op::OpLoad, ir::typeVector(module_, uint_, 3), {variable(builtin, true)});
    return b.value(spv::Op::OpCompositeExtract, uint_, {Operand::id(vector), Operand::literal(index)});
  }
  // A scalar uint Vulkan builtin (LocalInvocationIndex, SubgroupSize ...).
  uint32_t scalar(Builder& b, spv::BuiltIn builtin) {
    return b.valueOfIds(spv::Op::OpLoad, uint_, {variable(builtin, false)});
  }
  // A component of the WorkgroupSize specialization constant (get_local_size).
  uint32_t localSize(Builder& b, uint32_t index) {
    return b.value(spv::Op::OpCompositeExtract, uint_,
                   {Operand::id(workgroupSizeConstant(module_)), Operand::literal(index)});
  }
  // The enqueued work-group size: its own specialization constants, equal to the local size
  // except in the remainder work-groups of a non-uniform NDRange.
  uint32_t enqueuedSize(uint32_t index) { return specConstant(module_, SpecIds::kEnqueuedWorkGroupSize + index); }

 private:
  uint32_t variable(spv::BuiltIn builtin, bool vector) { return vulkanBuiltinVariable(module_, builtin, vector); }

  Module& module_;
  uint32_t uint_;
};

// Builds the value of one OpenCL builtin at a load of it.
class BuiltinLowering {
 public:
  BuiltinLowering(Module& module, Builder& builder, VulkanInputs& inputs, const WordReader* dispatch, bool byRow,
                  bool freeWorkGroups)
      : module_(module),
        b_(builder),
        in_(inputs),
        dispatch_(dispatch),
        byRow_(byRow),
        free_(freeWorkGroups),
        uint_(inputs.uintType()),
        ulong_(ir::typeInt(module, 64)) {}

  // The value of `builtin` as OpenCL's `resultType` (v3ulong, ulong or uint; uint4 for the masks).
  Expected<uint32_t> value(spv::BuiltIn builtin, uint32_t resultType) {
    using BI = spv::BuiltIn;
    if (isSubgroupMask(builtin)) {
      // get_sub_group_eq_mask() ... (cl_khr_subgroup_ballot): Vulkan's uvec4 builtins as they are.
      if (resultType != ir::typeVector(module_, uint_, 4))
        return Error("OpenCL gives this builtin the type uint4, and it is loaded as another");
      return b_.valueOfIds(spv::Op::OpLoad, resultType, {builtinVariableOfType(module_, builtin, resultType)});
    }
    // Only a malformed module loads a builtin as another type; lowering it would make invalid code.
    bool threeDimensions = isPerDimension(builtin);
    if (!isSizeOrUint(resultType) && !(threeDimensions && isVectorOfThreeSizes(resultType)))
      return Error(std::string("OpenCL gives this builtin the type ") +
                   (threeDimensions ? "size_t, uint or a vector of three of them" : "size_t or uint") +
                   ", and it is loaded as another");
    switch (builtin) {
      case BI::GlobalInvocationId: return perDimension(resultType, [&](uint32_t d) { return globalId(d); });
      case BI::LocalInvocationId: return perDimension(resultType, [&](uint32_t d) { return localId(d); });
      case BI::WorkgroupId: return perDimension(resultType, [&](uint32_t d) { return groupId(d); });
      case BI::WorkgroupSize: return perDimension(resultType, [&](uint32_t d) { return localSize(d); });
      case BI::EnqueuedWorkgroupSize: return perDimension(resultType, [&](uint32_t d) { return enqueuedSize(d); });
      case BI::GlobalSize: return perDimension(resultType, [&](uint32_t d) { return globalSize(d); });
      case BI::GlobalOffset: return perDimension(resultType, [&](uint32_t d) { return globalOffset(d); });
      case BI::NumWorkgroups: return perDimension(resultType, [&](uint32_t d) { return numGroups(d); });
      case BI::GlobalLinearId: return widen(globalLinearId(), resultType);
      case BI::LocalInvocationIndex: return widen(localIndex(), resultType);
      case BI::WorkDim: return widen(dispatch_->word(b_, DispatchInfoLayout::kWorkDim / 4), resultType);
      case BI::SubgroupMaxSize: return widen(maxSubgroupSize(), resultType);
      case BI::SubgroupSize: return widen(thisSubgroupSize(), resultType);
      case BI::NumSubgroups: return widen(subgroupCount([&](uint32_t d) { return localSize(d); }), resultType);
      case BI::NumEnqueuedSubgroups:
        return widen(subgroupCount([&](uint32_t d) { return enqueuedSize(d); }), resultType);
      case BI::SubgroupId: return widen(subgroupId(), resultType);
      case BI::SubgroupLocalInvocationId: return widen(in_.scalar(b_, BI::SubgroupLocalInvocationId), resultType);
      default:
        return Error("the OpenCL builtin " + std::to_string(static_cast<uint32_t>(builtin)) + " is not supported");
    }
  }

  // With free work-groups: whether the invocation's x is inside the range (the dispatch rounds it
  // up to whole hardware work-groups; y and z have one hardware work-group per row).
  uint32_t insideTheRange() {
    return b_.valueOfIds(spv::Op::OpULessThan, ir::typeBool(module_), {position(0), globalSize(0)});
  }

 private:
  uint32_t add(uint32_t type, uint32_t a, uint32_t c) { return b_.valueOfIds(spv::Op::OpIAdd, type, {a, c}); }
  uint32_t mul(uint32_t type, uint32_t a, uint32_t c) { return b_.valueOfIds(spv::Op::OpIMul, type, {a, c}); }
  uint32_t toUlong(uint32_t v) { return b_.valueOfIds(spv::Op::OpUConvert, ulong_, {v}); }

  uint32_t dispatchWord(uint32_t byteOffset, uint32_t d) { return dispatch_->word(b_, byteOffset / 4 + d); }
  uint32_t globalOffset(uint32_t d) { return dispatchWord(DispatchInfoLayout::kGlobalOffset, d); }
  uint32_t globalSize(uint32_t d) { return dispatchWord(DispatchInfoLayout::kGlobalSize, d); }
  // The hardware's work-group: the dispatch's plus its offset in the range.
  uint32_t hardwareGroup(uint32_t d) {
    return add(uint_, in_.component(b_, spv::BuiltIn::WorkgroupId, d),
               dispatchWord(DispatchInfoLayout::kGroupOffset, d));
  }
  // With free work-groups, the invocation's place in the range from the global offset on: the
  // hardware's work-groups are (n, 1, 1), so x is group * n + local id, and y and z the group.
  uint32_t position(uint32_t d) {
    if (d > 0) return hardwareGroup(d);
    return add(uint_, mul(uint_, hardwareGroup(0), in_.localSize(b_, 0)),
               in_.component(b_, spv::BuiltIn::LocalInvocationId, 0));
  }
  // The OpenCL work-group and local id: the hardware's, or the position divided by the enqueued
  // local size, and its remainder.
  uint32_t groupId(uint32_t d) { return free_ ? divide(position(d), enqueuedSize(d)) : hardwareGroup(d); }
  uint32_t localId(uint32_t d) {
    if (!free_) return in_.component(b_, spv::BuiltIn::LocalInvocationId, d);
    return b_.valueOfIds(spv::Op::OpUMod, uint_, {position(d), enqueuedSize(d)});
  }
  // get_enqueued_local_size: a specialization constant, or the dispatch information's word.
  uint32_t enqueuedSize(uint32_t d) {
    return free_ ? dispatchWord(DispatchInfoLayout::kEnqueuedLocalSize, d) : in_.enqueuedSize(d);
  }
  // get_local_size: the pipeline's work-group size (the runtime gives a remainder work-group its
  // own), or the enqueued size cut to what is left of the range.
  uint32_t localSize(uint32_t d) {
    if (!free_) return in_.localSize(b_, d);
    uint32_t size = enqueuedSize(d);
    uint32_t first = mul(uint_, groupId(d), size);
    return minimum(size, b_.valueOfIds(spv::Op::OpISub, uint_, {globalSize(d), first}));
  }
  // get_local_linear_id: Vulkan's LocalInvocationIndex, or (z * size y + y) * size x + x.
  uint32_t localIndex() {
    if (!free_) return in_.scalar(b_, spv::BuiltIn::LocalInvocationIndex);
    uint32_t zy = add(uint_, mul(uint_, localId(2), localSize(1)), localId(1));
    return add(uint_, mul(uint_, zy, localSize(0)), localId(0));
  }
  uint32_t numGroups(uint32_t d) {
    uint32_t size = enqueuedSize(d);
    uint32_t rounded =
        add(uint_, globalSize(d), b_.valueOfIds(spv::Op::OpISub, uint_, {size, ir::constantUint(module_, 32, 1)}));
    return b_.valueOfIds(spv::Op::OpUDiv, uint_, {rounded, size});
  }
  // group_id * enqueued_local_size + local_id, in 64 bits: the id relative to the global offset
  // (with free work-groups, the position itself).
  uint32_t idFromOffset(uint32_t d) {
    if (free_) return toUlong(position(d));
    uint32_t base = mul(ulong_, toUlong(groupId(d)), toUlong(in_.enqueuedSize(d)));
    return add(ulong_, base, toUlong(in_.component(b_, spv::BuiltIn::LocalInvocationId, d)));
  }
  uint32_t globalId(uint32_t d) { return add(ulong_, idFromOffset(d), toUlong(globalOffset(d))); }
  uint32_t globalLinearId() {
    uint32_t z = idFromOffset(2), y = idFromOffset(1), x = idFromOffset(0);
    uint32_t zy = add(ulong_, mul(ulong_, z, toUlong(globalSize(1))), y);
    return add(ulong_, mul(ulong_, zy, toUlong(globalSize(0))), x);
  }

  uint32_t localInvocations() {
    uint32_t count = localSize(0);
    for (uint32_t d = 1; d < 3; ++d) count = mul(uint_, count, localSize(d));
    return count;
  }
  uint32_t lanes() { return in_.scalar(b_, spv::BuiltIn::SubgroupSize); }
  uint32_t minimum(uint32_t a, uint32_t c) {
    uint32_t fewer = b_.valueOfIds(spv::Op::OpULessThan, ir::typeBool(module_), {a, c});
    return b_.valueOfIds(spv::Op::OpSelect, uint_, {fewer, a, c});
  }
  uint32_t ceilDiv(uint32_t a, uint32_t c) {
    uint32_t rounded = add(uint_, a, b_.valueOfIds(spv::Op::OpISub, uint_, {c, ir::constantUint(module_, 32, 1)}));
    return b_.valueOfIds(spv::Op::OpUDiv, uint_, {rounded, c});
  }
  uint32_t divide(uint32_t a, uint32_t c) { return b_.valueOfIds(spv::Op::OpUDiv, uint_, {a, c}); }
  // OpenCL's get_max_sub_group_size: no larger than the enqueued work-group (a work-group of 13
  // has sub-groups of at most 13 even where Vulkan's SubgroupSize is 32), or than its rows where
  // subgroups are made row by row; the same in the remainder work-groups of the dispatch.
  uint32_t maxSubgroupSize() {
    if (byRow_) return minimum(enqueuedSize(0), lanes());
    uint32_t enqueued = enqueuedSize(0);
    for (uint32_t d = 1; d < 3; ++d) enqueued = mul(uint_, enqueued, enqueuedSize(d));
    return minimum(enqueued, lanes());
  }
  // The sub-groups of a work-group of `size(d)`: this one's for get_num_sub_groups, one of the
  // enqueued size for get_enqueued_num_sub_groups (the same in a remainder work-group).
  // ceil(invocations / SubgroupSize), or ceil(x / SubgroupSize) per row. Vulkan's NumSubgroups
  // rounds down on Mesa 22's lavapipe when the last subgroup is partial, and does not count rows.
  template <typename Size>
  uint32_t subgroupCount(Size size) {
    uint32_t rows = mul(uint_, size(1), size(2));
    if (byRow_) return mul(uint_, rows, ceilDiv(size(0), lanes()));
    return ceilDiv(mul(uint_, rows, size(0)), lanes());
  }
  // get_sub_group_id: Vulkan's SubgroupId, or by row: (y + z * rows) * subgroups per row + x / SubgroupSize.
  uint32_t subgroupId() {
    if (!byRow_) return in_.scalar(b_, spv::BuiltIn::SubgroupId);
    uint32_t row = add(uint_, localId(1), mul(uint_, localId(2), localSize(1)));
    uint32_t perRow = ceilDiv(localSize(0), lanes());
    return add(uint_, mul(uint_, row, perRow), divide(localId(0), lanes()));
  }
  // OpenCL's get_sub_group_size: the last subgroup (of the work-group, or of a row) may be partial.
  uint32_t thisSubgroupSize() {
    uint32_t first, invocations;
    if (byRow_) {
      first = mul(uint_, divide(localId(0), lanes()), lanes());
      invocations = localSize(0);
    } else {
      first = mul(uint_, in_.scalar(b_, spv::BuiltIn::SubgroupId), lanes());
      invocations = localInvocations();
    }
    return minimum(b_.valueOfIds(spv::Op::OpISub, uint_, {invocations, first}), lanes());
  }

  static bool isSubgroupMask(spv::BuiltIn builtin) {
    using BI = spv::BuiltIn;
    return builtin == BI::SubgroupEqMask || builtin == BI::SubgroupGeMask || builtin == BI::SubgroupGtMask ||
           builtin == BI::SubgroupLeMask || builtin == BI::SubgroupLtMask;
  }
  static bool isPerDimension(spv::BuiltIn builtin) {
    using BI = spv::BuiltIn;
    switch (builtin) {
      case BI::GlobalInvocationId:
      case BI::LocalInvocationId:
      case BI::WorkgroupId:
      case BI::WorkgroupSize:
      case BI::EnqueuedWorkgroupSize:
      case BI::GlobalSize:
      case BI::GlobalOffset:
      case BI::NumWorkgroups: return true;
      default: return false;
    }
  }
  bool isSizeOrUint(uint32_t type) const {
    uint32_t width = ir::intWidth(module_, type);
    return !ir::isVectorType(module_, type) && (width == 32 || width == 64);
  }
  bool isVectorOfThreeSizes(uint32_t type) const {
    return ir::isVectorType(module_, type) && ir::componentCount(module_, type) == 3 &&
           isSizeOrUint(ir::componentType(module_, type));
  }

  // Converts a uint or ulong to `type` (uint or ulong).
  uint32_t widen(uint32_t v, uint32_t type) {
    uint32_t from = ir::scalarWidth(module_, ir::typeOf(module_, v)), to = ir::scalarWidth(module_, type);
    return from == to ? v : b_.valueOfIds(spv::Op::OpUConvert, type, {v});
  }

  template <typename PerDimension>
  Expected<uint32_t> perDimension(uint32_t type, PerDimension component) {
    if (!ir::isVectorType(module_, type)) return widen(component(0), type);
    uint32_t element = ir::componentType(module_, type);
    std::vector<uint32_t> parts;
    for (uint32_t d = 0; d < ir::componentCount(module_, type); ++d) parts.push_back(widen(component(d), element));
    return b_.valueOfIds(spv::Op::OpCompositeConstruct, type, parts);
  }

  Module& module_;
  Builder& b_;
  VulkanInputs& in_;
  const WordReader* dispatch_;
  bool byRow_;
  bool free_;
  uint32_t uint_, ulong_;
};

}  // namespace

uint32_t vulkanBuiltinVariable(Module& module, spv::BuiltIn builtin, bool vector) {
  uint32_t uintType = ir::typeInt(module, 32);
  return builtinVariableOfType(module, builtin, vector ? ir::typeVector(module, uintType, 3) : uintType);
}

uint32_t builtinVariableOfType(Module& module, spv::BuiltIn builtin, uint32_t type) {
  for (const Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpVariable || inst.wordOperand(0) != static_cast<uint32_t>(spv::StorageClass::Input))
      continue;
    const Instruction* decoration = module.findDecoration(inst.resultId(), spv::Decoration::BuiltIn);
    // OpenCL's own builtin variables (imported, with LinkageAttributes) go away after lowering,
    // even where their type is Vulkan's.
    if (decoration && decoration->wordOperand(2) == static_cast<uint32_t>(builtin) &&
        module.def(inst.typeId())->idOperand(1) == type &&
        !module.findDecoration(inst.resultId(), spv::Decoration::LinkageAttributes))
      return inst.resultId();
  }
  uint32_t id = module.takeId();
  module.append(ir::Section::kGlobal,
                Instruction(spv::Op::OpVariable, ir::typePointer(module, spv::StorageClass::Input, type), id,
                            {Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS,
                                                static_cast<uint32_t>(spv::StorageClass::Input))}));
  decorateWith(module, id, spv::Decoration::BuiltIn, static_cast<uint32_t>(builtin));
  return id;
}

uint32_t specConstant(Module& module, uint32_t specId, uint32_t defaultValue) {
  for (const Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpSpecConstant) continue;
    const Instruction* decoration = module.findDecoration(inst.resultId(), spv::Decoration::SpecId);
    if (decoration && decoration->wordOperand(2) == specId) return inst.resultId();
  }
  uint32_t id = module.takeId();
  module.append(ir::Section::kGlobal,
                Instruction(spv::Op::OpSpecConstant, ir::typeInt(module, 32), id, {Operand::number({defaultValue})}));
  decorateWith(module, id, spv::Decoration::SpecId, specId);
  return id;
}

uint32_t workgroupSizeConstant(Module& module) {
  for (const Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpSpecConstantComposite) continue;
    const Instruction* decoration = module.findDecoration(inst.resultId(), spv::Decoration::BuiltIn);
    if (decoration && decoration->wordOperand(2) == static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize))
      return inst.resultId();
  }
  std::vector<Operand> parts;
  for (uint32_t i = 0; i < 3; ++i) parts.push_back(Operand::id(specConstant(module, SpecIds::kWorkGroupSize + i)));
  uint32_t uintType = ir::typeInt(module, 32);
  uint32_t id = module.takeId();
  module.append(ir::Section::kGlobal, Instruction(spv::Op::OpSpecConstantComposite, ir::typeVector(module, uintType, 3),
                                                  id, std::move(parts)));
  decorateWith(module, id, spv::Decoration::BuiltIn, static_cast<uint32_t>(spv::BuiltIn::WorkgroupSize));
  return id;
}

bool builtinNeedsDispatchInfo(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::GlobalInvocationId:
    case spv::BuiltIn::WorkgroupId:
    case spv::BuiltIn::GlobalSize:
    case spv::BuiltIn::GlobalOffset:
    case spv::BuiltIn::NumWorkgroups:
    case spv::BuiltIn::GlobalLinearId:
    case spv::BuiltIn::WorkDim: return true;
    default: return false;
  }
}

std::optional<uint64_t> valueBeyondTheDimensions(spv::BuiltIn builtin) {
  switch (builtin) {
    case spv::BuiltIn::GlobalSize:
    case spv::BuiltIn::WorkgroupSize:
    case spv::BuiltIn::EnqueuedWorkgroupSize:
    case spv::BuiltIn::NumWorkgroups: return 1;
    case spv::BuiltIn::GlobalInvocationId:
    case spv::BuiltIn::LocalInvocationId:
    case spv::BuiltIn::WorkgroupId:
    case spv::BuiltIn::GlobalOffset: return 0;
    default: return std::nullopt;
  }
}

uint32_t workItemDimension(Builder& b, spv::BuiltIn builtin, uint32_t componentType, uint32_t vector, uint32_t index) {
  constexpr uint64_t kDimensions = 3;
  std::optional<uint64_t> outsideValue = valueBeyondTheDimensions(builtin);
  std::optional<uint64_t> constant = constantValue(b.module(), index);
  if (constant && *constant < kDimensions)
    return b.value(spv::Op::OpCompositeExtract, componentType,
                   {ir::Operand::id(vector), ir::Operand::literal(static_cast<uint32_t>(*constant))});
  uint32_t outside = b.bits(componentType, outsideValue.value_or(0));
  if (constant) return outside;
  uint32_t inside = b.compare(spv::Op::OpULessThan, index, b.bits(b.typeOf(index), kDimensions));
  uint32_t safeIndex = b.select(inside, index, b.bits(b.typeOf(index), 0));
  uint32_t component = b.op(spv::Op::OpVectorExtractDynamic, componentType, {vector, safeIndex});
  return b.select(inside, component, outside);
}

std::unordered_map<uint32_t, spv::BuiltIn> openclBuiltinVariables(const Module& module) {
  std::unordered_map<uint32_t, spv::BuiltIn> builtins;
  for (const Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpVariable || inst.wordOperand(0) != static_cast<uint32_t>(spv::StorageClass::Input))
      continue;
    if (const Instruction* decoration = module.findDecoration(inst.resultId(), spv::Decoration::BuiltIn))
      builtins.emplace(inst.resultId(), static_cast<spv::BuiltIn>(decoration->wordOperand(2)));
  }
  return builtins;
}

// The sub-group builtins: their values depend on how the hardware packs a work-group.
static bool builtinNeedsTheSubgroups(spv::BuiltIn builtin) {
  using BI = spv::BuiltIn;
  switch (builtin) {
    case BI::SubgroupSize:
    case BI::SubgroupMaxSize:
    case BI::NumSubgroups:
    case BI::NumEnqueuedSubgroups:
    case BI::SubgroupId:
    case BI::SubgroupLocalInvocationId:
    case BI::SubgroupEqMask:
    case BI::SubgroupGeMask:
    case BI::SubgroupGtMask:
    case BI::SubgroupLeMask:
    case BI::SubgroupLtMask: return true;
    default: return false;
  }
}

bool computesAlikeInAnyWorkGroups(const Module& module, const ir::Function& kernel,
                                  const std::unordered_map<uint32_t, spv::BuiltIn>& builtins) {
  auto isWorkgroupPointer = [&](uint32_t type) {
    const Instruction* def = type ? module.def(type) : nullptr;
    return def && def->opcode() == spv::Op::OpTypePointer &&
           def->wordOperand(0) == static_cast<uint32_t>(spv::StorageClass::Workgroup);
  };
  auto tiesToItsWorkGroup = [&](const Instruction& inst) {
    if (ir::isCrossInvocation(inst.opcode()) || inst.opcode() == spv::Op::OpFunctionCall) return true;
    if (isWorkgroupPointer(inst.typeId())) return true;
    for (const Operand& operand : inst.operands()) {
      if (!operand.isId()) continue;
      const Instruction* def = module.def(operand.words[0]);
      if (def && isWorkgroupPointer(def->typeId())) return true;  // a __local variable used whole
    }
    if (inst.opcode() == spv::Op::OpLoad) {
      auto builtin = builtins.find(inst.idOperand(0));
      if (builtin != builtins.end() && builtinNeedsTheSubgroups(builtin->second)) return true;
    }
    return false;
  };
  for (const Instruction& inst : kernel.header()) {
    if (tiesToItsWorkGroup(inst)) return false;
  }
  for (const ir::Block& block : kernel.blocks()) {
    for (const Instruction& inst : block.instructions()) {
      if (tiesToItsWorkGroup(inst)) return false;
    }
  }
  return true;
}

void returnOutsideTheRange(Module& module, ir::Function& kernel, const WordReader& dispatch) {
  // After the function's variables, which stay in its first block.
  auto [builder, rest] = Builder::splitAfter(module, ir::lastVariable(kernel));
  VulkanInputs inputs(module);
  BuiltinLowering lowering(module, builder, inputs, &dispatch, false, true);
  uint32_t inside = lowering.insideTheRange();
  Block* outside = builder.newBlock();
  builder.add(spv::Op::OpBranchConditional, 0,
              {Operand::id(inside), Operand::id(rest->id()), Operand::id(outside->id())});
  Builder::atEnd(module, *outside).add(spv::Op::OpReturn, 0, {});
}

Status lowerWorkItemBuiltins(Module& module, ir::Function& kernel,
                             const std::unordered_map<uint32_t, spv::BuiltIn>& builtins, const WordReader* dispatch,
                             const Target& target, bool freeWorkGroups) {
  std::vector<Instruction*> loads;
  for (ir::Block& block : kernel.blocks()) {
    for (Instruction& inst : block.instructions()) {
      if (inst.opcode() == spv::Op::OpLoad && builtins.contains(inst.idOperand(0))) loads.push_back(&inst);
    }
  }
  VulkanInputs inputs(module);
  for (Instruction* load : loads) {
    spv::BuiltIn builtin = builtins.at(load->idOperand(0));
    if (builtinNeedsDispatchInfo(builtin) && !dispatch)
      return Error("internal: " + module.describe(*load) + " needs the dispatch information");
    Builder builder = Builder::before(module, load);
    BuiltinLowering lowering(module, builder, inputs, dispatch, target.subgroupsByRow, freeWorkGroups);
    Expected<uint32_t> value = lowering.value(builtin, load->typeId());
    if (!value) {
      std::string variable = module.name(load->idOperand(0));
      if (variable.empty()) variable = "%" + std::to_string(load->idOperand(0));
      return value.error().withContext(module.describe(*load) + " of '" + variable + "' (BuiltIn " +
                                       std::to_string(static_cast<uint32_t>(builtin)) + ")");
    }
    module.replaceAllUses(load->resultId(), *value);
    CL2VK_TRY(module.remove(load));
  }
  return okStatus();
}

Status removeOpenCLBuiltinVariables(Module& module, const std::unordered_map<uint32_t, spv::BuiltIn>& builtins) {
  for (const auto& [variable, builtin] : builtins) {
    for (const ir::Use& use : module.uses(variable)) {
      spv::Op op = use.user->opcode();
      // Names, decorations (a UserSemantic string, a decoration group's target) and interfaces
      // go with the variable.
      if (op == spv::Op::OpEntryPoint || op == spv::Op::OpName || op == spv::Op::OpDecorate ||
          op == spv::Op::OpDecorateId || op == spv::Op::OpDecorateString || op == spv::Op::OpGroupDecorate)
        continue;
      return Error(module.describe(*use.user) + " uses the OpenCL builtin variable %" + std::to_string(variable) +
                   " other than by loading it, which is not supported");
    }
    CL2VK_TRY(module.remove(module.def(variable)));
  }
  return okStatus();
}

}  // namespace cl2vk
