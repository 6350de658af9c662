#include "passes/control_flow/unroll_loops.h"

#include <algorithm>
#include <optional>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analysis/cfg.h"
#include "ir/opcode_classes.h"
#include "passes/control_flow/structurizer.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Instruction;
using ir::Module;
using ir::Operand;

constexpr size_t kSmallBodyInstructions = 16;
constexpr size_t kMaxBodyInstructions = 64;
constexpr size_t kMaxSliceInstructions = 16;
constexpr uint32_t kMaxCount = 16;

// An innermost loop in the shape unroll-loops takes (the header comment says which).
struct CountableLoop {
  Block* header = nullptr;
  Block* latch = nullptr;
  Block* exit = nullptr;
  std::vector<Block*> blocks;  // reverse post-order, the header first
  std::unordered_set<const Block*> inside;
  std::vector<Instruction*> phis;  // the header's
  // The latch's branch condition, and whether true continues the loop.
  uint32_t condition = 0;
  bool continuesWhenTrue = true;
  // The header phis that the condition depends on, directly or through their next values.
  std::unordered_set<uint32_t> slicePhis;
  uint32_t count = 0;  // iterations per pass
};

bool isScalarIntegerOrBool(const Module& module, uint32_t type) {
  return !ir::isVectorType(module, type) && (ir::intWidth(module, type) || ir::isBoolType(module, type));
}

// Instructions the slice may hold: pure, defined for every operand (no division), so that
// evaluating them for an iteration that will not run is harmless.
bool isSliceOpcode(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpIAdd:
    case spv::Op::OpISub:
    case spv::Op::OpIMul:
    case spv::Op::OpSNegate:
    case spv::Op::OpNot:
    case spv::Op::OpShiftLeftLogical:
    case spv::Op::OpShiftRightLogical:
    case spv::Op::OpShiftRightArithmetic:
    case spv::Op::OpBitwiseAnd:
    case spv::Op::OpBitwiseOr:
    case spv::Op::OpBitwiseXor:
    case spv::Op::OpSConvert:
    case spv::Op::OpUConvert:
    case spv::Op::OpIEqual:
    case spv::Op::OpINotEqual:
    case spv::Op::OpULessThan:
    case spv::Op::OpULessThanEqual:
    case spv::Op::OpUGreaterThan:
    case spv::Op::OpUGreaterThanEqual:
    case spv::Op::OpSLessThan:
    case spv::Op::OpSLessThanEqual:
    case spv::Op::OpSGreaterThan:
    case spv::Op::OpSGreaterThanEqual:
    case spv::Op::OpLogicalAnd:
    case spv::Op::OpLogicalOr:
    case spv::Op::OpLogicalNot:
    case spv::Op::OpLogicalEqual:
    case spv::Op::OpLogicalNotEqual:
    case spv::Op::OpSelect: return true;
    default: return false;
  }
}

// Instructions whose copies would change what invocations do together: barriers, collectives,
// sub-group operations and async copies (OpGroup*, OpSubgroup*), and calls, which may hold them.
bool blocksUnrolling(spv::Op opcode) { return opcode == spv::Op::OpFunctionCall || ir::isCrossInvocation(opcode); }

bool isBufferOrConstantStorage(spv::StorageClass storage) {
  switch (storage) {
    case spv::StorageClass::CrossWorkgroup:
    case spv::StorageClass::UniformConstant:
    case spv::StorageClass::Generic:
    case spv::StorageClass::StorageBuffer:
    case spv::StorageClass::PhysicalStorageBuffer:
    case spv::StorageClass::Uniform: return true;
    default: return false;
  }
}

bool readsBufferMemory(const Module& module, const Instruction& inst) {
  if (inst.opcode() != spv::Op::OpLoad || inst.numOperands() < 1) return false;
  uint32_t type = ir::typeOf(module, inst.idOperand(0));
  return ir::isPointerType(module, type) && isBufferOrConstantStorage(ir::storageOf(module, type));
}

// The value `phi` takes from `block`, or 0.
uint32_t incomingFrom(const Instruction& phi, const Block* block) {
  for (size_t i = 0; i + 1 < phi.numOperands(); i += 2) {
    if (phi.idOperand(i + 1) == block->id()) return phi.idOperand(i);
  }
  return 0;
}

// The iterations per pass that an OpLoopMerge in the header asks for: 1 for DontUnroll (none),
// its PartialCount, or nothing when it asks for neither (or there is none).
std::optional<uint32_t> requestedCount(const Block& header) {
  for (const Instruction& inst : header.instructions()) {
    if (inst.opcode() != spv::Op::OpLoopMerge || inst.numOperands() < 3) continue;
    uint32_t control = inst.wordOperand(2);
    if (control & static_cast<uint32_t>(spv::LoopControlMask::DontUnroll)) return 1;
    constexpr uint32_t kPartialCount = static_cast<uint32_t>(spv::LoopControlMask::PartialCount);
    if (!(control & kPartialCount)) return std::nullopt;
    // The controls' literals follow the mask in the order of their bits.
    size_t literal = 3;
    for (uint32_t bit = 1; bit < kPartialCount; bit <<= 1) {
      constexpr uint32_t kWithLiteral = static_cast<uint32_t>(spv::LoopControlMask::DependencyLength) |
                                        static_cast<uint32_t>(spv::LoopControlMask::MinIterations) |
                                        static_cast<uint32_t>(spv::LoopControlMask::MaxIterations) |
                                        static_cast<uint32_t>(spv::LoopControlMask::IterationMultiple) |
                                        static_cast<uint32_t>(spv::LoopControlMask::PeelCount);
      if (control & bit & kWithLiteral) ++literal;
    }
    if (literal >= inst.numOperands()) return std::nullopt;
    return std::min(inst.wordOperand(literal), kMaxCount);
  }
  return std::nullopt;
}

// Whether the latch's condition depends, through slice instructions only, on the header's phis
// and on values from outside the loop; fills in the slice's phis.
bool findSlice(const Module& module, CountableLoop& loop) {
  std::vector<uint32_t> pending = {loop.condition};
  std::unordered_set<uint32_t> seen;
  size_t instructions = 0;
  while (!pending.empty()) {
    uint32_t id = pending.back();
    pending.pop_back();
    if (!seen.insert(id).second) continue;
    const Instruction* def = module.def(id);
    if (!def) return false;
    if (!def->block() || !loop.inside.contains(def->block())) continue;  // the same in every iteration
    if (def->opcode() == spv::Op::OpPhi && def->block() == loop.header) {
      uint32_t next = incomingFrom(*def, loop.latch);
      if (!next) return false;
      loop.slicePhis.insert(id);
      pending.push_back(next);
      continue;
    }
    if (!isSliceOpcode(def->opcode()) || !isScalarIntegerOrBool(module, def->typeId())) return false;
    if (++instructions > kMaxSliceInstructions) return false;
    for (const Operand& operand : def->operands()) {
      if (operand.isId()) pending.push_back(operand.words[0]);
    }
  }
  return true;
}

// The loop as a CountableLoop, or nothing when unroll-loops leaves it alone.
std::optional<CountableLoop> countableLoop(const Module& module, const Cfg& cfg, size_t index, uint32_t count) {
  const Loop& loop = cfg.loops()[index];
  for (const Loop& other : cfg.loops()) {
    if (other.parent == static_cast<int>(index)) return std::nullopt;  // not innermost
  }
  if (loop.latches.size() != 1 || loop.exits.size() != 1 || loop.exits[0].first != loop.latches[0]) {
    return std::nullopt;
  }
  CountableLoop result;
  result.header = loop.header;
  result.latch = loop.latches[0];
  result.exit = loop.exits[0].second;
  result.blocks = loop.blocks;
  result.inside.insert(loop.blocks.begin(), loop.blocks.end());

  size_t bodyInstructions = 0;
  bool readsBuffers = false;
  for (Block* block : loop.blocks) {
    for (Instruction& inst : block->instructions()) {
      spv::Op opcode = inst.opcode();
      if (blocksUnrolling(opcode)) return std::nullopt;
      if (opcode == spv::Op::OpSelectionMerge || (opcode == spv::Op::OpLoopMerge && block != loop.header))
        return std::nullopt;
      if (opcode == spv::Op::OpPhi && block == loop.header) {
        if (inst.numOperands() % 2 != 0 || !incomingFrom(inst, result.latch)) return std::nullopt;
        result.phis.push_back(&inst);
        continue;
      }
      if (opcode != spv::Op::OpLabel && opcode != spv::Op::OpLine && opcode != spv::Op::OpNoLine) ++bodyInstructions;
      readsBuffers = readsBuffers || readsBufferMemory(module, inst);
    }
    // Every way out of the loop is the latch's exit edge: no return, kill or unreachable inside.
    spv::Op end = block->instructions().back().opcode();
    if (end != spv::Op::OpBranch && end != spv::Op::OpBranchConditional && end != spv::Op::OpSwitch)
      return std::nullopt;
  }
  if (!readsBuffers || bodyInstructions > kMaxBodyInstructions) return std::nullopt;
  // A larger body gets half as many copies, which keeps a pass within about 256 instructions.
  std::optional<uint32_t> requested = requestedCount(*loop.header);
  result.count = requested ? *requested : bodyInstructions <= kSmallBodyInstructions ? count : std::max(count / 2, 2u);
  if (result.count < 2) return std::nullopt;

  const Instruction& branch = *result.latch->terminator();
  if (branch.opcode() != spv::Op::OpBranchConditional || branch.numOperands() < 3) return std::nullopt;
  result.condition = branch.idOperand(0);
  result.continuesWhenTrue = branch.idOperand(1) == result.header->id();
  uint32_t exitLabel = result.continuesWhenTrue ? branch.idOperand(2) : branch.idOperand(1);
  uint32_t backLabel = result.continuesWhenTrue ? branch.idOperand(1) : branch.idOperand(2);
  if (backLabel != result.header->id() || exitLabel != result.exit->id()) return std::nullopt;
  const Instruction* conditionDef = module.def(result.condition);
  if (!conditionDef || !isScalarIntegerOrBool(module, conditionDef->typeId())) return std::nullopt;
  if (!findSlice(module, result)) return std::nullopt;
  return result;
}

// Rewrites one CountableLoop into one loop whose pass runs either `count` iterations or one:
//
//   header:  phis of the header's values, from outside and from the latch;
//            the slice evaluated for iterations 1 .. count-1: all of them run?
//            yes -> copy 0 -> ... -> copy count-1 -> latch
//            no  -> the original body, once ------> latch
//   latch:   phis of the next values, of the last test and of the values used after the loop;
//            that test -> header, or -> the original exit
//
// The loop keeps the shape of the loop it was, a rotated loop left from its latch alone, with an
// if/else in its body. (Two loops in a row, a main one and one for the rest, ran wrong on lavapipe:
// docs/RELIABILITY.md, "Known wrong answers".)
class Unroller {
 public:
  Unroller(Module& module, ir::Function& function, const CountableLoop& loop)
      : module_(module), function_(function), loop_(loop), copies_(loop.count) {}

  // The new loop's header.
  Block* run() {
    recordEntriesAndUsesAfterTheLoop();
    createBlocks();
    for (Instruction* phi : loop_.phis) headerValue_[phi->resultId()] = module_.takeId();
    for (uint32_t k = 0; k < loop_.count; ++k) numberCopy(k);
    for (uint32_t k = 0; k < loop_.count; ++k) emitCopy(k);
    copyDecorations();
    emitLatch();
    emitHeader();
    rejoinTheOriginalBody();
    for (Block* block : entries_) structurize::retarget(module_, block->terminator(), loop_.header, header_);
    return header_;
  }

 private:
  struct OutsideUse {
    Instruction* user;
    int operand;
    uint32_t value;
  };

  uint32_t inCopy(uint32_t k, uint32_t id) const {
    auto it = copies_[k].find(id);
    return it == copies_[k].end() ? id : it->second;
  }
  Block* lastCopyLatch() const { return copyBlocks_.back().at(loop_.latch); }
  uint32_t boolType() const { return module_.def(loop_.condition)->typeId(); }

  void recordEntriesAndUsesAfterTheLoop() {
    for (Block& block : function_.blocks()) {
      if (loop_.inside.contains(&block) || block.instructions().empty()) continue;
      for (uint32_t label : successorLabels(*block.terminator())) {
        if (label == loop_.header->id()) {
          entries_.push_back(&block);
          break;
        }
      }
    }
    for (Block* block : loop_.blocks) {
      for (Instruction& inst : block->instructions()) {
        if (!inst.resultId() || inst.opcode() == spv::Op::OpLabel) continue;
        std::vector<ir::Use> uses = module_.uses(inst.resultId());
        bool usedAfter = false;
        for (const ir::Use& use : uses) {
          const Block* user = use.user->block();
          if (!user || loop_.inside.contains(user) || use.operandIndex == ir::Use::kResultType) continue;
          usesAfter_.push_back({use.user, use.operandIndex, inst.resultId()});
          usedAfter = true;
        }
        if (usedAfter) valuesUsedAfter_.push_back(&inst);
      }
    }
  }

  Block* newBlock(Block* after) {
    Block* block = module_.addBlock(function_, after);
    module_.append(block->instructions(), Instruction(spv::Op::OpLabel, 0, module_.takeId()));
    return block;
  }

  void createBlocks() {
    Block* beforeHeader = nullptr;
    for (Block& block : function_.blocks()) {
      if (&block == loop_.header) break;
      beforeHeader = &block;
    }
    header_ = newBlock(beforeHeader);
    Block* last = header_;
    copyBlocks_.resize(loop_.count);
    for (uint32_t k = 0; k < loop_.count; ++k) {
      for (Block* block : loop_.blocks) {
        last = newBlock(last);
        copyBlocks_[k][block] = last;
        copies_[k][block->id()] = last->id();
      }
    }
    latch_ = newBlock(loop_.latch);
  }

  // Fresh ids for copy k; its header phis read the new header's phis (copy 0) or the previous
  // copy's next values.
  void numberCopy(uint32_t k) {
    for (Instruction* phi : loop_.phis) {
      uint32_t next = incomingFrom(*phi, loop_.latch);
      copies_[k][phi->resultId()] = k == 0 ? headerValue_.at(phi->resultId()) : inCopy(k - 1, next);
    }
    for (Block* block : loop_.blocks) {
      for (Instruction& inst : block->instructions()) {
        if (!inst.resultId() || inst.opcode() == spv::Op::OpLabel) continue;
        if (block == loop_.header && inst.opcode() == spv::Op::OpPhi) continue;
        copies_[k][inst.resultId()] = module_.takeId();
      }
    }
  }

  // Within a pass every iteration but the last is known to continue; the last copy's latch goes
  // to the new latch, which tests as the loop did.
  void emitCopy(uint32_t k) {
    for (Block* block : loop_.blocks) {
      Block* copy = copyBlocks_[k].at(block);
      for (Instruction& inst : block->instructions()) {
        spv::Op opcode = inst.opcode();
        if (opcode == spv::Op::OpLabel || opcode == spv::Op::OpLoopMerge) continue;
        if (block == loop_.header && opcode == spv::Op::OpPhi) continue;
        if (block == loop_.latch && &inst == block->terminator()) {
          Block* next = k + 1 < loop_.count ? copyBlocks_[k + 1].at(loop_.header) : latch_;
          module_.append(copy->instructions(), Instruction(spv::Op::OpBranch, 0, 0, {Operand::id(next->id())}));
          continue;
        }
        std::vector<Operand> operands = inst.operands();
        for (Operand& operand : operands) {
          if (operand.isId()) operand.words[0] = inCopy(k, operand.words[0]);
        }
        module_.append(copy->instructions(),
                       Instruction(opcode, inst.typeId(), inCopy(k, inst.resultId()), std::move(operands)));
      }
    }
  }

  // Decorations with meaning (NoContraction, rounding modes, NoSignedWrap...) follow the copies.
  void copyDecorations() {
    std::vector<Instruction*> decorations;
    for (Instruction& inst : module_.section(ir::Section::kAnnotation)) {
      if (inst.opcode() != spv::Op::OpDecorate || inst.numOperands() < 1) continue;
      const Instruction* target = module_.def(inst.idOperand(0));
      if (!target || !target->block() || !loop_.inside.contains(target->block())) continue;
      // A header phi's copies are the values it takes in each copy, defined elsewhere.
      if (target->opcode() == spv::Op::OpPhi && target->block() == loop_.header) continue;
      decorations.push_back(&inst);
    }
    for (Instruction* decoration : decorations) {
      for (uint32_t k = 0; k < loop_.count; ++k) {
        std::vector<Operand> operands = decoration->operands();
        operands[0].words[0] = inCopy(k, operands[0].words[0]);
        module_.append(ir::Section::kAnnotation, Instruction(spv::Op::OpDecorate, 0, 0, std::move(operands)));
      }
    }
  }

  // A phi in the new latch of what the last copy and the original body give for `value` (one per
  // value: a next value read after the loop too shares it).
  uint32_t latchPhi(uint32_t type, uint32_t value) {
    uint32_t& id = latchPhis_[value];
    if (id) return id;
    id = module_.takeId();
    module_.append(latch_->instructions(),
                   Instruction(spv::Op::OpPhi, type, id,
                               {Operand::id(inCopy(loop_.count - 1, value)), Operand::id(lastCopyLatch()->id()),
                                Operand::id(value), Operand::id(loop_.latch->id())}));
    return id;
  }

  void emitLatch() {
    for (Instruction* phi : loop_.phis)
      nextValue_[phi->resultId()] = latchPhi(phi->typeId(), incomingFrom(*phi, loop_.latch));
    for (Instruction* value : valuesUsedAfter_)
      afterValue_[value->resultId()] = latchPhi(value->typeId(), value->resultId());
    uint32_t condition = latchPhi(boolType(), loop_.condition);
    Block* onTrue = loop_.continuesWhenTrue ? header_ : loop_.exit;
    Block* onFalse = loop_.continuesWhenTrue ? loop_.exit : header_;
    module_.append(latch_->instructions(),
                   Instruction(spv::Op::OpBranchConditional, 0, 0,
                               {Operand::id(condition), Operand::id(onTrue->id()), Operand::id(onFalse->id())}));
  }

  // The slice's value for an iteration whose header phis hold `phiValues`, emitted in the new
  // header. Without the original's decorations: NoSignedWrap would make a wrapped value of an
  // iteration that does not run undefined, and the test must see it wrap as the loop would.
  uint32_t ahead(uint32_t id, const std::unordered_map<uint32_t, uint32_t>& phiValues,
                 std::unordered_map<uint32_t, uint32_t>& emitted) {
    if (auto it = phiValues.find(id); it != phiValues.end()) return it->second;
    if (auto it = emitted.find(id); it != emitted.end()) return it->second;
    const Instruction* def = module_.def(id);
    if (!def->block() || !loop_.inside.contains(def->block())) return id;
    std::vector<Operand> operands = def->operands();
    for (Operand& operand : operands) {
      if (operand.isId()) operand.words[0] = ahead(operand.words[0], phiValues, emitted);
    }
    return emitInHeader(def->opcode(), def->typeId(), std::move(operands), &emitted[id]);
  }

  uint32_t emitInHeader(spv::Op opcode, uint32_t type, std::vector<Operand> operands, uint32_t* record = nullptr) {
    uint32_t value = module_.takeId();
    module_.append(header_->instructions(), Instruction(opcode, type, value, std::move(operands)));
    if (record) *record = value;
    return value;
  }

  void emitHeader() {
    for (Instruction* phi : loop_.phis) {
      std::vector<Operand> incoming;
      for (size_t i = 0; i + 1 < phi->numOperands(); i += 2) {
        if (phi->idOperand(i + 1) == loop_.latch->id()) continue;
        incoming.push_back(phi->operand(i));
        incoming.push_back(phi->operand(i + 1));
      }
      incoming.push_back(Operand::id(nextValue_.at(phi->resultId())));
      incoming.push_back(Operand::id(latch_->id()));
      module_.append(header_->instructions(),
                     Instruction(spv::Op::OpPhi, phi->typeId(), headerValue_.at(phi->resultId()), std::move(incoming)));
    }
    // Iteration 0 runs (the header was reached); iterations 1 .. count-1 run if each test before
    // them continues.
    std::unordered_map<uint32_t, uint32_t> phiValues;
    for (uint32_t phi : loop_.slicePhis) phiValues[phi] = headerValue_.at(phi);
    uint32_t allRun = 0;
    for (uint32_t k = 1; k < loop_.count; ++k) {
      std::unordered_map<uint32_t, uint32_t> emitted;
      uint32_t runs = ahead(loop_.condition, phiValues, emitted);
      if (!loop_.continuesWhenTrue) runs = emitInHeader(spv::Op::OpLogicalNot, boolType(), {Operand::id(runs)});
      allRun =
          allRun ? emitInHeader(spv::Op::OpLogicalAnd, boolType(), {Operand::id(allRun), Operand::id(runs)}) : runs;
      if (k + 1 == loop_.count) break;
      std::unordered_map<uint32_t, uint32_t> nextValues;
      for (uint32_t phi : loop_.slicePhis) {
        nextValues[phi] = ahead(incomingFrom(*module_.def(phi), loop_.latch), phiValues, emitted);
      }
      phiValues = std::move(nextValues);
    }
    module_.append(header_->instructions(),
                   Instruction(spv::Op::OpBranchConditional, 0, 0,
                               {Operand::id(allRun), Operand::id(copyBlocks_[0].at(loop_.header)->id()),
                                Operand::id(loop_.header->id())}));
  }

  // The original body runs one iteration as the pass's other branch: its header's phis read the
  // new header's, its latch goes to the new latch, and what the loop's values were read for after
  // it, the new latch's phis give.
  void rejoinTheOriginalBody() {
    for (Instruction* phi : loop_.phis) {
      module_.update(phi, Instruction(spv::Op::OpPhi, phi->typeId(), phi->resultId(),
                                      {Operand::id(headerValue_.at(phi->resultId())), Operand::id(header_->id())}));
    }
    for (Instruction& inst : loop_.header->instructions()) {
      if (inst.opcode() == spv::Op::OpLoopMerge) {
        // Not a loop's header any more; the unroll request is met. No result: removal cannot fail.
        (void)module_.remove(&inst);
        break;
      }
    }
    module_.update(loop_.latch->terminator(), Instruction(spv::Op::OpBranch, 0, 0, {Operand::id(latch_->id())}));
    for (const OutsideUse& use : usesAfter_) {
      std::vector<Operand> operands = use.user->operands();
      operands[static_cast<size_t>(use.operand)].words[0] = afterValue_.at(use.value);
      module_.update(use.user,
                     Instruction(use.user->opcode(), use.user->typeId(), use.user->resultId(), std::move(operands)));
    }
    // The exit's phis now hear from the new latch instead of the old one.
    for (Instruction& inst : loop_.exit->instructions()) {
      if (inst.opcode() != spv::Op::OpPhi) continue;
      std::vector<Operand> operands = inst.operands();
      for (size_t i = 1; i < operands.size(); i += 2) {
        if (operands[i].words[0] == loop_.latch->id()) operands[i].words[0] = latch_->id();
      }
      module_.update(&inst, Instruction(spv::Op::OpPhi, inst.typeId(), inst.resultId(), std::move(operands)));
    }
  }

  Module& module_;
  ir::Function& function_;
  const CountableLoop& loop_;
  // Per copy: the id of each value and label of the loop in that copy.
  std::vector<std::unordered_map<uint32_t, uint32_t>> copies_;
  std::vector<std::unordered_map<const Block*, Block*>> copyBlocks_;
  std::unordered_map<uint32_t, uint32_t> headerValue_;  // header phi -> the new header's phi
  std::unordered_map<uint32_t, uint32_t> nextValue_;    // header phi -> the new latch's phi of its next value
  std::unordered_map<uint32_t, uint32_t> afterValue_;   // value used after the loop -> the new latch's phi
  std::unordered_map<uint32_t, uint32_t> latchPhis_;    // value -> the new latch's phi of it
  Block* header_ = nullptr;
  Block* latch_ = nullptr;
  std::vector<Block*> entries_;  // the blocks outside the loop that branch to its header
  std::vector<OutsideUse> usesAfter_;
  std::vector<Instruction*> valuesUsedAfter_;
};

// Unrolls the function's loops one at a time (each changes the graph), never a loop it made.
bool unrollFunction(Module& module, ir::Function& function, uint32_t count) {
  std::unordered_set<uint32_t> made;  // headers of the loops already unrolled or made
  bool changed = false;
  while (true) {
    Cfg cfg(module, function);
    if (!cfg.isReducible()) return changed;
    std::optional<CountableLoop> loop;
    for (size_t i = 0; i < cfg.loops().size() && !loop; ++i) {
      if (made.contains(cfg.loops()[i].header->id())) continue;
      made.insert(cfg.loops()[i].header->id());
      loop = countableLoop(module, cfg, i, count);
    }
    if (!loop) return changed;
    made.insert(Unroller(module, function, *loop).run()->id());
    changed = true;
  }
}

}  // namespace

Expected<PassResult> unrollLoops(Module& module, const Target& target) {
  if (target.loopUnroll < 2) return PassResult::kUnchanged;
  bool changed = false;
  for (ir::Function& function : module.functions()) {
    if (function.isDeclaration()) continue;
    changed = unrollFunction(module, function, std::min(target.loopUnroll, kMaxCount)) || changed;
  }
  return changed ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
