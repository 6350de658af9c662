#include "passes/lower_synchronization.h"

#include "ir/types.h"
#include "passes/data_layout.h"
#include "passes/lowering.h"

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Module;
using ir::Operand;

constexpr uint32_t kCrossWorkgroupMemory = static_cast<uint32_t>(spv::MemorySemanticsMask::CrossWorkgroupMemory);
constexpr uint32_t kUniformMemory = static_cast<uint32_t>(spv::MemorySemanticsMask::UniformMemory);

// Where the scope and semantics operands of each instruction are (operand indices).
struct SyncOperands {
  int pointer = -1;
  std::vector<int> scopes;
  std::vector<int> semantics;
};

std::optional<SyncOperands> syncOperandsOf(spv::Op op) {
  switch (op) {
    case spv::Op::OpControlBarrier: return SyncOperands{-1, {0, 1}, {2}};
    case spv::Op::OpMemoryBarrier: return SyncOperands{-1, {0}, {1}};
    case spv::Op::OpAtomicLoad:
    case spv::Op::OpAtomicIIncrement:
    case spv::Op::OpAtomicIDecrement:
    case spv::Op::OpAtomicFlagTestAndSet:
    case spv::Op::OpAtomicFlagClear: return SyncOperands{0, {1}, {2}};
    case spv::Op::OpAtomicStore:
    case spv::Op::OpAtomicExchange:
    case spv::Op::OpAtomicIAdd:
    case spv::Op::OpAtomicISub:
    case spv::Op::OpAtomicSMin:
    case spv::Op::OpAtomicUMin:
    case spv::Op::OpAtomicSMax:
    case spv::Op::OpAtomicUMax:
    case spv::Op::OpAtomicAnd:
    case spv::Op::OpAtomicOr:
    case spv::Op::OpAtomicXor: return SyncOperands{0, {1}, {2}};
    case spv::Op::OpAtomicCompareExchange:
    case spv::Op::OpAtomicCompareExchangeWeak: return SyncOperands{0, {1}, {2, 3}};
    default: return std::nullopt;
  }
}

bool pointsToGlobalMemory(const Module& module, uint32_t pointer) {
  const Instruction* type = module.def(module.def(pointer)->typeId());
  return type->wordOperand(0) == static_cast<uint32_t>(spv::StorageClass::PhysicalStorageBuffer) ||
         type->wordOperand(0) == static_cast<uint32_t>(spv::StorageClass::CrossWorkgroup);
}

Expected<bool> lowerSync(Module& module, Instruction& inst) {
  const SyncOperands where = *syncOperandsOf(inst.opcode());
  bool global = where.pointer >= 0 && pointsToGlobalMemory(module, inst.idOperand(where.pointer));
  std::vector<Operand> operands = inst.operands();
  bool changed = false;
  for (int index : where.scopes) {
    std::optional<uint64_t> scope = constantValue(module, inst.idOperand(index));
    if (!scope) return Error(module.describe(inst) + ": the scope is not a constant, which Vulkan requires");
    uint64_t wanted = *scope;
    if (wanted == static_cast<uint32_t>(spv::Scope::CrossDevice)) wanted = static_cast<uint32_t>(spv::Scope::Device);
    if (global) wanted = static_cast<uint32_t>(spv::Scope::Device);
    if (wanted == *scope) continue;
    operands[index] = Operand::id(ir::constantUint(module, 32, wanted));
    changed = true;
  }
  for (int index : where.semantics) {
    std::optional<uint64_t> semantics = constantValue(module, inst.idOperand(index));
    if (!semantics) return Error(module.describe(inst) + ": the memory semantics are not a constant, which Vulkan requires");
    uint64_t wanted = *semantics;
    if (wanted & kCrossWorkgroupMemory) wanted = (wanted & ~uint64_t{kCrossWorkgroupMemory}) | kUniformMemory;
    if (wanted == *semantics) continue;
    operands[index] = Operand::id(ir::constantUint(module, 32, wanted));
    changed = true;
  }
  if (changed) module.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), std::move(operands)));
  return changed;
}

}  // namespace

Expected<PassResult> lowerSynchronization(Module& module, const Target&) {
  return lowerInstructions(
      module, [](const Instruction& inst) { return syncOperandsOf(inst.opcode()).has_value(); }, lowerSync);
}

}  // namespace cl2vk
