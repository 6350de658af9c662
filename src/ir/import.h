// Copying functions from one module into another: the function, every function it calls, and the
// types, constants, global variables, extended-instruction imports and decorations they use. Types
// and constants that the destination already has are shared rather than duplicated.
#pragma once

#include <cstdint>
#include <unordered_map>

#include "cl2vk/expected.h"
#include "ir/module.h"

namespace cl2vk::ir {

class FunctionImporter {
 public:
  // `from` must outlive the importer; `into` receives the copies.
  FunctionImporter(Module& into, const Module& from) : into_(into), from_(from) {}

  // The id in `into` of function `function` of `from`, copying it (and its callees) on the first
  // request. Linkage decorations are not copied: the copy is an ordinary internal function.
  Expected<uint32_t> import(uint32_t function);

 private:
  Expected<uint32_t> mapped(uint32_t id);
  Expected<uint32_t> importGlobal(const Instruction& inst);
  Status copyFunction(const Function& function);
  void copyDecorations(uint32_t fromId, uint32_t intoId);

  Module& into_;
  const Module& from_;
  std::unordered_map<uint32_t, uint32_t> ids_;  // id in `from` -> id in `into`
};

}  // namespace cl2vk::ir
