// cl2vk's builtin library: OpenCL C functions (src/builtins/*.cl) that compute OpenCL.std math
// to OpenCL's accuracy where GLSL.std.450 cannot, compiled to SPIR-V at build time and embedded
// in the translator. Their names are reserved: __cl2vk_<function>_f32 and _f64.
#pragma once

#include <cstdint>
#include <string_view>

#include "ir/module.h"

namespace cl2vk {

struct BuiltinFunction {
  const ir::Module* module = nullptr;  // null when the library has no such function
  uint32_t id = 0;
};

// The library function called `name`, parsing the embedded modules on first use.
BuiltinFunction findBuiltin(std::string_view name);

}  // namespace cl2vk
