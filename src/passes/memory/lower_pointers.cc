#include "passes/memory/lower_pointers.h"

#include <algorithm>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "ir/builder.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "analysis/data_layout.h"

namespace cl2vk {
namespace {

using ir::Block;
using ir::Builder;
using ir::Function;
using ir::Instruction;
using ir::Module;
using ir::Operand;
using SC = spv::StorageClass;

Operand storageOperand(SC storage) {
  return Operand::enumerant(SPV_OPERAND_TYPE_STORAGE_CLASS, static_cast<uint32_t>(storage));
}

const Instruction* pointerType(const Module& module, uint32_t type) {
  const Instruction* def = module.def(type);
  return def && def->opcode() == spv::Op::OpTypePointer ? def : nullptr;
}

bool isPointerValue(const Module& module, const Instruction& inst) {
  return inst.typeId() && pointerType(module, inst.typeId());
}

SC storageOf(const Module& module, uint32_t type) { return static_cast<SC>(pointerType(module, type)->wordOperand(0)); }
uint32_t pointeeOf(const Module& module, uint32_t type) { return pointerType(module, type)->idOperand(1); }

bool isLogical(SC storage) {
  return storage == SC::Workgroup || storage == SC::Function || storage == SC::Private;
}

bool isAccessChain(spv::Op op) {
  return op == spv::Op::OpAccessChain || op == spv::Op::OpInBoundsAccessChain || op == spv::Op::OpPtrAccessChain ||
         op == spv::Op::OpInBoundsPtrAccessChain;
}
bool isPtrAccessChain(spv::Op op) { return op == spv::Op::OpPtrAccessChain || op == spv::Op::OpInBoundsPtrAccessChain; }

// Instructions whose result points where their first operand points.
bool forwardsPointer(spv::Op op) {
  return isAccessChain(op) || op == spv::Op::OpBitcast || op == spv::Op::OpCopyObject || op == spv::Op::OpPtrCastToGeneric ||
         op == spv::Op::OpGenericCastToPtr || op == spv::Op::OpGenericCastToPtrExplicit;
}

std::string kernelOf(const Module& module, const Instruction& inst) {
  return inst.function() ? module.functionName(*inst.function()) : "?";
}

Error unsupported(const Module& module, const Instruction& inst, const std::string& why) {
  return Error("kernel '" + kernelOf(module, inst) + "': " + module.describe(inst) + ": " + why);
}

// --- Address spaces -------------------------------------------------------------------------

// Where a pointer value points, once generic and __constant pointers are resolved.
std::optional<SC> spaceOfType(SC storage) {
  switch (storage) {
    case SC::CrossWorkgroup:
    case SC::PhysicalStorageBuffer: return SC::PhysicalStorageBuffer;
    case SC::UniformConstant:
    case SC::Generic: return std::nullopt;
    default: return storage;
  }
}

class SpaceInference {
 public:
  SpaceInference(Module& module, Function& function) : module_(module), function_(function) {}

  Status run() {
    bool changed = true;
    while (changed) {
      changed = false;
      for (Block& block : function_.blocks()) {
        for (Instruction& inst : block.instructions()) {
          if (!isPointerValue(module_, inst) || spaces_.contains(inst.resultId())) continue;
          std::optional<SC> space = infer(inst);
          if (space) {
            spaces_[inst.resultId()] = *space;
            changed = true;
          }
        }
      }
    }
    for (Block& block : function_.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (!isPointerValue(module_, inst) || spaces_.contains(inst.resultId())) continue;
        if (inst.opcode() == spv::Op::OpLoad)
          return unsupported(module_, inst, "a generic or __constant pointer loaded from memory is not supported");
        return unsupported(module_, inst, "cannot tell which address space this pointer points into");
      }
    }
    return okStatus();
  }

  std::optional<SC> spaceOf(uint32_t id) const {
    if (auto it = spaces_.find(id); it != spaces_.end()) return it->second;
    const Instruction* def = module_.def(id);
    if (def && def->opcode() == spv::Op::OpVariable) {
      SC storage = static_cast<SC>(def->wordOperand(0));
      return storage == SC::UniformConstant ? SC::Private : *spaceOfType(storage);
    }
    return std::nullopt;
  }

  const std::unordered_map<uint32_t, SC>& spaces() const { return spaces_; }

 private:
  std::optional<SC> infer(const Instruction& inst) {
    SC declared = storageOf(module_, inst.typeId());
    switch (inst.opcode()) {
      case spv::Op::OpVariable:
        return declared == SC::UniformConstant ? SC::Private : spaceOfType(declared);
      case spv::Op::OpConvertUToPtr:
        return spaceOfType(declared).value_or(SC::PhysicalStorageBuffer);
      case spv::Op::OpPhi: {
        std::optional<SC> joined;
        for (size_t i = 0; i < inst.numOperands(); i += 2) {
          std::optional<SC> incoming = spaceOf(inst.idOperand(i));
          if (!incoming) continue;
          if (joined && *joined != *incoming) return spaceOfType(declared);  // reported by the users
          joined = incoming;
        }
        return joined;
      }
      case spv::Op::OpSelect: {
        std::optional<SC> a = spaceOf(inst.idOperand(1)), b = spaceOf(inst.idOperand(2));
        return a ? a : b;
      }
      default:
        if (forwardsPointer(inst.opcode())) {
          if (std::optional<SC> known = spaceOfType(declared); known && inst.opcode() != spv::Op::OpGenericCastToPtrExplicit)
            return known;
          return spaceOf(inst.idOperand(0));
        }
        return spaceOfType(declared);
    }
  }

  Module& module_;
  Function& function_;
  std::unordered_map<uint32_t, SC> spaces_;
};

// --- Logical pointers as paths ----------------------------------------------------------------

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
    return unsupported(module_, user, "a __local or __private pointer from an unsupported source (" +
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
        case spv::Op::OpTypeVector:
          type = def->idOperand(0);
          break;
        case spv::Op::OpTypeStruct: {
          std::optional<uint64_t> member = constantValue(module_, index);
          if (!member || *member >= def->numOperands()) return unsupported(module_, where, "a struct member index that is not a constant");
          type = def->idOperand(*member);
          break;
        }
        default:
          return unsupported(module_, where, "indexes into a " + ir::opcodeName(def->opcode()));
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
              return unsupported(module_, inst, "pointer arithmetic that leaves a __local or __private variable");
            uint32_t last = path.indices.back();
            path.indices.back() = b.valueOfIds(spv::Op::OpIAdd, ir::typeInt(module_, 64), {widen(b, last), widen(b, element)});
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
          return unsupported(module_, inst, "selects between __local or __private pointers into different objects");
        Path path = *a;
        if (a->indices.back() != c->indices.back())
          path.indices.back() = b.valueOfIds(spv::Op::OpSelect, ir::typeInt(module_, 64),
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
        return unsupported(module_, inst, "a phi of __local or __private pointers with no incoming value before it");
      }
      default:
        return unsupported(module_, inst, "this instruction cannot produce a __local or __private pointer in Vulkan");
    }
  }

  Status record(Instruction& inst, Path path) {
    Expected<uint32_t> reached = typeAt(inst, path);
    if (!reached) return reached.error();
    if (*reached != pointeeOf(module_, inst.typeId()))
      return unsupported(module_, inst, "reinterpreting __local or __private memory as another type is not supported");
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
          (!shape.indices.empty() && !std::equal(shape.indices.begin(), shape.indices.end() - 1, path->indices.begin())))
        return unsupported(module_, phi, "a phi of __local or __private pointers into different objects");
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
      bool access = user->opcode() == spv::Op::OpLoad || user->opcode() == spv::Op::OpStore || ir::isAtomic(user->opcode());
      if (!access) return unsupported(module_, *user, "uses a __local or __private pointer in a way Vulkan cannot express");
      if (user->opcode() == spv::Op::OpStore && paths_.contains(user->idOperand(1)))
        return unsupported(module_, *user, "storing a __local or __private pointer in memory is not supported");
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

// --- The pass ----------------------------------------------------------------------------------

class PointerLowering {
 public:
  explicit PointerLowering(Module& module) : module_(module) {}

  Status run() {
    removeLifetimeMarkers();
    retypeGlobalPointerTypes();
    for (Function& function : module_.functions()) {
      if (function.isDeclaration()) continue;
      CL2VK_TRY(lowerMemoryCopies(function));
      removeUnusedPointerArithmetic(function);
      SpaceInference spaces(module_, function);
      CL2VK_TRY(spaces.run());
      CL2VK_TRY(checkAddressesTaken(function, spaces));
      retypeValues(spaces);
      LogicalPointers logical(module_, function);
      CL2VK_TRY(logical.run());
      CL2VK_TRY(lowerPhysicalOperations(function));
    }
    tablesBecomePrivate();
    return layOutPhysicalTypes();
  }

 private:
  void removeLifetimeMarkers() {
    std::vector<Instruction*> markers;
    for (Function& function : module_.functions()) {
      for (Block& block : function.blocks()) {
        for (Instruction& inst : block.instructions()) {
          if (inst.opcode() == spv::Op::OpLifetimeStart || inst.opcode() == spv::Op::OpLifetimeStop) markers.push_back(&inst);
        }
      }
    }
    for (Instruction* marker : markers) (void)module_.remove(marker);  // no result: cannot fail
  }

  // Only buffer memory has addresses in Vulkan: a __local or __private pointer cannot become an
  // integer (found by a substitution search: the translation was an OpConvertPtrToU Vulkan rejects).
  Status checkAddressesTaken(Function& function, const SpaceInference& spaces) {
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (inst.opcode() != spv::Op::OpConvertPtrToU) continue;
        std::optional<SC> space = spaces.spaceOf(inst.idOperand(0));
        if (space && *space != SC::PhysicalStorageBuffer)
          return unsupported(module_, inst,
                             "a __local or __private pointer converted to an integer is not supported (Vulkan's "
                             "shared and private memory have no addresses)");
      }
    }
    return okStatus();
  }

  // Casts and arithmetic whose pointers nobody uses (left by lifetime markers and copies) go
  // first, so that they need no translation.
  void removeUnusedPointerArithmetic(Function& function) {
    bool removed = true;
    while (removed) {
      removed = false;
      for (Block& block : function.blocks()) {
        std::vector<Instruction*> dead;
        for (Instruction& inst : block.instructions()) {
          bool pure = forwardsPointer(inst.opcode()) || inst.opcode() == spv::Op::OpPhi || inst.opcode() == spv::Op::OpSelect;
          if (pure && isPointerValue(module_, inst) && !module_.isUsed(inst.resultId())) dead.push_back(&inst);
        }
        for (Instruction* inst : dead) removed |= module_.remove(inst).ok();
      }
    }
  }

  // CrossWorkgroup pointer types become PhysicalStorageBuffer ones in place: every value, and
  // every type that contains one, follows.
  void retypeGlobalPointerTypes() {
    std::vector<Instruction*> types;
    for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
      if (inst.opcode() == spv::Op::OpTypePointer && storageOfPointer(inst) == SC::CrossWorkgroup) types.push_back(&inst);
    }
    for (Instruction* type : types) {
      module_.update(type, Instruction(spv::Op::OpTypePointer, 0, type->resultId(),
                                       {storageOperand(SC::PhysicalStorageBuffer), type->operand(1)}));
    }
  }

  static SC storageOfPointer(const Instruction& type) { return static_cast<SC>(type.wordOperand(0)); }

  void retypeValues(const SpaceInference& spaces) {
    for (const auto& [id, space] : spaces.spaces()) {
      Instruction* inst = module_.def(id);
      if (storageOf(module_, inst->typeId()) == space) continue;
      uint32_t type = ir::typePointer(module_, space, pointeeOf(module_, inst->typeId()));
      std::vector<Operand> operands = inst->operands();
      if (inst->opcode() == spv::Op::OpVariable) operands[0] = storageOperand(space);
      module_.update(inst, Instruction(inst->opcode(), type, inst->resultId(), std::move(operands)));
    }
  }

  // The pointer a byte-pointer cast was made from (clang copies structs through char pointers).
  uint32_t throughByteCasts(uint32_t pointer) const {
    const Instruction* def = module_.def(pointer);
    while (def && (def->opcode() == spv::Op::OpBitcast || def->opcode() == spv::Op::OpPtrCastToGeneric)) {
      pointer = def->idOperand(0);
      def = module_.def(pointer);
    }
    return pointer;
  }

  Status lowerMemoryCopies(Function& function) {
    std::vector<Instruction*> copies;
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (inst.opcode() == spv::Op::OpCopyMemory || inst.opcode() == spv::Op::OpCopyMemorySized) copies.push_back(&inst);
      }
    }
    for (Instruction* copy : copies) {
      uint32_t target = throughByteCasts(copy->idOperand(0));
      uint32_t source = throughByteCasts(copy->idOperand(1));
      uint32_t type = pointeeOf(module_, module_.def(target)->typeId());
      if (type != pointeeOf(module_, module_.def(source)->typeId()))
        return unsupported(module_, *copy, "copies memory between objects of different types");
      Expected<TypeLayout> layout = layoutOf(module_, type);
      if (!layout) return unsupported(module_, *copy, layout.error().message());
      if (copy->opcode() == spv::Op::OpCopyMemorySized && constantValue(module_, copy->idOperand(2)) != layout->size)
        return unsupported(module_, *copy, "copies part of an object, or a size that is not a constant");
      Builder b = Builder::before(module_, copy);
      uint32_t value = b.valueOfIds(spv::Op::OpLoad, type, {source});
      b.add(spv::Op::OpStore, 0, {Operand::id(target), Operand::id(value)});
      CL2VK_TRY(module_.remove(copy));
    }
    return okStatus();
  }

  Status lowerPhysicalOperations(Function& function) {
    std::vector<Instruction*> accesses;
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) accesses.push_back(&inst);
    }
    for (Instruction* inst : accesses) {
      switch (inst->opcode()) {
        case spv::Op::OpInBoundsPtrAccessChain:
        case spv::Op::OpPtrAccessChain: {
          uint32_t baseType = module_.def(inst->idOperand(0))->typeId();
          if (storageOf(module_, baseType) != SC::PhysicalStorageBuffer) break;
          strided_.insert(baseType);
          if (inst->opcode() == spv::Op::OpInBoundsPtrAccessChain)
            module_.update(inst, Instruction(spv::Op::OpPtrAccessChain, inst->typeId(), inst->resultId(), inst->operands()));
          break;
        }
        case spv::Op::OpLoad:
        case spv::Op::OpStore: {
          uint32_t pointer = inst->idOperand(0);
          uint32_t type = module_.def(pointer)->typeId();
          if (storageOf(module_, type) != SC::PhysicalStorageBuffer) break;
          size_t memoryOperand = inst->opcode() == spv::Op::OpLoad ? 1 : 2;
          if (inst->numOperands() > memoryOperand &&
              (inst->wordOperand(memoryOperand) & static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)))
            break;
          Expected<TypeLayout> layout = layoutOf(module_, pointeeOf(module_, type));
          if (!layout) return unsupported(module_, *inst, layout.error().message());
          std::vector<Operand> operands(inst->operands().begin(), inst->operands().begin() + static_cast<long>(memoryOperand));
          uint32_t mask = inst->numOperands() > memoryOperand ? inst->wordOperand(memoryOperand) : 0;
          operands.push_back(Operand::enumerant(SPV_OPERAND_TYPE_MEMORY_ACCESS, mask | static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)));
          // Aligned (bit 1) takes its literal before those of any higher mask bits.
          operands.push_back(Operand::literal(layout->alignment));
          for (size_t i = memoryOperand + 1; i < inst->numOperands(); ++i) operands.push_back(inst->operand(i));
          module_.update(inst, Instruction(inst->opcode(), inst->typeId(), inst->resultId(), std::move(operands)));
          break;
        }
        case spv::Op::OpPtrCastToGeneric:
        case spv::Op::OpGenericCastToPtr:
        case spv::Op::OpGenericCastToPtrExplicit: {
          // Generic casts of buffer pointers: the same address, perhaps under another pointer type.
          if (storageOf(module_, inst->typeId()) != SC::PhysicalStorageBuffer) break;
          uint32_t source = inst->idOperand(0);
          if (module_.def(source)->typeId() == inst->typeId()) {
            module_.replaceAllUses(inst->resultId(), source);
            CL2VK_TRY(module_.remove(inst));
          } else {
            module_.update(inst, Instruction(spv::Op::OpBitcast, inst->typeId(), inst->resultId(), {Operand::id(source)}));
          }
          break;
        }
        case spv::Op::OpPtrEqual:
        case spv::Op::OpPtrNotEqual:
        case spv::Op::OpPtrDiff:
          return unsupported(module_, *inst, "pointer comparison and difference are not supported yet");
        default:
          break;
      }
    }
    return okStatus();
  }

  // Program-scope __constant tables: UniformConstant variables become Private ones.
  void tablesBecomePrivate() {
    std::vector<Instruction*> tables;
    for (Instruction& inst : module_.section(ir::Section::kGlobal)) {
      if (inst.opcode() == spv::Op::OpVariable && static_cast<SC>(inst.wordOperand(0)) == SC::UniformConstant)
        tables.push_back(&inst);
    }
    for (Instruction* table : tables) {
      std::vector<Operand> operands = table->operands();
      operands[0] = storageOperand(SC::Private);
      uint32_t type = ir::typePointer(module_, SC::Private, pointeeOf(module_, table->typeId()));
      module_.update(table, Instruction(spv::Op::OpVariable, type, table->resultId(), std::move(operands)));
    }
  }

  bool hasDecoration(uint32_t id, spv::Decoration decoration) const {
    return module_.findDecoration(id, decoration) != nullptr;
  }

  bool hasMemberOffsets(uint32_t structType) const {
    for (const ir::Use& use : module_.uses(structType)) {
      if (use.user->opcode() == spv::Op::OpMemberDecorate && use.operandIndex == 0 &&
          use.user->wordOperand(2) == static_cast<uint32_t>(spv::Decoration::Offset))
        return true;
    }
    return false;
  }

  // Types reached through PhysicalStorageBuffer pointers get explicit layouts; the pointer types
  // that pointer arithmetic steps through get their ArrayStride.
  Status layOutPhysicalTypes() {
    std::vector<uint32_t> pending;
    for (const Instruction& inst : module_.section(ir::Section::kGlobal)) {
      if (inst.opcode() == spv::Op::OpTypePointer && storageOfPointer(inst) == SC::PhysicalStorageBuffer)
        pending.push_back(inst.idOperand(1));
    }
    std::unordered_set<uint32_t> done;
    while (!pending.empty()) {
      uint32_t type = pending.back();
      pending.pop_back();
      if (!done.insert(type).second) continue;
      const Instruction* def = module_.def(type);
      switch (def->opcode()) {
        case spv::Op::OpTypeStruct: {
          Expected<std::vector<uint32_t>> offsets = memberOffsets(module_, type);
          if (!offsets) return offsets.error();
          if (!hasMemberOffsets(type)) {
            for (uint32_t i = 0; i < offsets->size(); ++i) {
              module_.append(ir::Section::kAnnotation,
                             Instruction(spv::Op::OpMemberDecorate, 0, 0,
                                         {Operand::id(type), Operand::literal(i),
                                          Operand::enumerant(SPV_OPERAND_TYPE_DECORATION, static_cast<uint32_t>(spv::Decoration::Offset)),
                                          Operand::literal((*offsets)[i])}));
            }
          }
          for (size_t i = 0; i < def->numOperands(); ++i) pending.push_back(def->idOperand(i));
          break;
        }
        case spv::Op::OpTypeArray:
        case spv::Op::OpTypeRuntimeArray: {
          Expected<TypeLayout> element = layoutOf(module_, def->idOperand(0));
          if (!element) return element.error();
          if (!hasDecoration(type, spv::Decoration::ArrayStride))
            decorate(type, spv::Decoration::ArrayStride, (element->size + element->alignment - 1) / element->alignment * element->alignment);
          pending.push_back(def->idOperand(0));
          break;
        }
        default:
          break;
      }
    }
    for (uint32_t pointer : strided_) {
      if (hasDecoration(pointer, spv::Decoration::ArrayStride)) continue;
      Expected<TypeLayout> layout = layoutOf(module_, pointeeOf(module_, pointer));
      if (!layout) return layout.error();
      decorate(pointer, spv::Decoration::ArrayStride, layout->size);
    }
    return okStatus();
  }

  void decorate(uint32_t id, spv::Decoration decoration, uint32_t value) {
    module_.append(ir::Section::kAnnotation,
                   Instruction(spv::Op::OpDecorate, 0, 0,
                               {Operand::id(id), Operand::enumerant(SPV_OPERAND_TYPE_DECORATION, static_cast<uint32_t>(decoration)),
                                Operand::literal(value)}));
  }

  Module& module_;
  std::unordered_set<uint32_t> strided_;
};

}  // namespace

Expected<PassResult> lowerPointers(Module& module, const Target&) {
  PointerLowering lowering(module);
  CL2VK_TRY(lowering.run());
  return PassResult::kChanged;
}

}  // namespace cl2vk
