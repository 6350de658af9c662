#include "passes/memory/promote_variables.h"

#include <algorithm>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/cfg.h"
#include "ir/builder.h"
#include "ir/types.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Function;
using ir::Instruction;
using ir::Module;
using ir::Operand;

// clang accesses a 3-component vector variable as a 4-component one (OpenCL sizes vec3 like
// vec4): a bitcast pointer, loaded or stored whole. Those accesses become accesses of the vec3
// itself with a shuffle, so that the variable is only loaded and stored whole.
void unwrapVec3Views(Module& module, Function& function) {
  std::vector<Instruction*> casts;
  for (Instruction& inst : function.blocks().front().instructions()) {
    if (inst.opcode() != spv::Op::OpVariable) continue;
    uint32_t vec3 = ir::pointeeOf(module, inst.typeId());
    if (!ir::isVectorType(module, vec3) || ir::componentCount(module, vec3) != 3) continue;
    for (const ir::Use& use : module.uses(inst.resultId())) {
      if (use.user->opcode() != spv::Op::OpBitcast) continue;
      uint32_t target = ir::pointeeOf(module, use.user->typeId());
      if (!ir::isVectorType(module, target) || ir::componentCount(module, target) != 4 ||
          ir::componentType(module, target) != ir::componentType(module, vec3))
        continue;
      bool wholeAccesses = true;
      for (const ir::Use& access : module.uses(use.user->resultId())) {
        spv::Op op = access.user->opcode();
        wholeAccesses &= (op == spv::Op::OpLoad || op == spv::Op::OpStore) && access.operandIndex == 0;
      }
      if (wholeAccesses) casts.push_back(use.user);
    }
  }
  for (Instruction* cast : casts) {
    uint32_t variable = cast->idOperand(0);
    uint32_t vec3 = module.def(module.def(variable)->typeId())->idOperand(1);
    uint32_t vec4 = module.def(cast->typeId())->idOperand(1);
    std::vector<Instruction*> accesses;
    for (const ir::Use& access : module.uses(cast->resultId())) accesses.push_back(access.user);
    for (Instruction* access : accesses) {
      ir::Builder b = ir::Builder::before(module, access);
      if (access->opcode() == spv::Op::OpLoad) {
        uint32_t value = b.valueOfIds(spv::Op::OpLoad, vec3, {variable});
        uint32_t widened = b.value(spv::Op::OpVectorShuffle, vec4,
                                   {Operand::id(value), Operand::id(value), Operand::literal(0), Operand::literal(1),
                                    Operand::literal(2), Operand::literal(2)});
        module.replaceAllUses(access->resultId(), widened);
      } else {
        uint32_t value = access->idOperand(1);
        uint32_t narrowed = b.value(
            spv::Op::OpVectorShuffle, vec3,
            {Operand::id(value), Operand::id(value), Operand::literal(0), Operand::literal(1), Operand::literal(2)});
        b.add(spv::Op::OpStore, 0, {Operand::id(variable), Operand::id(narrowed)});
      }
      (void)module.remove(access);  // a load's uses were just replaced; a store has no result
    }
    (void)module.remove(cast);
  }
}

// clang marks a variable's lifetime through a byte pointer cast from it (OpBitcast, then
// OpLifetimeStart/Stop). The markers only say when the memory is needed, which SSA values do not
// ask; they and the casts go, so that such a variable can be promoted. At -O2 the variables left
// for this pass are the `volatile` locals (LLVM promotes every other), and a volatile private
// variable has no observer but its own work-item: it may live in a register like any other
// (CLBlast's GEMM keeps its thread index in one).
void dropLifetimeCasts(Module& module, Function& function) {
  std::vector<Instruction*> dead;
  for (Instruction& inst : function.blocks().front().instructions()) {
    if (inst.opcode() != spv::Op::OpVariable) continue;
    for (const ir::Use& use : module.uses(inst.resultId())) {
      if (use.user->opcode() != spv::Op::OpBitcast) continue;
      std::vector<Instruction*> markers;
      bool onlyMarkers = true;
      for (const ir::Use& marker : module.uses(use.user->resultId())) {
        spv::Op op = marker.user->opcode();
        onlyMarkers &= op == spv::Op::OpLifetimeStart || op == spv::Op::OpLifetimeStop;
        markers.push_back(marker.user);
      }
      if (!onlyMarkers) continue;
      dead.insert(dead.end(), markers.begin(), markers.end());
      dead.push_back(use.user);
    }
  }
  for (Instruction* inst : dead) (void)module.remove(inst);
}

// Whether every use of `variable` loads or stores it whole (names, decorations and lifetime
// markers aside), so that it can live in SSA values.
bool isPromotable(const Module& module, const Instruction& variable) {
  for (const ir::Use& use : module.uses(variable.resultId())) {
    switch (use.user->opcode()) {
      case spv::Op::OpLoad:
        if (use.operandIndex != 0) return false;
        break;
      case spv::Op::OpStore:
        if (use.operandIndex != 0) return false;  // storing the variable's address somewhere
        break;
      case spv::Op::OpName:
      case spv::Op::OpDecorate:
      case spv::Op::OpLifetimeStart:
      case spv::Op::OpLifetimeStop: break;
      default: return false;
    }
  }
  return true;
}

// SSA construction for the promotable variables of one function.
class Promoter {
 public:
  Promoter(Module& module, Function& function) : module_(module), function_(function) {
    for (Block& block : function.blocks()) blocks_[block.id()] = &block;
    for (Block& block : function.blocks()) {
      for (uint32_t successor : successorLabels(*block.terminator())) {
        auto& preds = predecessors_[successor];
        if (std::find(preds.begin(), preds.end(), &block) == preds.end()) preds.push_back(&block);
      }
    }
  }

  Status run(const std::vector<Instruction*>& variables) {
    for (Instruction* variable : variables) {
      uint32_t pointee = module_.def(variable->typeId())->idOperand(1);
      variables_[variable->resultId()] = pointee;
      if (variable->numOperands() > 1) initial_[variable->resultId()] = variable->idOperand(1);
    }
    // Fill blocks in layout order (every block after its dominators in valid SPIR-V), sealing a
    // block once all its predecessors are filled.
    for (Block& block : function_.blocks()) {
      fill(block);
      filled_.insert(&block);
      for (Block& candidate : function_.blocks()) trySeal(candidate);
    }
    for (Block& block : function_.blocks()) {
      if (!sealed_.contains(&block)) seal(block);  // unreachable predecessors
    }
    // A stored value may itself be a promoted load: resolve through every replacement.
    for (auto& [load, value] : loadValues_) replaced_[load->resultId()] = value;
    for (auto& [load, value] : loadValues_) module_.replaceAllUses(load->resultId(), resolve(load->resultId()));
    std::vector<Instruction*> dead;
    for (auto& [load, value] : loadValues_) dead.push_back(load);
    dead.insert(dead.end(), stores_.begin(), stores_.end());
    dead.insert(dead.end(), markers_.begin(), markers_.end());
    for (Instruction* inst : dead) CL2VK_TRY(module_.remove(inst));
    for (Instruction* variable : variables) CL2VK_TRY(module_.remove(variable));
    return okStatus();
  }

 private:
  void fill(Block& block) {
    for (Instruction& inst : block.instructions()) {
      switch (inst.opcode()) {
        case spv::Op::OpLoad: {
          uint32_t variable = inst.idOperand(0);
          if (variables_.contains(variable)) loadValues_.emplace_back(&inst, read(variable, &block));
          break;
        }
        case spv::Op::OpStore: {
          uint32_t variable = inst.idOperand(0);
          if (!variables_.contains(variable)) break;
          write(variable, &block, inst.idOperand(1));
          stores_.push_back(&inst);
          break;
        }
        case spv::Op::OpLifetimeStart:
        case spv::Op::OpLifetimeStop:
          if (variables_.contains(inst.idOperand(0))) markers_.push_back(&inst);
          break;
        default: break;
      }
    }
  }

  void write(uint32_t variable, Block* block, uint32_t value) { current_[variable][block] = value; }

  uint32_t read(uint32_t variable, Block* block) {
    auto& defs = current_[variable];
    if (auto it = defs.find(block); it != defs.end()) return it->second;
    uint32_t value;
    const auto& preds = predecessors_[block->id()];
    if (block == &function_.blocks().front()) {
      value = initialValue(variable);
    } else if (!sealed_.contains(block)) {
      value = addPhi(variable, block);
      incomplete_[block].emplace_back(variable, value);
    } else if (preds.size() == 1) {
      value = read(variable, preds[0]);
    } else if (preds.empty()) {
      value = undef(variable);
    } else {
      value = addPhi(variable, block);
      write(variable, block, value);
      value = completePhi(variable, value);
    }
    write(variable, block, value);
    return value;
  }

  uint32_t initialValue(uint32_t variable) {
    auto it = initial_.find(variable);
    return it != initial_.end() ? it->second : undef(variable);
  }

  uint32_t undef(uint32_t variable) {
    uint32_t type = variables_.at(variable);
    auto [it, added] = undefs_.try_emplace(type, 0);
    if (added) {
      it->second = module_.takeId();
      module_.append(ir::Section::kGlobal, Instruction(spv::Op::OpUndef, type, it->second));
    }
    return it->second;
  }

  uint32_t addPhi(uint32_t variable, Block* block) {
    Instruction* anchor = &block->instructions().front();
    for (Instruction& inst : block->instructions()) {
      if (inst.opcode() == spv::Op::OpPhi) anchor = &inst;
    }
    Instruction* phi =
        module_.insertAfter(anchor, Instruction(spv::Op::OpPhi, variables_.at(variable), module_.takeId()));
    phiVariables_[phi->resultId()] = variable;
    return phi->resultId();
  }

  uint32_t completePhi(uint32_t variable, uint32_t phiId) {
    Instruction* phi = module_.def(phiId);
    Block* block = phi->block();
    std::vector<Operand> incoming;
    for (Block* pred : predecessors_[block->id()]) {
      incoming.push_back(Operand::id(read(variable, pred)));
      incoming.push_back(Operand::id(pred->id()));
    }
    module_.update(phi, Instruction(spv::Op::OpPhi, phi->typeId(), phiId, std::move(incoming)));
    return removeIfTrivial(phiId);
  }

  // A phi whose incoming values are all one value (or itself) is that value.
  uint32_t removeIfTrivial(uint32_t phiId) {
    Instruction* phi = module_.def(phiId);
    uint32_t same = 0;
    for (size_t i = 0; i < phi->numOperands(); i += 2) {
      uint32_t value = resolve(phi->idOperand(i));
      if (value == same || value == phiId) continue;
      if (same != 0) return phiId;
      same = value;
    }
    if (same == 0) same = undef(variableOfPhi(phiId));
    replaced_[phiId] = same;
    std::vector<uint32_t> users;
    for (const ir::Use& use : module_.uses(phiId)) {
      if (use.user->opcode() == spv::Op::OpPhi && use.user->resultId() != phiId) users.push_back(use.user->resultId());
    }
    module_.replaceAllUses(phiId, same);
    for (auto& [variable, defs] : current_) {
      for (auto& [block, value] : defs) {
        if (value == phiId) value = same;
      }
    }
    Status removed = module_.remove(phi);
    (void)removed;  // its uses were all rewritten just above
    for (uint32_t user : users) {
      if (module_.def(user) && phiVariables_.contains(user) && isComplete(user)) removeIfTrivial(user);
    }
    return same;
  }

  bool isComplete(uint32_t phiId) const {
    return module_.def(phiId)->numOperands() == 2 * predecessorCount(module_.def(phiId)->block());
  }
  size_t predecessorCount(Block* block) const {
    auto it = predecessors_.find(block->id());
    return it == predecessors_.end() ? 0 : it->second.size();
  }

  uint32_t variableOfPhi(uint32_t phiId) {
    auto it = phiVariables_.find(phiId);
    return it != phiVariables_.end() ? it->second : 0;
  }

  // Follows the chain of removed phis to the value that stands for them now.
  uint32_t resolve(uint32_t value) const {
    for (auto it = replaced_.find(value); it != replaced_.end(); it = replaced_.find(value)) value = it->second;
    return value;
  }

  void trySeal(Block& block) {
    if (sealed_.contains(&block)) return;
    for (Block* pred : predecessors_[block.id()]) {
      if (!filled_.contains(pred)) return;
    }
    seal(block);
  }

  void seal(Block& block) {
    sealed_.insert(&block);
    auto pending = std::move(incomplete_[&block]);
    incomplete_.erase(&block);
    for (auto& [variable, phi] : pending) completePhi(variable, phi);
  }

  Module& module_;
  Function& function_;
  std::unordered_map<uint32_t, Block*> blocks_;
  std::unordered_map<uint32_t, std::vector<Block*>> predecessors_;
  std::unordered_map<uint32_t, uint32_t> variables_;  // variable -> pointee type
  std::unordered_map<uint32_t, uint32_t> initial_;
  std::unordered_map<uint32_t, std::unordered_map<Block*, uint32_t>> current_;
  std::unordered_map<Block*, std::vector<std::pair<uint32_t, uint32_t>>> incomplete_;
  std::unordered_set<Block*> filled_, sealed_;
  std::unordered_map<uint32_t, uint32_t> phiVariables_;
  std::unordered_map<uint32_t, uint32_t> replaced_;
  std::map<uint32_t, uint32_t> undefs_;
  std::vector<std::pair<Instruction*, uint32_t>> loadValues_;
  std::vector<Instruction*> stores_, markers_;
};

}  // namespace

Expected<PassResult> promoteVariables(Module& module, const Target&) {
  bool changed = false;
  for (Function& function : module.functions()) {
    if (function.isDeclaration()) continue;
    unwrapVec3Views(module, function);
    dropLifetimeCasts(module, function);
    std::vector<Instruction*> variables;
    for (Instruction& inst : function.blocks().front().instructions()) {
      if (inst.opcode() == spv::Op::OpVariable && isPromotable(module, inst)) variables.push_back(&inst);
    }
    if (variables.empty()) continue;
    Promoter promoter(module, function);
    CL2VK_TRY(promoter.run(variables));
    changed = true;
  }
  return changed ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
