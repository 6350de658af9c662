// How fast the translator handles the corpus, in process, next to SPIRV-Tools' validator reading
// the same modules: validation is a pass over the module that any translation must at least make,
// so the ratio says how much the translation costs beyond it.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "cl2vk/expected.h"
#include "cl2vk/target.h"

namespace cl2vk::bench {

struct CorpusTiming {
  size_t modules = 0;
  size_t translated = 0;
  size_t refusedAsExpected = 0;         // modules under unsupported/ that the translator refused
  std::vector<std::string> unexpected;  // "path: why" for the other failures and acceptances
  size_t invalid = 0;                   // modules the validator rejected
  double translateNs = 0;               // the whole corpus; median over the repetitions
  double validateNs = 0;
};

// Translates and validates every module `corpusList` names (one path per line), `repetitions`
// times each, with `target`. Input validation uses the universal environment of each module's
// SPIR-V version, as the translator's own input check does.
Expected<CorpusTiming> timeCorpus(const std::string& corpusList, const Target& target, size_t repetitions);

}  // namespace cl2vk::bench
