// lower-collectives: the OpenCL work-group and sub-group collectives (OpGroupAll/Any/Broadcast,
// OpGroupIAdd ... OpGroupFMax, OpGroup*KHR) in Vulkan terms.
//
// Sub-group scope maps one to one onto OpGroupNonUniform* at Subgroup scope. Work-group scope is
// a subgroup operation plus a combine phase in Workgroup memory, in one scratch array per kernel
// (one element per subgroup, of the widest type used) shared by all its collectives:
// - reduce, all, any: subgroup reduce; one lane per subgroup writes its partial; barrier; each
//   lane folds the partials lane, lane + size, ... and a subgroup reduce of those gives every
//   invocation the result; barrier (so the next collective may reuse the scratch).
// - scans: subgroup scan and subgroup total; totals to the scratch; barrier; the partials of the
//   subgroups before one's own fold into its prefix the same way; barrier. Exclusive scans yield
//   the identity at the first work-item.
// - broadcast: the owner (linear local id x + y*lx + z*lx*ly) writes, barrier, everyone reads,
//   barrier.
// At most two work-group barriers each; the fold runs once per lane when the partials fit in a
// subgroup (more only when they outnumber its lanes). Scans assume that subgroups hold
// consecutive linear local ids, which drivers do for 1D work-groups (docs/collectives.md).
//
// Without subgroup arithmetic (Target::subgroupArithmetic), or for 8/16-bit values without
// Target::subgroupExtendedTypes, a collective runs in Workgroup memory alone: each invocation
// stores its value in a second scratch array (one element per invocation), reduce, all and any
// combine in a tree and scans in Hillis-Steele steps, a barrier after each; the step counts
// depend only on the group's size, so every invocation reaches every barrier. Work-group scope
// indexes by linear local id with work-group barriers; sub-group scope uses the subgroup's slice
// (from SubgroupId * SubgroupSize, its own lane count) with Subgroup-scope barriers.
//
// Per kernel, the reflection records the collectives rewritten, the work-group barriers added
// and the bytes of scratch (KernelReflection::collectives).
#pragma once

#include "passes/pass.h"

namespace cl2vk {

// Records each kernel's collectives, barriers and scratch bytes in context.reflection.
Expected<PassResult> lowerCollectives(ir::Module& module, PassContext& context);

}  // namespace cl2vk
