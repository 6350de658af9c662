// lower-conversions: gives OpenCL's convert_T_sat and convert_T_rte/_rtz/_rtp/_rtn their meaning
// with plain instructions, because Vulkan rejects the SaturatedConversion and FPRoundingMode
// decorations on them (spirv-val for Vulkan allows FPRoundingMode only on 16-bit float stores and
// conversions, behind capabilities). Float to integer rounds with Floor/Ceil/RoundEven (toward
// zero by default) and saturates with NaN going to 0; integer to float and float narrowing round
// through integer arithmetic on the bits, exactly under every mode; OpSatConvertSToU/UToS and
// saturated OpSConvert/OpUConvert become clamps. The decorations go with the old instructions.
#pragma once

#include "passes/pass.h"

namespace cl2vk {

Expected<PassResult> lowerConversions(ir::Module& module, const Target& target);

}  // namespace cl2vk
