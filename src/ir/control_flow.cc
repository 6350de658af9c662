// The control-flow helpers of ir::Builder: structured code at the end of a block, its new blocks
// laid out one after the other.
#include <algorithm>
#include <cassert>
#include <iterator>

#include "ir/builder.h"
#include "ir/types.h"

namespace cl2vk::ir {

std::pair<Builder, Block*> Builder::splitAfter(Module& module, Instruction* inst) {
  auto& list = inst->block()->instructions();
  auto at = std::find_if(list.begin(), list.end(), [inst](const Instruction& i) { return &i == inst; });
  Block* rest = module.splitBlockBefore(&*std::next(at));
  return {atEnd(module, *inst->block()), rest};
}

uint32_t Builder::uint32() { return typeInt(*module_, 32); }

Block* Builder::newBlock() {
  assert(mode_ == Mode::kAtEnd && "control flow needs a builder at the end of a block");
  Block* block = module_->addBlock(*layoutAfter_->function(), layoutAfter_);
  layoutAfter_ = block;
  module_->append(block->instructions(), Instruction(spv::Op::OpLabel, 0, module_->takeId()));
  return block;
}

void Builder::branchTo(Block* target) { add(spv::Op::OpBranch, 0, {Operand::id(target->id())}); }

void Builder::ifThen(uint32_t condition, const std::function<void()>& then) {
  Block* thenBlock = newBlock();
  Block* merge = newBlock();
  add(spv::Op::OpBranchConditional, 0,
      {Operand::id(condition), Operand::id(thenBlock->id()), Operand::id(merge->id())});
  block_ = thenBlock;
  then();
  branchTo(merge);
  block_ = merge;
}

uint32_t Builder::ifElseValue(uint32_t condition, uint32_t type, const std::function<uint32_t()>& whenTrue,
                              const std::function<uint32_t()>& whenFalse) {
  Block* trueBlock = newBlock();
  Block* falseBlock = newBlock();
  Block* merge = newBlock();
  add(spv::Op::OpBranchConditional, 0,
      {Operand::id(condition), Operand::id(trueBlock->id()), Operand::id(falseBlock->id())});
  block_ = trueBlock;
  uint32_t a = whenTrue();
  Block* aEnd = block_;
  branchTo(merge);
  block_ = falseBlock;
  uint32_t b = whenFalse();
  Block* bEnd = block_;
  branchTo(merge);
  block_ = merge;
  return value(spv::Op::OpPhi, type,
               {Operand::id(a), Operand::id(aEnd->id()), Operand::id(b), Operand::id(bEnd->id())});
}

uint32_t Builder::loop(uint32_t start, uint32_t end, const std::function<uint32_t(uint32_t i)>& advance, uint32_t type,
                       uint32_t init, const std::function<uint32_t(uint32_t acc, uint32_t i)>& body) {
  uint32_t uint = uint32();
  Block* before = block_;
  Block* header = newBlock();
  Block* loop = newBlock();
  Block* exit = newBlock();
  branchTo(header);
  uint32_t i = module_->takeId(), acc = type ? module_->takeId() : 0;
  Instruction* iPhi = module_->append(header->instructions(), Instruction(spv::Op::OpPhi, uint, i));
  Instruction* accPhi =
      type ? module_->append(header->instructions(), Instruction(spv::Op::OpPhi, type, acc)) : nullptr;
  block_ = header;
  uint32_t more = valueOfIds(spv::Op::OpULessThan, typeBool(*module_), {i, end});
  add(spv::Op::OpBranchConditional, 0, {Operand::id(more), Operand::id(loop->id()), Operand::id(exit->id())});
  block_ = loop;
  uint32_t next = body(acc, i);
  uint32_t nextI = advance(i);
  Block* latch = block_;
  branchTo(header);
  module_->update(
      iPhi, Instruction(spv::Op::OpPhi, uint, i,
                        {Operand::id(start), Operand::id(before->id()), Operand::id(nextI), Operand::id(latch->id())}));
  if (accPhi)
    module_->update(accPhi, Instruction(spv::Op::OpPhi, type, acc,
                                        {Operand::id(init), Operand::id(before->id()), Operand::id(next),
                                         Operand::id(latch->id())}));
  block_ = exit;
  return acc;
}

uint32_t Builder::foldLoop(uint32_t start, uint32_t end, uint32_t step, uint32_t type, uint32_t init,
                           const std::function<uint32_t(uint32_t acc, uint32_t i)>& body) {
  return loop(
      start, end,
      [&](uint32_t i) {
        return valueOfIds(spv::Op::OpIAdd, uint32(), {i, step});
      },
      type, init, body);
}

void Builder::forEachStride(uint32_t end, const std::function<void(uint32_t stride)>& body) {
  loop(
      constantUint(*module_, 32, 1), end, [&](uint32_t i) { return twice(i); }, 0, 0,
      [&](uint32_t, uint32_t stride) {
        body(stride);
        return 0u;
      });
}

uint32_t Builder::twice(uint32_t value) {
  return valueOfIds(spv::Op::OpShiftLeftLogical, uint32(), {value, constantUint(*module_, 32, 1)});
}

}  // namespace cl2vk::ir
