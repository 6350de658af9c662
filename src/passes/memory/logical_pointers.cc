// __local and __private pointers as paths from their variables (logical_pointers.h).
#include "passes/memory/logical_pointers.h"

#include <algorithm>
#include <unordered_map>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/builder.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/memory/pointer_values.h"

namespace cl2vk::pointers {
namespace {

using ir::Builder;

// A Workgroup, Function or Private pointer as the access chain that reaches it from a variable.
struct Path {
  uint32_t root = 0;
  std::vector<uint32_t> indices;
};

class LogicalPointers {
 public:
  LogicalPointers(Module& module, Function& function) : module_(module), function_(function) {}

  Status run() {
    std::vector<Instruction*> phis;
    for (Block& block : function_.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (!isLogicalValue(inst)) continue;
        if (inst.opcode() == spv::Op::OpPhi) phis.push_back(&inst);
        CL2VK_TRY(describe(inst));
        derived_.push_back(&inst);
      }
    }
    for (Instruction* phi : phis) CL2VK_TRY(completePhi(*phi));
    CL2VK_TRY(rewriteUses());
    std::vector<Instruction*> dead;
    for (Instruction* inst : derived_) {
      if (inst->opcode() != spv::Op::OpVariable) dead.push_back(inst);
    }
    return module_.removeAll(dead);
  }

 private:
  bool isLogicalValue(const Instruction& inst) const {
    return isPointerValue(module_, inst) && isLogical(storageOf(module_, inst.typeId())) &&
           inst.opcode() != spv::Op::OpVariable;
  }

  Expected<Path> pathOf(const Instruction& user, uint32_t pointer) {
    if (auto it = paths_.find(pointer); it != paths_.end()) return it->second;
    const Instruction* def = module_.def(pointer);
    if (def && def->opcode() == spv::Op::OpVariable) return Path{pointer, {}};
    return ir::refuse(module_, user,
                      "a __local or __private pointer from an unsupported source (" +
                          (def ? ir::opcodeName(def->opcode()) : std::string("?")) + ")");
  }

  // The type a path reaches.
  Expected<uint32_t> typeAt(const Instruction& where, const Path& path) {
    uint32_t type = pointeeOf(module_, module_.def(path.root)->typeId());
    for (uint32_t index : path.indices) {
      const Instruction* def = module_.def(type);
      switch (def->opcode()) {
        case spv::Op::OpTypeArray:
        case spv::Op::OpTypeRuntimeArray:
        case spv::Op::OpTypeVector: type = def->idOperand(0); break;
        case spv::Op::OpTypeStruct: {
          std::optional<uint64_t> member = constantValue(module_, index);
          if (!member || *member >= def->numOperands())
            return ir::refuse(module_, where, "a struct member index that is not a constant");
          type = def->idOperand(*member);
          break;
        }
        default: return ir::refuse(module_, where, "indexes into a " + ir::opcodeName(def->opcode()));
      }
    }
    return type;
  }

  uint32_t integerWidth(uint32_t value) const { return module_.def(module_.def(value)->typeId())->wordOperand(0); }

  // `value` as a 64-bit index (sign-extended: pointer offsets are signed).
  uint32_t widen(Builder& b, uint32_t value) {
    if (integerWidth(value) == 64) return value;
    return b.valueOfIds(spv::Op::OpSConvert, ir::typeInt(module_, 64), {value});
  }

  Status describe(Instruction& inst) {
    Builder b = Builder::before(module_, &inst);
    switch (inst.opcode()) {
      case spv::Op::OpAccessChain:
      case spv::Op::OpInBoundsAccessChain:
      case spv::Op::OpPtrAccessChain:
      case spv::Op::OpInBoundsPtrAccessChain: {
        Expected<Path> base = pathOf(inst, inst.idOperand(0));
        if (!base) return base.error();
        Path path = *base;
        size_t first = 1;
        if (isPtrAccessChain(inst.opcode())) {
          uint32_t element = inst.idOperand(1);
          first = 2;
          if (constantValue(module_, element) != 0) {
            if (path.indices.empty())
              return ir::refuse(module_, inst, "pointer arithmetic that leaves a __local or __private variable");
            uint32_t last = path.indices.back();
            path.indices.back() =
                b.valueOfIds(spv::Op::OpIAdd, ir::typeInt(module_, 64), {widen(b, last), widen(b, element)});
          }
        }
        for (size_t i = first; i < inst.numOperands(); ++i) path.indices.push_back(inst.idOperand(i));
        return record(inst, std::move(path));
      }
      case spv::Op::OpBitcast:
      case spv::Op::OpCopyObject:
      case spv::Op::OpPtrCastToGeneric:
      case spv::Op::OpGenericCastToPtr:
      case spv::Op::OpGenericCastToPtrExplicit: {
        Expected<Path> base = pathOf(inst, inst.idOperand(0));
        if (!base) return base.error();
        Path path = *base;
        Expected<uint32_t> from = typeAt(inst, path);
        if (!from) return from.error();
        uint32_t to = pointeeOf(module_, inst.typeId());
        const Instruction* fromDef = module_.def(*from);
        if (*from != to && fromDef->opcode() == spv::Op::OpTypeArray && fromDef->idOperand(0) == to)
          path.indices.push_back(ir::constantUint(module_, 32, 0));  // array decays to its first element
        return record(inst, std::move(path));
      }
      case spv::Op::OpSelect: {
        Expected<Path> a = pathOf(inst, inst.idOperand(1));
        Expected<Path> c = pathOf(inst, inst.idOperand(2));
        if (!a) return a.error();
        if (!c) return c.error();
        if (a->root != c->root || a->indices.size() != c->indices.size() || a->indices.empty() ||
            !std::equal(a->indices.begin(), a->indices.end() - 1, c->indices.begin()))
          return ir::refuse(module_, inst, "selects between __local or __private pointers into different objects");
        Path path = *a;
        if (a->indices.back() != c->indices.back())
          path.indices.back() =
              b.valueOfIds(spv::Op::OpSelect, ir::typeInt(module_, 64),
                           {inst.idOperand(0), widen(b, a->indices.back()), widen(b, c->indices.back())});
        return record(inst, std::move(path));
      }
      case spv::Op::OpPhi: {
        // The shape comes from an incoming value defined before the phi; the varying last index
        // becomes a phi of its own once every incoming path is known.
        for (size_t i = 0; i < inst.numOperands(); i += 2) {
          auto known = paths_.find(inst.idOperand(i));
          const Instruction* def = module_.def(inst.idOperand(i));
          if (known == paths_.end() && !(def && def->opcode() == spv::Op::OpVariable)) continue;
          Path path = known != paths_.end() ? known->second : Path{inst.idOperand(i), {}};
          if (!path.indices.empty()) {
            uint32_t indexPhi = module_.takeId();
            module_.insertBefore(&inst, Instruction(spv::Op::OpPhi, ir::typeInt(module_, 64), indexPhi));
            path.indices.back() = indexPhi;
            indexPhis_[inst.resultId()] = indexPhi;
          }
          return record(inst, std::move(path));
        }
        return ir::refuse(module_, inst, "a phi of __local or __private pointers with no incoming value before it");
      }
      default:
        return ir::refuse(module_, inst, "this instruction cannot produce a __local or __private pointer in Vulkan");
    }
  }

  Status record(Instruction& inst, Path path) {
    Expected<uint32_t> reached = typeAt(inst, path);
    if (!reached) return reached.error();
    if (*reached != pointeeOf(module_, inst.typeId()))
      return ir::refuse(module_, inst, "reinterpreting __local or __private memory as another type is not supported");
    paths_[inst.resultId()] = std::move(path);
    return okStatus();
  }

  Status completePhi(Instruction& phi) {
    const Path& shape = paths_.at(phi.resultId());
    auto indexPhi = indexPhis_.find(phi.resultId());
    std::vector<Operand> incoming;
    for (size_t i = 0; i < phi.numOperands(); i += 2) {
      uint32_t value = phi.idOperand(i);
      const Instruction* def = module_.def(value);
      if (def && (def->opcode() == spv::Op::OpUndef || def->opcode() == spv::Op::OpConstantNull)) {
        if (shape.indices.empty()) continue;  // an undefined pointer may as well be this one
        incoming.push_back(Operand::id(ir::constantUint(module_, 64, 0)));
        incoming.push_back(Operand::id(phi.idOperand(i + 1)));
        continue;
      }
      Expected<Path> path = pathOf(phi, value);
      if (!path) return path.error();
      if (path->root != shape.root || path->indices.size() != shape.indices.size() ||
          (!shape.indices.empty() &&
           !std::equal(shape.indices.begin(), shape.indices.end() - 1, path->indices.begin())))
        return ir::refuse(module_, phi, "a phi of __local or __private pointers into different objects");
      if (shape.indices.empty()) continue;
      Block* predecessor = module_.def(phi.idOperand(i + 1))->block();
      Builder b = Builder::before(module_, predecessor->terminator());
      incoming.push_back(Operand::id(widen(b, path->indices.back())));
      incoming.push_back(Operand::id(phi.idOperand(i + 1)));
    }
    if (indexPhi != indexPhis_.end()) {
      Instruction* index = module_.def(indexPhi->second);
      module_.update(index, Instruction(spv::Op::OpPhi, index->typeId(), index->resultId(), std::move(incoming)));
    }
    return okStatus();
  }

  // Every access through a logical pointer gets an access chain built right before it.
  Status rewriteUses() {
    std::vector<Instruction*> users;
    for (Block& block : function_.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (paths_.contains(inst.resultId())) continue;  // pointer arithmetic itself
        for (const Operand& op : inst.operands()) {
          if (op.isId() && paths_.contains(op.words[0])) {
            users.push_back(&inst);
            break;
          }
        }
      }
    }
    for (Instruction* user : users) {
      bool access =
          user->opcode() == spv::Op::OpLoad || user->opcode() == spv::Op::OpStore || ir::isAtomic(user->opcode());
      if (!access) return unsupportedPointerUse(module_, *user);
      if (user->opcode() == spv::Op::OpStore && paths_.contains(user->idOperand(1)))
        return ir::refuse(module_, *user, "storing a __local or __private pointer in memory is not supported");
      std::vector<Operand> operands = user->operands();
      uint32_t pointer = operands[0].words[0];
      const Path& path = paths_.at(pointer);
      uint32_t chain = path.root;
      if (!path.indices.empty()) {
        Builder b = Builder::before(module_, user);
        std::vector<uint32_t> ids = {path.root};
        ids.insert(ids.end(), path.indices.begin(), path.indices.end());
        chain = b.valueOfIds(spv::Op::OpAccessChain, module_.def(pointer)->typeId(), ids);
      }
      operands[0].words[0] = chain;
      module_.update(user, Instruction(user->opcode(), user->typeId(), user->resultId(), std::move(operands)));
    }
    return okStatus();
  }

  Module& module_;
  Function& function_;
  std::unordered_map<uint32_t, Path> paths_;
  std::unordered_map<uint32_t, uint32_t> indexPhis_;
  std::vector<Instruction*> derived_;
};

}  // namespace

Status lowerLogicalPointers(ir::Module& module, ir::Function& function) {
  LogicalPointers logical(module, function);
  return logical.run();
}

}  // namespace cl2vk::pointers
