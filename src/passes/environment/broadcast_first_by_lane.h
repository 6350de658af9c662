// broadcast-first-by-lane (Target::broadcastFirstOfComputedFloats false: llvmpipe): every
// OpGroupNonUniformBroadcastFirst of a value becomes an OpGroupNonUniformBroadcast of it from the
// lane that OpGroupNonUniformBroadcastFirst of SubgroupLocalInvocationId names (a shuffle before
// SPIR-V 1.5, which wants a constant lane): the same lane, the lowest active one. llvmpipe's LLVM
// 15 aborts the whole process compiling a broadcast-first of a value that float arithmetic has just
// computed (sub_group_broadcast_first((float)some_double), of x * 3.0f, of as_uint of either) on a
// CPU without AVX-512 ("LLVM ERROR: Cannot select: X86ISD::VBROADCAST" of an fp_round or fmul, in
// cs_co_variant); its broadcast from a given lane, and a broadcast-first of the lane ids, compile.
// Every broadcast-first is rewritten, since a bit cast hides where a value came from. Runs after
// lower-collectives and lower-int64. Does nothing for other targets.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> broadcastFirstByLane(ir::Module& module, const Target& target);

}  // namespace cl2vk
