// Before/after tests of one pass, in the manner of Tint's transform tests and SPIRV-Tools'
// SinglePassRunAndCheck: the input as SPIR-V assembly, the pass run by its cl2vk-opt name, and the
// whole output compared with the expected assembly, both in one canonical form.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "ir/module.h"
#include "passes/pass.h"

namespace cl2vk::test {

// Assembly in a form two equal modules share however their text was written: assembled, then
// disassembled with friendly names (%uint, %_ptr_Function_float, OpName'd ids by name), the ids
// that are still numbers renumbered %1, %2 ... in order of first appearance, and whitespace and
// comments dropped. A pass's fresh ids therefore compare by where they are used, not by value.
std::string canonicalAssembly(const ir::Module& module);
std::string canonicalAssembly(const std::string& text);

struct PassRun {
  std::unique_ptr<ir::Module> module;  // the module after the pass; null when it failed
  std::string error;                   // the pass's message when it failed
  PassContext context;                 // the target it ran for and the reflection it filled in
  // The result's canonical assembly, or "error: <message>".
  std::string text() const;
};

// Assembles `before` (the test fails when it does not assemble) and runs the pass whose cl2vk-opt
// flag is `pass` on it, as `cl2vk-opt --<pass>` would.
PassRun runPass(const std::string& pass, const std::string& before, const Target& target = {});

// Runs the pass and expects its whole output to be `after` (canonicalised); with `validFor`, the
// result must also pass SPIRV-Tools validation for that environment. Returns the run for more checks.
PassRun expectPassOutput(const std::string& pass, const std::string& before, const std::string& after,
                         const Target& target = {}, std::optional<spv_target_env> validFor = std::nullopt);

// How many times `what` occurs in `text` (overlapping occurrences counted).
size_t count(const std::string& text, const std::string& what);

}  // namespace cl2vk::test
