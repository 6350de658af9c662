// structurize-cfg, step (4): the values the new routing needs (exit selectors, "next", and every
// value whose definition no longer dominates a use, original phis included) are rebuilt as SSA
// after Braun et al.: a phi where paths meet, OpUndef where a path carries no definition; phis
// that turn out trivial are removed.
#include <algorithm>
#include <memory>
#include <vector>

#include "ir/types.h"
#include "passes/control_flow/structurizer.h"

namespace cl2vk::structurize {

int FunctionStructurizer::newVariable(uint32_t type) {
  variables_.emplace_back();
  variables_.back().type = type;
  return static_cast<int>(variables_.size() - 1);
}

int FunctionStructurizer::valueVariable(uint32_t id) {
  auto it = valueVariables_.find(id);
  if (it != valueVariables_.end()) return it->second;
  const Instruction* def = module_.def(id);
  int variable = newVariable(def->typeId());
  variables_[variable].ssaValue = id;
  variables_[variable].ssaBlock = def->block();
  variables_[variable].definitions[def->block()] = id;
  valueVariables_[id] = variable;
  return variable;
}

uint32_t FunctionStructurizer::readAtEnd(int variable, Block* block) {
  Variable& var = variables_[variable];
  if (var.ssaValue && cfg_->dominates(var.ssaBlock, block)) return var.ssaValue;
  auto it = var.definitions.find(block);
  if (it != var.definitions.end()) return it->second;
  return readAtEntry(variable, block);
}

// A block with several predecessors gets a phi only where they disagree or a cycle comes back to
// it: a block being read is marked pending (0), and a read that comes back around a loop finds
// the mark and makes the placeholder phi that breaks the cycle. Making a phi at every merge and
// removing the trivial ones afterwards cost a phi per variable and merge (CLBlast's unrolled GEMM:
// minutes for one kernel).
uint32_t FunctionStructurizer::readAtEntry(int variable, Block* block) {
  Variable& var = variables_[variable];
  if (var.ssaValue && var.ssaBlock != block && cfg_->dominates(var.ssaBlock, block)) return var.ssaValue;
  auto cached = var.atEntry.find(block);
  if (cached != var.atEntry.end()) {
    if (cached->second != kPending) return cached->second;
    Instruction* placeholder =
        module_.insertAfter(&block->instructions().front(), Instruction(spv::Op::OpPhi, var.type, module_.takeId()));
    return cached->second = placeholder->resultId();
  }
  const auto& preds = cfg_->predecessors(block);
  if (preds.empty()) return var.atEntry[block] = undef(var.type);
  if (preds.size() == 1) {
    uint32_t value = readAtEnd(variable, preds[0]);
    return variables_[variable].atEntry[block] = value;
  }
  var.atEntry[block] = kPending;
  std::vector<uint32_t> incoming;
  for (Block* pred : preds) incoming.push_back(readAtEnd(variable, pred));
  uint32_t& entry = variables_[variable].atEntry[block];
  bool agree = std::all_of(incoming.begin(), incoming.end(), [&](uint32_t value) { return value == incoming[0]; });
  if (entry == kPending && agree) return entry = incoming[0];
  Instruction* phi =
      entry != kPending ? module_.def(entry)
                        : module_.insertAfter(&block->instructions().front(),
                                              Instruction(spv::Op::OpPhi, variables_[variable].type, module_.takeId()));
  std::vector<Operand> operands;
  for (size_t i = 0; i < preds.size(); ++i) {
    operands.push_back(Operand::id(incoming[i]));
    operands.push_back(Operand::id(preds[i]->id()));
  }
  module_.update(phi, Instruction(spv::Op::OpPhi, phi->typeId(), phi->resultId(), std::move(operands)));
  return entry = phi->resultId();
}

uint32_t FunctionStructurizer::undef(uint32_t type) {
  auto it = undefs_.find(type);
  if (it != undefs_.end()) return it->second;
  for (const Instruction& inst : module_.section(ir::Section::kGlobal)) {
    if (inst.opcode() == spv::Op::OpUndef && inst.typeId() == type) return undefs_[type] = inst.resultId();
  }
  uint32_t id = module_.takeId();
  module_.append(ir::Section::kGlobal, Instruction(spv::Op::OpUndef, type, id));
  return undefs_[type] = id;
}

Status FunctionStructurizer::rebuildSsa() {
  cfg_ = std::make_unique<Cfg>(module_, function_);
  auto isLocal = [this](uint32_t id) {
    const Instruction* def = module_.def(id);
    return def && def->block() && def->block()->function() == &function_ && def->opcode() != spv::Op::OpLabel;
  };

  // Uses that their definition no longer dominates, gathered before any phi is added.
  struct Use {
    Instruction* user;
    size_t operand;
    uint32_t value;
  };
  std::vector<Use> broken;
  for (Block* block : cfg_->reversePostOrder()) {
    for (Instruction& inst : block->instructions()) {
      if (inst.opcode() == spv::Op::OpPhi) continue;
      for (size_t i = 0; i < inst.numOperands(); ++i) {
        if (!inst.operand(i).isId() || !isLocal(inst.idOperand(i))) continue;
        Block* defBlock = module_.def(inst.idOperand(i))->block();
        if (defBlock != block && !cfg_->dominates(defBlock, block)) broken.push_back({&inst, i, inst.idOperand(i)});
      }
    }
  }

  // The input's phis: each incoming value is what the phi's variable holds at the end of its
  // original predecessor, which still runs right before the block whatever now lies between.
  for (PhiRecord& record : phis_) {
    if (!cfg_->isReachable(record.block)) return internalError(module_, function_, "a phi's block became unreachable");
    int variable = newVariable(record.phi->typeId());
    for (auto& [value, pred] : record.incoming) {
      uint32_t resolved = isLocal(value) ? readAtEnd(valueVariable(value), pred) : value;
      variables_[variable].definitions[pred] = resolved;
    }
    variables_[variable].atEntry[record.block] = record.phi->resultId();
    std::vector<Operand> operands;
    for (Block* pred : cfg_->predecessors(record.block)) {
      operands.push_back(Operand::id(readAtEnd(variable, pred)));
      operands.push_back(Operand::id(pred->id()));
    }
    module_.update(record.phi,
                   Instruction(spv::Op::OpPhi, record.phi->typeId(), record.phi->resultId(), std::move(operands)));
  }

  for (const PendingRead& read : reads_) {
    std::vector<Operand> operands = read.user->operands();
    operands[read.operand] = Operand::id(readAtEntry(read.variable, read.block));
    module_.update(read.user,
                   Instruction(read.user->opcode(), read.user->typeId(), read.user->resultId(), std::move(operands)));
  }

  for (const Use& use : broken) {
    std::vector<Operand> operands = use.user->operands();
    operands[use.operand] = Operand::id(readAtEntry(valueVariable(use.value), use.user->block()));
    module_.update(use.user,
                   Instruction(use.user->opcode(), use.user->typeId(), use.user->resultId(), std::move(operands)));
  }
  return okStatus();
}

void FunctionStructurizer::removeTrivialPhis() {
  for (bool changed = true; changed;) {
    changed = false;
    for (Block& block : function_.blocks()) {
      for (auto it = block.instructions().begin(); it != block.instructions().end();) {
        Instruction& phi = *it++;
        if (phi.opcode() == spv::Op::OpLabel || isLineInstruction(phi.opcode())) continue;
        if (phi.opcode() != spv::Op::OpPhi) break;
        uint32_t only = 0;
        bool trivial = true;
        for (size_t i = 0; i < phi.numOperands(); i += 2) {
          uint32_t value = phi.idOperand(i);
          if (value == phi.resultId() || value == only) continue;
          if (only) trivial = false;
          only = value;
        }
        if (!trivial) continue;
        if (!only) only = undef(phi.typeId());
        module_.replaceAllUses(phi.resultId(), only);
        (void)module_.remove(&phi);
        changed = true;
      }
    }
  }
}

}  // namespace cl2vk::structurize
