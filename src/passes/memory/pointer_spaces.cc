// Address-space inference for lower-pointers (pointer_spaces.h).
#include "passes/memory/pointer_spaces.h"

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

const char* openclName(SC space) {
  switch (space) {
    case SC::PhysicalStorageBuffer: return "__global";
    case SC::Workgroup: return "__local";
    default: return "__private";
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
      if (inst.opcode() == spv::Op::OpLoad)
        return unsupported(module_, inst, "a generic or __constant pointer loaded from memory is not supported");
      if (std::optional<std::pair<SC, SC>> two = twoSpacesJoined(inst)) {
        return unsupported(module_, inst,
                           std::string("a generic pointer into ") + openclName(two->first) + " or " +
                               openclName(two->second) +
                               " memory as the path decides is not supported (Vulkan reaches each through "
                               "pointers of its own)");
      }
      return unsupported(module_, inst, "cannot tell which address space this pointer points into");
    }
  }
  return okStatus();
}

std::optional<std::pair<SC, SC>> SpaceInference::twoSpacesJoined(const Instruction& inst) const {
  std::optional<SC> first;
  auto join = [&](uint32_t id) -> std::optional<std::pair<SC, SC>> {
    std::optional<SC> space = spaceOf(id);
    if (space && first && *space != *first) return std::pair{*first, *space};
    if (space) first = space;
    return std::nullopt;
  };
  if (inst.opcode() == spv::Op::OpSelect) {
    if (auto two = join(inst.idOperand(1))) return two;
    return join(inst.idOperand(2));
  }
  if (inst.opcode() == spv::Op::OpPhi) {
    for (size_t i = 0; i < inst.numOperands(); i += 2) {
      if (auto two = join(inst.idOperand(i))) return two;
    }
  }
  return std::nullopt;
}

std::optional<SC> SpaceInference::spaceOf(uint32_t id) const {
  if (auto it = spaces_.find(id); it != spaces_.end()) return it->second;
  const Instruction* def = module_.def(id);
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
