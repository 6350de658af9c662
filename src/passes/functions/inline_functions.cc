#include "passes/functions/inline_functions.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/call_graph.h"
#include "ir/builder.h"
#include "passes/functions/drop_unreachable_functions.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Function;
using ir::Instruction;
using ir::Module;
using ir::Operand;

std::vector<Instruction*> callsIn(Function& function) {
  std::vector<Instruction*> calls;
  for (Block& block : function.blocks()) {
    for (Instruction& inst : block.instructions()) {
      if (inst.opcode() == spv::Op::OpFunctionCall) calls.push_back(&inst);
    }
  }
  return calls;
}

// Orders the defined functions so that every callee comes before its callers; fails on a cycle.
Expected<std::vector<Function*>> calleesFirst(Module& module) {
  enum class Mark { kNone, kVisiting, kDone };
  std::unordered_map<Function*, Mark> marks;
  std::vector<Function*> order;
  std::vector<Function*> path;

  std::function<Status(Function*)> visit = [&](Function* function) -> Status {
    Mark& mark = marks[function];
    if (mark == Mark::kDone) return okStatus();
    if (mark == Mark::kVisiting) {
      std::string cycle;
      auto start = std::find(path.begin(), path.end(), function);
      for (auto it = start; it != path.end(); ++it) cycle += "'" + module.functionName(**it) + "' calls ";
      return ir::refuse(module, *function,
                        "recursion is not supported: " + cycle + "'" + module.functionName(*function) + "'");
    }
    mark = Mark::kVisiting;
    path.push_back(function);
    for (Instruction* call : callsIn(*function)) {
      Function* callee = module.function(call->idOperand(0));
      if (callee && !callee->isDeclaration()) CL2VK_TRY(visit(callee));
    }
    path.pop_back();
    marks[function] = Mark::kDone;
    order.push_back(function);
    return okStatus();
  };
  for (Function& function : module.functions()) {
    if (!function.isDeclaration()) CL2VK_TRY(visit(&function));
  }
  return order;
}

bool isByValParameter(const Module& module, uint32_t param) {
  for (const Instruction* decoration : module.decorations(param)) {
    if (decoration->opcode() == spv::Op::OpDecorate &&
        decoration->wordOperand(1) == static_cast<uint32_t>(spv::Decoration::FuncParamAttr) &&
        decoration->wordOperand(2) == static_cast<uint32_t>(spv::FunctionParameterAttribute::ByVal))
      return true;
  }
  return false;
}

// Whether `callee` may write to the memory its pointer parameter `param` points to: a store, copy
// or atomic through any pointer derived from it, or the pointer escaping (passed on, stored,
// converted, used by an extended instruction). Loads, lifetime markers and comparisons do not write.
bool mayWriteThrough(const Module& module, uint32_t param) {
  std::vector<uint32_t> pointers = {param};
  std::unordered_set<uint32_t> seen = {param};
  while (!pointers.empty()) {
    uint32_t pointer = pointers.back();
    pointers.pop_back();
    for (const ir::Use& use : module.uses(pointer)) {
      const Instruction& user = *use.user;
      switch (user.opcode()) {
        case spv::Op::OpName:
        case spv::Op::OpDecorate:
        case spv::Op::OpLoad:
        case spv::Op::OpLifetimeStart:
        case spv::Op::OpLifetimeStop:
        case spv::Op::OpPtrEqual:
        case spv::Op::OpPtrNotEqual:
        case spv::Op::OpPtrDiff: break;
        case spv::Op::OpCopyMemory:
        case spv::Op::OpCopyMemorySized:
          if (use.operandIndex == 0) return true;  // the target; the source is only read
          break;
        case spv::Op::OpAccessChain:
        case spv::Op::OpInBoundsAccessChain:
        case spv::Op::OpPtrAccessChain:
        case spv::Op::OpInBoundsPtrAccessChain:
        case spv::Op::OpBitcast:
        case spv::Op::OpCopyObject:
        case spv::Op::OpPtrCastToGeneric:
        case spv::Op::OpGenericCastToPtr:
        case spv::Op::OpGenericCastToPtrExplicit:
        case spv::Op::OpPhi:
        case spv::Op::OpSelect:
          if (user.resultId() && seen.insert(user.resultId()).second) pointers.push_back(user.resultId());
          break;
        default: return true;  // OpStore (as target or value), atomics, calls, conversions ...
      }
    }
  }
  return false;
}

// Copies the callee's body in place of `call`, which must call a defined function.
Status inlineCall(Module& module, Instruction* call) {
  Function& callee = *module.function(call->idOperand(0));
  Block* callerBlock = call->block();
  Function& caller = *callerBlock->function();

  // The caller's block ends at the call; what follows it continues in `after`.
  Block* after = module.splitBlockBefore(call->next());

  // Function-scope variables must stay in the entry block: they go after the caller's own.
  Instruction* lastVariable = ir::lastVariable(caller);

  // Parameters become the call's arguments; everything the callee defines gets a fresh id.
  std::unordered_map<uint32_t, uint32_t> ids;
  size_t argument = 1;
  for (Instruction& inst : callee.header()) {
    if (inst.opcode() != spv::Op::OpFunctionParameter) continue;
    uint32_t value = call->idOperand(argument++);
    // A struct passed by value arrives as a pointer to the caller's memory (clang passes its own
    // variable at -O0); the callee owns a copy, so what it writes there must not reach the caller.
    if (isByValParameter(module, inst.resultId()) && mayWriteThrough(module, inst.resultId())) {
      uint32_t copy = module.takeId();
      lastVariable = module.insertAfter(
          lastVariable, Instruction(spv::Op::OpVariable, inst.typeId(), copy,
                                    {Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS,
                                                        static_cast<uint32_t>(spv::StorageClass::Function))}));
      ir::Builder before = ir::Builder::before(module, call);
      uint32_t pointee = module.def(inst.typeId())->idOperand(1);
      before.add(spv::Op::OpStore, 0,
                 {Operand::id(copy), Operand::id(before.valueOfIds(spv::Op::OpLoad, pointee, {value}))});
      value = copy;
    }
    ids[inst.resultId()] = value;
    // llvm-spirv names the parameters of the kernel function, not those of the entry point that
    // calls it: an unnamed caller parameter takes the name of the one it is passed to.
    const Instruction* passed = module.def(value);
    std::string name = module.name(inst.resultId());
    if (passed && passed->opcode() == spv::Op::OpFunctionParameter && !name.empty() && module.name(value).empty())
      module.append(ir::Section::kDebug,
                    Instruction(spv::Op::OpName, 0, 0, {Operand::id(value), Operand::string(name)}));
  }
  std::unordered_set<uint32_t> defined;
  for (Block& block : callee.blocks()) {
    for (Instruction& inst : block.instructions()) {
      if (!inst.resultId()) continue;
      ids[inst.resultId()] = module.takeId();
      defined.insert(inst.resultId());
    }
  }
  auto remap = [&ids](uint32_t id) {
    auto it = ids.find(id);
    return it == ids.end() ? id : it->second;
  };

  // The copied blocks go between the caller's block and `after`; returns branch to `after`.
  std::vector<std::pair<uint32_t, uint32_t>> returns;  // (value, from block)
  std::vector<Block*> copies = module.addBlocks(caller, callerBlock, callee.blocks().size());
  size_t next = 0;
  for (Block& block : callee.blocks()) {
    Block* copy = copies[next++];
    for (Instruction& inst : block.instructions()) {
      std::vector<Operand> operands = inst.operands();
      for (Operand& op : operands) {
        if (op.isId()) op.words[0] = remap(op.words[0]);
      }
      Instruction cloned(inst.opcode(), inst.typeId(), inst.resultId() ? remap(inst.resultId()) : 0,
                         std::move(operands));
      if (inst.opcode() == spv::Op::OpReturn || inst.opcode() == spv::Op::OpReturnValue) {
        returns.emplace_back(inst.opcode() == spv::Op::OpReturnValue ? cloned.idOperand(0) : 0, copy->id());
        module.append(copy->instructions(), Instruction(spv::Op::OpBranch, 0, 0, {Operand::id(after->id())}));
      } else if (inst.opcode() == spv::Op::OpVariable) {
        lastVariable = module.insertAfter(lastVariable, std::move(cloned));
      } else {
        module.append(copy->instructions(), std::move(cloned));
      }
    }
  }

  // Decorations with meaning (rounding modes, saturation, NoContraction...) follow the copies.
  std::vector<Instruction*> decorations;
  for (Instruction& inst : module.section(ir::Section::kAnnotation)) {
    if (inst.opcode() != spv::Op::OpDecorate || !defined.contains(inst.idOperand(0))) continue;
    decorations.push_back(&inst);
  }
  for (Instruction* decoration : decorations) {
    std::vector<Operand> operands = decoration->operands();
    operands[0].words[0] = remap(operands[0].words[0]);
    module.append(ir::Section::kAnnotation, Instruction(spv::Op::OpDecorate, 0, 0, std::move(operands)));
  }

  // The call's result becomes a phi of the returned values (undefined if nothing returns).
  if (uint32_t result = call->resultId(); module.isUsed(result)) {
    uint32_t value = module.takeId();
    Instruction* phiAnchor = &after->instructions().front();
    if (returns.empty()) {
      module.insertAfter(phiAnchor, Instruction(spv::Op::OpUndef, call->typeId(), value));
    } else {
      std::vector<Operand> incoming;
      for (auto [returned, from] : returns) {
        incoming.push_back(Operand::id(returned));
        incoming.push_back(Operand::id(from));
      }
      module.insertAfter(phiAnchor, Instruction(spv::Op::OpPhi, call->typeId(), value, std::move(incoming)));
    }
    module.replaceAllUses(result, value);
  }
  uint32_t entry = remap(callee.blocks().front().id());
  CL2VK_TRY(module.remove(call));
  ir::Builder::atEnd(module, *callerBlock).add(spv::Op::OpBranch, 0, {Operand::id(entry)});
  return okStatus();
}

}  // namespace

Expected<PassResult> inlineFunctions(Module& module, const Target& target) {
  // Only what a kernel reaches is inlined (and checked for recursion); afterwards nothing but the
  // kernels and the declarations they call is reached.
  Expected<PassResult> dropped = dropUnreachableFunctions(module, target);
  if (!dropped) return dropped.error();
  bool changed = *dropped == PassResult::kChanged;
  Expected<std::vector<Function*>> order = calleesFirst(module);
  if (!order) return order.error();
  for (Function* function : *order) {
    for (Instruction* call : callsIn(*function)) {
      Function* callee = module.function(call->idOperand(0));
      if (!callee || callee->isDeclaration()) continue;
      CL2VK_TRY(inlineCall(module, call));
      changed = true;
    }
  }
  Expected<PassResult> removed = dropUnreachableFunctions(module, target);
  if (!removed) return removed.error();
  return changed || *removed == PassResult::kChanged ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
