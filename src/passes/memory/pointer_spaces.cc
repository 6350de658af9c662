// Address-space inference for lower-pointers (pointer_spaces.h).
#include "passes/memory/pointer_spaces.h"

#include "analysis/call_graph.h"

namespace cl2vk::pointers {
namespace {

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

}  // namespace

Status SpaceInference::run() {
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
      // Generic pointers are tagged where this fails (tagged_pointers.h); what is left is a
      // __constant pointer loaded from memory or computed from something else.
      if (inst.opcode() == spv::Op::OpLoad)
        return ir::refuse(module_, inst, "a __constant pointer loaded from memory is not supported");
      return ir::refuse(module_, inst, "cannot tell which address space this pointer points into");
    }
  }
  return okStatus();
}

std::optional<SC> SpaceInference::spaceOf(uint32_t id) const {
  if (auto it = spaces_.find(id); it != spaces_.end()) return it->second;
  const Instruction* def = module_.def(id);
  if (def && (def->opcode() == spv::Op::OpConstantNull || def->opcode() == spv::Op::OpUndef) &&
      isPointerValue(module_, *def))
    return spaceOfType(storageOf(module_, def->typeId()));  // NULL of a named space; none for generic
  if (def && def->opcode() == spv::Op::OpVariable) {
    SC storage = static_cast<SC>(def->wordOperand(0));
    return storage == SC::UniformConstant ? SC::Private : *spaceOfType(storage);
  }
  return std::nullopt;
}

std::optional<SC> SpaceInference::infer(const Instruction& inst) {
  SC declared = storageOf(module_, inst.typeId());
  switch (inst.opcode()) {
    case spv::Op::OpVariable: return declared == SC::UniformConstant ? SC::Private : spaceOfType(declared);
    case spv::Op::OpConvertUToPtr: return spaceOfType(declared).value_or(SC::PhysicalStorageBuffer);
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
      if (a && b && *a != *b) return spaceOfType(declared);  // as a phi's: reported by the users
      return a ? a : b;
    }
    default:
      if (forwardsPointer(inst.opcode())) {
        if (std::optional<SC> known = spaceOfType(declared);
            known && inst.opcode() != spv::Op::OpGenericCastToPtrExplicit)
          return known;
        return spaceOf(inst.idOperand(0));
      }
      return spaceOfType(declared);
  }
}

}  // namespace cl2vk::pointers
