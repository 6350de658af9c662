#include "passes/control_flow/limit_loop_iterations.h"

#include "analysis/cfg.h"
#include "ir/builder.h"
#include "ir/types.h"
#include "passes/interface/hidden_parameters.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Builder;
using ir::Function;
using ir::Instruction;
using ir::Module;

// A Function variable of `type` initialised with `initializer`, at the start of `kernel`.
uint32_t addVariable(Module& module, Function& kernel, uint32_t type, uint32_t initializer) {
  Instruction& label = kernel.blocks().front().instructions().front();
  uint32_t pointer = ir::typePointer(module, spv::StorageClass::Function, type);
  return Builder::after(module, &label)
      .value(
          spv::Op::OpVariable, pointer,
          {ir::Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS, static_cast<uint32_t>(spv::StorageClass::Function)),
           ir::Operand::id(initializer)});
}

// Whether the latch's terminator takes its branch to `header`, as a bool value; nothing for a
// terminator this pass does not instrument (a switch).
std::optional<uint32_t> takesBackEdge(Module& module, const Instruction& terminator, uint32_t header) {
  switch (terminator.opcode()) {
    case spv::Op::OpBranch: return ir::constantBool(module, true);
    case spv::Op::OpBranchConditional: {
      bool toTrue = terminator.idOperand(1) == header, toFalse = terminator.idOperand(2) == header;
      if (toTrue && toFalse) return ir::constantBool(module, true);
      if (toTrue) return terminator.idOperand(0);
      Builder b = Builder::before(module, const_cast<Instruction*>(&terminator));
      return b.value(spv::Op::OpLogicalNot, ir::typeBool(module), {ir::Operand::id(terminator.idOperand(0))});
    }
    default: return std::nullopt;
  }
}

Status instrumentKernel(Module& module, Function& kernel, uint32_t limit, const std::string& name) {
  Cfg cfg(module, kernel);
  if (cfg.loops().empty()) return okStatus();
  if (!cfg.isReducible())
    return Error("kernel '" + name + "': an irreducible loop cannot be checked against the device's loop limit");
  uint32_t uint = ir::typeInt(module, 32), boolType = ir::typeBool(module);
  uint32_t flag = addHiddenParameter(module, kernel, ir::typePointer(module, spv::StorageClass::CrossWorkgroup, uint),
                                     kLoopLimitFlagName);
  uint32_t headerCount = addVariable(module, kernel, uint, ir::constantUint(module, 32, 0));
  uint32_t truncated = addVariable(module, kernel, boolType, ir::constantBool(module, false));
  // One pass early: how many passes the driver allows depends on the loop's shape after its own
  // optimizations (lavapipe ran 65536 passes of one loop and 65535 of another), so a loop that
  // needs exactly the limit may be reported though it ran whole; none that was cut short passes.
  uint32_t spent = ir::constantUint(module, 32, limit - 1);

  // Every loop-header execution counts, in every loop: that is what the driver's budget counts.
  for (const Loop& loop : cfg.loops()) {
    auto& instructions = loop.header->instructions();
    auto first = std::next(instructions.begin());
    while (first->opcode() == spv::Op::OpPhi) ++first;
    Builder b = Builder::before(module, &*first);
    b.store(headerCount, b.iadd(b.load(uint, headerCount), ir::constantUint(module, 32, 1)));
  }
  // A back-edge taken once the budget is spent is where the driver leaves the loop instead.
  for (const Loop& loop : cfg.loops()) {
    for (Block* latch : loop.latches) {
      Instruction* terminator = latch->terminator();
      std::optional<uint32_t> back = takesBackEdge(module, *terminator, loop.header->id());
      if (!back) continue;
      Builder b = Builder::before(module, terminator);
      uint32_t over = b.compare(spv::Op::OpUGreaterThanEqual, b.load(uint, headerCount), spent);
      uint32_t cut = b.compare(spv::Op::OpLogicalAnd, *back, over);
      b.store(truncated, b.compare(spv::Op::OpLogicalOr, b.load(boolType, truncated), cut));
    }
  }
  // Once per invocation, at its end, so that a loop pays no memory access per iteration.
  std::vector<Instruction*> returns;
  for (Block& block : kernel.blocks()) {
    if (block.terminator()->opcode() == spv::Op::OpReturn) returns.push_back(block.terminator());
  }
  for (Instruction* ret : returns) {
    auto [builder, rest] = Builder::splitAfter(module, &*std::prev(ret->block()->instructions().end(), 2));
    builder.ifThen(builder.load(boolType, truncated), [&] { builder.store(flag, ir::constantUint(module, 32, 1), 4); });
    builder.branchTo(rest);
  }
  return okStatus();
}

}  // namespace

Expected<PassResult> limitLoopIterations(Module& module, const Target& target) {
  if (target.loopIterationLimit == 0) return PassResult::kUnchanged;
  PassResult result = PassResult::kUnchanged;
  for (Instruction& entry : module.section(ir::Section::kEntryPoint)) {
    if (entry.wordOperand(0) != static_cast<uint32_t>(spv::ExecutionModel::Kernel)) continue;
    Function* kernel = module.function(entry.idOperand(1));
    if (!kernel || Cfg(module, *kernel).loops().empty()) continue;
    CL2VK_TRY(instrumentKernel(module, *kernel, target.loopIterationLimit, entry.stringOperand(2)));
    result = PassResult::kChanged;
  }
  return result;
}

}  // namespace cl2vk
