// Tagged generic pointers (tagged_pointers.h): which generic pointers need them, which spaces each
// can reach, and the rewrite of their definitions and uses.
#include "passes/memory/tagged_pointers.h"

#include <functional>
#include <unordered_map>
#include <unordered_set>
#include <utility>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/builder.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/memory/word_memory_lowering.h"

namespace cl2vk::pointers {
namespace {

using ir::Builder;

// The spaces in the order of their tags, and a mask of them as bits (bit i for kSpaces[i]).
constexpr SC kSpaces[] = {SC::PhysicalStorageBuffer, SC::Workgroup, SC::Function, SC::Private};
constexpr size_t kSpaceCount = sizeof(kSpaces) / sizeof(kSpaces[0]);
constexpr uint32_t kTagShift = 62;
constexpr uint64_t kAddressBits = (uint64_t{1} << kTagShift) - 1;

constexpr unsigned tagOf(SC space) {
  for (size_t i = 0; i < kSpaceCount; ++i)
    if (kSpaces[i] == space) return static_cast<unsigned>(i);
  return 0;
}

constexpr unsigned kGlobalBit = 1u << tagOf(SC::PhysicalStorageBuffer);
// __global and __local: OpenCL's atomics reach no other space.
constexpr unsigned kAtomicSpaces = kGlobalBit | (1u << tagOf(SC::Workgroup));

class GenericTagging {
 public:
  GenericTagging(Module& module, Function& function, const SpaceInference& spaces)
      : module_(module), function_(function), spaces_(spaces), ulong_(ir::typeInt(module, 64)) {}

  Expected<bool> run() {
    collect();
    if (tagged_.empty()) return false;
    CL2VK_TRY(checkUses());
    CL2VK_TRY(checkOperands());
    computeSpaces();
    std::vector<Instruction*> instructions;
    for (Block& block : function_.blocks()) {
      for (Instruction& inst : block.instructions()) instructions.push_back(&inst);
    }
    // Phis first, so that a value may read one whose incoming values come later.
    for (Instruction* inst : instructions) {
      if (inst->opcode() == spv::Op::OpPhi && tagged_.contains(inst->resultId())) {
        uint32_t id = module_.takeId();
        module_.insertBefore(inst, Instruction(spv::Op::OpPhi, ulong_, id));
        values_[inst->resultId()] = id;
      }
    }
    for (Instruction* inst : instructions) {
      if (tagged_.contains(inst->resultId()))
        CL2VK_TRY(defineTagged(*inst));
      else
        CL2VK_TRY(rewriteUse(*inst));
    }
    completePhis(instructions);
    for (Instruction* inst : instructions) {
      if (tagged_.contains(inst->resultId())) replaced_.push_back(inst);
    }
    CL2VK_TRY(module_.removeAll(replaced_));
    return true;
  }

 private:
  bool isGeneric(const Instruction& inst) const {
    return isPointerValue(module_, inst) && storageOf(module_, inst.typeId()) == SC::Generic;
  }
  bool isGenericValue(uint32_t id) const {
    const Instruction* def = module_.def(id);
    return def && isGeneric(*def);
  }
  // NULL (of any space, cast or not) or an undefined pointer: tagged as 0 or undefined.
  bool pointsNowhere(uint32_t id) const {
    return isNullPointer(module_, id) || module_.def(id)->opcode() == spv::Op::OpUndef;
  }
  bool usesTagged(const Instruction& inst) const {
    for (const Operand& operand : inst.operands())
      if (operand.isId() && tagged_.contains(operand.words[0])) return true;
    return false;
  }
  // Whether `inst` computes on tagged values: it uses one, or turns a generic pointer into an
  // integer or compares two (which must then be tagged too, to compare with tagged ones).
  bool readsTagged(const Instruction& inst) const {
    switch (inst.opcode()) {
      case spv::Op::OpConvertPtrToU:
      case spv::Op::OpPtrEqual:
      case spv::Op::OpPtrNotEqual:
      case spv::Op::OpPtrDiff: return isGenericValue(inst.idOperand(0));
      default: return usesTagged(inst);
    }
  }
  static bool joinsOrForwards(spv::Op opcode) {
    return opcode == spv::Op::OpPhi || opcode == spv::Op::OpSelect || forwardsPointer(opcode);
  }

  // The generic pointers with no space, and every generic pointer computed from one.
  void collect() {
    for (Block& block : function_.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (isGeneric(inst) && !spaces_.spaceOf(inst.resultId())) tagged_.insert(inst.resultId());
      }
    }
    for (bool grew = !tagged_.empty(); grew;) {
      grew = false;
      for (Block& block : function_.blocks()) {
        for (Instruction& inst : block.instructions()) {
          if (isGeneric(inst) && joinsOrForwards(inst.opcode()) && !tagged_.contains(inst.resultId()) &&
              usesTagged(inst)) {
            tagged_.insert(inst.resultId());
            grew = true;
          }
        }
      }
    }
  }

  // Whether `type` is a struct or array that holds a generic pointer.
  bool holdsGenericPointer(uint32_t type, int depth = 0) const {
    const Instruction* def = module_.def(type);
    if (!def || depth > 16) return false;
    switch (def->opcode()) {
      case spv::Op::OpTypePointer: return depth > 0 && storageOf(module_, type) == SC::Generic;
      case spv::Op::OpTypeArray:
      case spv::Op::OpTypeRuntimeArray: return holdsGenericPointer(def->idOperand(0), depth + 1);
      case spv::Op::OpTypeStruct:
        for (size_t i = 0; i < def->numOperands(); ++i)
          if (holdsGenericPointer(def->idOperand(i), depth + 1)) return true;
        return false;
      default: return false;
    }
  }

  // Every use of a tagged pointer is one this rewrite covers, and no generic pointer moves inside
  // a struct or array value; nothing is changed before that is known. In instruction order, so
  // that the error names the first.
  Status checkUses() const {
    for (const Block& block : function_.blocks()) {
      for (const Instruction& inst : block.instructions()) {
        bool copy = inst.opcode() == spv::Op::OpLoad || inst.opcode() == spv::Op::OpStore;
        uint32_t type = inst.opcode() == spv::Op::OpStore ? ir::typeOf(module_, inst.idOperand(1)) : inst.typeId();
        if (copy && holdsGenericPointer(type))
          return ir::refuse(module_, inst,
                            "copies a struct or array that holds a generic pointer whole where generic pointers are "
                            "tagged (their address space is decided at run time); copy its members one by one");
        if (tagged_.contains(inst.resultId())) CL2VK_TRY(checkUsesOf(inst));
      }
    }
    return okStatus();
  }

  Status checkUsesOf(const Instruction& def) const {
    bool defined = def.opcode() == spv::Op::OpLoad || joinsOrForwards(def.opcode());
    if (!defined || def.opcode() == spv::Op::OpPtrCastToGeneric)
      return ir::refuse(module_, def,
                        "a generic pointer from this instruction cannot be followed to its address space");
    for (const ir::Use& use : module_.uses(def.resultId())) {
      const Instruction& user = *use.user;
      if (tagged_.contains(user.resultId()) || ir::isNameOrDecoration(user.opcode())) continue;
      switch (user.opcode()) {
        case spv::Op::OpLoad:
        case spv::Op::OpStore:
        case spv::Op::OpGenericCastToPtr:
        case spv::Op::OpGenericCastToPtrExplicit:
        case spv::Op::OpGenericPtrMemSemantics:
        case spv::Op::OpConvertPtrToU:
        case spv::Op::OpPtrEqual:
        case spv::Op::OpPtrNotEqual:
        case spv::Op::OpPtrDiff: continue;
        default:
          if (ir::isAtomic(user.opcode()) && use.operandIndex == 0) continue;
          return ir::refuse(module_, user,
                            "uses a generic pointer whose address space the path decides in a way that is not "
                            "supported");
      }
    }
    return okStatus();
  }

  // The spaces an operand can point into (a mask of tag bits).
  unsigned operandSpaces(uint32_t id) const {
    if (auto it = possible_.find(id); it != possible_.end()) return it->second;
    if (tagged_.contains(id) || pointsNowhere(id)) return 0;
    std::optional<SC> space = spaces_.spaceOf(id);
    return space ? 1u << tagOf(*space) : 0;
  }

  // Every generic operand that gets a tagged value has a space, null or undef, or is tagged.
  Status checkOperands() const {
    for (const Block& block : function_.blocks()) {
      for (const Instruction& inst : block.instructions()) {
        bool storesGeneric = inst.opcode() == spv::Op::OpStore && isGenericValue(inst.idOperand(1));
        if (!storesGeneric && !tagged_.contains(inst.resultId()) && !readsTagged(inst)) continue;
        for (const Operand& operand : inst.operands()) {
          uint32_t id = operand.isId() ? operand.words[0] : 0;
          if (!id || !isGenericValue(id) || tagged_.contains(id) || pointsNowhere(id)) continue;
          if (!spaces_.spaceOf(id))
            return ir::refuse(module_, *module_.def(id), "cannot tell which address space this pointer points into");
        }
      }
    }
    return okStatus();
  }

  // The spaces each tagged pointer can point into. One loaded from memory can point wherever a
  // generic pointer this function stores can.
  void computeSpaces() {
    for (bool grew = true; grew;) {
      grew = false;
      for (const Block& block : function_.blocks()) {
        for (const Instruction& inst : block.instructions()) {
          if (inst.opcode() == spv::Op::OpStore && isGenericValue(inst.idOperand(1))) {
            unsigned spaces = memorySpaces_ | operandSpaces(inst.idOperand(1));
            grew = grew || spaces != memorySpaces_;
            memorySpaces_ = spaces;
          }
        }
      }
      for (uint32_t id : tagged_) {
        const Instruction& def = *module_.def(id);
        unsigned spaces = 0;
        if (def.opcode() == spv::Op::OpLoad) {
          spaces = memorySpaces_;
        } else if (def.opcode() == spv::Op::OpPhi) {
          for (size_t i = 0; i < def.numOperands(); i += 2) spaces |= operandSpaces(def.idOperand(i));
        } else if (def.opcode() == spv::Op::OpSelect) {
          spaces = operandSpaces(def.idOperand(1)) | operandSpaces(def.idOperand(2));
        } else {
          spaces = operandSpaces(def.idOperand(0));
        }
        unsigned& known = possible_[id];
        grew = grew || (known | spaces) != known;
        known |= spaces;
      }
    }
  }

  // --- Values ------------------------------------------------------------------------------------

  // The tagged value of the generic pointer `id`, computed by `b` if it is not one already.
  uint32_t taggedValue(Builder& b, uint32_t id) {
    if (auto it = values_.find(id); it != values_.end()) return it->second;
    const Instruction* def = module_.def(id);
    if (isNullPointer(module_, id)) return ir::constantNull(module_, ulong_);
    if (def->opcode() == spv::Op::OpUndef) return ir::undef(module_, ulong_);
    uint32_t bits = b.op(spv::Op::OpConvertPtrToU, ulong_, {id});
    unsigned tag = tagOf(*spaces_.spaceOf(id));
    if (tag == 0) return bits;
    // A __local or __private NULL (offset 0, which no object holds) is the generic NULL, 0.
    uint32_t tagged = b.bitOr(bits, constant(uint64_t{tag} << kTagShift));
    return b.select(b.compare(spv::Op::OpIEqual, bits, constant(0)), constant(0), tagged);
  }

  uint32_t constant(uint64_t value) { return ir::constantUint(module_, 64, value); }

  Status defineTagged(Instruction& inst) {
    if (inst.opcode() == spv::Op::OpPhi) return okStatus();  // completePhis
    Builder b = Builder::before(module_, &inst);
    uint32_t value = 0;
    switch (inst.opcode()) {
      case spv::Op::OpSelect:
        value = b.select(inst.idOperand(0), taggedValue(b, inst.idOperand(1)), taggedValue(b, inst.idOperand(2)));
        break;
      case spv::Op::OpLoad: value = loadTagged(inst); break;
      case spv::Op::OpAccessChain:
      case spv::Op::OpInBoundsAccessChain:
      case spv::Op::OpPtrAccessChain:
      case spv::Op::OpInBoundsPtrAccessChain: {
        value = taggedValue(b, inst.idOperand(0));
        Status walked = walkChainInBytes(
            module_, inst,
            [&](uint32_t index, uint32_t stride) {
              if (std::optional<uint64_t> known = constantValue(module_, index); known && *known == 0) return;
              value = b.iadd(value, b.imul(b.resizeSigned(index, 64), constant(stride)));
            },
            [&](uint32_t offset) {
              if (offset) value = b.iadd(value, constant(offset));
            });
        if (!walked.ok()) return ir::refuse(module_, inst, walked.error().message());
        break;
      }
      default: value = taggedValue(b, inst.idOperand(0)); break;  // casts between generic pointers
    }
    values_[inst.resultId()] = value;
    return okStatus();
  }

  // A generic pointer loaded from memory: its 64 bits, read as an integer.
  uint32_t loadTagged(Instruction& load) {
    std::vector<Operand> operands = load.operands();
    uint32_t pointer = load.idOperand(0);
    if (tagged_.contains(pointer))
      return dispatch(load, possible_.at(pointer), ulong_, [&](Builder& b, uint32_t spacePointer) {
        operands[0] = Operand::id(spacePointer);
        return b.value(spv::Op::OpLoad, ulong_, operands);
      });
    Builder b = Builder::before(module_, &load);
    operands[0] = Operand::id(asIntegers(b, pointer));
    return b.value(spv::Op::OpLoad, ulong_, operands);
  }

  // `pointer` (to a generic pointer, in a known space) as a pointer to the 64-bit integer it holds.
  uint32_t asIntegers(Builder& b, uint32_t pointer) {
    SC storage = storageOf(module_, ir::typeOf(module_, pointer));
    return b.bitcast(ir::typePointer(module_, storage, ulong_), pointer);
  }

  // --- Uses --------------------------------------------------------------------------------------

  Status rewriteUse(Instruction& inst) {
    spv::Op opcode = inst.opcode();
    if (opcode == spv::Op::OpStore) return rewriteStore(inst);
    if (!readsTagged(inst)) return okStatus();
    Builder b = Builder::before(module_, &inst);
    uint32_t result = 0;
    switch (opcode) {
      case spv::Op::OpLoad:
        result = dispatch(inst, possible_.at(inst.idOperand(0)), inst.typeId(), [&](Builder& at, uint32_t pointer) {
          std::vector<Operand> operands = inst.operands();
          operands[0] = Operand::id(pointer);
          return at.value(spv::Op::OpLoad, inst.typeId(), operands);
        });
        break;
      case spv::Op::OpGenericCastToPtr:
      case spv::Op::OpGenericCastToPtrExplicit: result = castToSpace(b, inst); break;
      case spv::Op::OpGenericPtrMemSemantics: {
        uint32_t tag = b.lshr(taggedValue(b, inst.idOperand(0)), constant(kTagShift));
        uint32_t type = inst.typeId();
        auto semantics = [&](spv::MemorySemanticsMask mask) {
          return ir::constantBits(module_, type, static_cast<uint32_t>(mask));
        };
        result = b.select(b.compare(spv::Op::OpIEqual, tag, constant(tagOf(SC::Workgroup))),
                          semantics(spv::MemorySemanticsMask::WorkgroupMemory), ir::constantBits(module_, type, 0));
        result = b.select(b.compare(spv::Op::OpIEqual, tag, constant(0)),
                          semantics(spv::MemorySemanticsMask::CrossWorkgroupMemory), result);
        break;
      }
      case spv::Op::OpConvertPtrToU:
        result = b.resize(taggedValue(b, inst.idOperand(0)), ir::scalarWidth(module_, inst.typeId()));
        break;
      case spv::Op::OpPtrEqual:
      case spv::Op::OpPtrNotEqual: {
        uint32_t x = taggedValue(b, inst.idOperand(0)), y = taggedValue(b, inst.idOperand(1));
        result = b.op(opcode == spv::Op::OpPtrEqual ? spv::Op::OpIEqual : spv::Op::OpINotEqual, inst.typeId(), {x, y});
        break;
      }
      case spv::Op::OpPtrDiff: {
        Expected<uint32_t> size = sizeInMemory(module_, pointeeOf(module_, ir::typeOf(module_, inst.idOperand(0))));
        if (!size) return ir::refuse(module_, inst, size.error().message());
        uint32_t bytes = b.isub(taggedValue(b, inst.idOperand(0)), taggedValue(b, inst.idOperand(1)));
        result = b.resize(b.binary(spv::Op::OpSDiv, bytes, constant(*size)), ir::scalarWidth(module_, inst.typeId()));
        break;
      }
      default: {  // an atomic (checkUses)
        unsigned spaces = possible_.at(inst.idOperand(0)) & kAtomicSpaces;
        result = dispatch(
            inst, spaces ? spaces : kGlobalBit, pointeeOf(module_, ir::typeOf(module_, inst.idOperand(0))),
            [&](Builder& at, uint32_t pointer) -> uint32_t {
              std::vector<Operand> operands = inst.operands();
              operands[0] = Operand::id(pointer);
              Instruction* atomic = at.add(opcode, inst.typeId(), operands);
              return atomic->resultId();
            },
            inst.typeId());
        break;
      }
    }
    if (inst.resultId()) module_.replaceAllUses(inst.resultId(), result);
    replaced_.push_back(&inst);
    return okStatus();
  }

  // A store through a tagged pointer, or of a generic pointer (stored as its tagged value).
  Status rewriteStore(Instruction& store) {
    uint32_t pointer = store.idOperand(0), value = store.idOperand(1);
    bool taggedPointer = tagged_.contains(pointer), genericValue = isGenericValue(value);
    if (!taggedPointer && !genericValue) return okStatus();
    std::vector<Operand> operands = store.operands();
    uint32_t pointee = genericValue ? ulong_ : ir::typeOf(module_, value);
    if (genericValue) {
      Builder b = Builder::before(module_, &store);
      operands[1] = Operand::id(taggedValue(b, value));
    }
    if (taggedPointer) {
      dispatch(
          store, possible_.at(pointer), pointee,
          [&](Builder& at, uint32_t spacePointer) -> uint32_t {
            operands[0] = Operand::id(spacePointer);
            at.add(spv::Op::OpStore, 0, operands);
            return 0;
          },
          0);
    } else {
      Builder b = Builder::before(module_, &store);
      operands[0] = Operand::id(asIntegers(b, pointer));
      b.add(spv::Op::OpStore, 0, operands);
    }
    replaced_.push_back(&store);
    return okStatus();
  }

  // to_global, to_local, to_private (and the casts that assume the space): the pointer where the
  // tag names the cast's space, null elsewhere.
  uint32_t castToSpace(Builder& b, const Instruction& cast) {
    SC space = storageOf(module_, cast.typeId());
    uint32_t tagged = taggedValue(b, cast.idOperand(0));
    unsigned tag = tagOf(space);
    if (!(possible_.at(cast.idOperand(0)) & (1u << tag))) return ir::constantNull(module_, cast.typeId());
    uint32_t address = tag == 0 ? tagged : b.bitAnd(tagged, constant(kAddressBits));
    if (cast.opcode() == spv::Op::OpGenericCastToPtrExplicit) {
      uint32_t inSpace = b.compare(spv::Op::OpIEqual, b.lshr(tagged, constant(kTagShift)), constant(tag));
      address = b.select(inSpace, address, constant(0));
    }
    return b.op(spv::Op::OpConvertUToPtr, cast.typeId(), {address});
  }

  // The access `access(builder, pointer)` made through a pointer of each space in `spaces` to a
  // `pointee`, the one that the tag of `inst`'s first operand names taken. Code goes where `inst`
  // is; a result (of `resultType`, 0 for none) is the taken access's.
  uint32_t dispatch(Instruction& inst, unsigned spaces, uint32_t pointee,
                    const std::function<uint32_t(Builder&, uint32_t)>& access, uint32_t resultType) {
    Builder before = Builder::before(module_, &inst);
    uint32_t tagged = taggedValue(before, inst.idOperand(0));
    std::vector<SC> reached;
    for (size_t i = 0; i < kSpaceCount; ++i)
      if (spaces & (1u << i)) reached.push_back(kSpaces[i]);
    if (reached.empty()) reached.push_back(SC::PhysicalStorageBuffer);  // only null pointers reach it
    auto accessIn = [&](Builder& b, SC space) {
      uint32_t address = space == SC::PhysicalStorageBuffer ? tagged : b.bitAnd(tagged, constant(kAddressBits));
      return access(b, b.op(spv::Op::OpConvertUToPtr, ir::typePointer(module_, space, pointee), {address}));
    };
    if (reached.size() == 1) return accessIn(before, reached[0]);

    uint32_t tag = before.lshr(tagged, constant(kTagShift));
    std::pair<Builder, Block*> split = Builder::splitAfter(module_, &inst);
    Builder& b = split.first;
    auto isTagOf = [&](SC space) { return b.compare(spv::Op::OpIEqual, tag, constant(tagOf(space))); };
    uint32_t result = 0;
    if (resultType) {
      std::function<uint32_t(size_t)> from = [&](size_t i) -> uint32_t {
        if (i + 1 == reached.size()) return accessIn(b, reached[i]);
        return b.ifElseValue(
            isTagOf(reached[i]), resultType, [&] { return accessIn(b, reached[i]); }, [&] { return from(i + 1); });
      };
      result = from(0);
    } else {
      for (SC space : reached) b.ifThen(isTagOf(space), [&] { accessIn(b, space); });
    }
    b.branchTo(split.second);
    return result;
  }
  uint32_t dispatch(Instruction& inst, unsigned spaces, uint32_t resultType,
                    const std::function<uint32_t(Builder&, uint32_t)>& access) {
    uint32_t pointee = pointeeOf(module_, ir::typeOf(module_, inst.idOperand(0)));
    if (resultType == ulong_ && isGeneric(inst)) pointee = ulong_;  // a generic pointer loaded
    return dispatch(inst, spaces, pointee, access, resultType);
  }

  void completePhis(const std::vector<Instruction*>& instructions) {
    for (Instruction* phi : instructions) {
      if (phi->opcode() != spv::Op::OpPhi || !tagged_.contains(phi->resultId())) continue;
      std::vector<Operand> incoming;
      for (size_t i = 0; i + 1 < phi->numOperands(); i += 2) {
        uint32_t value = phi->idOperand(i), label = phi->idOperand(i + 1);
        Builder b = Builder::before(module_, module_.def(label)->block()->endOfCode());
        incoming.push_back(Operand::id(taggedValue(b, value)));
        incoming.push_back(Operand::id(label));
      }
      Instruction* taggedPhi = module_.def(values_.at(phi->resultId()));
      module_.update(taggedPhi, Instruction(spv::Op::OpPhi, ulong_, taggedPhi->resultId(), std::move(incoming)));
    }
  }

  Module& module_;
  Function& function_;
  const SpaceInference& spaces_;
  uint32_t ulong_;
  std::unordered_set<uint32_t> tagged_;              // the generic pointers that become tagged
  std::unordered_map<uint32_t, uint32_t> values_;    // each one's tagged value
  std::unordered_map<uint32_t, unsigned> possible_;  // the spaces each can point into
  unsigned memorySpaces_ = kGlobalBit;               // the spaces of generic pointers in memory
  std::vector<Instruction*> replaced_;               // rewritten, to go at the end
};

}  // namespace

Expected<bool> tagGenericPointers(Module& module, Function& function, const SpaceInference& spaces) {
  return GenericTagging(module, function, spaces).run();
}

}  // namespace cl2vk::pointers
