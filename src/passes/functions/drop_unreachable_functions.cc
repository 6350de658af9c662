#include "passes/functions/drop_unreachable_functions.h"

#include "analysis/call_graph.h"

namespace cl2vk {

Expected<PassResult> dropUnreachableFunctions(ir::Module& module, const Target&) {
  std::vector<ir::Function*> unreached = ir::functionsNoKernelReaches(module);
  if (unreached.empty()) return PassResult::kUnchanged;
  CL2VK_TRY(module.removeFunctions(unreached));
  return PassResult::kChanged;
}

}  // namespace cl2vk
