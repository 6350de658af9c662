#include "ir/summary.h"

#include "ir/collectives.h"
#include "ir/writer.h"

namespace cl2vk::ir {
namespace {

std::string plural(size_t count, const std::string& noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

// "6 collective instructions (OpGroupIAdd 2, OpGroupSMax 4)"
std::string formatCounts(const std::map<std::string, size_t>& counts, const std::string& noun) {
  size_t total = 0;
  std::string detail;
  for (const auto& [name, count] : counts) {
    total += count;
    detail += (detail.empty() ? "" : ", ") + name + " " + std::to_string(count);
  }
  return plural(total, noun) + (detail.empty() ? "" : " (" + detail + ")");
}

}  // namespace

ModuleSummary summarize(const Module& module) {
  ModuleSummary summary;
  summary.versionMajor = (module.header().version >> 16) & 0xff;
  summary.versionMinor = (module.header().version >> 8) & 0xff;
  summary.words = writeBinary(module).size();
  for (const Instruction& entry : module.section(Section::kEntryPoint))
    summary.kernels.push_back(entry.stringOperand(2));
  for (const Function& function : module.functions()) {
    if (function.isDeclaration()) continue;
    ++summary.functions;
    for (const Block& block : function.blocks()) {
      for (const Instruction& inst : block.instructions()) {
        if (isGroupCollective(inst.opcode())) ++summary.collectives[opcodeName(inst.opcode())];
        if (inst.opcode() != spv::Op::OpFunctionCall) continue;
        std::string callee = linkageName(module, inst.idOperand(0));
        if (isCollectiveBuiltinName(callee)) ++summary.builtinCalls[std::string(demangledBaseName(callee))];
      }
    }
  }
  return summary;
}

std::string formatSummary(const ModuleSummary& summary) {
  return "SPIR-V " + std::to_string(summary.versionMajor) + "." + std::to_string(summary.versionMinor) + ", " +
         plural(summary.words, "word") + ", " + plural(summary.kernels.size(), "kernel") + ", " +
         plural(summary.functions, "function") + ", " + formatCounts(summary.collectives, "collective instruction") +
         ", " + formatCounts(summary.builtinCalls, "collective builtin call");
}

}  // namespace cl2vk::ir
