// Which kernel a function belongs to, for diagnostics about code not yet inlined, and which
// functions no kernel can run.
#pragma once

#include <string>
#include <vector>

#include "cl2vk/expected.h"
#include "ir/module.h"

namespace cl2vk::ir {

// The entry point name of `function` where it is a kernel, else of the first kernel that reaches it
// through calls (the function's own name when no kernel does).
std::string kernelReaching(const Module& module, const Function& function);

// The functions (defined or declared) that no kernel reaches: not an entry point, not named by a
// global instruction (a function pointer constant), not used by a function that a kernel reaches.
// Names and decorations do not count, linkage included: a translation has no linking after it. A
// module without entry points (a library) gives none.
std::vector<Function*> functionsNoKernelReaches(Module& module);

// The one form of an error about a kernel's code, which every pass gives: "kernel 'K': <the
// instruction>: <why>", K being kernelReaching of the instruction's function (an instruction
// outside any function has no kernel part).
Error refuse(const Module& module, const Instruction& inst, const std::string& why);

// "kernel 'K': <why>", for what concerns a function as a whole (K as above).
Error refuse(const Module& module, const Function& function, const std::string& why);

}  // namespace cl2vk::ir
