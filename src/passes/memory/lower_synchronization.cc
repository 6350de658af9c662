#include "passes/memory/lower_synchronization.h"

#include "analysis/data_layout.h"
#include "ir/builder.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/lowering.h"

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Module;
using ir::Operand;

constexpr uint32_t kCrossWorkgroupMemory = static_cast<uint32_t>(spv::MemorySemanticsMask::CrossWorkgroupMemory);
constexpr uint32_t kUniformMemory = static_cast<uint32_t>(spv::MemorySemanticsMask::UniformMemory);

// Where the scope and semantics operands of each instruction are (operand indices): those
// ir::memoryOrderOperands names, with a barrier's execution scope and an atomic's pointer.
struct SyncOperands {
  int pointer = -1;
  std::vector<int> scopes;
  std::vector<int> semantics;
};

std::optional<SyncOperands> syncOperandsOf(spv::Op op) {
  std::optional<ir::MemoryOrderOperands> order = ir::memoryOrderOperands(op);
  if (!order) return std::nullopt;
  SyncOperands where{ir::isAtomic(op) ? 0 : -1, {}, {static_cast<int>(order->semantics)}};
  if (op == spv::Op::OpControlBarrier) where.scopes.push_back(0);
  where.scopes.push_back(static_cast<int>(order->scope));
  if (order->unequalSemantics) where.semantics.push_back(static_cast<int>(*order->unequalSemantics));
  return where;
}

constexpr uint32_t kAcquire = static_cast<uint32_t>(spv::MemorySemanticsMask::Acquire);
constexpr uint32_t kRelease = static_cast<uint32_t>(spv::MemorySemanticsMask::Release);
constexpr uint32_t kWorkgroupMemory = static_cast<uint32_t>(spv::MemorySemanticsMask::WorkgroupMemory);
constexpr uint32_t kMemories = kUniformMemory | kWorkgroupMemory | kCrossWorkgroupMemory |
                               static_cast<uint32_t>(spv::MemorySemanticsMask::SubgroupMemory) |
                               static_cast<uint32_t>(spv::MemorySemanticsMask::ImageMemory);
constexpr uint32_t kOrders = kAcquire | kRelease | static_cast<uint32_t>(spv::MemorySemanticsMask::AcquireRelease) |
                             static_cast<uint32_t>(spv::MemorySemanticsMask::SequentiallyConsistent);

bool isCompareExchange(spv::Op opcode) {
  return opcode == spv::Op::OpAtomicCompareExchange || opcode == spv::Op::OpAtomicCompareExchangeWeak;
}

// Vulkan allows an atomic load only Acquire ordering and an atomic store only Release; OpenCL C
// 2.0's atomic_load and atomic_store default to memory_order_seq_cst. Vulkan's memory model reads
// SequentiallyConsistent as AcquireRelease, and the half of it a load or a store can take part in
// is Acquire or Release, so that is what they keep. A compare-exchange that fails only loads, so
// its Unequal semantics (operand 3) keep Acquire too: SPIR-V forbids Release there, and SwiftShader
// 5.0's shader compiler aborts ("Infinite-weight Variable ... has no register assigned") on a
// SequentiallyConsistent Unequal, which OpenCL C 2.0's atomic_compare_exchange_strong gives.
uint64_t orderVulkanAllows(spv::Op opcode, int operand, uint64_t semantics) {
  bool failedExchange = isCompareExchange(opcode) && operand == 3;
  uint32_t allowed = opcode == spv::Op::OpAtomicLoad || failedExchange ? kAcquire
                     : opcode == spv::Op::OpAtomicStore                ? kRelease
                                                                       : 0;
  if (!allowed || !(semantics & kOrders)) return semantics;
  return (semantics & ~uint64_t{kOrders}) | allowed;
}

// Equal semantics that order at least what `unequal` orders, with its memory.
uint64_t withFailureOrder(uint64_t equal, uint64_t unequal) {
  constexpr uint64_t kAcquiring = kAcquire | static_cast<uint32_t>(spv::MemorySemanticsMask::AcquireRelease) |
                                  static_cast<uint32_t>(spv::MemorySemanticsMask::SequentiallyConsistent);
  if (!(unequal & kAcquiring) || (equal & kAcquiring)) return equal;
  uint64_t order = (equal & kRelease) ? static_cast<uint32_t>(spv::MemorySemanticsMask::AcquireRelease) : kAcquire;
  return (equal & ~uint64_t{kOrders}) | order | (unequal & kMemories);
}

// An atomic on a work-item's private memory (OpenCL 2.0's atomics through a generic pointer may
// reach one) has no other work-item to race with, and Vulkan allows atomics only on shared and
// buffer memory: it becomes the load, operation and store it means. Integer atomics are scalar, so
// the value, comparator and result share the pointee's type; a flag is a 32-bit integer.
Expected<bool> lowerPrivateAtomic(Module& module, Instruction& inst) {
  uint32_t pointer = inst.idOperand(0);
  uint32_t type = ir::pointeeOf(module, ir::typeOf(module, pointer));
  ir::Builder b = ir::Builder::before(module, &inst);
  auto store = [&](uint32_t value) { b.add(spv::Op::OpStore, 0, {Operand::id(pointer), Operand::id(value)}); };
  auto constant = [&](uint64_t value) { return ir::constantBits(module, type, value); };
  if (inst.opcode() == spv::Op::OpAtomicStore || inst.opcode() == spv::Op::OpAtomicFlagClear) {
    store(inst.opcode() == spv::Op::OpAtomicStore ? inst.idOperand(3) : constant(0));
    CL2VK_TRY(module.remove(&inst));
    return true;
  }
  uint32_t old = b.valueOfIds(spv::Op::OpLoad, type, {pointer});
  uint32_t boolType = ir::typeBool(module);
  auto apply = [&](spv::Op op, uint32_t operand) { return b.valueOfIds(op, type, {old, operand}); };
  auto pick = [&](spv::Op compare) {
    uint32_t keep = b.valueOfIds(compare, boolType, {old, inst.idOperand(3)});
    return b.valueOfIds(spv::Op::OpSelect, type, {keep, old, inst.idOperand(3)});
  };
  uint32_t result = old;
  uint32_t next = 0;
  switch (inst.opcode()) {
    case spv::Op::OpAtomicLoad: break;
    case spv::Op::OpAtomicExchange: next = inst.idOperand(3); break;
    case spv::Op::OpAtomicIAdd: next = apply(spv::Op::OpIAdd, inst.idOperand(3)); break;
    case spv::Op::OpAtomicISub: next = apply(spv::Op::OpISub, inst.idOperand(3)); break;
    case spv::Op::OpAtomicAnd: next = apply(spv::Op::OpBitwiseAnd, inst.idOperand(3)); break;
    case spv::Op::OpAtomicOr: next = apply(spv::Op::OpBitwiseOr, inst.idOperand(3)); break;
    case spv::Op::OpAtomicXor: next = apply(spv::Op::OpBitwiseXor, inst.idOperand(3)); break;
    case spv::Op::OpAtomicIIncrement: next = apply(spv::Op::OpIAdd, constant(1)); break;
    case spv::Op::OpAtomicIDecrement: next = apply(spv::Op::OpISub, constant(1)); break;
    case spv::Op::OpAtomicSMin: next = pick(spv::Op::OpSLessThan); break;
    case spv::Op::OpAtomicUMin: next = pick(spv::Op::OpULessThan); break;
    case spv::Op::OpAtomicSMax: next = pick(spv::Op::OpSGreaterThan); break;
    case spv::Op::OpAtomicUMax: next = pick(spv::Op::OpUGreaterThan); break;
    case spv::Op::OpAtomicCompareExchange:
    case spv::Op::OpAtomicCompareExchangeWeak: {
      uint32_t equal = b.valueOfIds(spv::Op::OpIEqual, boolType, {old, inst.idOperand(5)});
      next = b.valueOfIds(spv::Op::OpSelect, type, {equal, inst.idOperand(4), old});
      break;
    }
    case spv::Op::OpAtomicFlagTestAndSet:
      result = b.valueOfIds(spv::Op::OpINotEqual, boolType, {old, constant(0)});
      next = constant(1);
      break;
    default: return Error(module.describe(inst) + ": an atomic on private memory that cl2vk cannot lower");
  }
  if (next) store(next);
  module.replaceAllUses(inst.resultId(), result);
  CL2VK_TRY(module.remove(&inst));
  return true;
}

Expected<bool> lowerSync(Module& module, Instruction& inst);

// OpenCL C 2.0's atomic_flag instructions are Kernel-only: a test-and-set becomes an exchange with
// 1 compared with 0, a clear an atomic store of 0, with the same scope and semantics (which are
// then lowered as any atomic's).
Expected<bool> lowerAtomicFlag(Module& module, Instruction& inst) {
  uint32_t pointer = inst.idOperand(0);
  uint32_t type = ir::pointeeOf(module, ir::typeOf(module, pointer));
  ir::Builder b = ir::Builder::before(module, &inst);
  std::vector<Operand> operands = {Operand::id(pointer), inst.operand(1), inst.operand(2)};
  Instruction* atomic;
  if (inst.opcode() == spv::Op::OpAtomicFlagClear) {
    operands.push_back(Operand::id(ir::constantBits(module, type, 0)));
    atomic = b.add(spv::Op::OpAtomicStore, 0, std::move(operands));
  } else {
    operands.push_back(Operand::id(ir::constantBits(module, type, 1)));
    atomic = b.add(spv::Op::OpAtomicExchange, type, std::move(operands));
    uint32_t wasSet =
        b.valueOfIds(spv::Op::OpINotEqual, inst.typeId(), {atomic->resultId(), ir::constantBits(module, type, 0)});
    module.replaceAllUses(inst.resultId(), wasSet);
  }
  CL2VK_TRY(module.remove(&inst));
  CL2VK_TRY(lowerSync(module, *atomic));
  return true;
}

Expected<bool> lowerSync(Module& module, Instruction& inst) {
  const SyncOperands where = *syncOperandsOf(inst.opcode());
  std::optional<spv::StorageClass> storage;
  if (where.pointer >= 0) storage = ir::storageOf(module, ir::typeOf(module, inst.idOperand(where.pointer)));
  if (storage == spv::StorageClass::Function) return lowerPrivateAtomic(module, inst);
  if (inst.opcode() == spv::Op::OpAtomicFlagTestAndSet || inst.opcode() == spv::Op::OpAtomicFlagClear)
    return lowerAtomicFlag(module, inst);
  bool global = storage == spv::StorageClass::PhysicalStorageBuffer || storage == spv::StorageClass::CrossWorkgroup;
  uint32_t atomicMemory = where.pointer >= 0 ? kUniformMemory | kWorkgroupMemory : 0;
  std::vector<Operand> operands = inst.operands();
  bool changed = false;
  for (int index : where.scopes) {
    std::optional<uint64_t> scope = constantValue(module, inst.idOperand(index));
    if (!scope) return Error(module.describe(inst) + ": the scope is not a constant, which Vulkan requires");
    uint64_t wanted = *scope;
    // OpenCL's barriers are work_group_barrier and sub_group_barrier; Vulkan has no other.
    bool executionScope = inst.opcode() == spv::Op::OpControlBarrier && index == 0;
    if (executionScope && wanted != static_cast<uint32_t>(spv::Scope::Workgroup) &&
        wanted != static_cast<uint32_t>(spv::Scope::Subgroup))
      return Error(module.describe(inst) + ": a barrier's execution scope must be Workgroup or Subgroup, not " +
                   std::to_string(wanted));
    if (wanted == static_cast<uint32_t>(spv::Scope::CrossDevice)) wanted = static_cast<uint32_t>(spv::Scope::Device);
    if (global) wanted = static_cast<uint32_t>(spv::Scope::Device);
    if (wanted == *scope) continue;
    operands[index] = Operand::id(ir::constantUint(module, 32, wanted));
    changed = true;
  }
  for (int index : where.semantics) {
    std::optional<uint64_t> semantics = constantValue(module, inst.idOperand(index));
    if (!semantics)
      return Error(module.describe(inst) + ": the memory semantics are not a constant, which Vulkan requires");
    uint64_t wanted = *semantics;
    if (wanted & kCrossWorkgroupMemory) wanted = (wanted & ~uint64_t{kCrossWorkgroupMemory}) | kUniformMemory;
    wanted = orderVulkanAllows(inst.opcode(), index, wanted);
    // OpenCL C 2.0's atomics carry their order and name no memory (llvm-spirv writes
    // memory_order_seq_cst as SequentiallyConsistent alone), where OpenCL orders global and local
    // memory both; Vulkan orders only the memory the semantics name, so both are named.
    if ((wanted & kOrders) && !(wanted & kMemories)) wanted |= atomicMemory;
    if (where.pointer < 0 && (wanted & kOrders) && !(wanted & kMemories)) {
      // A fence or barrier that orders no memory (`atomic_work_item_fence(0, ...)`): Vulkan
      // requires an ordering to name the memory it orders, and there is none. A memory barrier
      // does nothing and goes; a control barrier stays an execution barrier.
      if (inst.opcode() == spv::Op::OpMemoryBarrier) {
        CL2VK_TRY(module.remove(&inst));
        return true;
      }
      wanted = 0;
    }
    if (wanted == *semantics) continue;
    operands[index] = Operand::id(ir::constantUint(module, 32, wanted));
    changed = true;
  }
  if (isCompareExchange(inst.opcode())) {
    // The exchange's order joined with the failure's (C17 lets memory_order_release succeed and
    // memory_order_acquire fail; ordering a success more strongly than asked is always allowed).
    // SwiftShader 5.0's shader compiler aborts the process ("Infinite-weight Variable ... has no
    // register assigned", the CTS's c11_atomics) on a Release exchange whose failure is Acquire.
    std::optional<uint64_t> equal = constantValue(module, operands[where.semantics[0]].words[0]);
    std::optional<uint64_t> unequal = constantValue(module, operands[where.semantics[1]].words[0]);
    uint64_t joined = equal && unequal ? withFailureOrder(*equal, *unequal) : 0;
    if (equal && joined != *equal) {
      operands[where.semantics[0]] = Operand::id(ir::constantUint(module, 32, joined));
      changed = true;
    }
  }
  if (changed) module.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), std::move(operands)));
  return changed;
}

// For a driver that runs a memory barrier as a control barrier (llvmpipe; Target::memoryBarriers
// off): every atomic becomes relaxed, so that the driver puts no barrier around it, and each fence
// an idempotent atomic (an OR of 0) on a workgroup word. llvmpipe makes every atomic read-modify-
// write a sequentially consistent LLVM atomic, which neither LLVM nor the CPU moves a memory
// access across: a fence where the OpMemoryBarrier was, after an acquiring atomic load and before
// a releasing atomic store (which it makes plain accesses). Control barriers keep their semantics.
Expected<bool> fencesAsAtomics(Module& module) {
  std::vector<Instruction*> ordered;
  for (ir::Function& function : module.functions()) {
    for (ir::Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        std::optional<ir::MemoryOrderOperands> where = ir::memoryOrderOperands(inst.opcode());
        if (!where || inst.opcode() == spv::Op::OpControlBarrier) continue;
        std::optional<uint64_t> semantics = constantValue(module, inst.idOperand(where->semantics));
        std::optional<uint64_t> unequal =
            where->unequalSemantics ? constantValue(module, inst.idOperand(*where->unequalSemantics)) : 0;
        if (!semantics || !unequal) return Error(module.describe(inst) + ": the memory semantics are not a constant");
        if ((*semantics | *unequal) & kOrders) ordered.push_back(&inst);
      }
    }
  }
  if (ordered.empty()) return false;
  uint32_t uint = ir::typeInt(module, 32);
  uint32_t word = module.takeId();
  module.append(ir::Section::kGlobal,
                Instruction(spv::Op::OpVariable, ir::typePointer(module, spv::StorageClass::Workgroup, uint), word,
                            {Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS,
                                                static_cast<uint32_t>(spv::StorageClass::Workgroup))}));
  uint32_t relaxed = ir::constantUint(module, 32, 0);
  auto fence = [&](ir::Builder b) {
    b.add(spv::Op::OpAtomicOr, uint,
          {Operand::id(word), Operand::id(ir::constantUint(module, 32, static_cast<uint32_t>(spv::Scope::Workgroup))),
           Operand::id(relaxed), Operand::id(relaxed)});
  };
  for (Instruction* inst : ordered) {
    if (inst->opcode() == spv::Op::OpMemoryBarrier) {
      fence(ir::Builder::before(module, inst));
      CL2VK_TRY(module.remove(inst));
      continue;
    }
    ir::MemoryOrderOperands where = *ir::memoryOrderOperands(inst->opcode());
    module.setOperand(inst, where.semantics, Operand::id(relaxed));
    if (where.unequalSemantics) module.setOperand(inst, *where.unequalSemantics, Operand::id(relaxed));
    if (inst->opcode() == spv::Op::OpAtomicLoad) fence(ir::Builder::after(module, inst));
    if (inst->opcode() == spv::Op::OpAtomicStore) fence(ir::Builder::before(module, inst));
  }
  return true;
}

}  // namespace

Expected<PassResult> lowerSynchronization(Module& module, const Target& target) {
  Expected<PassResult> lowered = lowerInstructions(
      module, [](const Instruction& inst) { return syncOperandsOf(inst.opcode()).has_value(); }, lowerSync);
  if (!lowered || target.memoryBarriers) return lowered;
  Expected<bool> fences = fencesAsAtomics(module);
  if (!fences) return fences.error();
  return *fences ? PassResult::kChanged : *lowered;
}

}  // namespace cl2vk
