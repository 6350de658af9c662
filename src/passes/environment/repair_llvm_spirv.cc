#include "passes/environment/repair_llvm_spirv.h"

#include <algorithm>
#include <functional>
#include <optional>
#include <queue>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/cfg.h"
#include "ir/builder.h"
#include "ir/types.h"
#include "passes/interface/work_item_builtins.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Instruction;

bool isMergeInstruction(spv::Op opcode) {
  return opcode == spv::Op::OpLoopMerge || opcode == spv::Op::OpSelectionMerge;
}

// Whether SPIR-V lets `merge` stand before `terminator` (2.11: a loop merge declares a loop whose
// header branches; a selection merge, a two- or many-way branch).
bool mergeFitsTerminator(spv::Op merge, spv::Op terminator) {
  if (merge == spv::Op::OpLoopMerge)
    return terminator == spv::Op::OpBranch || terminator == spv::Op::OpBranchConditional;
  return terminator == spv::Op::OpBranchConditional || terminator == spv::Op::OpSwitch;
}

// Reorders the blocks so that each reachable one follows its immediate dominator. Of the blocks
// whose dominator is already placed, the one first in the input comes next, so an input that
// already obeys the rule keeps its order. Returns whether anything moved.
bool orderBlocksAfterDominators(const ir::Module& module, ir::Function& function) {
  Cfg cfg(module, function);
  auto& blocks = function.blocks();
  std::unordered_map<const Block*, size_t> position;
  std::vector<std::list<Block>::iterator> byPosition;
  for (auto it = blocks.begin(); it != blocks.end(); ++it) {
    position[&*it] = byPosition.size();
    byPosition.push_back(it);
  }
  // A branch to a block of another function (malformed input) leaves the order alone: the
  // validator, which runs next, names the problem.
  auto known = [&](const Block* block) { return block != nullptr && position.contains(block); };
  if (!known(cfg.entry())) return false;
  std::unordered_map<const Block*, std::vector<size_t>> dominated;
  for (Block* block : cfg.reversePostOrder()) {
    if (!known(block)) return false;
    if (Block* idom = cfg.immediateDominator(block)) dominated[idom].push_back(position.at(block));
  }
  std::priority_queue<size_t, std::vector<size_t>, std::greater<>> ready;
  ready.push(position.at(cfg.entry()));
  std::vector<size_t> order;
  while (!ready.empty()) {
    size_t next = ready.top();
    ready.pop();
    order.push_back(next);
    for (size_t child : dominated[&*byPosition[next]]) ready.push(child);
  }
  for (size_t i = 0; i < byPosition.size(); ++i) {
    if (!cfg.isReachable(&*byPosition[i])) order.push_back(i);
  }
  bool moved = false;
  for (size_t i = 0; i < order.size(); ++i) moved |= order[i] != i;
  if (!moved) return false;
  for (size_t index : order) blocks.splice(blocks.end(), blocks, byPosition[index]);
  return true;
}

// Leaves `block` with at most one merge instruction, just before a terminator it fits, naming
// blocks that no earlier header names (`claimed`: merge blocks and continue targets), a merge block
// other than the header and a continue target other than the merge block, as the validator asks
// of any module. Returns whether anything changed.
Expected<bool> repairMerges(ir::Module& module, Block& block, std::unordered_set<uint32_t>& claimed) {
  std::vector<Instruction*> merges;
  for (Instruction& inst : block.instructions()) {
    if (isMergeInstruction(inst.opcode())) merges.push_back(&inst);
  }
  if (merges.empty()) return false;
  Instruction* terminator = block.terminator();
  Instruction* kept = merges.front();
  // The blocks it names: the merge block, and a loop's continue target.
  std::vector<uint32_t> named = {kept->idOperand(0)};
  if (kept->opcode() == spv::Op::OpLoopMerge) named.push_back(kept->idOperand(1));
  bool fits = mergeFitsTerminator(kept->opcode(), terminator->opcode()) && named.front() != block.id() &&
              (named.size() == 1 || named[0] != named[1]) &&
              std::none_of(named.begin(), named.end(), [&](uint32_t label) { return claimed.contains(label); });
  bool inPlace = fits && merges.size() == 1 && &*std::prev(block.instructions().end(), 2) == kept;
  if (fits) claimed.insert(named.begin(), named.end());
  if (inPlace) return false;
  Instruction replacement(kept->opcode(), 0, 0, kept->operands());
  CL2VK_TRY(module.removeAll(merges));
  if (fits) module.insertBefore(terminator, std::move(replacement));
  return true;
}

bool declares(const ir::Module& module, spv::Capability capability) {
  for (const Instruction& inst : module.section(ir::Section::kCapability)) {
    if (inst.wordOperand(0) == static_cast<uint32_t>(capability)) return true;
  }
  return false;
}

// llvm-spirv-15 declares Shader (and Matrix, which Shader implies) in a Kernel module for
// OpBitReverse, which makes the validator hold the unstructured Kernel code to Shader's structured
// rules. The bit instructions are declared as SPV_KHR_bit_instructions has them for kernels.
Expected<bool> replaceShaderCapability(ir::Module& module) {
  if (!declares(module, spv::Capability::Kernel) || !declares(module, spv::Capability::Shader)) return false;
  std::vector<Instruction*> doomed;
  for (Instruction& inst : module.section(ir::Section::kCapability)) {
    auto capability = static_cast<spv::Capability>(inst.wordOperand(0));
    if (capability == spv::Capability::Shader || capability == spv::Capability::Matrix) doomed.push_back(&inst);
  }
  CL2VK_TRY(module.removeAll(doomed));
  if (!declares(module, spv::Capability::BitInstructions)) {
    module.append(ir::Section::kCapability,
                  Instruction(spv::Op::OpCapability, 0, 0,
                              {ir::Operand::enumerant(SPV_OPERAND_TYPE_CAPABILITY,
                                                      static_cast<uint32_t>(spv::Capability::BitInstructions))}));
    bool extension = false;
    for (const Instruction& inst : module.section(ir::Section::kExtension))
      extension |= inst.stringOperand(0) == "SPV_KHR_bit_instructions";
    if (!extension)
      module.append(ir::Section::kExtension,
                    Instruction(spv::Op::OpExtension, 0, 0, {ir::Operand::string("SPV_KHR_bit_instructions")}));
  }
  return true;
}

// llvm-spirv-15 writes the strings of __attribute__((annotate)) as module-scope variables in the
// Function storage class, which SPIR-V allows only inside functions; their text is already in a
// UserSemantic decoration, and what is left of the annotation call is an unused access chain to
// each. Such a variable goes with those access chains when nothing else but names, decorations
// and entry-point interfaces refers to it; one still in use is left for the validator to report.
Expected<bool> removeModuleScopeFunctionVariables(ir::Module& module) {
  auto isListing = [](spv::Op op) {
    return op == spv::Op::OpEntryPoint || op == spv::Op::OpName || op == spv::Op::OpDecorate ||
           op == spv::Op::OpDecorateString;
  };
  auto isUnusedAddress = [&module](const Instruction& inst) {
    spv::Op op = inst.opcode();
    return (op == spv::Op::OpInBoundsPtrAccessChain || op == spv::Op::OpPtrAccessChain ||
            op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain || op == spv::Op::OpBitcast) &&
           !module.isUsed(inst.resultId());
  };
  std::vector<std::vector<Instruction*>> removals;
  for (Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() != spv::Op::OpVariable ||
        inst.wordOperand(0) != static_cast<uint32_t>(spv::StorageClass::Function))
      continue;
    std::vector<Instruction*> removal = {&inst};
    bool removable = true;
    for (const ir::Use& use : module.uses(inst.resultId())) {
      if (isListing(use.user->opcode())) continue;
      if (isUnusedAddress(*use.user) && std::find(removal.begin(), removal.end(), use.user) == removal.end())
        removal.push_back(use.user);
      else if (!isUnusedAddress(*use.user))
        removable = false;
    }
    if (removable) removals.push_back(std::move(removal));
  }
  for (const std::vector<Instruction*>& removal : removals) {
    // The access chains first; remove() then takes the variable out of the interface lists too.
    CL2VK_TRY(module.removeAll(std::vector<Instruction*>(removal.begin() + 1, removal.end())));
    CL2VK_TRY(module.remove(removal.front()));
  }
  return !removals.empty();
}

// Before SPIR-V 1.4 an OpSelect of vectors needs a vector of conditions; llvm-spirv-15 writes a
// scalar one whatever version it was asked for (a vector ternary with a scalar condition). The
// condition is splatted.
bool splatSelectConditions(ir::Module& module) {
  if (module.header().version >= 0x00010400) return false;
  bool changed = false;
  for (ir::Function& function : module.functions()) {
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (inst.opcode() != spv::Op::OpSelect) continue;
        uint32_t condition = inst.idOperand(0);
        uint32_t count = ir::componentCount(module, inst.typeId());
        if (count < 2 || ir::componentCount(module, ir::typeOf(module, condition)) != 1) continue;
        ir::Builder b = ir::Builder::before(module, &inst);
        uint32_t conditions = b.splat(b.boolType(inst.typeId()), condition);
        module.setOperand(&inst, 0, ir::Operand::id(conditions));
        changed = true;
      }
    }
  }
  return changed;
}

// llvm-spirv-15 lowers llvm.memmove (which clang-15 -O2 makes of a struct copied between two
// global buffers it cannot tell apart) through a temporary array, and writes that OpVariable where
// the memmove was, inside a loop's block, where SPIR-V allows none. Each Function variable after
// the entry block's leading variables joins them, under a new id that takes over its uses and
// decorations; its OpLifetimeStart/Stop still mark where it is live, and a variable is private to
// its invocation, so one variable for every trip through the block holds the same values.
Expected<bool> hoistFunctionVariables(ir::Module& module, ir::Function& function) {
  Block& entry = function.blocks().front();
  Instruction* firstNonVariable = nullptr;
  for (Instruction& inst : entry.instructions()) {
    if (inst.opcode() == spv::Op::OpLabel || inst.opcode() == spv::Op::OpVariable) continue;
    firstNonVariable = &inst;
    break;
  }
  std::vector<Instruction*> misplaced;
  bool leading = true;
  for (Block& block : function.blocks()) {
    for (Instruction& inst : block.instructions()) {
      if (&inst == firstNonVariable) leading = false;
      if (inst.opcode() == spv::Op::OpVariable && !(leading && &block == &entry)) misplaced.push_back(&inst);
    }
    leading = false;
  }
  for (Instruction* variable : misplaced) {
    uint32_t hoisted = module.takeId();
    module.insertBefore(firstNonVariable,
                        Instruction(spv::Op::OpVariable, variable->typeId(), hoisted, variable->operands()));
    for (const Instruction* decoration : module.decorations(variable->resultId())) {
      if (decoration->opcode() != spv::Op::OpDecorate) continue;  // llvm-spirv decorates variables alone
      std::vector<ir::Operand> operands = decoration->operands();
      operands[0] = ir::Operand::id(hoisted);
      module.append(ir::Section::kAnnotation, Instruction(decoration->opcode(), 0, 0, std::move(operands)));
    }
    module.replaceAllUses(variable->resultId(), hoisted);
    CL2VK_TRY(module.remove(variable));
  }
  return !misplaced.empty();
}

// llvm-spirv-15 translates get_global_size(i) and its kin into a component i of the builtin's
// three-component vector, which has no value for i >= 3, where OpenCL's functions return 1 (sizes)
// or 0 (ids, offset): a constant index >= 3 gives an OpCompositeExtract the validator refuses, a
// run-time one an out-of-bounds OpVectorExtractDynamic. The first becomes OpenCL's value; the
// second reads component i only when i < 3 and gives OpenCL's value otherwise.
Expected<bool> defineDimensionsBeyondThree(ir::Module& module, ir::Function& function,
                                           const std::unordered_map<uint32_t, spv::BuiltIn>& builtins) {
  constexpr uint64_t kDimensions = 3;
  // The dimension builtin that `vector` is a load of, if it is one.
  auto dimensionBuiltin = [&](uint32_t vector) -> std::optional<spv::BuiltIn> {
    const Instruction* load = module.def(vector);
    if (!load || load->opcode() != spv::Op::OpLoad) return std::nullopt;
    auto builtin = builtins.find(load->idOperand(0));
    if (builtin == builtins.end() || !valueBeyondTheDimensions(builtin->second)) return std::nullopt;
    return builtin->second;
  };
  std::vector<Instruction*> extracts;
  for (Block& block : function.blocks()) {
    for (Instruction& inst : block.instructions()) {
      bool constantIndex = inst.opcode() == spv::Op::OpCompositeExtract && inst.operands().size() == 2 &&
                           inst.wordOperand(1) >= kDimensions;
      bool dynamicIndex = inst.opcode() == spv::Op::OpVectorExtractDynamic;
      if ((constantIndex || dynamicIndex) && dimensionBuiltin(inst.idOperand(0))) extracts.push_back(&inst);
    }
  }
  for (Instruction* extract : extracts) {
    ir::Builder b = ir::Builder::before(module, extract);
    uint32_t vector = extract->idOperand(0);
    spv::BuiltIn builtin = *dimensionBuiltin(vector);
    uint32_t value = extract->opcode() == spv::Op::OpVectorExtractDynamic
                         ? workItemDimension(b, builtin, extract->typeId(), vector, extract->idOperand(1))
                         : b.bits(extract->typeId(), *valueBeyondTheDimensions(builtin));
    module.replaceAllUses(extract->resultId(), value);
    CL2VK_TRY(module.remove(extract));
  }
  return !extracts.empty();
}

// llvm-spirv 15 writes atomic_compare_exchange_weak as OpAtomicCompareExchangeWeak, which SPIR-V
// 1.4 removed (llvm-spirv writes 1.4 by default) and Vulkan never had. A weak exchange may fail
// spuriously but need not, so it is the strong exchange, with the same operands; rewritten so
// that the modules llvm-spirv writes are accepted.
bool replaceWeakCompareExchanges(ir::Module& module) {
  bool changed = false;
  for (ir::Function& function : module.functions()) {
    for (ir::Block& block : function.blocks()) {
      for (ir::Instruction& inst : block.instructions()) {
        if (inst.opcode() != spv::Op::OpAtomicCompareExchangeWeak) continue;
        module.update(
            &inst, ir::Instruction(spv::Op::OpAtomicCompareExchange, inst.typeId(), inst.resultId(), inst.operands()));
        changed = true;
      }
    }
  }
  return changed;
}

// llvm-spirv 15 lists in an entry point's interface the variables its code uses, but not those
// reached only through another variable's initializer (`global float* p = &table[2];`), which
// SPIR-V 1.4 requires; the missing ones are added.
bool completeEntryPointInterfaces(ir::Module& module) {
  bool changed = false;
  for (ir::Instruction& entry : module.section(ir::Section::kEntryPoint)) {
    std::vector<uint32_t> listed;
    for (size_t i = 3; i < entry.numOperands(); ++i) listed.push_back(entry.idOperand(i));
    std::vector<ir::Operand> operands = entry.operands();
    for (size_t next = 0; next < listed.size(); ++next) {
      const ir::Instruction* variable = module.def(listed[next]);
      std::vector<uint32_t> pending;
      if (variable && variable->opcode() == spv::Op::OpVariable && variable->numOperands() > 1)
        pending.push_back(variable->idOperand(1));
      while (!pending.empty()) {
        const ir::Instruction* value = module.def(pending.back());
        pending.pop_back();
        if (!value || value->block() != nullptr) continue;
        if (value->opcode() == spv::Op::OpVariable) {
          if (std::find(listed.begin(), listed.end(), value->resultId()) != listed.end()) continue;
          listed.push_back(value->resultId());
          operands.push_back(ir::Operand::id(value->resultId()));
          continue;
        }
        if (value->opcode() != spv::Op::OpSpecConstantOp && value->opcode() != spv::Op::OpConstantComposite) continue;
        for (size_t i = 0; i < value->numOperands(); ++i) {
          if (value->operand(i).isId()) pending.push_back(value->idOperand(i));
        }
      }
    }
    if (operands.size() == entry.numOperands()) continue;
    module.update(&entry, ir::Instruction(spv::Op::OpEntryPoint, 0, 0, std::move(operands)));
    changed = true;
  }
  return changed;
}

}  // namespace

// LLVM gives a phi one entry per edge, so a block that several cases of one switch branch to has
// a phi listing that switch's block once for each; llvm-spirv-15 copies them, and SPIR-V allows
// one entry per parent block. LLVM requires the duplicates to carry the same value, so each phi
// keeps the first entry of each parent; one whose duplicates differ is left for the validator.
bool mergeDuplicatePhiParents(ir::Module& module, ir::Function& function) {
  bool changed = false;
  for (Block& block : function.blocks()) {
    for (Instruction& inst : block.instructions()) {
      if (inst.opcode() != spv::Op::OpPhi) continue;
      std::unordered_map<uint32_t, uint32_t> valueOfParent;
      std::vector<ir::Operand> operands;
      bool duplicate = false, conflicting = false;
      for (size_t i = 0; i + 1 < inst.numOperands(); i += 2) {
        uint32_t value = inst.idOperand(i), parent = inst.idOperand(i + 1);
        auto [known, added] = valueOfParent.emplace(parent, value);
        if (!added) {
          duplicate = true;
          conflicting |= known->second != value;
          continue;
        }
        operands.push_back(inst.operand(i));
        operands.push_back(inst.operand(i + 1));
      }
      if (!duplicate || conflicting) continue;
      module.update(&inst, Instruction(spv::Op::OpPhi, inst.typeId(), inst.resultId(), std::move(operands)));
      changed = true;
    }
  }
  return changed;
}

Expected<PassResult> repairLlvmSpirv(ir::Module& module, const Target&) {
  Expected<bool> capabilities = replaceShaderCapability(module);
  if (!capabilities) return capabilities.error();
  Expected<bool> variables = removeModuleScopeFunctionVariables(module);
  if (!variables) return variables.error();
  bool changed = *capabilities || *variables;
  changed |= splatSelectConditions(module);
  changed |= replaceWeakCompareExchanges(module);
  changed |= completeEntryPointInterfaces(module);
  const std::unordered_map<uint32_t, spv::BuiltIn> builtins = openclBuiltinVariables(module);
  for (ir::Function& function : module.functions()) {
    if (function.isDeclaration()) continue;
    Expected<bool> dimensions = defineDimensionsBeyondThree(module, function, builtins);
    if (!dimensions) return dimensions.error();
    changed |= *dimensions;
    changed |= orderBlocksAfterDominators(module, function);
    changed |= mergeDuplicatePhiParents(module, function);
    Expected<bool> hoisted = hoistFunctionVariables(module, function);
    if (!hoisted) return hoisted.error();
    changed |= *hoisted;
    std::unordered_set<uint32_t> claimed;
    for (Block& block : function.blocks()) {
      Expected<bool> repaired = repairMerges(module, block, claimed);
      if (!repaired) return repaired.error();
      changed |= *repaired;
    }
  }
  return changed ? PassResult::kChanged : PassResult::kUnchanged;
}

}  // namespace cl2vk
