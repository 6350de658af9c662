#include "passes/pass.h"

namespace cl2vk {

const std::vector<PassInfo>& registeredPasses() {
  // The translation passes are added here as they are written, in pipeline order.
  static const std::vector<PassInfo> passes = {};
  return passes;
}

Expected<PassResult> runPasses(ir::Module& module, PassContext& context, const std::vector<const PassInfo*>& passes) {
  PassResult overall = PassResult::kUnchanged;
  for (const PassInfo* pass : passes) {
    Expected<PassResult> result = pass->run(module, context);
    if (!result) return result.error().withContext(pass->name);
    if (*result == PassResult::kChanged) overall = PassResult::kChanged;
  }
  return overall;
}

}  // namespace cl2vk
