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
// Half erf, erfc, tgamma, lgamma(_r), remainder, remquo, sinpi, cospi, tanpi, ilogb and logb,
// which GLSL.std.450 lacks, call the float function on widened operands and round the result
// back; other half instructions stay for lower-opencl-std (GLSL.std.450's), and so do the float
// functions GLSL.std.450 computes when the program asked for relaxed math (Target::relaxedMath).
Expected<PassResult> linkBuiltins(ir::Module& module, const Target& target);

}  // namespace cl2vk
