#include "ir/collectives.h"

#include <cctype>

namespace cl2vk::ir {

bool isGroupCollective(spv::Op opcode) {
  switch (opcode) {
    case spv::Op::OpGroupAll:
    case spv::Op::OpGroupAny:
    case spv::Op::OpGroupBroadcast:
    case spv::Op::OpGroupIAdd:
    case spv::Op::OpGroupFAdd:
    case spv::Op::OpGroupFMin:
    case spv::Op::OpGroupUMin:
    case spv::Op::OpGroupSMin:
    case spv::Op::OpGroupFMax:
    case spv::Op::OpGroupUMax:
    case spv::Op::OpGroupSMax:
    case spv::Op::OpGroupIMulKHR:
    case spv::Op::OpGroupFMulKHR:
    case spv::Op::OpGroupBitwiseAndKHR:
    case spv::Op::OpGroupBitwiseOrKHR:
    case spv::Op::OpGroupBitwiseXorKHR:
    case spv::Op::OpGroupLogicalAndKHR:
    case spv::Op::OpGroupLogicalOrKHR:
    case spv::Op::OpGroupLogicalXorKHR: return true;
    default: return false;
  }
}

std::string_view demangledBaseName(std::string_view mangled) {
  if (!mangled.starts_with("_Z")) return mangled;
  size_t pos = 2, length = 0;
  while (pos < mangled.size() && std::isdigit(static_cast<unsigned char>(mangled[pos]))) {
    length = length * 10 + static_cast<size_t>(mangled[pos] - '0');
    if (length > mangled.size()) return mangled;
    ++pos;
  }
  if (pos == 2 || pos + length > mangled.size()) return mangled;
  return mangled.substr(pos, length);
}

bool isCollectiveBuiltinName(std::string_view name) {
  std::string_view base = demangledBaseName(name);
  for (std::string_view prefix : {"work_group_", "sub_group_"}) {
    if (!base.starts_with(prefix)) continue;
    std::string_view rest = base.substr(prefix.size());
    for (std::string_view kind : {"all", "any", "broadcast", "reduce_", "scan_inclusive_", "scan_exclusive_"}) {
      bool prefixKind = kind.ends_with('_');
      if (prefixKind ? rest.size() > kind.size() && rest.starts_with(kind) : rest == kind) return true;
    }
  }
  return false;
}

std::string linkageName(const Module& module, uint32_t functionId) {
  const Instruction* linkage = module.findDecoration(functionId, spv::Decoration::LinkageAttributes);
  return linkage ? linkage->stringOperand(2) : "";
}

}  // namespace cl2vk::ir
