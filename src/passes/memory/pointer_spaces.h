// Address-space inference for lower-pointers: where each pointer value of a function points once
// generic and __constant pointers are resolved (PhysicalStorageBuffer for buffers, else
// Workgroup, Function or Private), from its definition through casts, access chains, phis and
// selects. A pointer whose space cannot be told is an error; lower-pointers then tags the generic
// ones (tagged_pointers.h) and infers again.
#pragma once

#include <cstdint>
#include <optional>
#include <unordered_map>

#include "passes/memory/pointer_values.h"

namespace cl2vk::pointers {

class SpaceInference {
 public:
  SpaceInference(Module& module, Function& function) : module_(module), function_(function) {}

  Status run();

  std::optional<SC> spaceOf(uint32_t id) const;

  const std::unordered_map<uint32_t, SC>& spaces() const { return spaces_; }

 private:
  std::optional<SC> infer(const Instruction& inst);

  Module& module_;
  Function& function_;
  std::unordered_map<uint32_t, SC> spaces_;
};

}  // namespace cl2vk::pointers
