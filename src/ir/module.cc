#include "ir/module.h"

#include <algorithm>
#include <cassert>
#include <functional>
#include <iterator>
#include <unordered_set>

#include "ir/opcode_classes.h"

namespace cl2vk::ir {
namespace {

size_t hashValue(const Instruction& inst) {
  size_t h = std::hash<uint32_t>()(static_cast<uint32_t>(inst.opcode()));
  auto mix = [&h](uint32_t word) { h ^= std::hash<uint32_t>()(word) + 0x9e3779b9 + (h << 6) + (h >> 2); };
  mix(inst.typeId());
  for (const Operand& op : inst.operands()) {
    mix(static_cast<uint32_t>(normalizedKind(op.kind)));
    for (uint32_t word : op.words) mix(word);
  }
  return h;
}

// Whether operand `operandIndex` of `user` is the target of a name or decoration.
bool isAnnotationOf(const Instruction& user, int operandIndex) {
  if (isNameOrDecoration(user.opcode())) return operandIndex == 0;
  return user.opcode() == spv::Op::OpGroupDecorate || user.opcode() == spv::Op::OpGroupMemberDecorate;
}

// Operands from this index on are lists of ids that a removed id can simply be dropped from.
int droppableListStart(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpEntryPoint: return 3;  // interface variables
    case spv::Op::OpGroupDecorate:
    case spv::Op::OpGroupMemberDecorate: return 1;  // decoration targets
    default: return -1;
  }
}

const std::vector<Use> kNoUses;

}  // namespace

const char* sectionName(Section section) {
  switch (section) {
    case Section::kCapability: return "capabilities";
    case Section::kExtension: return "extensions";
    case Section::kExtInstImport: return "extended instruction imports";
    case Section::kMemoryModel: return "memory model";
    case Section::kEntryPoint: return "entry points";
    case Section::kExecutionMode: return "execution modes";
    case Section::kDebug: return "debug";
    case Section::kAnnotation: return "annotations";
    case Section::kGlobal: return "types, constants and global variables";
  }
  return "?";
}

bool isShareableGlobal(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpTypeVoid:
    case spv::Op::OpTypeBool:
    case spv::Op::OpTypeInt:
    case spv::Op::OpTypeFloat:
    case spv::Op::OpTypeVector:
    case spv::Op::OpTypeMatrix:
    case spv::Op::OpTypePointer:
    case spv::Op::OpTypeFunction:
    case spv::Op::OpTypeEvent:
    case spv::Op::OpTypeDeviceEvent:
    case spv::Op::OpTypeReserveId:
    case spv::Op::OpTypeQueue:
    case spv::Op::OpTypeSampler:
    case spv::Op::OpConstantTrue:
    case spv::Op::OpConstantFalse:
    case spv::Op::OpConstant:
    case spv::Op::OpConstantComposite:
    case spv::Op::OpConstantNull: return true;
    default: return false;
  }
}

// --- Indexes ---

void Module::addUse(uint32_t id, Instruction* user, int operandIndex) { uses_[id].push_back(Use{user, operandIndex}); }

void Module::dropUse(uint32_t id, Instruction* user, int operandIndex) {
  auto it = uses_.find(id);
  if (it == uses_.end()) return;
  auto& list = it->second;
  // From the back: the use dropped is most often a recent one (a phi the structurizer just made
  // and found trivial), and a common type's list holds thousands.
  auto found = std::find_if(list.rbegin(), list.rend(),
                            [&](const Use& u) { return u.user == user && u.operandIndex == operandIndex; });
  if (found != list.rend()) {
    *found = list.back();
    list.pop_back();
  }
  if (list.empty()) uses_.erase(it);
}

void Module::index(Instruction* inst) {
  if (inst->resultId()) defs_[inst->resultId()] = inst;
  if (inst->typeId()) addUse(inst->typeId(), inst, Use::kResultType);
  for (size_t i = 0; i < inst->numOperands(); ++i) {
    const Operand& op = inst->operand(i);
    if (op.isId()) addUse(op.words[0], inst, static_cast<int>(i));
  }
  if (inst->opcode() == spv::Op::OpFunction && inst->function()) functionsById_[inst->resultId()] = inst->function();
  if (isShareableGlobal(inst->opcode()) && inst->list() == &section(Section::kGlobal))
    globalValues_.emplace(hashValue(*inst), inst);
}

void Module::unindex(Instruction* inst) {
  if (inst->typeId()) dropUse(inst->typeId(), inst, Use::kResultType);
  for (size_t i = 0; i < inst->numOperands(); ++i) {
    const Operand& op = inst->operand(i);
    if (op.isId()) dropUse(op.words[0], inst, static_cast<int>(i));
  }
  unindexDefinition(inst);
}

void Module::unindexDefinition(Instruction* inst) {
  if (inst->resultId()) {
    auto it = defs_.find(inst->resultId());
    if (it != defs_.end() && it->second == inst) defs_.erase(it);
  }
  if (inst->opcode() == spv::Op::OpFunction) functionsById_.erase(inst->resultId());
  if (isShareableGlobal(inst->opcode())) {
    auto [first, last] = globalValues_.equal_range(hashValue(*inst));
    for (auto it = first; it != last; ++it) {
      if (it->second == inst) {
        globalValues_.erase(it);
        break;
      }
    }
  }
}

// --- Changes ---

void Module::erase(Instruction* inst) {
  unindex(inst);
  inst->list_->items_.erase(inst->position_);
}

Instruction* Module::append(Section s, Instruction inst) { return append(section(s), std::move(inst)); }

Instruction* Module::append(InstList& list, Instruction inst) {
  Instruction* added = list.insert(list.end(), std::move(inst));
  index(added);
  return added;
}

Instruction* Module::insertBefore(Instruction* position, Instruction inst) {
  assert(position->list_);
  Instruction* added = position->list_->insert(position->position_, std::move(inst));
  index(added);
  return added;
}

Instruction* Module::insertAfter(Instruction* position, Instruction inst) {
  assert(position->list_);
  Instruction* added = position->list_->insert(std::next(position->position_), std::move(inst));
  index(added);
  return added;
}

Function* Module::addFunction() { return &functions_.emplace_back(); }

Block* Module::addBlock(Function& function, Block* after) { return addBlocks(function, after, 1).front(); }

std::vector<Block*> Module::addBlocks(Function& function, Block* after, size_t count) {
  auto& blocks = function.blocks();
  assert(!after || after->function() == &function);
  auto position = after ? std::next(after->position_) : blocks.end();
  std::vector<Block*> added;
  for (size_t i = 0; i < count; ++i) {
    auto placed = blocks.emplace(position, &function);
    placed->position_ = placed;
    added.push_back(&*placed);
  }
  return added;
}

Instruction* Block::endOfCode() {
  auto last = std::prev(instructions_.end());
  if (last != instructions_.begin()) {
    auto before = std::prev(last);
    if (before->opcode() == spv::Op::OpSelectionMerge || before->opcode() == spv::Op::OpLoopMerge) return &*before;
  }
  return &*last;
}

Block* Module::splitBlockBefore(Instruction* first) {
  Block* old = first->block();
  assert(old && first->opcode() != spv::Op::OpLabel);
  Block* tail = addBlock(*old->function(), old);
  append(tail->instructions(), Instruction(spv::Op::OpLabel, 0, takeId()));
  tail->instructions().spliceTail(old->instructions(), first->position_);

  // Successors' phis named the old block as the predecessor; the edge now leaves the new one.
  const Instruction* branch = tail->terminator();
  for (size_t i = 0; i < branch->numOperands(); ++i) {
    const Operand& op = branch->operand(i);
    if (!op.isId()) continue;
    Instruction* label = def(op.words[0]);
    if (!label || label->opcode() != spv::Op::OpLabel) continue;
    for (Instruction& phi : label->block()->instructions()) {
      if (phi.opcode() == spv::Op::OpLabel) continue;
      if (phi.opcode() != spv::Op::OpPhi) break;
      for (size_t p = 1; p < phi.numOperands(); p += 2) {
        if (phi.idOperand(p) != old->id()) continue;
        Instruction replacement = phi;
        replacement.operands_[p].words[0] = tail->id();
        update(&phi, std::move(replacement));
      }
    }
  }
  return tail;
}

Status Module::remove(Instruction* inst) {
  assert(inst->list_);
  if (inst->opcode() == spv::Op::OpFunction || inst->opcode() == spv::Op::OpLabel)
    return Error("cannot remove " + describe(*inst) + " on its own: functions and blocks go whole");

  std::vector<Instruction*> annotations;
  // Each once: an id listed twice (an entry point's interface may repeat one) goes in one erase.
  std::vector<Instruction*> listUsers;
  uint32_t id = inst->resultId();
  if (id) {
    for (const Use& use : uses(id)) {
      if (use.user == inst) continue;
      int listStart = droppableListStart(use.user->opcode());
      if (isNameOrDecoration(use.user->opcode()) && use.operandIndex == 0)
        annotations.push_back(use.user);
      else if (listStart >= 0 && use.operandIndex >= listStart) {
        if (std::find(listUsers.begin(), listUsers.end(), use.user) == listUsers.end()) listUsers.push_back(use.user);
      } else
        return Error("cannot remove " + describe(*inst) + ": it is still used by " + describe(*use.user));
    }
  }
  for (Instruction* user : listUsers) {
    Instruction replacement = *user;
    auto& ops = replacement.operands_;
    ops.erase(std::remove_if(ops.begin() + droppableListStart(user->opcode()), ops.end(),
                             [id](const Operand& op) { return op.isId() && op.words[0] == id; }),
              ops.end());
    update(user, std::move(replacement));
  }
  for (Instruction* annotation : annotations) erase(annotation);
  erase(inst);
  return okStatus();
}

Status Module::removeAll(const std::vector<Instruction*>& instructions) {
  std::unordered_set<const Instruction*> doomed(instructions.begin(), instructions.end());
  std::vector<Instruction*> annotations;
  for (Instruction* inst : instructions) {
    if (!inst->resultId()) continue;
    for (const Use& use : uses(inst->resultId())) {
      if (doomed.contains(use.user)) continue;
      if (isAnnotationOf(*use.user, use.operandIndex) && isNameOrDecoration(use.user->opcode())) {
        annotations.push_back(use.user);
        continue;
      }
      return Error("cannot remove " + describe(*inst) + ": it is still used by " + describe(*use.user));
    }
  }
  std::sort(annotations.begin(), annotations.end());
  annotations.erase(std::unique(annotations.begin(), annotations.end()), annotations.end());
  for (Instruction* annotation : annotations) erase(annotation);
  for (Instruction* inst : instructions) erase(inst);
  return okStatus();
}

Status Module::removeBlock(Block* block) {
  for (Instruction& inst : block->instructions()) {
    if (!inst.resultId()) continue;
    for (const Use& use : uses(inst.resultId())) {
      if (use.user->block() == block || isAnnotationOf(*use.user, use.operandIndex)) continue;
      return Error("cannot remove block %" + std::to_string(block->id()) + ": " + describe(inst) +
                   " is still used by " + describe(*use.user));
    }
  }
  for (Instruction& inst : block->instructions()) {
    if (!inst.resultId()) continue;
    std::vector<Instruction*> annotations;
    for (const Use& use : uses(inst.resultId())) {
      if (isAnnotationOf(*use.user, use.operandIndex) && isNameOrDecoration(use.user->opcode()))
        annotations.push_back(use.user);
    }
    for (Instruction* annotation : annotations) erase(annotation);
  }
  for (Instruction& inst : block->instructions()) unindex(&inst);
  block->function()->blocks().erase(block->position_);
  return okStatus();
}

Status Module::removeFunction(Function* function) { return removeFunctions({function}); }

Status Module::removeFunctions(const std::vector<Function*>& functions) {
  const std::unordered_set<const Function*> removed(functions.begin(), functions.end());
  std::vector<Instruction*> members;
  auto gather = [&members](InstList& list) {
    for (Instruction& inst : list) members.push_back(&inst);
  };
  for (Function* function : functions) {
    gather(function->header());
    for (Block& block : function->blocks()) gather(block.instructions());
    gather(function->end());
  }

  std::vector<Instruction*> annotations;
  for (Instruction* inst : members) {
    if (!inst->resultId()) continue;
    for (const Use& use : uses(inst->resultId())) {
      if (removed.contains(use.user->function())) continue;
      if (!isNameOrDecoration(use.user->opcode()) || use.operandIndex != 0) {
        const Function& function = *inst->function();
        return Error("cannot remove function '" + functionName(function) +
                     "': " + (inst == &function.definition() ? std::string("it") : describe(*inst)) +
                     " is still used by " + describe(*use.user));
      }
      annotations.push_back(use.user);
    }
  }
  for (Instruction* annotation : annotations) erase(annotation);
  // Each id's uses are filtered once rather than searched once per use: a large function (hashcat's
  // kernels, once inlined) uses a common type or constant hundreds of thousands of times, and
  // dropping those one by one took minutes; so does removing the functions one at a time.
  std::unordered_set<const Instruction*> doomed(members.begin(), members.end());
  std::unordered_set<uint32_t> referenced;
  for (Instruction* inst : members) {
    if (inst->typeId()) referenced.insert(inst->typeId());
    for (const Operand& op : inst->operands()) {
      if (op.isId()) referenced.insert(op.words[0]);
    }
  }
  for (uint32_t id : referenced) {
    auto it = uses_.find(id);
    if (it == uses_.end()) continue;
    std::erase_if(it->second, [&](const Use& use) { return doomed.contains(use.user); });
    if (it->second.empty()) uses_.erase(it);
  }
  for (Instruction* inst : members) unindexDefinition(inst);
  functions_.remove_if([&removed](const Function& f) { return removed.contains(&f); });
  return okStatus();
}

void Module::sortGlobals() {
  InstList& globals = section(Section::kGlobal);
  std::vector<Instruction*> order;
  std::unordered_map<const Instruction*, int> state;  // 1: visiting, 2: placed
  std::function<void(Instruction*)> place = [&](Instruction* inst) {
    int& mark = state[inst];
    if (mark != 0) return;  // placed, or a cycle through a forward pointer
    mark = 1;
    auto visit = [&](uint32_t id) {
      Instruction* def = this->def(id);
      if (def && def->list() == &globals) place(def);
    };
    if (inst->typeId()) visit(inst->typeId());
    for (const Operand& op : inst->operands()) {
      if (op.isId()) visit(op.words[0]);
    }
    state[inst] = 2;
    order.push_back(inst);
  };
  for (Instruction& inst : globals) place(&inst);
  for (Instruction* inst : order) globals.items_.splice(globals.items_.end(), globals.items_, inst->position_);
}

void Module::setOperand(Instruction* inst, size_t index, Operand operand) {
  assert(index < inst->operands_.size());
  if (inst->opcode_ == spv::Op::OpFunction || isShareableGlobal(inst->opcode_)) {
    // A type or constant is indexed by its operands too (get-or-create finds it by them).
    Instruction replacement = *inst;
    replacement.operands_[index] = std::move(operand);
    update(inst, std::move(replacement));
    return;
  }
  Operand& old = inst->operands_[index];
  if (old.isId()) dropUse(old.words[0], inst, static_cast<int>(index));
  if (operand.isId()) addUse(operand.words[0], inst, static_cast<int>(index));
  old = std::move(operand);
}

void Module::update(Instruction* inst, Instruction replacement) {
  // Most updates (a phi's incoming values, one operand rewritten) keep the opcode, the result and
  // its type: only the operands that change move in the use lists. A common type's list holds
  // every value of that type and is searched linearly, so re-indexing the result type on each
  // update made the structurizer's SSA rebuild quadratic (CLBlast's unrolled GEMM: minutes).
  bool sameDefinition = replacement.opcode_ == inst->opcode_ && replacement.resultId_ == inst->resultId_ &&
                        replacement.typeId_ == inst->typeId_ && inst->opcode_ != spv::Op::OpFunction &&
                        !isShareableGlobal(inst->opcode_);
  if (!sameDefinition) {
    unindex(inst);
    inst->opcode_ = replacement.opcode_;
    inst->typeId_ = replacement.typeId_;
    inst->resultId_ = replacement.resultId_;
    inst->operands_ = std::move(replacement.operands_);
    index(inst);
    return;
  }
  const std::vector<Operand>& before = inst->operands_;
  const std::vector<Operand>& after = replacement.operands_;
  auto sameId = [](const std::vector<Operand>& operands, size_t i, const Operand& op) {
    return i < operands.size() && operands[i].isId() && operands[i].words[0] == op.words[0];
  };
  for (size_t i = 0; i < before.size(); ++i) {
    if (before[i].isId() && !sameId(after, i, before[i])) dropUse(before[i].words[0], inst, static_cast<int>(i));
  }
  for (size_t i = 0; i < after.size(); ++i) {
    if (after[i].isId() && !sameId(before, i, after[i])) addUse(after[i].words[0], inst, static_cast<int>(i));
  }
  inst->operands_ = std::move(replacement.operands_);
}

void Module::replaceAllUses(uint32_t from, uint32_t to) {
  if (from == to) return;
  std::vector<Instruction*> users;
  for (const Use& use : uses(from)) {
    if (isAnnotationOf(*use.user, use.operandIndex)) continue;
    if (std::find(users.begin(), users.end(), use.user) == users.end()) users.push_back(use.user);
  }
  for (Instruction* user : users) {
    Instruction replacement = *user;
    if (replacement.typeId_ == from) replacement.typeId_ = to;
    for (size_t i = 0; i < replacement.operands_.size(); ++i) {
      Operand& op = replacement.operands_[i];
      if (op.isId() && op.words[0] == from && !isAnnotationOf(*user, static_cast<int>(i))) op.words[0] = to;
    }
    update(user, std::move(replacement));
  }
}

// --- Lookups ---

Instruction* Module::def(uint32_t id) const {
  auto it = defs_.find(id);
  return it == defs_.end() ? nullptr : it->second;
}

const std::vector<Use>& Module::uses(uint32_t id) const {
  auto it = uses_.find(id);
  return it == uses_.end() ? kNoUses : it->second;
}

bool Module::isUsed(uint32_t id) const {
  for (const Use& use : uses(id)) {
    if (!isAnnotationOf(*use.user, use.operandIndex)) return true;
  }
  return false;
}

std::string Module::name(uint32_t id) const {
  for (const Use& use : uses(id)) {
    if (use.user->opcode() == spv::Op::OpName && use.operandIndex == 0) return use.user->stringOperand(1);
  }
  return "";
}

std::vector<const Instruction*> Module::decorations(uint32_t id) const {
  std::vector<const Instruction*> result;
  for (const Use& use : uses(id)) {
    spv::Op op = use.user->opcode();
    bool direct = op == spv::Op::OpDecorate || op == spv::Op::OpDecorateId || op == spv::Op::OpDecorateString;
    if (direct && use.operandIndex == 0) {
      result.push_back(use.user);
    } else if (op == spv::Op::OpGroupDecorate && use.operandIndex >= 1) {
      auto viaGroup = decorations(use.user->idOperand(0));
      result.insert(result.end(), viaGroup.begin(), viaGroup.end());
    }
  }
  return result;
}

const Instruction* Module::findDecoration(uint32_t id, spv::Decoration decoration) const {
  for (const Instruction* inst : decorations(id)) {
    if (inst->wordOperand(1) == static_cast<uint32_t>(decoration)) return inst;
  }
  return nullptr;
}

Instruction* Module::findGlobal(const Instruction& value) const {
  auto [first, last] = globalValues_.equal_range(hashValue(value));
  Instruction* best = nullptr;
  for (auto it = first; it != last; ++it) {
    if (!it->second->sameValueAs(value)) continue;
    // Prefer the earliest definition so that lookups are stable whatever the insertion history.
    if (!best || it->second->resultId() < best->resultId()) best = it->second;
  }
  return best;
}

uint32_t Module::getOrAddGlobal(spv::Op opcode, uint32_t typeId, std::vector<Operand> operands) {
  assert(isShareableGlobal(opcode));
  Instruction value(opcode, typeId, 0, std::move(operands));
  if (Instruction* existing = findGlobal(value)) return existing->resultId();
  value.resultId_ = takeId();
  return append(Section::kGlobal, std::move(value))->resultId();
}

Function* Module::function(uint32_t id) const {
  auto it = functionsById_.find(id);
  return it == functionsById_.end() ? nullptr : it->second;
}

std::string Module::functionName(const Function& function) const {
  for (const Instruction& entry : section(Section::kEntryPoint)) {
    if (entry.idOperand(1) == function.id()) return entry.stringOperand(2);
  }
  std::string named = name(function.id());
  if (!named.empty()) return named;
  // Appended rather than concatenated: GCC 12 at -O3 warns falsely (-Wrestrict) about the latter.
  named = "%";
  named += std::to_string(function.id());
  return named;
}

std::string Module::describe(const Instruction& inst) const {
  std::string text;
  if (inst.resultId()) text = "%" + std::to_string(inst.resultId()) + " = ";
  text += opcodeName(inst.opcode());
  if (const Function* fn = inst.function()) text += " in function '" + functionName(*fn) + "'";
  return text;
}

Instruction* lastVariable(Function& function) {
  Instruction* last = &function.blocks().front().instructions().front();
  for (Instruction& inst : function.blocks().front().instructions()) {
    if (inst.opcode() == spv::Op::OpVariable) last = &inst;
  }
  return last;
}

}  // namespace cl2vk::ir
