// The pass interface and the registry that cl2vk-opt and the translator read. Every pass has a
// name that is also its command-line flag (cl2vk-opt --<name> runs it alone) and says whether it
// changed the module.
#pragma once

#include <spirv-tools/libspirv.h>

#include <functional>
#include <string>
#include <vector>

#include "ir/module.h"
#include "support/expected.h"

namespace cl2vk {

// What the generated code may assume about the device it will run on.
struct Target {
  spv_target_env vulkanEnv = SPV_ENV_VULKAN_1_2;
};

enum class PassResult { kUnchanged, kChanged };

struct PassInfo {
  std::string name;     // the flag, without "--"
  std::string summary;  // one line for --help
  std::function<Expected<PassResult>(ir::Module&, const Target&)> run;
};

// Every pass, in the order the full pipeline runs them.
const std::vector<PassInfo>& registeredPasses();

// Runs `passes` in order; the first failure stops the pipeline and is returned, naming the pass.
Expected<PassResult> runPasses(ir::Module& module, const Target& target, const std::vector<const PassInfo*>& passes);

}  // namespace cl2vk
