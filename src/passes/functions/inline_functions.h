// inline-functions: inlines every call to a function defined in the module, so that each kernel
// is one function and later passes never see pointers cross a call. Runs on the unstructured
// Kernel CFG, before structurization, where inlining is just splicing blocks. Calls to imported
// declarations stay (a later pass resolves or rejects them). Recursion is an error. Functions left
// without callers that are not entry points are removed. A struct passed by value (a pointer
// parameter with the ByVal attribute) is copied at the call when the callee may write to it.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> inlineFunctions(ir::Module& module, const Target& target);

}  // namespace cl2vk
