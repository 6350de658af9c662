// A one-line description of a module, for cl2vk-opt --stats and the main job.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "ir/module.h"

namespace cl2vk::ir {

struct ModuleSummary {
  uint32_t versionMajor = 0, versionMinor = 0;
  size_t words = 0;
  std::vector<std::string> kernels;            // entry point names
  size_t functions = 0;                        // with bodies
  std::map<std::string, size_t> collectives;   // OpGroup* opcode name -> count
  std::map<std::string, size_t> builtinCalls;  // imported collective builtin -> calls
};

ModuleSummary summarize(const Module& module);

// "SPIR-V 1.2, 1840 words, 9 kernels, 27 collectives (OpGroupIAdd 9, ...), 3 builtin calls (...)"
std::string formatSummary(const ModuleSummary& summary);

}  // namespace cl2vk::ir
