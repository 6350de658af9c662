// freeze-spec-constants: the input's specialization constants become plain constants with the
// values they hold (their defaults, or what clSetProgramSpecializationConstant put there:
// cl2vk/spirv.h's specialize()), and lose their SpecId decorations. The translation's own
// specialization constants (the work-group size, __local argument lengths: SpecIds in
// cl2vk/reflection.h) are set per dispatch, and their ids must not meet the program's: an input
// constant with SpecId 0 used to be taken for the work-group's x size. OpSpecConstantTrue/False
// become OpConstantTrue/False, OpSpecConstantComposite of constants OpConstantComposite;
// OpSpecConstantOp stays an expression of the now constant operands. Runs first in the pipeline.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> freezeSpecConstants(ir::Module& module, const Target& target);

}  // namespace cl2vk
