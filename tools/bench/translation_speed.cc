#include "translation_speed.h"

#include <spirv-tools/libspirv.hpp>

#include <chrono>
#include <fstream>

#include "cl2vk/spirv.h"
#include "cl2vk/translator.h"
#include "measure.h"

namespace cl2vk::bench {
namespace {

struct CorpusModule {
  std::string path;
  std::vector<uint32_t> words;
  bool expectRefusal = false;  // under unsupported/
};

Expected<std::vector<CorpusModule>> readCorpus(const std::string& corpusList) {
  std::ifstream list(corpusList);
  if (!list) return Error("cannot read the corpus list " + corpusList + " (build the corpus target, or pass --corpus)");
  std::vector<CorpusModule> modules;
  std::string path;
  while (std::getline(list, path)) {
    if (path.empty()) continue;
    std::ifstream file(path, std::ios::binary | std::ios::ate);
    if (!file) return Error("cannot read corpus module " + path);
    auto size = static_cast<size_t>(file.tellg());
    CorpusModule module{path, std::vector<uint32_t>(size / 4), path.find("/unsupported/") != std::string::npos};
    file.seekg(0);
    file.read(reinterpret_cast<char*>(module.words.data()), static_cast<std::streamsize>(module.words.size() * 4));
    modules.push_back(std::move(module));
  }
  return modules;
}

// The universal environment of the module's SPIR-V version (the translator checks input so).
spv_target_env inputEnvironment(const std::vector<uint32_t>& words) {
  return universalEnvironment(words.size() > 1 ? words[1] : 0);
}

double elapsedNs(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - start).count();
}

}  // namespace

Expected<CorpusTiming> timeCorpus(const std::string& corpusList, const Target& target, size_t repetitions) {
  auto modules = readCorpus(corpusList);
  if (!modules) return modules.error();
  CorpusTiming timing;
  timing.modules = modules->size();
  std::vector<double> translateTimes, validateTimes;
  for (size_t repetition = 0; repetition < repetitions; ++repetition) {
    bool first = repetition == 0;
    auto start = std::chrono::steady_clock::now();
    for (const CorpusModule& module : *modules) {
      Expected<Translation> translation = translate(module.words, target);
      if (!first) continue;
      if (translation && module.expectRefusal) {
        timing.unexpected.push_back(module.path + ": translated, but it should be refused");
      } else if (translation) {
        ++timing.translated;
      } else if (module.expectRefusal) {
        ++timing.refusedAsExpected;
      } else {
        timing.unexpected.push_back(module.path + ": " + translation.error().message());
      }
    }
    translateTimes.push_back(elapsedNs(start));

    start = std::chrono::steady_clock::now();
    for (const CorpusModule& module : *modules) {
      spvtools::SpirvTools tools(inputEnvironment(module.words));
      tools.SetMessageConsumer([](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
      bool valid = tools.Validate(module.words.data(), module.words.size());
      if (first && !valid) ++timing.invalid;
    }
    validateTimes.push_back(elapsedNs(start));
  }
  timing.translateNs = median(translateTimes);
  timing.validateNs = median(validateTimes);
  return timing;
}

}  // namespace cl2vk::bench
