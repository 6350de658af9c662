// Which kernel a function belongs to, for diagnostics about code not yet inlined.
#pragma once

#include <string>

#include "ir/module.h"

namespace cl2vk::ir {

// The entry point name of the first kernel that reaches `function` through calls (the function's
// own name when no kernel does).
std::string kernelReaching(const Module& module, const Function& function);

}  // namespace cl2vk::ir
