// The scratch arrays of lower-collectives in Workgroup memory, sized by specialization constants,
// and values of any collective type stored in them as 32-bit words.
#include <algorithm>

#include "passes/collectives/collective_lowering.h"
#include "passes/interface/work_item_builtins.h"

namespace cl2vk::collectives {

uint32_t CollectiveLowering::maxSubgroups() const {
  uint32_t smallest = std::max<uint32_t>(target_.minSubgroupSize, 1);
  return (target_.maxWorkGroupInvocations + smallest - 1) / smallest;
}

uint32_t CollectiveLowering::scratch() {
  if (!scratch_) {
    uint32_t smallest = std::max<uint32_t>(target_.minSubgroupSize, 1);
    uint32_t subgroups =
        specOp(spv::Op::OpUDiv, specOp(spv::Op::OpIAdd, invocationsConstant(), constant32(smallest - 1)),
               constant32(smallest));
    // ... plus one subgroup's worth for the folds, plus the total slot (workgroupReduce).
    scratchHalfConstant_ =
        specOp(spv::Op::OpIAdd, subgroups, constant32(std::max<uint32_t>(target_.maxSubgroupSize, 1) + 1));
    totalSlotConstant_ = specOp(spv::Op::OpISub, scratchHalfConstant_, constant32(1));
    scratch_ = workgroupArray(specOp(spv::Op::OpIMul, scratchHalfConstant_, constant32(2)), 2 * scratchHalf());
  }
  return scratch_;
}

uint32_t CollectiveLowering::invocationsConstant() {
  if (!invocationsConstant_) {
    uint32_t x = specConstant(module_, SpecIds::kWorkGroupSize), y = specConstant(module_, SpecIds::kWorkGroupSize + 1);
    uint32_t z = specConstant(module_, SpecIds::kWorkGroupSize + 2);
    invocationsConstant_ = specOp(spv::Op::OpIMul, specOp(spv::Op::OpIMul, x, y), z);
  }
  return invocationsConstant_;
}

uint32_t CollectiveLowering::specOp(spv::Op op, uint32_t a, uint32_t b) {
  uint32_t id = module_.takeId();
  module_.append(ir::Section::kGlobal,
                 Instruction(spv::Op::OpSpecConstantOp, uint_, id,
                             {Operand::literal(static_cast<uint32_t>(op)), Operand::id(a), Operand::id(b)}));
  return id;
}

uint32_t CollectiveLowering::beginPartials() {
  scratch();  // sizes the halves
  if (!parity_) {
    parity_ = module_.takeId();
    module_.append(
        ir::Section::kGlobal,
        Instruction(
            spv::Op::OpVariable, ir::typePointer(module_, spv::StorageClass::Private, uint_), parity_,
            {Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS, static_cast<uint32_t>(spv::StorageClass::Private)),
             Operand::id(constant32(0))}));
  }
  uint32_t current = at().valueOfIds(spv::Op::OpLoad, uint_, {parity_});
  at().add(
      spv::Op::OpStore, 0,
      {Operand::id(parity_), Operand::id(at().valueOfIds(spv::Op::OpBitwiseXor, uint_, {current, constant32(1)}))});
  return at().valueOfIds(spv::Op::OpIMul, uint_, {current, scratchHalfConstant_});
}

uint32_t CollectiveLowering::invocationScratch() {
  if (!invocationScratch_) {
    uint32_t padding = std::max<uint32_t>(target_.maxSubgroupSize, 1);
    invocationScratch_ = workgroupArray(specOp(spv::Op::OpIAdd, invocationsConstant(), constant32(padding)),
                                        std::max<uint32_t>(target_.maxWorkGroupInvocations, 1) + padding);
  }
  return invocationScratch_;
}

uint32_t CollectiveLowering::workgroupArray(uint32_t elementsConstant, uint32_t maxElements) {
  uint32_t length = specOp(spv::Op::OpIMul, elementsConstant, constant32(kWordsPerElement));
  uint32_t array = module_.takeId();
  module_.append(ir::Section::kGlobal,
                 Instruction(spv::Op::OpTypeArray, 0, array, {Operand::id(uint_), Operand::id(length)}));
  uint32_t variable = module_.takeId();
  module_.append(
      ir::Section::kGlobal,
      Instruction(
          spv::Op::OpVariable, ir::typePointer(module_, spv::StorageClass::Workgroup, array), variable,
          {Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS, static_cast<uint32_t>(spv::StorageClass::Workgroup))}));
  stats_.scratchBytes += maxElements * kWordsPerElement * 4;
  return variable;
}

uint32_t CollectiveLowering::word(uint32_t array, uint32_t index) {
  uint32_t pointer = ir::typePointer(module_, spv::StorageClass::Workgroup, uint_);
  return at().valueOfIds(spv::Op::OpAccessChain, pointer, {array, index});
}

std::vector<uint32_t> CollectiveLowering::toWords(uint32_t type, uint32_t value) {
  if (ir::isBoolType(module_, type))
    return {at().valueOfIds(spv::Op::OpSelect, uint_, {value, constant32(1), constant32(0)})};
  uint32_t width = ir::scalarWidth(module_, type);
  if (width == 64) {
    uint32_t pair = at().valueOfIds(spv::Op::OpBitcast, ir::typeVector(module_, uint_, 2), {value});
    return {at().value(spv::Op::OpCompositeExtract, uint_, {Operand::id(pair), Operand::literal(0)}),
            at().value(spv::Op::OpCompositeExtract, uint_, {Operand::id(pair), Operand::literal(1)})};
  }
  if (width < 32) {  // char, short and half: their bits, zero-extended
    uint32_t bits = ir::floatWidth(module_, type)
                        ? at().valueOfIds(spv::Op::OpBitcast, ir::typeInt(module_, width), {value})
                        : value;
    return {at().valueOfIds(spv::Op::OpUConvert, uint_, {bits})};
  }
  return {type == uint_ ? value : at().valueOfIds(spv::Op::OpBitcast, uint_, {value})};
}

uint32_t CollectiveLowering::fromWords(uint32_t type, const std::vector<uint32_t>& words) {
  if (ir::isBoolType(module_, type)) return at().valueOfIds(spv::Op::OpINotEqual, type, {words[0], constant32(0)});
  uint32_t width = ir::scalarWidth(module_, type);
  if (width == 64) {
    uint32_t pair =
        at().valueOfIds(spv::Op::OpCompositeConstruct, ir::typeVector(module_, uint_, 2), {words[0], words[1]});
    return at().valueOfIds(spv::Op::OpBitcast, type, {pair});
  }
  if (width < 32) {
    uint32_t bits = at().valueOfIds(spv::Op::OpUConvert, ir::typeInt(module_, width), {words[0]});
    return ir::floatWidth(module_, type) ? at().valueOfIds(spv::Op::OpBitcast, type, {bits}) : bits;
  }
  return type == uint_ ? words[0] : at().valueOfIds(spv::Op::OpBitcast, type, {words[0]});
}

void CollectiveLowering::store(uint32_t array, uint32_t type, uint32_t element, uint32_t value) {
  std::vector<uint32_t> parts = toWords(type, value);
  uint32_t base = at().valueOfIds(spv::Op::OpIMul, uint_, {element, constant32(kWordsPerElement)});
  for (uint32_t k = 0; k < parts.size(); ++k) {
    uint32_t index = k ? at().valueOfIds(spv::Op::OpIAdd, uint_, {base, constant32(k)}) : base;
    at().add(spv::Op::OpStore, 0, {Operand::id(word(array, index)), Operand::id(parts[k])});
  }
}

uint32_t CollectiveLowering::load(uint32_t array, uint32_t type, uint32_t element) {
  uint32_t base = at().valueOfIds(spv::Op::OpIMul, uint_, {element, constant32(kWordsPerElement)});
  std::vector<uint32_t> parts;
  for (uint32_t k = 0; k < words(type); ++k) {
    uint32_t index = k ? at().valueOfIds(spv::Op::OpIAdd, uint_, {base, constant32(k)}) : base;
    parts.push_back(at().valueOfIds(spv::Op::OpLoad, uint_, {word(array, index)}));
  }
  return fromWords(type, parts);
}

}  // namespace cl2vk::collectives
