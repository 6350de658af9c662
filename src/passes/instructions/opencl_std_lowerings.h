// The per-instruction lowerings of lower-opencl-std, grouped as the OpenCL.std specification groups
// them (math, integer, common and geometric, relational, vector load and store). Each table maps an
// OpenCL.std instruction number to its OpenCL C name and a small function that builds the
// replacement before the instruction; lower_opencl_std.cc walks the module and dispatches.
#pragma once

#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "cl2vk/expected.h"
#include "ir/builder.h"

namespace cl2vk {

// One OpExtInst of OpenCL.std as a lowering sees it.
struct ExtCall {
  ir::Instruction& inst;
  std::string name;            // the OpenCL C name, for diagnostics ("s_mul_hi")
  uint32_t type;               // the result type
  std::vector<uint32_t> args;  // the operands after the instruction number: ids, or a literal's word
};

// Builds the replacement; returns the value that replaces the instruction's result (0 when the
// instruction has no result worth keeping, as for stores), or why it cannot be lowered.
using ExtLowering = Expected<uint32_t> (*)(ir::Builder&, const ExtCall&);

struct ExtEntry {
  const char* name;
  ExtLowering lower;  // null: known but not supported
};
using ExtTable = std::unordered_map<uint32_t, ExtEntry>;

const ExtTable& mathLowerings();       // opencl_std_math.cc: float math and common
const ExtTable& geometricLowerings();  // opencl_std_geometric.cc: cross, length, distance, normalize
const ExtTable& integerLowerings();    // opencl_std_integer.cc: integer and relational
const ExtTable& memoryLowerings();     // opencl_std_memory.cc: vloadn, vstoren, the half forms, printf

// "%22 = OpExtInst ... in function 'k': OpenCL.std <name> is not supported<detail>".
Error unsupported(ir::Builder& e, const ExtCall& call, const std::string& detail = "");

// Argument `index` of the call, with a scalar widened to the shape of `type` (OpenCL lets a
// scalar stand for every component in clamp, mix, step, ldexp and friends).
uint32_t argAs(ir::Builder& e, const ExtCall& call, size_t index, uint32_t type);

}  // namespace cl2vk
