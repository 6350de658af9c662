#include "passes/memory/move_private_arrays.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>

#include "analysis/data_layout.h"
#include "ir/builder.h"
#include "ir/types.h"
#include "passes/interface/hidden_parameters.h"

namespace cl2vk {
namespace {

using ir::Instruction;
using ir::Module;
using ir::Operand;

// The scratch block's stride and each moved variable's offset in it are multiples of this.
constexpr uint32_t kScratchAlignment = 16;

bool isFunctionPointer(const Module& module, uint32_t type) {
  return type != 0 && ir::isPointerType(module, type) && ir::storageOf(module, type) == spv::StorageClass::Function;
}

// Whether values of `type` hold a pointer: such a variable stays, as what it holds (a pointer to
// Function memory, say) has no place in a buffer.
bool holdsPointers(const Module& module, uint32_t type) {
  const Instruction* def = module.def(type);
  switch (def->opcode()) {
    case spv::Op::OpTypePointer: return true;
    case spv::Op::OpTypeArray:
    case spv::Op::OpTypeVector: return holdsPointers(module, def->idOperand(0));
    case spv::Op::OpTypeStruct:
      for (size_t i = 0; i < def->numOperands(); ++i) {
        if (holdsPointers(module, def->idOperand(i))) return true;
      }
      return false;
    default: return false;
  }
}

// Instructions whose result is a pointer into the memory of their first pointer operand.
bool derivesPointer(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpAccessChain:
    case spv::Op::OpInBoundsAccessChain:
    case spv::Op::OpPtrAccessChain:
    case spv::Op::OpInBoundsPtrAccessChain:
    case spv::Op::OpBitcast:
    case spv::Op::OpCopyObject: return true;
    default: return false;
  }
}

// Whether `user` may read the Function pointer in operand `index` where the pointer is __global
// instead, unchanged: memory accesses through it, casts that leave the storage class, integer
// conversions, comparisons between pointers of one web (joined separately) and the lifetime markers
// (removed from a moved variable).
bool keepsWorkingOnAGlobalPointer(const Instruction& user, int index) {
  switch (user.opcode()) {
    case spv::Op::OpLoad:
    case spv::Op::OpCopyMemory:
    case spv::Op::OpCopyMemorySized:
    case spv::Op::OpPtrCastToGeneric:
    case spv::Op::OpConvertPtrToU:
    case spv::Op::OpPtrEqual:
    case spv::Op::OpPtrNotEqual:
    case spv::Op::OpPtrDiff:
    case spv::Op::OpLifetimeStart:
    case spv::Op::OpLifetimeStop:
    case spv::Op::OpExtInst:  // OpenCL.std's vload, vstore, fract, modf ... take any storage class
    case spv::Op::OpName:
    case spv::Op::OpDecorate: return true;
    case spv::Op::OpStore: return index == 0;  // stored through, not stored as a value
    default: return derivesPointer(user.opcode()) && index == 0;
  }
}

// Union-find over the Function pointers of one kernel: each set is a web of pointers that must
// keep one storage class, rooted at the variables it reaches.
class Webs {
 public:
  uint32_t find(uint32_t id) {
    auto it = parent_.find(id);
    if (it == parent_.end()) return parent_[id] = id;
    if (it->second == id) return id;
    uint32_t root = find(it->second);
    parent_[id] = root;
    return root;
  }
  void join(uint32_t a, uint32_t b) {
    a = find(a), b = find(b);
    if (a == b) return;
    parent_[a] = b;
    if (stuck_.count(a)) stuck_.insert(b);
  }
  // The web of `id` cannot move.
  void stick(uint32_t id) { stuck_.insert(find(id)); }
  bool stuck(uint32_t id) { return stuck_.count(find(id)) != 0; }

 private:
  std::unordered_map<uint32_t, uint32_t> parent_;
  std::unordered_set<uint32_t> stuck_;
};

struct Candidate {
  Instruction* variable;
  uint32_t size, alignment;
};

class KernelMove {
 public:
  KernelMove(Module& module, ir::Function& kernel, uint32_t budget)
      : module_(module), kernel_(kernel), budget_(budget) {}

  Expected<bool> run() {
    std::vector<Candidate> variables;
    uint32_t total = 0;
    for (Instruction& inst : kernel_.blocks().front().instructions()) {
      if (inst.opcode() != spv::Op::OpVariable) continue;
      uint32_t pointee = ir::pointeeOf(module_, inst.typeId());
      Expected<TypeLayout> layout = layoutOf(module_, pointee);
      if (!layout) continue;  // opaque: not memory
      total += layout->size;
      if (holdsPointers(module_, pointee)) continue;
      variables.push_back(Candidate{&inst, layout->size, layout->alignment});
    }
    if (total <= budget_) return false;
    joinWebs();

    // The largest webs move first, until what stays fits.
    std::map<uint32_t, uint32_t> webSize;  // web root -> bytes
    for (const Candidate& c : variables) webSize[webs_.find(c.variable->resultId())] += c.size;
    std::vector<std::pair<uint32_t, uint32_t>> order(webSize.begin(), webSize.end());
    std::stable_sort(order.begin(), order.end(), [](auto& a, auto& b) { return a.second > b.second; });
    std::unordered_set<uint32_t> moving;
    for (auto [root, size] : order) {
      if (total <= budget_) break;
      if (webs_.stuck(root)) continue;
      moving.insert(root);
      total -= size;
    }
    if (moving.empty()) return false;

    std::vector<std::pair<Candidate, uint32_t>> placed;  // the variable and its offset
    uint32_t stride = 0;
    for (const Candidate& c : variables) {
      if (!moving.count(webs_.find(c.variable->resultId()))) continue;
      stride = alignUp(stride, std::max(c.alignment, kScratchAlignment));
      placed.push_back({c, stride});
      stride += c.size;
    }
    stride = alignUp(stride, kScratchAlignment);
    CL2VK_TRY(removeLifetimeMarkers(moving));
    retype(moving);
    CL2VK_TRY(replaceVariables(placed, stride));
    return true;
  }

 private:
  // Joins every Function pointer of the kernel with those it derives from or merges with, and
  // marks the webs that a use the pass cannot retype, or a pointer of unknown origin, holds.
  void joinWebs() {
    for (ir::Block& block : kernel_.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (!isFunctionPointer(module_, inst.typeId())) continue;
        uint32_t id = inst.resultId();
        if (inst.opcode() == spv::Op::OpVariable) {
          webs_.find(id);
        } else if (derivesPointer(inst.opcode())) {
          webs_.join(id, inst.idOperand(0));
        } else if (inst.opcode() == spv::Op::OpPhi) {
          for (size_t i = 0; i < inst.numOperands(); i += 2) joinOrStick(id, inst.idOperand(i));
        } else if (inst.opcode() == spv::Op::OpSelect) {
          joinOrStick(id, inst.idOperand(1));
          joinOrStick(id, inst.idOperand(2));
        } else {
          webs_.stick(id);  // a parameter, a cast from Generic, a call's result ...
        }
        for (const ir::Use& use : module_.uses(id)) {
          if (use.operandIndex == ir::Use::kResultType) continue;
          const Instruction& user = *use.user;
          if (user.opcode() == spv::Op::OpPhi || user.opcode() == spv::Op::OpSelect) continue;  // joined above
          if (!keepsWorkingOnAGlobalPointer(user, use.operandIndex)) webs_.stick(id);
          if (user.opcode() == spv::Op::OpPtrEqual || user.opcode() == spv::Op::OpPtrNotEqual ||
              user.opcode() == spv::Op::OpPtrDiff)
            joinOrStick(id, user.idOperand(use.operandIndex == 0 ? 1 : 0));
        }
      }
    }
  }

  // `other` is a pointer merged with `id`: a web of the kernel's own pointers joins; anything else
  // (a constant null, an undefined value, a parameter such as a struct passed by value) keeps
  // `id`'s web where it is.
  void joinOrStick(uint32_t id, uint32_t other) {
    const Instruction* def = module_.def(other);
    if (def && def->function() == &kernel_ && def->opcode() != spv::Op::OpFunctionParameter) {
      webs_.join(id, other);
    } else {
      webs_.stick(id);
    }
  }

  // Every pointer of a moving web becomes a CrossWorkgroup pointer to the same type.
  void retype(const std::unordered_set<uint32_t>& moving) {
    for (ir::Block& block : kernel_.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (inst.opcode() == spv::Op::OpVariable || !isFunctionPointer(module_, inst.typeId())) continue;
        if (!moving.count(webs_.find(inst.resultId()))) continue;
        uint32_t global =
            ir::typePointer(module_, spv::StorageClass::CrossWorkgroup, ir::pointeeOf(module_, inst.typeId()));
        module_.update(&inst, Instruction(inst.opcode(), global, inst.resultId(), inst.operands()));
      }
    }
  }

  // The lifetime markers of moved memory (they take Function pointers alone).
  Status removeLifetimeMarkers(const std::unordered_set<uint32_t>& moving) {
    std::vector<Instruction*> markers;
    for (ir::Block& block : kernel_.blocks()) {
      for (Instruction& inst : block.instructions()) {
        bool marker = inst.opcode() == spv::Op::OpLifetimeStart || inst.opcode() == spv::Op::OpLifetimeStop;
        if (marker && moving.count(webs_.find(inst.idOperand(0)))) markers.push_back(&inst);
      }
    }
    return module_.removeAll(markers);
  }

  // Each moved variable becomes a pointer to its place in the invocation's scratch block, its
  // initializer stored there first; its decorations (an alignment the block keeps) go.
  Status replaceVariables(const std::vector<std::pair<Candidate, uint32_t>>& placed, uint32_t stride) {
    uint32_t uint32 = ir::typeInt(module_, 32);
    uint32_t block = module_.getOrAddGlobal(
        spv::Op::OpTypeArray, 0, {Operand::id(uint32), Operand::id(ir::constantUint(module_, 32, stride / 4))});
    uint32_t scratch = addHiddenParameter(
        module_, kernel_, ir::typePointer(module_, spv::StorageClass::CrossWorkgroup, block), kPrivateScratchName);
    ir::Builder builder = ir::Builder::after(module_, ir::lastVariable(kernel_));
    uint32_t wordPointer = ir::typePointer(module_, spv::StorageClass::CrossWorkgroup, uint32);
    std::vector<Instruction*> gone;
    for (const auto& [candidate, offset] : placed) {
      Instruction* variable = candidate.variable;
      uint32_t pointee = ir::pointeeOf(module_, variable->typeId());
      uint32_t word = builder.valueOfIds(spv::Op::OpInBoundsAccessChain, wordPointer,
                                         {scratch, ir::constantUint(module_, 32, offset / 4)});
      uint32_t pointer = builder.bitcast(ir::typePointer(module_, spv::StorageClass::CrossWorkgroup, pointee), word);
      if (variable->numOperands() > 1)  // the initializer
        builder.add(spv::Op::OpStore, 0, {Operand::id(pointer), Operand::id(variable->idOperand(1))});
      std::vector<Instruction*> decorations;
      for (const ir::Use& use : module_.uses(variable->resultId())) {
        if (use.user->opcode() == spv::Op::OpDecorate) decorations.push_back(use.user);
      }
      CL2VK_TRY(module_.removeAll(decorations));
      module_.replaceAllUses(variable->resultId(), pointer);
      CL2VK_TRY(module_.remove(variable));
    }
    return okStatus();
  }

  Module& module_;
  ir::Function& kernel_;
  uint32_t budget_;
  Webs webs_;
};

}  // namespace

Expected<PassResult> movePrivateArrays(Module& module, const Target& target) {
  if (target.privateMemoryBudget == 0) return PassResult::kUnchanged;
  PassResult result = PassResult::kUnchanged;
  for (Instruction& entry : module.section(ir::Section::kEntryPoint)) {
    if (entry.wordOperand(0) != static_cast<uint32_t>(spv::ExecutionModel::Kernel)) continue;
    ir::Function* kernel = module.function(entry.idOperand(1));
    if (kernel == nullptr || kernel->isDeclaration()) continue;
    Expected<bool> moved = KernelMove(module, *kernel, target.privateMemoryBudget).run();
    if (!moved) return moved.error();
    if (*moved) result = PassResult::kChanged;
  }
  return result;
}

}  // namespace cl2vk
