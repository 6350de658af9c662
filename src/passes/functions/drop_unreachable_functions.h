// drop-unreachable-functions: removes every function that no kernel reaches, before anything else
// reads the module. A program's module holds all of its source's functions, and an application's
// source is often a library of which each kernel uses a little (hashcat links 7 MB of SPIR-V into
// every program; its kernels reach under 300 KB): every pass, and the input's validation, would
// otherwise work on code that never runs, and refuse what it cannot translate there. Runs first, on
// the input as the front end wrote it. A module without kernels is left as it is.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> dropUnreachableFunctions(ir::Module& module, const Target& target);

}  // namespace cl2vk
