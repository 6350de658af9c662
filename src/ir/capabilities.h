// The capabilities and extensions a module declares.
#pragma once

#include <string_view>

#include "ir/module.h"

namespace cl2vk::ir {

bool declaresCapability(const Module& module, spv::Capability capability);
// Declares `capability` unless the module already does.
void requireCapability(Module& module, spv::Capability capability);
// Declares `extension` unless the module already does.
void requireExtension(Module& module, std::string_view extension);

}  // namespace cl2vk::ir
