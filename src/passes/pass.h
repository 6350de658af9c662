// The pass interface and the registry that cl2vk-opt and the translator read. Every pass has a
// name that is also its command-line flag (cl2vk-opt --<name> runs it alone) and says whether it
// changed the module.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "cl2vk/expected.h"
#include "cl2vk/reflection.h"
#include "cl2vk/target.h"
#include "ir/module.h"

namespace cl2vk {

enum class PassResult { kUnchanged, kChanged };

// What the passes of one translation share: the target, and the reflection they fill in.
struct PassContext {
  Target target;
  ModuleReflection reflection;
};

// Where a pass runs in translate(): kInput passes take the module as the front end wrote it, before
// the translator validates it (refusals of what cl2vk cannot translate, with its own messages, and
// repairs of what llvm-spirv-15 writes against SPIR-V's rules); kLowering passes take a valid one.
enum class PassStage { kInput, kLowering };

struct PassInfo {
  std::string name;     // the flag, without "--"
  std::string summary;  // one line for --help
  std::function<Expected<PassResult>(ir::Module&, PassContext&)> run;
  PassStage stage = PassStage::kLowering;
  // Whether its errors start with its name. check-supported's do not: they are the first thing a
  // user reads about their program, not a step of the translation that failed.
  bool namedInErrors = true;
};

// Every pass, in the order the full pipeline runs them.
const std::vector<PassInfo>& registeredPasses();

// Runs `passes` in order; the first failure stops the pipeline and is returned, naming the pass.
Expected<PassResult> runPasses(ir::Module& module, PassContext& context, const std::vector<const PassInfo*>& passes);

}  // namespace cl2vk
