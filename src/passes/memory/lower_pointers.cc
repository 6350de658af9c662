// lower-pointers (lower_pointers.h says what it does): the pass per function, in order, with its
// rewrites of buffer pointers (PhysicalStorageBuffer types, alignments, strides and layouts),
// memory copies, lifetime markers and __constant tables. Address spaces are inferred in
// pointer_spaces.cc; __local and __private pointers are rewritten in logical_pointers.cc.
#include "passes/memory/lower_pointers.h"

#include <algorithm>
#include <memory>
#include <unordered_map>
#include <unordered_set>
#include <vector>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/builder.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/memory/logical_pointers.h"
#include "passes/memory/pointer_spaces.h"
#include "passes/memory/pointer_values.h"
#include "passes/memory/tagged_pointers.h"
#include "passes/memory/word_memory.h"

namespace cl2vk::pointers {
namespace {

using ir::Builder;

class PointerLowering {
 public:
  explicit PointerLowering(Module& module) : module_(module) {}

  Status run() {
    removeLifetimeMarkers();
    retypeGlobalPointerTypes();
    for (Function& function : module_.functions()) {
      if (function.isDeclaration()) continue;
      bitcastsBecomeConversions(function);
      foldNullConversions(function);
      CL2VK_TRY(lowerMemoryCopies(function));
      removeUnusedPointerArithmetic(function);
      // get_fence is answered first: a pointer that only it uses may join spaces, which the
      // inference refuses.
      auto spaces = std::make_unique<SpaceInference>(module_, function);
      Status inferred = spaces->run();
      if (foldFenceQueries(function, *spaces)) {
        // The pointers that only get_fence used go, and the spaces are inferred again without them.
        removeUnusedPointerArithmetic(function);
        spaces = std::make_unique<SpaceInference>(module_, function);
        inferred = spaces->run();
      }
      if (!inferred.ok()) {
        // Generic pointers whose space the path decides become tagged (tagged_pointers.h).
        Expected<bool> tagged = tagGenericPointers(module_, function, *spaces);
        if (!tagged) return tagged.error();
        if (!*tagged) return inferred;
        spaces = std::make_unique<SpaceInference>(module_, function);
        CL2VK_TRY(spaces->run());
      }
      retypeValues(*spaces);
    }
    // Memory that typed access cannot express becomes words; the rest keeps its types.
    CL2VK_TRY(lowerWordAddressedMemory(module_));
    for (Function& function : module_.functions()) {
      if (function.isDeclaration()) continue;
      CL2VK_TRY(lowerLogicalPointers(module_, function));
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
          if (inst.opcode() == spv::Op::OpLifetimeStart || inst.opcode() == spv::Op::OpLifetimeStop)
            markers.push_back(&inst);
        }
      }
    }
    for (Instruction* marker : markers) (void)module_.remove(marker);  // no result: cannot fail
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
          bool pure =
              forwardsPointer(inst.opcode()) || inst.opcode() == spv::Op::OpPhi || inst.opcode() == spv::Op::OpSelect;
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
      if (inst.opcode() == spv::Op::OpTypePointer && storageOfPointer(inst) == SC::CrossWorkgroup)
        types.push_back(&inst);
    }
    for (Instruction* type : types) {
      module_.update(type, Instruction(spv::Op::OpTypePointer, 0, type->resultId(),
                                       {storageOperand(SC::PhysicalStorageBuffer), type->operand(1)}));
    }
  }

  // get_fence (OpGenericPtrMemSemantics, which Vulkan does not have) becomes the semantics of the
  // memory its pointer points into, now that the space is known: CrossWorkgroupMemory for a
  // buffer, WorkgroupMemory for __local memory, none for __private memory. A select of pointers
  // into two spaces selects between their semantics; a phi of such pointers gets both, a fence
  // on each being valid for it. Returns whether there was any.
  bool foldFenceQueries(Function& function, const SpaceInference& spaces) {
    std::vector<Instruction*> queries;
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (inst.opcode() == spv::Op::OpGenericPtrMemSemantics) queries.push_back(&inst);
      }
    }
    bool folded = false;
    for (Instruction* query : queries) {
      std::unordered_set<uint32_t> seen;
      if (fromMemory(query->idOperand(0), spaces, seen)) continue;  // the tag tells (tagged_pointers.h)
      module_.replaceAllUses(query->resultId(), semanticsOf(query->idOperand(0), query->typeId(), spaces));
      (void)module_.remove(query);  // no longer used: cannot fail
      folded = true;
    }
    return folded;
  }

  // The memory semantics (a value of the integer type `type`) of what the pointer `id` points
  // into. A select's are selected after it, a phi's chosen by a phi after it, where the path taken
  // is known; a phi on a cycle of phis gets the semantics of every space on it.
  uint32_t semanticsOf(uint32_t id, uint32_t type, const SpaceInference& spaces) {
    std::unordered_set<uint32_t> visiting;
    return semanticsOf(id, type, spaces, visiting);
  }
  // 0 for a phi met again on a cycle.
  uint32_t semanticsOf(uint32_t id, uint32_t type, const SpaceInference& spaces,
                       std::unordered_set<uint32_t>& visiting) {
    Instruction* def = module_.def(id);
    if (def && def->opcode() == spv::Op::OpSelect) {
      uint32_t a = semanticsOf(def->idOperand(1), type, spaces, visiting);
      uint32_t b = semanticsOf(def->idOperand(2), type, spaces, visiting);
      if (a == 0 || b == 0) return 0;
      return a == b ? a : Builder::after(module_, def).select(def->idOperand(0), a, b);
    }
    if (def && def->opcode() == spv::Op::OpPhi) {
      if (!visiting.insert(id).second) return 0;
      std::vector<uint32_t> incoming;
      bool same = true;
      for (size_t i = 0; i < def->numOperands(); i += 2) {
        uint32_t value = semanticsOf(def->idOperand(i), type, spaces, visiting);
        if (value == 0) {
          incoming.clear();
          break;
        }
        same &= incoming.empty() || incoming[0] == value;
        incoming.insert(incoming.end(), {value, def->idOperand(i + 1)});
      }
      visiting.erase(id);
      if (!incoming.empty())
        return same ? incoming[0] : Builder::after(module_, def).op(spv::Op::OpPhi, type, incoming);
      if (!visiting.empty()) return 0;  // the outermost phi of the cycle decides
      std::unordered_set<uint32_t> seen;
      return ir::constantBits(module_, type, semanticsReaching(id, spaces, seen));
    }
    if (isGenericForward(def)) return semanticsOf(def->idOperand(0), type, spaces, visiting);
    std::unordered_set<uint32_t> seen;
    return ir::constantBits(module_, type, semanticsReaching(id, spaces, seen));
  }

  // The semantics of every space that the pointer `id` may point into, through phis and selects.
  uint32_t semanticsReaching(uint32_t id, const SpaceInference& spaces, std::unordered_set<uint32_t>& seen) const {
    if (!seen.insert(id).second) return 0;
    const Instruction* def = module_.def(id);
    if (def && def->opcode() == spv::Op::OpSelect) {
      return semanticsReaching(def->idOperand(1), spaces, seen) | semanticsReaching(def->idOperand(2), spaces, seen);
    }
    if (def && def->opcode() == spv::Op::OpPhi) {
      uint32_t semantics = 0;
      for (size_t i = 0; i < def->numOperands(); i += 2)
        semantics |= semanticsReaching(def->idOperand(i), spaces, seen);
      return semantics;
    }
    if (isGenericForward(def)) return semanticsReaching(def->idOperand(0), spaces, seen);
    switch (spaces.spaceOf(id).value_or(SC::Function)) {
      case SC::PhysicalStorageBuffer: return uint32_t(spv::MemorySemanticsMask::CrossWorkgroupMemory);
      case SC::Workgroup: return uint32_t(spv::MemorySemanticsMask::WorkgroupMemory);
      default: return 0;
    }
  }

  // Whether the pointer `id` may come, through phis, selects and generic casts, from a generic
  // pointer loaded from memory, whose space no inference tells.
  bool fromMemory(uint32_t id, const SpaceInference& spaces, std::unordered_set<uint32_t>& seen) const {
    if (!seen.insert(id).second) return false;
    const Instruction* def = module_.def(id);
    if (!def) return false;
    if (def->opcode() == spv::Op::OpSelect)
      return fromMemory(def->idOperand(1), spaces, seen) || fromMemory(def->idOperand(2), spaces, seen);
    if (def->opcode() == spv::Op::OpPhi) {
      for (size_t i = 0; i < def->numOperands(); i += 2)
        if (fromMemory(def->idOperand(i), spaces, seen)) return true;
      return false;
    }
    if (isGenericForward(def)) return fromMemory(def->idOperand(0), spaces, seen);
    return def->opcode() == spv::Op::OpLoad && !spaces.spaceOf(id);
  }

  // A generic pointer that points where its first operand does (a cast or an access chain).
  bool isGenericForward(const Instruction* def) const {
    return def && forwardsPointer(def->opcode()) && def->opcode() != spv::Op::OpGenericCastToPtrExplicit &&
           storageOf(module_, def->typeId()) == SC::Generic;
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

  // SPIR-V 1.5 lets OpBitcast turn a pointer into an integer or a vector of two 32-bit ones, and
  // back (the CTS's spirv15_ptr_bitcast); that is OpConvertPtrToU / OpConvertUToPtr through a
  // 64-bit integer, which the rest of the pass reads (and which lavapipe compiles: its pipeline
  // creation failed on the bitcast of a private pointer).
  void bitcastsBecomeConversions(Function& function) {
    std::vector<Instruction*> casts;
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (inst.opcode() != spv::Op::OpBitcast) continue;
        bool toPointer = isPointerValue(module_, inst);
        bool fromPointer = isPointerValue(module_, *module_.def(inst.idOperand(0)));
        if (toPointer != fromPointer) casts.push_back(&inst);
      }
    }
    uint32_t ulong = ir::typeInt(module_, 64);
    for (Instruction* cast : casts) {
      Builder b = Builder::before(module_, cast);
      uint32_t source = cast->idOperand(0);
      Instruction replacement =
          isPointerValue(module_, *cast)
              ? Instruction(spv::Op::OpConvertUToPtr, cast->typeId(), cast->resultId(),
                            {Operand::id(b.typeOf(source) == ulong ? source : b.bitcast(ulong, source))})
              : Instruction(spv::Op::OpBitcast, cast->typeId(), cast->resultId(),
                            {Operand::id(b.op(spv::Op::OpConvertPtrToU, ulong, {source}))});
      if (replacement.opcode() == spv::Op::OpBitcast && cast->typeId() == ulong)
        replacement = Instruction(spv::Op::OpCopyObject, ulong, cast->resultId(), replacement.operands());
      module_.update(cast, std::move(replacement));
    }
  }

  // NULL of any space converted to an integer is 0 (llvm-spirv compares generic pointers, NULL
  // among them, as integers): folded before a cast of a null constant needs a space.
  void foldNullConversions(Function& function) {
    std::vector<Instruction*> conversions;
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) {
        if (inst.opcode() == spv::Op::OpConvertPtrToU && isNullPointer(module_, inst.idOperand(0)))
          conversions.push_back(&inst);
      }
    }
    for (Instruction* conversion : conversions) {
      module_.replaceAllUses(conversion->resultId(), ir::constantNull(module_, conversion->typeId()));
      (void)module_.remove(conversion);  // no longer used: cannot fail
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
        if (inst.opcode() == spv::Op::OpCopyMemory || inst.opcode() == spv::Op::OpCopyMemorySized)
          copies.push_back(&inst);
      }
    }
    for (Instruction* copy : copies) {
      uint32_t target = throughByteCasts(copy->idOperand(0));
      uint32_t source = throughByteCasts(copy->idOperand(1));
      // Copies between objects of different types, or of part of one, are left to the
      // word-addressed lowering (word_memory.h).
      uint32_t type = pointeeOf(module_, module_.def(target)->typeId());
      if (type != pointeeOf(module_, module_.def(source)->typeId())) continue;
      Expected<TypeLayout> layout = layoutOf(module_, type);
      if (!layout) continue;
      if (copy->opcode() == spv::Op::OpCopyMemorySized && constantValue(module_, copy->idOperand(2)) != layout->size)
        continue;
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
            module_.update(inst,
                           Instruction(spv::Op::OpPtrAccessChain, inst->typeId(), inst->resultId(), inst->operands()));
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
          if (!layout) return ir::refuse(module_, *inst, layout.error().message());
          std::vector<Operand> operands(inst->operands().begin(),
                                        inst->operands().begin() + static_cast<long>(memoryOperand));
          uint32_t mask = inst->numOperands() > memoryOperand ? inst->wordOperand(memoryOperand) : 0;
          operands.push_back(Operand::enumerant(SPV_OPERAND_TYPE_MEMORY_ACCESS,
                                                mask | static_cast<uint32_t>(spv::MemoryAccessMask::Aligned)));
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
            module_.update(inst,
                           Instruction(spv::Op::OpBitcast, inst->typeId(), inst->resultId(), {Operand::id(source)}));
          }
          break;
        }
        case spv::Op::OpPtrEqual:
        case spv::Op::OpPtrNotEqual:
        case spv::Op::OpPtrDiff: CL2VK_TRY(compareBufferPointers(*inst)); break;
        default: break;
      }
    }
    return okStatus();
  }

  // Buffer pointers compared or subtracted: their addresses are. (Pointers into __local and
  // __private memory were made offsets by the word-addressed lowering.)
  Status compareBufferPointers(Instruction& inst) {
    uint32_t pointerType = module_.def(inst.idOperand(0))->typeId();
    if (storageOf(module_, pointerType) != SC::PhysicalStorageBuffer)
      return ir::refuse(module_, inst, "compares pointers Vulkan cannot compare");
    Builder b = Builder::before(module_, &inst);
    uint32_t ulong = ir::typeInt(module_, 64);
    uint32_t a = b.op(spv::Op::OpConvertPtrToU, ulong, {inst.idOperand(0)});
    uint32_t c = b.op(spv::Op::OpConvertPtrToU, ulong, {inst.idOperand(1)});
    uint32_t result;
    if (inst.opcode() == spv::Op::OpPtrDiff) {
      Expected<TypeLayout> layout = layoutOf(module_, pointeeOf(module_, pointerType));
      if (!layout) return ir::refuse(module_, inst, layout.error().message());
      uint32_t bytes = b.resizeSigned(b.isub(a, c), ir::scalarWidth(module_, inst.typeId()));
      result = b.op(spv::Op::OpSDiv, inst.typeId(), {bytes, ir::constantBits(module_, inst.typeId(), layout->size)});
    } else {
      result =
          b.op(inst.opcode() == spv::Op::OpPtrEqual ? spv::Op::OpIEqual : spv::Op::OpINotEqual, inst.typeId(), {a, c});
    }
    module_.replaceAllUses(inst.resultId(), result);
    return module_.remove(&inst);
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
                                          Operand::enumerant(SPV_OPERAND_TYPE_DECORATION,
                                                             static_cast<uint32_t>(spv::Decoration::Offset)),
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
            decorate(type, spv::Decoration::ArrayStride,
                     (element->size + element->alignment - 1) / element->alignment * element->alignment);
          pending.push_back(def->idOperand(0));
          break;
        }
        default: break;
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
                               {Operand::id(id),
                                Operand::enumerant(SPV_OPERAND_TYPE_DECORATION, static_cast<uint32_t>(decoration)),
                                Operand::literal(value)}));
  }

  Module& module_;
  std::unordered_set<uint32_t> strided_;
};

}  // namespace
}  // namespace cl2vk::pointers

namespace cl2vk {

Expected<PassResult> lowerPointers(ir::Module& module, const Target&) {
  pointers::PointerLowering lowering(module);
  CL2VK_TRY(lowering.run());
  return PassResult::kChanged;
}

}  // namespace cl2vk
