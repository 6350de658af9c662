#pragma once

#include "cl2vk/target.h"
#include "ir/module.h"
#include "passes/pass.h"

namespace cl2vk {

// OpenCL.std instructions that GLSL.std.450 cannot compute to OpenCL's accuracy, or has no form
// for (fmod, remainder, erf, tgamma..., every float and double transcendental but the half_ and
// native_ forms), become calls to cl2vk's builtin library (src/builtins/*.cl), whose functions,
// and only those called, are copied into the module; a vector operation calls the scalar function
// per component, and sincos, remquo and lgamma_r store their second result through their pointer.
// Runs before inline-functions, so the library code is inlined and lowered like the kernel's own.
// Half calls go to the float function on widened operands, the result rounded back once (the
// float function's error is far below half's last place; remainder, remquo, ilogb and logb stay
// exact). With relaxed math (Target::relaxedMath) the float and half functions GLSL.std.450
// computes stay for lower-opencl-std.
Expected<PassResult> linkBuiltins(ir::Module& module, const Target& target);

}  // namespace cl2vk
