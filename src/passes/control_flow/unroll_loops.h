// unroll-loops: an innermost loop whose coming iterations can be counted ahead runs several of
// them per pass: Target::loopUnroll (8) for a body of up to 16 instructions, half that for one of
// up to 64, or the PartialCount of its OpLoopMerge (`#pragma unroll 4`).
//
// The loops taken are those LLVM's loop rotation leaves for `while (i < n) { ... i += stride; }`
// and most `for` loops: the latch's conditional branch is the only exit, and that condition is
// computed from the header's phis and values from outside the loop by integer arithmetic alone
// (the slice). At the top of each pass the slice is evaluated for the next iterations, wrapping
// exactly as the loop would, so nothing is assumed of the stride's sign or of overflow; when they
// would all run, the copies of the body run back to back without a test between them, and the
// driver's compiler can issue their loads together; otherwise the original body runs once. The
// result is still one loop left from its latch alone. A grid-stride loop of loads (CLBlast's dot
// product, reductions) is otherwise bound by one load's latency per iteration: NVIDIA's OpenCL
// compiler unrolls it, its Vulkan compiler does not, and LLVM cannot for an unknown stride's sign.
//
// Left alone: loops that hold a barrier, a collective, a sub-group operation or a call, loops that
// read no buffer or constant memory (nothing to overlap), bodies of more than 64 instructions,
// slices of more than 16, and loops whose OpLoopMerge says DontUnroll. Runs before
// limit-loop-iterations, which counts the new loop's passes.
#pragma once

#include "cl2vk/target.h"
#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> unrollLoops(ir::Module& module, const Target& target);

}  // namespace cl2vk
