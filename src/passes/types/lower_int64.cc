#include "passes/types/lower_int64.h"

#include <algorithm>
#include <tuple>

#include "analysis/call_graph.h"
#include "ir/types.h"
#include "passes/types/int64_lowering.h"

namespace cl2vk {
namespace int64 {

using ir::Instruction;
using ir::Operand;
using spv::Op;

Lowering::Lowering(ir::Module& module, uint32_t maxSubgroupSize) : module_(module), maxSubgroupSize_(maxSubgroupSize) {}

bool Lowering::isWide(uint32_t type) const { return ir::intWidth(module_, type) == 64; }

bool Lowering::containsWide(uint32_t type) const {
  const Instruction* def = type ? module_.def(type) : nullptr;
  if (!def) return false;
  switch (def->opcode()) {
    case Op::OpTypeInt:
    case Op::OpTypeVector: return isWide(type);
    case Op::OpTypeArray:
    case Op::OpTypeRuntimeArray: return containsWide(def->idOperand(0));
    case Op::OpTypePointer: return containsWide(def->idOperand(1));
    case Op::OpTypeStruct:
      return std::any_of(def->operands().begin(), def->operands().end(),
                         [this](const Operand& member) { return containsWide(member.words[0]); });
    default: return false;
  }
}

uint32_t Lowering::halfType(uint32_t wideType) {
  uint32_t uint = ir::typeInt(module_, 32);
  uint32_t count = ir::componentCount(module_, wideType);
  return count == 1 ? uint : ir::typeVector(module_, uint, count);
}

uint32_t Lowering::memoryType(uint32_t wideType) {
  uint32_t pairType = ir::typeVector(module_, ir::typeInt(module_, 32), 2);
  uint32_t count = ir::componentCount(module_, wideType);
  if (count == 1) return pairType;
  auto [known, fresh] = memoryTypes_.try_emplace(count, 0);
  if (!fresh) return known->second;
  // An array of uvec2 with its own stride: the vector's components at the same offsets.
  uint32_t array = module_.takeId();
  module_.append(ir::Section::kGlobal,
                 Instruction(Op::OpTypeArray, 0, array,
                             {Operand::id(pairType), Operand::id(ir::constantUint(module_, 32, count))}));
  module_.append(
      ir::Section::kAnnotation,
      Instruction(Op::OpDecorate, 0, 0,
                  {Operand::id(array),
                   Operand::enumerant(SPV_OPERAND_TYPE_DECORATION, static_cast<uint32_t>(spv::Decoration::ArrayStride)),
                   Operand::literal(8)}));
  known->second = array;
  return array;
}

Pair Lowering::pair(uint32_t id) {
  if (auto known = pairs_.find(id); known != pairs_.end()) return known->second;
  const Instruction* def = module_.def(id);
  if (!def || !isWide(def->typeId())) return {};
  uint32_t half = halfType(def->typeId());
  uint32_t uint = ir::typeInt(module_, 32);
  Pair halves;
  switch (def->opcode()) {
    case Op::OpConstant: {
      const std::vector<uint32_t>& words = def->operand(0).words;
      halves = {ir::constantUint(module_, 32, words[0]),
                ir::constantUint(module_, 32, words.size() > 1 ? words[1] : 0)};
      break;
    }
    case Op::OpConstantComposite: {
      std::vector<uint32_t> los, his;
      for (const Operand& constituent : def->operands()) {
        Pair part = pair(constituent.words[0]);
        if (!part.lo) return {};
        los.push_back(part.lo), his.push_back(part.hi);
      }
      halves = {ir::constantComposite(module_, half, los), ir::constantComposite(module_, half, his)};
      break;
    }
    case Op::OpConstantNull: halves.lo = halves.hi = ir::constantNull(module_, half); break;
    case Op::OpUndef: halves.lo = halves.hi = ir::undef(module_, half); break;
    default: return {};
  }
  (void)uint;
  pairs_[id] = halves;
  return halves;
}

uint32_t Lowering::join(ir::Builder& b, Pair halves, uint32_t wideType) {
  uint32_t uint = ir::typeInt(module_, 32);
  uint32_t pairType = ir::typeVector(module_, uint, 2);
  uint32_t count = ir::componentCount(module_, wideType);
  if (count == 1) return b.op(Op::OpCompositeConstruct, pairType, {halves.lo, halves.hi});
  std::vector<uint32_t> elements;
  for (uint32_t i = 0; i < count; ++i) {
    Pair part = component(b, halves, i);
    elements.push_back(b.op(Op::OpCompositeConstruct, pairType, {part.lo, part.hi}));
  }
  return b.op(Op::OpCompositeConstruct, memoryType(wideType), elements);
}

Pair Lowering::split(ir::Builder& b, uint32_t memoryValue, uint32_t wideType) {
  uint32_t uint = ir::typeInt(module_, 32);
  uint32_t count = ir::componentCount(module_, wideType);
  if (count == 1) return {b.extract(uint, memoryValue, 0), b.extract(uint, memoryValue, 1)};
  std::vector<Pair> parts;
  for (uint32_t i = 0; i < count; ++i) {
    auto word = [&](uint32_t which) {
      return b.value(Op::OpCompositeExtract, uint,
                     {Operand::id(memoryValue), Operand::literal(i), Operand::literal(which)});
    };
    parts.push_back({word(0), word(1)});
  }
  return vectorOf(b, parts, halfType(wideType));
}

Pair Lowering::component(ir::Builder& b, Pair vector, uint32_t index) {
  if (!b.isVector(b.typeOf(vector.lo))) return vector;
  uint32_t uint = ir::typeInt(module_, 32);
  return {b.extract(uint, vector.lo, index), b.extract(uint, vector.hi, index)};
}

Pair Lowering::vectorOf(ir::Builder& b, const std::vector<Pair>& components, uint32_t half) {
  if (components.size() == 1) return components[0];
  std::vector<uint32_t> los, his;
  for (const Pair& part : components) los.push_back(part.lo), his.push_back(part.hi);
  return {b.op(Op::OpCompositeConstruct, half, los), b.op(Op::OpCompositeConstruct, half, his)};
}

uint32_t Lowering::low32(ir::Builder& b, uint32_t id) {
  if (isWideValue(id)) return pair(id).lo;
  return b.width(b.typeOf(id)) == 32 ? id : b.resize(id, 32);
}

void Lowering::replace(Instruction& inst, Pair halves) {
  pairs_[inst.resultId()] = halves;
  dead_.push_back(&inst);
}

void Lowering::replace(Instruction& inst, uint32_t value) {
  module_.replaceAllUses(inst.resultId(), value);
  dead_.push_back(&inst);
}

Status Lowering::retypeGlobals() {
  // Constants first: each gets its memory form, built from its halves, before any type changes.
  std::vector<std::pair<uint32_t, uint32_t>> constants;
  std::vector<Instruction*> old;
  uint32_t uint = ir::typeInt(module_, 32);
  uint32_t pairType = ir::typeVector(module_, uint, 2);
  std::vector<Instruction*> globals;
  for (Instruction& inst : module_.section(ir::Section::kGlobal)) globals.push_back(&inst);
  for (Instruction* inst : globals) {
    if (!isWide(inst->typeId())) continue;
    old.push_back(inst);
    // An array's length keeps a 32-bit constant.
    std::vector<ir::Use> uses = module_.uses(inst->resultId());
    for (const ir::Use& use : uses) {
      if (use.user->opcode() != Op::OpTypeArray || use.operandIndex != 1) continue;
      if (inst->opcode() != Op::OpConstant || (inst->operand(0).words.size() > 1 && inst->operand(0).words[1] != 0))
        return ir::refuse(module_, *use.user, "an array longer than 2^32 elements");
      std::vector<Operand> operands = use.user->operands();
      operands[1] = Operand::id(ir::constantUint(module_, 32, inst->operand(0).words[0]));
      module_.update(use.user, Instruction(Op::OpTypeArray, 0, use.user->resultId(), operands));
    }
    if (!module_.isUsed(inst->resultId())) continue;
    uint32_t memory = memoryType(inst->typeId());
    uint32_t replacement = 0;
    if (inst->opcode() == Op::OpConstantNull) {
      replacement = ir::constantNull(module_, memory);
    } else if (inst->opcode() == Op::OpUndef) {
      replacement = ir::undef(module_, memory);
    } else {
      Pair halves = pair(inst->resultId());
      if (!halves.lo)
        return ir::refuse(module_, *inst, "a 64-bit value cl2vk cannot emulate without Vulkan's shaderInt64");
      uint32_t count = ir::componentCount(module_, inst->typeId());
      std::vector<uint32_t> elements;
      for (uint32_t i = 0; i < count; ++i) {
        Pair part = halves;
        if (count > 1) part = pair(inst->idOperand(i));
        elements.push_back(ir::constantComposite(module_, pairType, {part.lo, part.hi}));
      }
      replacement = count == 1 ? elements[0] : ir::constantComposite(module_, memory, elements);
    }
    constants.push_back({inst->resultId(), replacement});
  }
  for (auto [from, to] : constants) module_.replaceAllUses(from, to);
  // Then the types: vectors of 64-bit integers become arrays of uvec2, 64-bit integers uvec2.
  for (Instruction* inst : globals) {
    if (inst->opcode() != Op::OpTypeVector || !isWide(inst->resultId())) continue;
    module_.replaceAllUses(inst->resultId(), memoryType(inst->resultId()));
    old.push_back(inst);
  }
  for (Instruction* inst : globals) {
    if (inst->opcode() != Op::OpTypeInt || inst->wordOperand(0) != 64) continue;
    module_.replaceAllUses(inst->resultId(), pairType);
    old.push_back(inst);
  }
  std::reverse(old.begin(), old.end());
  CL2VK_TRY(module_.removeAll(old));
  module_.sortGlobals();
  return okStatus();
}

}  // namespace int64

Expected<PassResult> lowerInt64(ir::Module& module, const Target& target) {
  if (target.int64) return PassResult::kUnchanged;
  int64::Lowering lowering(module, target.maxSubgroupSize);
  bool anyWide = false;
  for (const ir::Instruction& inst : module.section(ir::Section::kGlobal)) {
    if (inst.opcode() == spv::Op::OpTypeInt && inst.wordOperand(0) == 64) anyWide = true;
    if (!lowering.isWide(inst.typeId())) continue;
    spv::Op op = inst.opcode();
    if (op != spv::Op::OpConstant && op != spv::Op::OpConstantComposite && op != spv::Op::OpConstantNull &&
        op != spv::Op::OpUndef)
      return ir::refuse(lowering.module(), inst,
                        "64-bit specialization constants need Vulkan's shaderInt64, which this device lacks");
  }
  if (!anyWide) return PassResult::kUnchanged;

  std::vector<ir::Instruction*> gathered;
  for (ir::Function& function : module.functions()) {
    for (ir::Instruction& param : function.header()) {
      if (lowering.isWide(param.typeId()))
        return ir::refuse(lowering.module(), param, "64-bit function parameters and results need Vulkan's shaderInt64");
    }
    for (ir::Block& block : function.blocks()) {
      for (ir::Instruction& inst : block.instructions()) gathered.push_back(&inst);
    }
  }
  // Phis get two halves' phis now; their incoming values are known once everything is lowered.
  std::vector<std::tuple<ir::Instruction*, ir::Instruction*, ir::Instruction*>> phis;
  for (ir::Instruction* inst : gathered) {
    if (inst->opcode() == spv::Op::OpPhi && lowering.isWide(inst->typeId())) {
      uint32_t half = lowering.halfType(inst->typeId());
      ir::Instruction* lo = module.insertBefore(inst, ir::Instruction(spv::Op::OpPhi, half, module.takeId()));
      ir::Instruction* hi = module.insertBefore(inst, ir::Instruction(spv::Op::OpPhi, half, module.takeId()));
      lowering.replace(*inst, int64::Pair{lo->resultId(), hi->resultId()});
      phis.emplace_back(inst, lo, hi);
      continue;
    }
    bool involved = lowering.isWide(inst->typeId()) || int64::isBufferPointerCast(module, *inst);
    for (const ir::Operand& operand : inst->operands())
      involved = involved || (operand.isId() && lowering.isWideValue(operand.words[0]));
    if (involved) CL2VK_TRY(int64::lowerInstruction(lowering, *inst));
  }
  for (auto [phi, lo, hi] : phis) {
    std::vector<ir::Operand> los, his;
    for (size_t i = 0; i + 1 < phi->numOperands(); i += 2) {
      int64::Pair incoming = lowering.pair(phi->idOperand(i));
      if (!incoming.lo) return ir::refuse(lowering.module(), *phi, "an incoming 64-bit value cl2vk cannot emulate");
      ir::Operand block = ir::Operand::id(phi->idOperand(i + 1));
      los.insert(los.end(), {ir::Operand::id(incoming.lo), block});
      his.insert(his.end(), {ir::Operand::id(incoming.hi), block});
    }
    module.update(lo, ir::Instruction(spv::Op::OpPhi, lo->typeId(), lo->resultId(), los));
    module.update(hi, ir::Instruction(spv::Op::OpPhi, hi->typeId(), hi->resultId(), his));
  }
  CL2VK_TRY(module.removeAll(lowering.dead()));
  CL2VK_TRY(lowering.retypeGlobals());
  return PassResult::kChanged;
}

}  // namespace cl2vk
