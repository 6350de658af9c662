// structurize-cfg, step (2): every natural loop, outermost first, gets the canonical SPIR-V shape:
// a header holding only its phis and OpLoopMerge, one continue target that every back edge goes
// to, and one merge block that every exit goes to (dispatching on an exit selector when the loop
// has several exit targets).
#include <algorithm>
#include <unordered_map>
#include <vector>

#include "ir/builder.h"
#include "ir/types.h"
#include "passes/control_flow/structurizer.h"

namespace cl2vk::structurize {

Status FunctionStructurizer::shapeLoops() {
  // Headers keep only their phis: the rest moves to a block of its own, unless it is just a branch
  // to a block that only the header enters.
  std::unordered_map<const Block*, Block*> bodyEntries;
  for (const Loop& loop : cfg_->loops()) {
    Block* header = loop.header;
    Instruction* terminator = header->terminator();
    bool onlyPhis = true;
    Instruction* firstOther = nullptr;
    for (Instruction& inst : header->instructions()) {
      spv::Op op = inst.opcode();
      if (op == spv::Op::OpLabel || op == spv::Op::OpPhi || isLineInstruction(op)) continue;
      if (!firstOther) firstOther = &inst;
      if (&inst != terminator) onlyPhis = false;
    }
    if (onlyPhis && terminator->opcode() == spv::Op::OpBranch) {
      Block* target = blockOf(module_, terminator->idOperand(0));
      bool targetIsHeader = std::any_of(cfg_->loops().begin(), cfg_->loops().end(),
                                        [target](const Loop& other) { return other.header == target; });
      if (target != header && !targetIsHeader && cfg_->predecessors(target).size() == 1) {
        bodyEntries[header] = target;
        continue;
      }
    }
    Block* rest = module_.splitBlockBefore(firstOther);
    for (PhiRecord& record : phis_) {
      for (auto& [value, pred] : record.incoming) {
        if (pred == header) pred = rest;
      }
    }
    branch(header, rest);
    bodyEntries[header] = rest;
  }
  cfg_ = std::make_unique<Cfg>(module_, function_);

  const auto& loops = cfg_->loops();
  loops_.resize(loops.size());
  for (size_t i = 0; i < loops.size(); ++i) {
    LoopShape& shape = loops_[i];
    shape.header = loops[i].header;
    shape.bodyEntry = bodyEntries.at(shape.header);
    shape.parent = loops[i].parent;
    shape.bodyOrder = loops[i].blocks;
    shape.body.insert(loops[i].blocks.begin(), loops[i].blocks.end());
    headerOf_[shape.header] = static_cast<int>(i);
  }
  for (Block* block : cfg_->reversePostOrder()) {
    int loop = cfg_->innermostLoop(block);
    auto header = headerOf_.find(block);
    owner_[block] = header != headerOf_.end() ? loops_[header->second].parent : loop;
  }
  for (size_t i = 0; i < loops_.size(); ++i) shapeLoop(static_cast<int>(i));
  return okStatus();
}

void FunctionStructurizer::shapeLoop(int index) {
  LoopShape& loop = loops_[index];
  Block* header = loop.header;

  // The continue target: the one latch when it only branches back, else a new block.
  std::vector<Block*> latches;
  for (Block* block : loop.bodyOrder) {
    auto targets = distinctTargets(module_, *block);
    if (std::find(targets.begin(), targets.end(), header) != targets.end()) latches.push_back(block);
  }
  if (latches.size() == 1 && latches[0] != loop.bodyEntry && latches[0] != header &&
      latches[0]->terminator()->opcode() == spv::Op::OpBranch) {
    loop.continueTarget = latches[0];
  } else {
    loop.continueTarget = newBlock(index);
    branch(loop.continueTarget, header);
    for (Block* latch : latches) retarget(module_, latch->terminator(), header, loop.continueTarget);
  }

  // The exits, in reverse post-order of their source, and their distinct targets.
  std::vector<std::pair<Block*, std::vector<Block*>>> exiting;
  std::vector<Block*> targets;
  for (Block* block : loop.bodyOrder) {
    std::vector<Block*> leaving;
    for (Block* target : distinctTargets(module_, *block)) {
      if (loop.body.contains(target) || target == loop.continueTarget) continue;
      leaving.push_back(target);
      if (std::find(targets.begin(), targets.end(), target) == targets.end()) targets.push_back(target);
    }
    if (!leaving.empty()) exiting.emplace_back(block, std::move(leaving));
  }

  bool reuseExit = false;
  if (targets.size() == 1 && !claimedMerges_.contains(targets[0]) && !headerOf_.contains(targets[0])) {
    auto preds = currentPredecessors();
    size_t position = 0;
    for (Block& block : function_.blocks()) {
      if (&block == targets[0]) break;
      ++position;
    }
    reuseExit = std::all_of(preds[position].begin(), preds[position].end(),
                            [&loop](const Block* pred) { return loop.body.contains(pred); });
    for (const LoopShape& other : loops_) reuseExit = reuseExit && other.continueTarget != targets[0];
  }
  if (reuseExit) {
    loop.merge = targets[0];
  } else {
    loop.merge = newBlock(loop.parent);
    if (targets.empty()) {
      unreachable(loop.merge);
    } else if (targets.size() == 1) {
      for (auto& [block, leaving] : exiting) retarget(module_, block->terminator(), targets[0], loop.merge);
      branch(loop.merge, targets[0]);
    } else {
      // Each exit says which target it meant; the merge dispatches on that.
      uint32_t uintType = ir::typeInt(module_, 32, false);
      int selector = newVariable(uintType);
      auto code = [&targets](const Block* target) {
        return static_cast<uint32_t>(std::find(targets.begin(), targets.end(), target) - targets.begin());
      };
      for (auto& [block, leaving] : exiting) {
        if (leaving.size() == 1) {
          variables_[selector].definitions[block] = uintConstant(code(leaving[0]));
          retarget(module_, block->terminator(), leaving[0], loop.merge);
          continue;
        }
        for (Block* target : leaving) {
          Block* edge = newBlock(index);
          branch(edge, loop.merge);
          variables_[selector].definitions[edge] = uintConstant(code(target));
          retarget(module_, block->terminator(), target, edge);
        }
      }
      ir::Builder builder = ir::Builder::atEnd(module_, *loop.merge);
      if (targets.size() == 2) {
        Instruction* test = builder.add(spv::Op::OpIEqual, ir::typeBool(module_),
                                        {Operand::id(undef(uintType)), Operand::id(uintConstant(0))});
        reads_.push_back({test, 0, selector, loop.merge});
        builder.add(spv::Op::OpBranchConditional, 0,
                    {Operand::id(test->resultId()), Operand::id(targets[0]->id()), Operand::id(targets[1]->id())});
      } else {
        std::vector<Operand> operands = {Operand::id(undef(uintType)), Operand::id(targets[0]->id())};
        for (size_t i = 1; i < targets.size(); ++i) {
          operands.push_back(Operand::literal(static_cast<uint32_t>(i)));
          operands.push_back(Operand::id(targets[i]->id()));
        }
        Instruction* dispatch = builder.add(spv::Op::OpSwitch, 0, std::move(operands));
        reads_.push_back({dispatch, 0, selector, loop.merge});
      }
    }
  }
  claimedMerges_.insert(loop.merge);
  owner_[loop.merge] = loop.parent;

  std::vector<Operand> merge = {Operand::id(loop.merge->id()), Operand::id(loop.continueTarget->id())};
  auto control = loopControls_.find(header);
  if (control != loopControls_.end()) {
    merge.insert(merge.end(), control->second.begin(), control->second.end());
  } else {
    merge.push_back(Operand::enumerant(SPV_OPERAND_TYPE_LOOP_CONTROL, 0));
  }
  module_.insertBefore(header->terminator(), Instruction(spv::Op::OpLoopMerge, 0, 0, std::move(merge)));
}

}  // namespace cl2vk::structurize
