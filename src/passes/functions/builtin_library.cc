#include "passes/functions/builtin_library.h"

#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "ir/reader.h"

namespace cl2vk {
namespace {

// Generated at build time from src/builtins/<name>.cl (src/CMakeLists.txt, cmake/EmbedWords.cmake).
const uint32_t kFmod[] = {
#include "builtins/fmod.spv.inc"
};
const uint32_t kInverseTrig[] = {
#include "builtins/inverse_trig.spv.inc"
};

struct Library {
  std::vector<std::unique_ptr<ir::Module>> modules;
  std::unordered_map<std::string, BuiltinFunction> functions;
};

const Library& library() {
  static const Library loaded = [] {
    Library result;
    for (std::span<const uint32_t> words :
         {std::span<const uint32_t>(kFmod), std::span<const uint32_t>(kInverseTrig)}) {
      Expected<std::unique_ptr<ir::Module>> module = ir::readBinary(words);
      // The build compiled these words; a failure here is a build defect, and the lookups below
      // then find nothing, so the instructions are lowered (or refused) as if there were no library.
      if (!module) continue;
      for (const ir::Function& function : (*module)->functions()) {
        if (function.isDeclaration()) continue;
        result.functions[(*module)->name(function.id())] = BuiltinFunction{module->get(), function.id()};
      }
      result.modules.push_back(std::move(*module));
    }
    return result;
  }();
  return loaded;
}

}  // namespace

BuiltinFunction findBuiltin(std::string_view name) {
  const Library& loaded = library();
  auto it = loaded.functions.find(std::string(name));
  return it == loaded.functions.end() ? BuiltinFunction{} : it->second;
}

}  // namespace cl2vk
