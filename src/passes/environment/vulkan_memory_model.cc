#include "passes/environment/vulkan_memory_model.h"

#include <vector>

#include "analysis/data_layout.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Module;
using ir::Operand;
using ir::Section;

constexpr uint32_t kAcquireOrders = static_cast<uint32_t>(spv::MemorySemanticsMask::Acquire) |
                                    static_cast<uint32_t>(spv::MemorySemanticsMask::AcquireRelease) |
                                    static_cast<uint32_t>(spv::MemorySemanticsMask::SequentiallyConsistent);
constexpr uint32_t kReleaseOrders = static_cast<uint32_t>(spv::MemorySemanticsMask::Release) |
                                    static_cast<uint32_t>(spv::MemorySemanticsMask::AcquireRelease) |
                                    static_cast<uint32_t>(spv::MemorySemanticsMask::SequentiallyConsistent);
// The memories a Vulkan memory semantics may name.
constexpr uint32_t kMemories = static_cast<uint32_t>(spv::MemorySemanticsMask::UniformMemory) |
                               static_cast<uint32_t>(spv::MemorySemanticsMask::WorkgroupMemory) |
                               static_cast<uint32_t>(spv::MemorySemanticsMask::ImageMemory);

template <typename M, typename Visit>
void forEachInstruction(M& module, Visit visit) {
  for (auto& function : module.functions()) {
    for (auto& block : function.blocks()) {
      for (auto& inst : block.instructions()) visit(inst);
    }
  }
}

// Adds `bits` (ones without operands of their own) to the memory operands of an access whose
// pointer is operand `pointer` and whose memory operands start at `at`, where the pointer's
// storage class allows them (buffer and workgroup memory, not a work-item's own).
void addMemoryAccess(Module& module, Instruction& inst, size_t pointer, size_t at, uint32_t bits) {
  std::optional<spv::StorageClass> storage = ir::storageOf(module, ir::typeOf(module, inst.idOperand(pointer)));
  if (storage != spv::StorageClass::PhysicalStorageBuffer && storage != spv::StorageClass::Workgroup &&
      storage != spv::StorageClass::StorageBuffer && storage != spv::StorageClass::Uniform)
    return;
  uint32_t mask = at < inst.numOperands() ? inst.wordOperand(at) : 0;
  Operand operand = Operand::enumerant(SPV_OPERAND_TYPE_OPTIONAL_MEMORY_ACCESS, mask | bits);
  if (at < inst.numOperands()) {
    module.setOperand(&inst, at, operand);
  } else {
    std::vector<Operand> operands = inst.operands();
    operands.push_back(operand);
    module.update(&inst, Instruction(inst.opcode(), inst.typeId(), inst.resultId(), std::move(operands)));
  }
}

// A release makes available, an acquire makes visible; SequentiallyConsistent is both.
void makeAvailableAndVisible(Module& module, Instruction& inst, size_t at) {
  std::optional<uint64_t> semantics = constantValue(module, inst.idOperand(at));
  if (!semantics || !(*semantics & kMemories)) return;
  uint64_t wanted = *semantics;
  constexpr uint32_t kSequential = static_cast<uint32_t>(spv::MemorySemanticsMask::SequentiallyConsistent);
  if (wanted & kSequential) {
    wanted = (wanted & ~uint64_t{kSequential}) | static_cast<uint32_t>(spv::MemorySemanticsMask::AcquireRelease);
  }
  if (wanted & kReleaseOrders) wanted |= static_cast<uint32_t>(spv::MemorySemanticsMask::MakeAvailable);
  if (wanted & kAcquireOrders) wanted |= static_cast<uint32_t>(spv::MemorySemanticsMask::MakeVisible);
  if (wanted != *semantics) module.setOperand(&inst, at, Operand::id(ir::constantUint(module, 32, wanted)));
}

}  // namespace

bool ordersMemoryAcrossWorkGroups(const Module& module) {
  constexpr uint32_t kOrders = kAcquireOrders | kReleaseOrders;
  bool found = false;
  forEachInstruction(module, [&](const Instruction& inst) {
    std::optional<ir::MemoryOrderOperands> where = ir::memoryOrderOperands(inst.opcode());
    if (found || !where) return;
    std::optional<uint64_t> scope = constantValue(module, inst.idOperand(where->scope));
    std::optional<uint64_t> semantics = constantValue(module, inst.idOperand(where->semantics));
    found = scope && semantics && *scope == static_cast<uint32_t>(spv::Scope::Device) && (*semantics & kOrders);
  });
  return found;
}

void useVulkanMemoryModel(Module& module) {
  constexpr uint32_t kNonPrivate = static_cast<uint32_t>(spv::MemoryAccessMask::NonPrivatePointer);
  forEachInstruction(module, [&](Instruction& inst) {
    switch (inst.opcode()) {
      case spv::Op::OpLoad: addMemoryAccess(module, inst, 0, 1, kNonPrivate); break;
      case spv::Op::OpStore: addMemoryAccess(module, inst, 0, 2, kNonPrivate); break;
      case spv::Op::OpCopyMemory: addMemoryAccess(module, inst, 0, 2, kNonPrivate); break;
      case spv::Op::OpCopyMemorySized: addMemoryAccess(module, inst, 0, 3, kNonPrivate); break;
      default:
        if (std::optional<ir::MemoryOrderOperands> where = ir::memoryOrderOperands(inst.opcode())) {
          makeAvailableAndVisible(module, inst, where->semantics);
          if (where->unequalSemantics) makeAvailableAndVisible(module, inst, *where->unequalSemantics);
        }
    }
  });
  std::vector<Instruction*> dropped;
  for (Instruction& inst : module.section(Section::kAnnotation)) {
    size_t at = inst.opcode() == spv::Op::OpDecorate ? 1 : inst.opcode() == spv::Op::OpMemberDecorate ? 2 : 0;
    if (!at) continue;
    auto decoration = static_cast<spv::Decoration>(inst.wordOperand(at));
    if (decoration == spv::Decoration::Coherent || decoration == spv::Decoration::Volatile) dropped.push_back(&inst);
  }
  for (Instruction* inst : dropped) (void)module.remove(inst);
}

}  // namespace cl2vk
