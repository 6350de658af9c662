#include "vulkan/float_denormal_probe.h"

#include <cstdint>
#include <vector>

#include "vulkan/dispatch.h"
#include "vulkan/probe_shader.h"

namespace cl2vk::vulkan {
namespace {

// out[0] = denormal * scale (a denormal in, a normal out), out[1] = tiny * tinyScale (normals in,
// a denormal out), out[2] = denormal + denormal, as bits. The operands come from push constants,
// so that no compiler folds them.
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
               OpMemberDecorate %Push 2 Offset 12
               OpMemberDecorate %Push 3 Offset 16
               OpMemberDecorate %Push 4 Offset 20
               OpDecorate %uint_ptr ArrayStride 4
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
      %uint2 = OpTypeVector %uint 2
   %uint_ptr = OpTypePointer PhysicalStorageBuffer %uint
       %Push = OpTypeStruct %uint2 %float %float %float %float
   %push_ptr = OpTypePointer PushConstant %Push
 %push_uint2 = OpTypePointer PushConstant %uint2
 %push_float = OpTypePointer PushConstant %float
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
     %fnType = OpTypeFunction %void
       %push = OpVariable %push_ptr PushConstant
       %main = OpFunction %void None %fnType
      %entry = OpLabel
  %addrField = OpAccessChain %push_uint2 %push %uint_0
       %addr = OpLoad %uint2 %addrField
        %out = OpBitcast %uint_ptr %addr
     %dField = OpAccessChain %push_float %push %uint_1
   %denormal = OpLoad %float %dField
     %sField = OpAccessChain %push_float %push %uint_2
      %scale = OpLoad %float %sField
     %tField = OpAccessChain %push_float %push %uint_3
       %tiny = OpLoad %float %tField
    %tsField = OpAccessChain %push_float %push %uint_4
  %tinyScale = OpLoad %float %tsField
     %normal = OpFMul %float %denormal %scale
       %made = OpFMul %float %tiny %tinyScale
        %sum = OpFAdd %float %denormal %denormal
         %r0 = OpBitcast %uint %normal
         %r1 = OpBitcast %uint %made
         %r2 = OpBitcast %uint %sum
        %at1 = OpPtrAccessChain %uint_ptr %out %uint_1
        %at2 = OpPtrAccessChain %uint_ptr %out %uint_2
               OpStore %out %r0 Aligned 4
               OpStore %at1 %r1 Aligned 4
               OpStore %at2 %r2 Aligned 4
               OpReturn
               OpFunctionEnd
)";

}  // namespace

Expected<bool> measureFloat32DenormalsKept(Device& device) {
  Expected<uint32_t> kept =
      measureOncePerDevice(device, "float denormal behaviour", [](Device& probed) -> Expected<uint32_t> {
        struct {
          float denormal, scale, tiny, tinyScale;
        } push{0x1p-140f, 0x1p+20f, 0x1p-120f, 0x1p-20f};
        Expected<std::vector<uint32_t>> bits =
            runProbeShader(probed, "float-denormal", kProbeAssembly, bytesOf(push), 3);
        if (!bits) return bits.error();
        // 2^-120 (normal), 2^-140 and 2^-139 (denormals: 2^9 and 2^10 units of 2^-149).
        return (*bits)[0] == 0x03800000u && (*bits)[1] == 0x200u && (*bits)[2] == 0x400u ? 1u : 0u;
      });
  if (!kept) return kept.error();
  return *kept == 1;
}

}  // namespace cl2vk::vulkan
