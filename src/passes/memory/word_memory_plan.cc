// Which __local and __private variables become word objects (word_memory_lowering.h).
//
// Pointer values are grouped with union-find: a pointer derived from another, or a phi or select
// of several, joins their group; a pointer loaded from memory or made from an integer joins the
// group of every escaped pointer of its storage class (its "heap"). A group becomes a word object
// when the typed rewrite (logical_pointers.cc) could not express it: it holds several variables or
// a heap, a pointer in it is reinterpreted as another type or leaves its variable, is stored in
// memory, converted to an integer or compared, or its memory holds pointers or is copied from or
// to memory of another type. The typed rewrite's rules are mirrored here on paths of index ids,
// so that anything this planner leaves typed is something that rewrite accepts.
#include <algorithm>
#include <unordered_map>
#include <unordered_set>

#include "analysis/data_layout.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/memory/word_memory_lowering.h"

namespace cl2vk::pointers {
namespace {

// Keys of the union-find: value ids, and a heap per storage class (per function for Function).
using Key = uint64_t;
Key heapKey(SC storage, const Function* function) {
  return (Key{1} << 48) | (Key{static_cast<uint32_t>(storage)} << 32) | (function ? function->id() : 0);
}
bool isHeap(Key key) { return key >> 48 != 0; }

class UnionFind {
 public:
  Key find(Key key) {
    Key root = parent_.try_emplace(key, key).first->second;
    while (parent_.at(root) != root) root = parent_.at(root);
    while (key != root) {  // path compression, iteratively: chains can be as long as a kernel
      Key next = parent_.at(key);
      parent_[key] = root;
      key = next;
    }
    return root;
  }
  void unite(Key a, Key b) {
    Key ra = find(a), rb = find(b);
    if (ra != rb) parent_[ra] = rb;
  }
  std::vector<Key> keys() const {
    std::vector<Key> all;
    for (const auto& [key, parent] : parent_) all.push_back(key);
    return all;
  }

 private:
  std::unordered_map<Key, Key> parent_;
};

// A pointer as the typed rewrite would see it: a variable and the indices from it. Indices the
// rewrite would compute are tokens at or above the module's bound, which equal nothing else.
struct Path {
  uint32_t root = 0;
  std::vector<uint32_t> indices;
};

bool containsLogicalPointer(const Module& module, uint32_t type, int depth = 0) {
  const Instruction* def = module.def(type);
  if (!def || depth > 16) return false;
  switch (def->opcode()) {
    case spv::Op::OpTypePointer: return isLogical(storageOf(module, type));
    case spv::Op::OpTypeArray:
    case spv::Op::OpTypeRuntimeArray:
    case spv::Op::OpTypeVector: return containsLogicalPointer(module, def->idOperand(0), depth + 1);
    case spv::Op::OpTypeStruct:
      for (size_t i = 0; i < def->numOperands(); ++i)
        if (containsLogicalPointer(module, def->idOperand(i), depth + 1)) return true;
      return false;
    default: return false;
  }
}

class Planner {
 public:
  explicit Planner(Module& module) : module_(module), nextToken_(module.bound()), zeroToken_(nextToken_++) {}

  Expected<WordPlan> run() {
    for (Function& function : module_.functions()) {
      if (function.isDeclaration()) continue;
      linkValues(function);
    }
    for (Function& function : module_.functions()) {
      if (function.isDeclaration()) continue;
      markUses(function);
      mirrorTypedRewrite(function);
    }
    return plan();
  }

 private:
  // __local and __private pointers, and program-scope __constant tables (UniformConstant
  // variables, which become Private ones).
  bool isLogicalPointer(uint32_t id) const {
    const Instruction* def = module_.def(id);
    if (!def || !isPointerValue(module_, *def)) return false;
    SC storage = storageOf(module_, def->typeId());
    return isLogical(storage) || (storage == SC::UniformConstant && def->opcode() == spv::Op::OpVariable);
  }
  bool isNullOrUndef(uint32_t id) const {
    const Instruction* def = module_.def(id);
    return def && (def->opcode() == spv::Op::OpConstantNull || def->opcode() == spv::Op::OpUndef);
  }
  SC storageOfValue(uint32_t id) const {
    SC storage = storageOf(module_, module_.def(id)->typeId());
    return storage == SC::UniformConstant ? SC::Private : storage;
  }
  void link(uint32_t value, uint32_t other) {
    if (isLogicalPointer(other) && !isNullOrUndef(other)) groups_.unite(value, other);
  }
  // A null or undefined pointer is a constant that every function shares and that points
  // nowhere: it escapes nothing.
  void escape(uint32_t value, Function& function) {
    if (isNullOrUndef(value)) return;
    SC storage = storageOfValue(value);
    groups_.unite(value, heapKey(storage, storage == SC::Function ? &function : nullptr));
  }
  void mark(uint32_t value) {
    if (isLogicalPointer(value) && !isNullOrUndef(value)) marked_.push_back(value);
  }

  void linkValues(Function& function) {
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (!isLogicalPointer(inst.resultId())) continue;
        uint32_t id = inst.resultId();
        groups_.find(id);
        if (forwardsPointer(inst.opcode())) {
          link(id, inst.idOperand(0));
        } else if (inst.opcode() == spv::Op::OpPhi) {
          for (size_t i = 0; i < inst.numOperands(); i += 2) link(id, inst.idOperand(i));
        } else if (inst.opcode() == spv::Op::OpSelect) {
          link(id, inst.idOperand(1));
          link(id, inst.idOperand(2));
        } else if (inst.opcode() == spv::Op::OpLoad || inst.opcode() == spv::Op::OpConvertUToPtr) {
          escape(id, function);
        }
      }
    }
  }

  void markUses(Function& function) {
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        switch (inst.opcode()) {
          case spv::Op::OpVariable:
            if (isLogicalPointer(inst.resultId()) && containsLogicalPointer(module_, pointeeOf(module_, inst.typeId())))
              mark(inst.resultId());
            break;
          case spv::Op::OpStore: {
            uint32_t stored = inst.idOperand(1);
            if (isLogicalPointer(stored)) {
              mark(stored);
              escape(stored, function);
            }
            if (containsLogicalPointer(module_, ir::typeOf(module_, stored))) mark(inst.idOperand(0));
            break;
          }
          case spv::Op::OpLoad:
            if (containsLogicalPointer(module_, inst.typeId())) mark(inst.idOperand(0));
            break;
          case spv::Op::OpConvertPtrToU:
            if (isLogicalPointer(inst.idOperand(0))) {
              mark(inst.idOperand(0));
              escape(inst.idOperand(0), function);
            }
            break;
          case spv::Op::OpPtrEqual:
          case spv::Op::OpPtrNotEqual:
          case spv::Op::OpPtrDiff: {
            uint32_t a = inst.idOperand(0), b = inst.idOperand(1);
            if (!isLogicalPointer(a) && !isLogicalPointer(b)) break;
            if (isNullOrUndef(a) && isNullOrUndef(b)) break;
            mark(a);
            mark(b);
            if (isLogicalPointer(a) && isLogicalPointer(b) && !isNullOrUndef(a) && !isNullOrUndef(b)) {
              groups_.unite(a, b);
            } else {
              // Compared with null: offset 0 must not be a valid pointer.
              escape(isNullOrUndef(a) ? b : a, function);
            }
            break;
          }
          case spv::Op::OpCopyMemory:
          case spv::Op::OpCopyMemorySized:
            // Copies between objects of one type became loads and stores before this pass.
            mark(inst.idOperand(0));
            mark(inst.idOperand(1));
            break;
          default: break;
        }
      }
    }
    for (Instruction& param : function.header()) {
      if (param.opcode() == spv::Op::OpFunctionParameter && isLogicalPointer(param.resultId()))
        opaque_.insert(param.resultId());
    }
  }

  // --- The typed rewrite's rules (logical_pointers.cc), on paths ---------------------------------

  uint32_t token() { return nextToken_++; }

  const Path* pathOf(uint32_t pointer) {
    auto it = paths_.find(pointer);
    if (it != paths_.end()) return &it->second;
    const Instruction* def = module_.def(pointer);
    if (!def || def->opcode() != spv::Op::OpVariable) return nullptr;
    return &(paths_[pointer] = Path{pointer, {}});
  }

  // The type a path reaches, or 0 where the typed rewrite would refuse it.
  uint32_t typeAt(const Path& path) const {
    uint32_t type = pointeeOf(module_, module_.def(path.root)->typeId());
    for (uint32_t index : path.indices) {
      const Instruction* def = module_.def(type);
      switch (def->opcode()) {
        case spv::Op::OpTypeArray:
        case spv::Op::OpTypeRuntimeArray:
        case spv::Op::OpTypeVector: type = def->idOperand(0); break;
        case spv::Op::OpTypeStruct: {
          std::optional<uint64_t> member = index == zeroToken_ ? 0 : constantValue(module_, index);
          if (!member || *member >= def->numOperands()) return 0;
          type = def->idOperand(*member);
          break;
        }
        default: return 0;
      }
    }
    return type;
  }

  static bool samePrefix(const Path& a, const Path& b) {
    return a.root == b.root && a.indices.size() == b.indices.size() && !a.indices.empty() &&
           std::equal(a.indices.begin(), a.indices.end() - 1, b.indices.begin());
  }

  // The path the typed rewrite would give `inst`, or nothing where it would refuse it.
  std::optional<Path> describe(const Instruction& inst) {
    switch (inst.opcode()) {
      case spv::Op::OpAccessChain:
      case spv::Op::OpInBoundsAccessChain:
      case spv::Op::OpPtrAccessChain:
      case spv::Op::OpInBoundsPtrAccessChain: {
        const Path* base = pathOf(inst.idOperand(0));
        if (!base) return std::nullopt;
        Path path = *base;
        size_t first = 1;
        if (isPtrAccessChain(inst.opcode())) {
          first = 2;
          if (constantValue(module_, inst.idOperand(1)) != 0) {
            if (path.indices.empty()) return std::nullopt;
            path.indices.back() = token();
          }
        }
        for (size_t i = first; i < inst.numOperands(); ++i) path.indices.push_back(inst.idOperand(i));
        return path;
      }
      case spv::Op::OpBitcast:
      case spv::Op::OpCopyObject:
      case spv::Op::OpPtrCastToGeneric:
      case spv::Op::OpGenericCastToPtr:
      case spv::Op::OpGenericCastToPtrExplicit: {
        const Path* base = pathOf(inst.idOperand(0));
        if (!base) return std::nullopt;
        Path path = *base;
        uint32_t from = typeAt(path);
        if (!from) return std::nullopt;
        uint32_t to = pointeeOf(module_, inst.typeId());
        const Instruction* fromDef = module_.def(from);
        if (from != to && fromDef->opcode() == spv::Op::OpTypeArray && fromDef->idOperand(0) == to)
          path.indices.push_back(zeroToken_);
        return path;
      }
      case spv::Op::OpSelect: {
        const Path* a = pathOf(inst.idOperand(1));
        const Path* c = pathOf(inst.idOperand(2));
        if (!a || !c || !samePrefix(*a, *c)) return std::nullopt;
        Path path = *a;
        if (a->indices.back() != c->indices.back()) path.indices.back() = token();
        return path;
      }
      case spv::Op::OpPhi:
        for (size_t i = 0; i < inst.numOperands(); i += 2) {
          const Path* known =
              paths_.contains(inst.idOperand(i)) || module_.def(inst.idOperand(i))->opcode() == spv::Op::OpVariable
                  ? pathOf(inst.idOperand(i))
                  : nullptr;
          if (!known) continue;
          Path path = *known;
          if (!path.indices.empty()) path.indices.back() = token();
          return path;
        }
        return std::nullopt;
      default: return std::nullopt;
    }
  }

  void mirrorTypedRewrite(Function& function) {
    std::vector<const Instruction*> phis;
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (!isLogicalPointer(inst.resultId()) || inst.opcode() == spv::Op::OpVariable) continue;
        std::optional<Path> path = describe(inst);
        if (!path || typeAt(*path) != pointeeOf(module_, inst.typeId())) {
          mark(inst.resultId());
          continue;
        }
        if (inst.opcode() == spv::Op::OpPhi) phis.push_back(&inst);
        paths_[inst.resultId()] = std::move(*path);
      }
    }
    for (const Instruction* phi : phis) {
      const Path& shape = paths_.at(phi->resultId());
      for (size_t i = 0; i < phi->numOperands(); i += 2) {
        if (isNullOrUndef(phi->idOperand(i))) continue;
        const Path* path = pathOf(phi->idOperand(i));
        bool same = path && (shape.indices.empty() ? path->root == shape.root && path->indices.empty()
                                                   : samePrefix(*path, shape));
        if (!same) mark(phi->resultId());
      }
    }
  }

  // --- The plan ----------------------------------------------------------------------------------

  Expected<WordPlan> plan() {
    struct Group {
      std::vector<uint32_t> variables, values;
      bool heap = false, marked = false;
      SC storage = SC::Function;
      Function* function = nullptr;
    };
    std::unordered_map<Key, Group> groups;
    for (Key key : groups_.keys()) {
      Group& group = groups[groups_.find(key)];
      if (isHeap(key)) {
        group.heap = true;
        group.storage = static_cast<SC>((key >> 32) & 0xffff);
        if (group.storage == SC::Function) group.function = module_.function(static_cast<uint32_t>(key));
        continue;
      }
      uint32_t id = static_cast<uint32_t>(key);
      Instruction* def = module_.def(id);
      group.values.push_back(id);
      group.storage = storageOfValue(id);
      if (def->opcode() == spv::Op::OpVariable) {
        group.variables.push_back(id);
        if (def->function()) group.function = def->function();
      }
    }
    for (uint32_t value : marked_) groups[groups_.find(value)].marked = true;

    // Objects in a fixed order (by their first variable, else their heap), so that the output
    // does not depend on hashing.
    std::vector<std::pair<Key, Group*>> chosen;
    for (auto& [key, group] : groups) {
      if (!group.marked && !group.heap && group.variables.size() < 2) continue;
      if (group.variables.empty() && !group.heap) continue;  // only opaque pointers: the typed rewrite reports them
      bool opaque = false;
      for (uint32_t value : group.values) opaque |= opaque_.contains(value);
      if (opaque) continue;  // a parameter of a function left uninlined: reported by the typed rewrite
      std::sort(group.variables.begin(), group.variables.end());
      Key order = group.variables.empty() ? heapKey(group.storage, group.function) : group.variables.front();
      chosen.emplace_back(order, &group);
    }
    std::sort(chosen.begin(), chosen.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    WordPlan plan;
    for (const auto& [order, group] : chosen) {
      for (uint32_t value : group->values) plan.objectOf[value] = plan.objects.size();
      plan.objects.push_back(WordObject{group->storage, group->function, group->variables, group->heap});
    }
    return plan;
  }

  Module& module_;
  uint32_t nextToken_;
  const uint32_t zeroToken_;
  UnionFind groups_;
  std::vector<uint32_t> marked_;
  std::unordered_set<uint32_t> opaque_;
  std::unordered_map<uint32_t, Path> paths_;
};

}  // namespace

Expected<WordPlan> planWordObjects(Module& module) { return Planner(module).run(); }

}  // namespace cl2vk::pointers
