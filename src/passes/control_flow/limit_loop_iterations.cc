#include "passes/control_flow/limit_loop_iterations.h"

#include "analysis/call_graph.h"
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

Status instrumentKernel(Module& module, Function& kernel, uint32_t limit) {
  Cfg cfg(module, kernel);
  if (cfg.loops().empty()) return okStatus();
  if (!cfg.isReducible())
    return ir::refuse(module, kernel, "an irreducible loop cannot be checked against the device's loop limit");
  uint32_t uint = ir::typeInt(module, 32);
  uint32_t flag = addHiddenParameter(module, kernel, ir::typePointer(module, spv::StorageClass::CrossWorkgroup, uint),
                                     kLoopLimitFlagName);
  uint32_t headerCount = addVariable(module, kernel, uint, ir::constantUint(module, 32, 0));
  // One pass early: how many passes the driver allows depends on the loop's shape after its own
  // optimizations (lavapipe ran 65536 passes of one loop and 65535 of another), so an invocation
  // that needed exactly the limit may be reported though it ran whole; none that was cut short
  // passes.
  uint32_t spent = ir::constantUint(module, 32, limit - 1);

  // Every loop-header execution counts, in every loop: that is what the driver's budget counts.
  for (const Loop& loop : cfg.loops()) {
    auto& instructions = loop.header->instructions();
    auto first = std::next(instructions.begin());
    while (first->opcode() == spv::Op::OpPhi) ++first;
    Builder b = Builder::before(module, &*first);
    b.store(headerCount, b.iadd(b.load(uint, headerCount), ir::constantUint(module, 32, 1)));
  }
  // Checked once, where the invocation ends, so that a loop pays one addition per pass. An
  // invocation that reached the limit was cut (after it, every loop the driver enters runs one
  // pass only) unless its last loop happened to end within that pass.
  std::vector<Instruction*> returns;
  for (Block& block : kernel.blocks()) {
    if (block.terminator()->opcode() == spv::Op::OpReturn) returns.push_back(block.terminator());
  }
  for (Instruction* ret : returns) {
    // Not a structured binding: the lambda below captures the builder, which clang 15 refuses for one.
    auto split = Builder::splitAfter(module, &*std::prev(ret->block()->instructions().end(), 2));
    Builder& builder = split.first;
    auto rest = split.second;
    uint32_t reached = builder.compare(spv::Op::OpUGreaterThanEqual, builder.load(uint, headerCount), spent);
    builder.ifThen(reached, [&] { builder.store(flag, ir::constantUint(module, 32, 1), 4); });
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
    CL2VK_TRY(instrumentKernel(module, *kernel, target.loopIterationLimit));
    result = PassResult::kChanged;
  }
  return result;
}

}  // namespace cl2vk
