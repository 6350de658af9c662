// Word-addressed __local and __private memory (word_memory.h): the word arrays that replace the
// planned variables (word_memory_plan.cc), pointers into them as byte offsets, and every access
// through such a pointer as typed reads and writes of words (word_access.cc).
#include "passes/memory/word_memory.h"

#include <algorithm>
#include <unordered_map>

#include "analysis/call_graph.h"
#include "analysis/data_layout.h"
#include "ir/opcode_classes.h"
#include "ir/types.h"
#include "passes/memory/word_memory_lowering.h"

namespace cl2vk::pointers {
namespace {

using ir::Builder;

// An escaped object starts its members here, so that offset 0 is a null pointer.
constexpr uint32_t kEscapedBase = 16;

// The alignment a load, store or copy declares (its Aligned memory operand), else `fallback`.
uint32_t declaredAlignment(const Instruction& inst, size_t memoryOperand, uint32_t fallback) {
  if (inst.numOperands() <= memoryOperand) return fallback;
  uint32_t mask = inst.wordOperand(memoryOperand);
  if (!(mask & static_cast<uint32_t>(spv::MemoryAccessMask::Aligned))) return fallback;
  // Aligned is the lowest mask bit with an operand, so its literal comes right after the mask.
  return inst.wordOperand(memoryOperand + 1);
}

class WordMemory {
 public:
  WordMemory(Module& module, WordPlan plan) : module_(module), plan_(std::move(plan)) {}

  Status run() {
    for (WordObject& object : plan_.objects) CL2VK_TRY(build(object));
    for (Function& function : module_.functions()) {
      if (!function.isDeclaration()) CL2VK_TRY(rewrite(function));
    }
    for (auto& [phi, offsetPhi] : phis_) CL2VK_TRY(completePhi(*phi, *offsetPhi));
    std::vector<Instruction*> dead = std::move(dead_);
    for (const auto& [value, object] : plan_.objectOf) {
      Instruction* def = module_.def(value);
      if (def->opcode() != spv::Op::OpVariable && def->function()) dead.push_back(def);
    }
    std::sort(dead.begin(), dead.end());
    dead.erase(std::unique(dead.begin(), dead.end()), dead.end());
    CL2VK_TRY(module_.removeAll(dead));
    for (const WordObject& object : plan_.objects) {
      for (uint32_t variable : object.variables) CL2VK_TRY(module_.remove(module_.def(variable)));
    }
    module_.sortGlobals();
    return okStatus();
  }

 private:
  uint32_t uint32() { return ir::typeInt(module_, 32); }
  uint32_t constant(uint32_t value) { return ir::constantUint(module_, 32, value); }
  uint32_t specOp(spv::Op op, uint32_t a, uint32_t b) {
    uint32_t id = module_.takeId();
    module_.append(ir::Section::kGlobal,
                   Instruction(spv::Op::OpSpecConstantOp, uint32(), id,
                               {Operand::literal(static_cast<uint32_t>(op)), Operand::id(a), Operand::id(b)}));
    return id;
  }

  // --- The objects -------------------------------------------------------------------------------

  // A __local argument's array, whose length is a specialization constant: its element's size and
  // alignment and the constant, else nothing.
  struct SpecSized {
    uint32_t stride, alignment, count;
  };
  std::optional<SpecSized> specSized(uint32_t type) {
    const Instruction* def = module_.def(type);
    if (def->opcode() != spv::Op::OpTypeArray) return std::nullopt;
    const Instruction* length = module_.def(def->idOperand(1));
    if (length->opcode() != spv::Op::OpSpecConstant && length->opcode() != spv::Op::OpSpecConstantOp)
      return std::nullopt;
    Expected<uint32_t> stride = sizeInMemory(module_, def->idOperand(0));
    Expected<TypeLayout> element = layoutOf(module_, def->idOperand(0));
    if (!stride || !element) return std::nullopt;
    return SpecSized{*stride, element->alignment, length->resultId()};
  }

  Status build(WordObject& object) {
    std::vector<uint8_t> initial;
    bool initialized = false;
    uint32_t end = object.escaped ? kEscapedBase : 0;
    std::vector<uint32_t> specMembers;
    for (uint32_t variable : object.variables) {
      const Instruction* def = module_.def(variable);
      uint32_t type = pointeeOf(module_, def->typeId());
      if (specSized(type)) {
        specMembers.push_back(variable);
        continue;
      }
      Expected<TypeLayout> layout = layoutOf(module_, type);
      if (!layout) return ir::refuse(module_, *def, "reinterpreted memory of a type without a layout");
      end = alignUp(end, std::max<uint32_t>(layout->alignment, 4));
      offsets_[variable] = constant(end);
      // An undefined initializer (a __local variable's, as llvm-spirv writes it) initializes nothing.
      if (def->numOperands() > 1 && !ir::isUndefined(module_, def->idOperand(1))) {
        initial.resize(end + layout->size);
        CL2VK_TRY(serialize(*def, def->idOperand(1), initial, end));
        initialized = true;
      }
      end += layout->size;
    }
    uint32_t length = constant(std::max<uint32_t>(1, (end + 3) / 4));
    if (!specMembers.empty()) {
      // Members sized at dispatch time go last; their offsets are specialization constants too,
      // each aligned for its element (a __local char16* argument at a multiple of 16, as OpenCL
      // requires and the OpenCL-CTS's kernel_memory_alignment_local checks).
      uint32_t next = constant(alignUp(end, 16));
      for (uint32_t variable : specMembers) {
        SpecSized member = *specSized(pointeeOf(module_, module_.def(variable)->typeId()));
        if (member.alignment > 4) {  // (every offset is a multiple of 4)
          next = specOp(spv::Op::OpBitwiseAnd, specOp(spv::Op::OpIAdd, next, constant(member.alignment - 1)),
                        constant(~(member.alignment - 1)));
        }
        offsets_[variable] = next;
        uint32_t bytes = specOp(spv::Op::OpIMul, member.count, constant(alignUp(member.stride, 4)));
        next = specOp(spv::Op::OpIAdd, next, bytes);
      }
      length = specOp(spv::Op::OpUDiv, specOp(spv::Op::OpIAdd, next, constant(3)), constant(4));
    }
    uint32_t arrayType = module_.takeId();
    module_.append(ir::Section::kGlobal,
                   Instruction(spv::Op::OpTypeArray, 0, arrayType, {Operand::id(uint32()), Operand::id(length)}));
    std::vector<Operand> operands = {storageOperand(object.storage)};
    if (initialized) {
      initial.resize(alignUp(static_cast<uint32_t>(initial.size()), 4));
      initial.resize(std::max<size_t>(initial.size(), (end + 3) / 4 * 4));
      std::vector<uint32_t> words;
      for (size_t i = 0; i < initial.size(); i += 4)
        words.push_back(
            constant(initial[i] | initial[i + 1] << 8 | initial[i + 2] << 16 | uint32_t{initial[i + 3]} << 24));
      operands.push_back(Operand::id(ir::constantComposite(module_, arrayType, words)));
    }
    uint32_t variable = module_.takeId();
    Instruction words(spv::Op::OpVariable, ir::typePointer(module_, object.storage, arrayType), variable,
                      std::move(operands));
    if (object.storage == SC::Function) {
      module_.insertAfter(&object.function->blocks().front().instructions().front(), std::move(words));
    } else {
      module_.append(ir::Section::kGlobal, std::move(words));
    }
    words_.push_back(variable);
    return okStatus();
  }

  // The bytes of a constant initializer, written at `at`.
  Status serialize(const Instruction& where, uint32_t constantId, std::vector<uint8_t>& bytes, uint32_t at) {
    const Instruction* def = module_.def(constantId);
    uint32_t type = def->typeId();
    Expected<uint32_t> size = sizeInMemory(module_, type);
    if (!size) return ir::refuse(module_, where, size.error().message());
    if (bytes.size() < at + *size) bytes.resize(at + *size);
    switch (def->opcode()) {
      case spv::Op::OpConstantNull:
      case spv::Op::OpUndef: return okStatus();
      case spv::Op::OpConstant: {
        const std::vector<uint32_t>& words = def->operand(0).words;
        for (uint32_t i = 0; i < ir::scalarWidth(module_, type) / 8; ++i)
          bytes[at + i] = static_cast<uint8_t>(words[i / 4] >> (8 * (i % 4)));
        return okStatus();
      }
      case spv::Op::OpConstantComposite: {
        const Instruction* typeDef = module_.def(type);
        std::vector<uint32_t> offsets;
        if (typeDef->opcode() == spv::Op::OpTypeStruct) {
          Expected<std::vector<uint32_t>> members = memberOffsets(module_, type);
          if (!members) return ir::refuse(module_, where, members.error().message());
          offsets = *members;
        } else {
          Expected<uint32_t> stride = typeDef->opcode() == spv::Op::OpTypeVector
                                          ? Expected<uint32_t>(ir::scalarWidth(module_, typeDef->idOperand(0)) / 8)
                                          : sizeInMemory(module_, typeDef->idOperand(0));
          if (!stride) return ir::refuse(module_, where, stride.error().message());
          for (uint32_t i = 0; i < def->numOperands(); ++i) offsets.push_back(i * *stride);
        }
        for (uint32_t i = 0; i < def->numOperands(); ++i)
          CL2VK_TRY(serialize(where, def->idOperand(i), bytes, at + offsets[i]));
        return okStatus();
      }
      default: return ir::refuse(module_, where, "an initializer of reinterpreted memory that is not a plain constant");
    }
  }

  // --- Pointers as offsets -----------------------------------------------------------------------

  const WordObject* objectOf(uint32_t pointer) const {
    auto it = plan_.objectOf.find(pointer);
    return it == plan_.objectOf.end() ? nullptr : &plan_.objects[it->second];
  }
  uint32_t wordsOf(uint32_t pointer) const { return words_[plan_.objectOf.at(pointer)]; }

  uint32_t index32(Builder& b, uint32_t index) {
    uint32_t width = ir::scalarWidth(module_, ir::typeOf(module_, index));
    return width < 32 ? b.resizeSigned(index, 32) : b.resize(index, 32);
  }
  uint32_t advance(Builder& b, uint32_t offset, uint32_t index, uint32_t stride) {
    std::optional<uint64_t> value = constantValue(module_, index);
    if (value && *value == 0) return offset;
    if (std::optional<uint64_t> base = constantValue(module_, offset); base && value)
      return constant(static_cast<uint32_t>(*base + *value * stride));
    uint32_t bytes =
        value ? constant(static_cast<uint32_t>(*value * stride)) : b.imul(index32(b, index), constant(stride));
    return b.iadd(offset, bytes);
  }
  // `offset` plus a constant number of bytes.
  uint32_t advanceBytes(Builder& b, uint32_t offset, uint32_t bytes) { return advance(b, offset, constant(1), bytes); }

  Expected<uint32_t> chainOffset(Instruction& inst) {
    Expected<uint32_t> base = offsetOf(inst.idOperand(0));
    if (!base) return base;
    Builder b = Builder::before(module_, &inst);
    uint32_t offset = *base;
    Status walked = walkChainInBytes(
        module_, inst, [&](uint32_t index, uint32_t stride) { offset = advance(b, offset, index, stride); },
        [&](uint32_t bytes) { offset = advanceBytes(b, offset, bytes); });
    if (!walked.ok()) return ir::refuse(module_, inst, walked.error().message());
    return offset;
  }

  // A conversion or comparison of __local or __private null pointers only (offset 0, which no
  // object holds), which Vulkan cannot compute on logical pointers either.
  bool isPointerTest(const Instruction& inst) const {
    spv::Op opcode = inst.opcode();
    if (opcode != spv::Op::OpConvertPtrToU && opcode != spv::Op::OpPtrEqual && opcode != spv::Op::OpPtrNotEqual)
      return false;
    const Instruction* operand = module_.def(inst.idOperand(0));
    return (operand->opcode() == spv::Op::OpConstantNull || operand->opcode() == spv::Op::OpUndef) &&
           isLogical(storageOf(module_, operand->typeId()));
  }

  // The byte offset a pointer value of an object holds, computed where the value is defined.
  Expected<uint32_t> offsetOf(uint32_t pointer) {
    if (auto it = offsets_.find(pointer); it != offsets_.end()) return it->second;
    Instruction* def = module_.def(pointer);
    Expected<uint32_t> offset = Error("");
    switch (def->opcode()) {
      case spv::Op::OpConstantNull:
      case spv::Op::OpUndef: return constant(0);
      case spv::Op::OpAccessChain:
      case spv::Op::OpInBoundsAccessChain:
      case spv::Op::OpPtrAccessChain:
      case spv::Op::OpInBoundsPtrAccessChain: offset = chainOffset(*def); break;
      case spv::Op::OpSelect: {
        Expected<uint32_t> a = offsetOf(def->idOperand(1));
        if (!a) return a;
        Expected<uint32_t> c = offsetOf(def->idOperand(2));
        if (!c) return c;
        offset = Builder::before(module_, def).select(def->idOperand(0), *a, *c);
        break;
      }
      case spv::Op::OpPhi: {
        uint32_t id = module_.takeId();
        Instruction* offsetPhi = module_.insertBefore(def, Instruction(spv::Op::OpPhi, uint32(), id));
        phis_.emplace_back(def, offsetPhi);
        offset = id;
        break;
      }
      case spv::Op::OpLoad: {
        // A pointer stored in memory: its offset is the low word of the 64-bit value.
        Expected<uint32_t> bits = readValue(*def, ir::typeInt(module_, 64));
        if (!bits) return bits;
        offset = Builder::before(module_, def).resize(*bits, 32);
        break;
      }
      case spv::Op::OpConvertUToPtr: offset = Builder::before(module_, def).resize(def->idOperand(0), 32); break;
      default:
        if (forwardsPointer(def->opcode())) {
          offset = offsetOf(def->idOperand(0));
          break;
        }
        return ir::refuse(module_, *def, "a __local or __private pointer from an unsupported source");
    }
    if (offset) offsets_[pointer] = *offset;
    return offset;
  }

  Status completePhi(Instruction& phi, Instruction& offsetPhi) {
    std::vector<Operand> incoming;
    for (size_t i = 0; i < phi.numOperands(); i += 2) {
      Expected<uint32_t> offset = offsetOf(phi.idOperand(i));
      if (!offset) return offset.error();
      incoming.push_back(Operand::id(*offset));
      incoming.push_back(Operand::id(phi.idOperand(i + 1)));
    }
    module_.update(&offsetPhi, Instruction(spv::Op::OpPhi, uint32(), offsetPhi.resultId(), std::move(incoming)));
    return okStatus();
  }

  // --- Accesses ----------------------------------------------------------------------------------

  // The value a load reads through a word-object pointer, as `type`.
  Expected<uint32_t> readValue(Instruction& load, uint32_t type) {
    uint32_t pointer = load.idOperand(0);
    if (!objectOf(pointer)) {
      if (storageOf(module_, ir::typeOf(module_, pointer)) != SC::PhysicalStorageBuffer)
        return ir::refuse(module_, load, "loading a __local or __private pointer from this memory is not supported");
      // A __local or __private pointer kept in a buffer: the 64 bits stored there, its offset.
      Builder b = Builder::before(module_, &load);
      std::vector<Operand> operands = load.operands();
      operands[0] = Operand::id(b.bitcast(ir::typePointer(module_, SC::PhysicalStorageBuffer, type), pointer));
      return b.value(spv::Op::OpLoad, type, operands);
    }
    Expected<uint32_t> offset = offsetOf(pointer);
    if (!offset) return offset;
    Expected<TypeLayout> layout = layoutOf(module_, type);
    if (!layout) return ir::refuse(module_, load, layout.error().message());
    Builder b = Builder::before(module_, &load);
    WordAccess access(b, wordsOf(pointer), objectOf(pointer)->storage);
    Expected<uint32_t> value = access.read(type, *offset, declaredAlignment(load, 1, layout->alignment));
    if (!value) return ir::refuse(module_, load, value.error().message());
    return value;
  }

  // A pointer value as the integer memory holds for it.
  Expected<uint32_t> pointerBits(Builder& b, const Instruction& where, uint32_t pointer) {
    if (objectOf(pointer)) {
      Expected<uint32_t> offset = offsetOf(pointer);
      if (!offset) return offset;
      return b.resize(*offset, 64);
    }
    if (storageOf(module_, ir::typeOf(module_, pointer)) == SC::PhysicalStorageBuffer)
      return b.op(spv::Op::OpConvertPtrToU, ir::typeInt(module_, 64), {pointer});
    return ir::refuse(module_, where, "storing a __local or __private pointer in memory is not supported here");
  }

  Status rewriteLoad(Instruction& load) {
    uint32_t type = load.typeId();
    if (objectOf(load.resultId())) return okStatus();  // a pointer: offsetOf reads it
    bool buffer = isPointerValue(module_, load) && storageOf(module_, type) == SC::PhysicalStorageBuffer;
    Expected<uint32_t> value = readValue(load, buffer ? ir::typeInt(module_, 64) : type);
    if (!value) return value.error();
    uint32_t result = buffer ? Builder::before(module_, &load).op(spv::Op::OpConvertUToPtr, type, {*value}) : *value;
    module_.replaceAllUses(load.resultId(), result);
    dead_.push_back(&load);
    return okStatus();
  }

  Status rewriteStore(Instruction& store) {
    uint32_t pointer = store.idOperand(0), value = store.idOperand(1);
    Builder b = Builder::before(module_, &store);
    if (!objectOf(pointer)) {
      // A __local or __private pointer stored in a buffer: its offset, as 64 bits. It means what
      // it meant to the work-group or work-item that stored it, as in OpenCL.
      if (storageOf(module_, ir::typeOf(module_, pointer)) != SC::PhysicalStorageBuffer ||
          !isPointerValue(module_, *module_.def(value)))
        return ir::refuse(module_, store, "storing a __local or __private pointer in this memory is not supported");
      Expected<uint32_t> bits = pointerBits(b, store, value);
      if (!bits) return bits.error();
      std::vector<Operand> operands = store.operands();
      operands[0] =
          Operand::id(b.bitcast(ir::typePointer(module_, SC::PhysicalStorageBuffer, b.typeOf(*bits)), pointer));
      operands[1] = Operand::id(*bits);
      b.add(spv::Op::OpStore, 0, operands);
      dead_.push_back(&store);
      return okStatus();
    }
    if (isPointerValue(module_, *module_.def(value))) {
      Expected<uint32_t> bits = pointerBits(b, store, value);
      if (!bits) return bits.error();
      value = *bits;
    }
    Expected<uint32_t> offset = offsetOf(pointer);
    if (!offset) return offset.error();
    Expected<TypeLayout> layout = layoutOf(module_, ir::typeOf(module_, value));
    if (!layout) return ir::refuse(module_, store, layout.error().message());
    WordAccess access(b, wordsOf(pointer), objectOf(pointer)->storage);
    if (Status written = access.write(value, *offset, declaredAlignment(store, 2, layout->alignment)); !written.ok())
      return ir::refuse(module_, store, written.error().message());
    dead_.push_back(&store);
    return okStatus();
  }

  Status rewriteAtomic(Instruction& atomic) {
    uint32_t valueType = atomic.typeId() ? atomic.typeId() : ir::typeOf(module_, atomic.idOperand(3));
    if (ir::isVectorType(module_, valueType) || ir::intWidth(module_, valueType) != 32)
      return ir::refuse(module_, atomic,
                        "only 32-bit integer atomics are supported on reinterpreted __local or __private memory");
    Expected<uint32_t> offset = offsetOf(atomic.idOperand(0));
    if (!offset) return offset.error();
    Builder b = Builder::before(module_, &atomic);
    WordAccess access(b, wordsOf(atomic.idOperand(0)), objectOf(atomic.idOperand(0))->storage);
    module_.setOperand(&atomic, 0, Operand::id(access.wordPointer(*offset)));
    return okStatus();
  }

  Status rewritePointerUse(Instruction& inst) {
    Builder b = Builder::before(module_, &inst);
    std::vector<uint32_t> offsets;
    for (size_t i = 0; i < 2 && i < inst.numOperands(); ++i) {
      Expected<uint32_t> offset = offsetOf(inst.idOperand(i));
      if (!offset) return offset.error();
      offsets.push_back(*offset);
    }
    uint32_t result = 0;
    switch (inst.opcode()) {
      case spv::Op::OpConvertPtrToU: result = b.resize(offsets[0], ir::scalarWidth(module_, inst.typeId())); break;
      case spv::Op::OpPtrEqual: result = b.op(spv::Op::OpIEqual, inst.typeId(), offsets); break;
      case spv::Op::OpPtrNotEqual: result = b.op(spv::Op::OpINotEqual, inst.typeId(), offsets); break;
      default: {  // OpPtrDiff: the difference in elements
        Expected<uint32_t> size = sizeInMemory(module_, pointeeOf(module_, ir::typeOf(module_, inst.idOperand(0))));
        if (!size) return ir::refuse(module_, inst, size.error().message());
        uint32_t bytes = b.resizeSigned(b.isub(offsets[0], offsets[1]), ir::scalarWidth(module_, inst.typeId()));
        result = b.op(spv::Op::OpSDiv, inst.typeId(), {bytes, ir::constantBits(module_, inst.typeId(), *size)});
      }
    }
    module_.replaceAllUses(inst.resultId(), result);
    dead_.push_back(&inst);
    return okStatus();
  }

  Status rewriteCopy(Instruction& copy);

  Status rewrite(Function& function) {
    std::vector<Instruction*> instructions;
    for (Block& block : function.blocks()) {
      for (Instruction& inst : block.instructions()) instructions.push_back(&inst);
    }
    for (Instruction* inst : instructions) {
      if (objectOf(inst->resultId())) {
        Expected<uint32_t> offset = offsetOf(inst->resultId());
        if (!offset) return offset.error();
        if (inst->opcode() != spv::Op::OpLoad) continue;
      }
      bool usesObject = inst->opcode() == spv::Op::OpCopyMemory || inst->opcode() == spv::Op::OpCopyMemorySized;
      for (const Operand& operand : inst->operands()) usesObject |= operand.isId() && objectOf(operand.words[0]);
      if (!usesObject && !isPointerTest(*inst)) continue;
      switch (inst->opcode()) {
        case spv::Op::OpLoad: CL2VK_TRY(rewriteLoad(*inst)); break;
        case spv::Op::OpStore: CL2VK_TRY(rewriteStore(*inst)); break;
        case spv::Op::OpConvertPtrToU:
        case spv::Op::OpPtrEqual:
        case spv::Op::OpPtrNotEqual:
        case spv::Op::OpPtrDiff: CL2VK_TRY(rewritePointerUse(*inst)); break;
        case spv::Op::OpCopyMemory:
        case spv::Op::OpCopyMemorySized: CL2VK_TRY(rewriteCopy(*inst)); break;
        default:
          if (ir::isAtomic(inst->opcode()) && objectOf(inst->idOperand(0))) {
            CL2VK_TRY(rewriteAtomic(*inst));
            break;
          }
          if (objectOf(inst->resultId())) break;  // pointer arithmetic, already an offset
          return unsupportedPointerUse(module_, *inst);
      }
    }
    return okStatus();
  }

  Module& module_;
  WordPlan plan_;
  std::vector<uint32_t> words_;  // each object's word array
  std::unordered_map<uint32_t, uint32_t> offsets_;
  std::vector<std::pair<Instruction*, Instruction*>> phis_;
  std::vector<Instruction*> dead_;
};

// A memcpy that is not a typed copy of one object (lower-pointers made those loads and stores): to
// or from a word object or between buffers, in 32-bit words where the size and alignment allow,
// else in bytes. A copy of a constant size of at most kMaxUnrolledBytes becomes that many loads and
// stores (a loop's run-time offsets would keep a __private object out of registers); a longer
// one, or one whose size is known only at run time (hashcat's `memcpy(buf + i, src,
// min(72 - i, len))` in bcrypt), a loop over the chunks.
Status WordMemory::rewriteCopy(Instruction& copy) {
  uint32_t target = copy.idOperand(0), source = copy.idOperand(1);
  bool sized = copy.opcode() == spv::Op::OpCopyMemorySized;
  std::optional<uint64_t> size;
  if (sized) {
    size = constantValue(module_, copy.idOperand(2));
  } else if (Expected<uint32_t> bytes = sizeInMemory(module_, pointeeOf(module_, ir::typeOf(module_, target)))) {
    size = *bytes;
  } else {
    return ir::refuse(module_, copy, bytes.error().message());
  }
  constexpr uint64_t kMaxUnrolledBytes = 16384;
  uint32_t alignment = declaredAlignment(copy, sized ? 3 : 2, 1);
  uint32_t chunk = size && alignment >= 4 && *size % 4 == 0 ? 4 : 1;
  if (size && *size > UINT32_MAX)
    return ir::refuse(module_, copy, "a copy of reinterpreted __local or __private memory of 4 GiB or more");
  bool unrolled = size && *size <= kMaxUnrolledBytes;

  // Each side: a word object (an offset) or a buffer (an address).
  struct Side {
    uint32_t pointer, offset = 0, address = 0;
  };
  auto sideOf = [&](Builder& b, uint32_t pointer) -> Expected<Side> {
    Side side{pointer};
    if (objectOf(pointer)) {
      Expected<uint32_t> offset = offsetOf(pointer);
      if (!offset) return offset.error();
      side.offset = *offset;
    } else if (storageOf(module_, ir::typeOf(module_, pointer)) == SC::PhysicalStorageBuffer) {
      // The buffer side's chunks are addressed by integer arithmetic on its address: lavapipe
      // (Mesa 22.3) misplaces OpPtrAccessChain steps through a pointer cast from one made by
      // OpPtrAccessChain (found with pyopencl's struct reductions: three word stores to one word).
      side.address = b.op(spv::Op::OpConvertPtrToU, ir::typeInt(module_, 64), {pointer});
    } else {
      return ir::refuse(module_, copy, "copies between __local or __private memory of different types");
    }
    return side;
  };
  // One chunk from `from` to `to`, `byte` bytes from their starts: a number where the copy is
  // unrolled (its constants made only for the side that uses them), else a 32-bit id.
  struct Byte {
    uint32_t number = 0, id = 0;
  };
  uint32_t chunkType = ir::typeInt(module_, chunk * 8);
  auto copyChunk = [&](Builder& b, const Side& from, const Side& to, Byte byte) -> Status {
    auto chunkAt = [&](uint32_t address) {
      if (byte.id)
        address = b.iadd(address, b.resize(byte.id, 64));
      else if (byte.number)
        address = b.iadd(address, ir::constantUint(module_, 64, byte.number));
      return b.op(spv::Op::OpConvertUToPtr, ir::typePointer(module_, SC::PhysicalStorageBuffer, chunkType), {address});
    };
    auto offsetIn = [&](const Side& side) { return b.iadd(side.offset, byte.id ? byte.id : constant(byte.number)); };
    uint32_t value;
    if (from.address) {
      value = b.load(chunkType, chunkAt(from.address), chunk);
    } else {
      WordAccess access(b, wordsOf(source), objectOf(source)->storage);
      Expected<uint32_t> read = access.read(chunkType, offsetIn(from), chunk);
      if (!read) return ir::refuse(module_, copy, read.error().message());
      value = *read;
    }
    if (to.address) {
      b.store(chunkAt(to.address), value, chunk);
      return okStatus();
    }
    WordAccess access(b, wordsOf(target), objectOf(target)->storage);
    if (Status written = access.write(value, offsetIn(to), chunk); !written.ok())
      return ir::refuse(module_, copy, written.error().message());
    return okStatus();
  };

  if (unrolled) {
    Builder b = Builder::before(module_, &copy);
    Expected<Side> to = sideOf(b, target);
    if (!to) return to.error();
    Expected<Side> from = sideOf(b, source);
    if (!from) return from.error();
    for (uint32_t i = 0; i < *size / chunk; ++i) CL2VK_TRY(copyChunk(b, *from, *to, Byte{.number = i * chunk}));
  } else {
    // Not a structured binding: the loop's body captures the builder (clang-15 refuses that).
    std::pair<Builder, Block*> split = Builder::splitAfter(module_, &copy);
    Builder& b = split.first;
    Block* rest = split.second;
    Expected<Side> to = sideOf(b, target);
    if (!to) return to.error();
    Expected<Side> from = sideOf(b, source);
    if (!from) return from.error();
    // The byte count as a 32-bit integer: a larger copy would not fit the word objects.
    uint32_t bytes = size ? constant(static_cast<uint32_t>(*size)) : b.resize(copy.idOperand(2), 32);
    Status status = okStatus();
    b.foldLoop(constant(0), bytes, constant(chunk), 0, 0, [&](uint32_t, uint32_t byte) {
      if (status.ok()) status = copyChunk(b, *from, *to, Byte{.id = byte});
      return 0u;
    });
    CL2VK_TRY(status);
    b.branchTo(rest);
  }
  dead_.push_back(&copy);
  return okStatus();
}

}  // namespace

Status lowerWordAddressedMemory(ir::Module& module) {
  Expected<WordPlan> plan = planWordObjects(module);
  if (!plan) return plan.error();
  return WordMemory(module, std::move(*plan)).run();
}

}  // namespace cl2vk::pointers
