// limit-loop-iterations: on a target whose driver silently ends loops after a budget of loop
// iterations per invocation (Target::loopIterationLimit: lavapipe's 65536, shared by all loops),
// make running out of it an error the runtime reports instead of a wrong answer. Each kernel counts
// its loop-header executions in a Function variable and, where it returns with the budget spent,
// writes 1 to a hidden buffer (kLoopLimitFlagName). Nothing changes on a target without a limit. Runs before
// lower-kernel-interface, which lays out the hidden parameter.
#pragma once

#include "cl2vk/target.h"
#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> limitLoopIterations(ir::Module& module, const Target& target);

}  // namespace cl2vk
