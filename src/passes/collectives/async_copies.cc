// lower-collectives for async_work_group_copy, async_work_group_strided_copy and wait_group_events.
#include "passes/collectives/collective_lowering.h"

#include "analysis/call_graph.h"

namespace cl2vk::collectives {

Status CollectiveLowering::lowerAsyncCopy(Instruction* inst) {
  uint32_t destination = inst->idOperand(1), source = inst->idOperand(2);
  uint32_t destinationType = ir::typeOf(module_, destination);
  uint32_t sourceType = ir::typeOf(module_, source);
  // SPIRV-Tools 2023.1 checks none of these operands.
  if (!ir::isPointerType(module_, destinationType) || !ir::isPointerType(module_, sourceType))
    return ir::refuse(module_, *inst, "the destination and the source of an async copy must be pointers");
  uint32_t sizeType = ir::typeOf(module_, inst->idOperand(3));
  if (ir::isVectorType(module_, sizeType) || !ir::intWidth(module_, sizeType) ||
      ir::typeOf(module_, inst->idOperand(4)) != sizeType ||
      ir::typeOf(module_, inst->idOperand(5)) != inst->typeId() ||
      module_.def(inst->typeId())->opcode() != spv::Op::OpTypeEvent)
    return ir::refuse(module_, *inst,
                      "an async copy needs integers of one type for the count and the stride, and an event");
  auto storage = [&](uint32_t type) { return ir::storageOf(module_, type); };
  bool toLocal = storage(destinationType) == spv::StorageClass::Workgroup &&
                 storage(sourceType) == spv::StorageClass::CrossWorkgroup;
  bool toGlobal = storage(destinationType) == spv::StorageClass::CrossWorkgroup &&
                  storage(sourceType) == spv::StorageClass::Workgroup;
  if (!toLocal && !toGlobal)
    return ir::refuse(module_, *inst, "an async copy must be between a __global and a __local pointer");
  if (ir::pointeeOf(module_, destinationType) != ir::pointeeOf(module_, sourceType))
    return ir::refuse(module_, *inst,
                      "the destination and the source of an async copy must have the same element type");

  Block* rest = emitBlocksAfter(inst);
  // Local memory holds far fewer than 2^32 elements, so the count and the loop are 32-bit.
  bool narrow = ir::scalarWidth(module_, sizeType) == 32;
  auto asSize = [&](uint32_t value32) {
    return narrow ? value32 : at().valueOfIds(spv::Op::OpUConvert, sizeType, {value32});
  };
  uint32_t count = narrow ? inst->idOperand(3) : at().valueOfIds(spv::Op::OpUConvert, uint_, {inst->idOperand(3)});
  uint32_t stride = inst->idOperand(4);
  uint32_t element = ir::pointeeOf(module_, destinationType);
  uint32_t first = builtin(spv::BuiltIn::LocalInvocationIndex);
  uint32_t step = localInvocations();
  at().loop(
      first, count,
      [&](uint32_t i) {
        return at().valueOfIds(spv::Op::OpIAdd, uint_, {i, step});
      },
      0, 0,
      [&](uint32_t, uint32_t i) {
        uint32_t local = asSize(i);
        uint32_t global = at().valueOfIds(spv::Op::OpIMul, sizeType, {local, stride});
        uint32_t from =
            at().valueOfIds(spv::Op::OpInBoundsPtrAccessChain, sourceType, {source, toLocal ? global : local});
        uint32_t to = at().valueOfIds(spv::Op::OpInBoundsPtrAccessChain, destinationType,
                                      {destination, toLocal ? local : global});
        at().add(spv::Op::OpStore, 0,
                 {Operand::id(to), Operand::id(at().valueOfIds(spv::Op::OpLoad, element, {from}))});
        return 0u;
      });
  at().branchTo(rest);
  module_.replaceAllUses(inst->resultId(), inst->idOperand(5));
  return module_.remove(inst);
}

Status CollectiveLowering::lowerWaitEvents(Instruction* inst) {
  controlBarrier(Builder::before(module_, inst), kWorkgroup,
                 spv::MemorySemanticsMask::WorkgroupMemory | spv::MemorySemanticsMask::CrossWorkgroupMemory);
  return module_.remove(inst);
}

}  // namespace cl2vk::collectives
