#include "vulkan/loop_limit_probe.h"

#include <vector>

#include "vulkan/dispatch.h"
#include "vulkan/probe_shader.h"

namespace cl2vk::vulkan {
namespace {

// One invocation counts the executions of a loop header until it reaches the push constant `n`
// or the driver ends the loop, and stores the count. The loop tests at its bottom, so the count is
// the number of header executions the driver allowed; the address arrives as two words (no Int64
// needed: SwiftShader has none).
constexpr const char* kProbeAssembly = R"(
               OpCapability Shader
               OpCapability PhysicalStorageBufferAddresses
               OpExtension "SPV_KHR_physical_storage_buffer"
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %main "main" %push
               OpExecutionMode %main LocalSize 1 1 1
               OpDecorate %Push Block
               OpMemberDecorate %Push 0 Offset 0
               OpMemberDecorate %Push 1 Offset 8
               OpDecorate %uint_ptr ArrayStride 4
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %uint2 = OpTypeVector %uint 2
   %uint_ptr = OpTypePointer PhysicalStorageBuffer %uint
       %Push = OpTypeStruct %uint2 %uint
   %push_ptr = OpTypePointer PushConstant %Push
 %push_uint2 = OpTypePointer PushConstant %uint2
  %push_uint = OpTypePointer PushConstant %uint
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %fnType = OpTypeFunction %void
       %push = OpVariable %push_ptr PushConstant
       %main = OpFunction %void None %fnType
      %entry = OpLabel
  %addrField = OpAccessChain %push_uint2 %push %uint_0
       %addr = OpLoad %uint2 %addrField
        %out = OpBitcast %uint_ptr %addr
     %nField = OpAccessChain %push_uint %push %uint_1
          %n = OpLoad %uint %nField
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %latch
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpLoopMerge %merge %latch None
               OpBranchConditional %more %latch %merge
      %latch = OpLabel
               OpBranch %header
      %merge = OpLabel
               OpStore %out %next Aligned 4
               OpReturn
               OpFunctionEnd
)";

}  // namespace

Expected<uint32_t> measureLoopIterationLimit(Device& device) {
  return measureOncePerDevice(device, "loop-iteration limit", [](Device& probed) -> Expected<uint32_t> {
    struct {
      uint32_t n, unused;
    } push{kLoopLimitProbeIterations, 0};
    Expected<std::vector<uint32_t>> ran = runProbeShader(probed, "loop-limit", kProbeAssembly, bytesOf(push), 1);
    if (!ran) return ran.error();
    return (*ran)[0] < kLoopLimitProbeIterations ? (*ran)[0] : 0;
  });
}

}  // namespace cl2vk::vulkan
