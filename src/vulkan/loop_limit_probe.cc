#include "vulkan/loop_limit_probe.h"

#include <spirv-tools/libspirv.h>

#include <map>
#include <mutex>
#include <vector>

#include "vulkan/buffer.h"
#include "vulkan/device.h"
#include "vulkan/dispatch.h"
#include "vulkan/pipeline.h"

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

Expected<std::vector<uint32_t>> assembleProbe() {
  spv_context context = spvContextCreate(SPV_ENV_VULKAN_1_2);
  spv_binary binary = nullptr;
  spv_diagnostic diagnostic = nullptr;
  spv_result_t result =
      spvTextToBinary(context, kProbeAssembly, std::char_traits<char>::length(kProbeAssembly), &binary, &diagnostic);
  std::vector<uint32_t> words;
  std::string why = diagnostic ? diagnostic->error : "";
  if (result == SPV_SUCCESS) words.assign(binary->code, binary->code + binary->wordCount);
  spvBinaryDestroy(binary);
  spvDiagnosticDestroy(diagnostic);
  spvContextDestroy(context);
  if (result != SPV_SUCCESS) return Error("the loop-limit probe does not assemble: " + why);
  return words;
}

Expected<uint32_t> runProbe(Device& device) {
  Expected<std::vector<uint32_t>> spirv = assembleProbe();
  if (!spirv) return spirv.error();
  PipelineDesc desc;
  desc.spirv = *spirv;
  desc.pushConstantSize = 16;
  Expected<Pipeline> pipeline = Pipeline::create(device, desc);
  if (!pipeline) return pipeline.error();
  Expected<Buffer> out = Buffer::create(device, 4);
  if (!out) return out.error();
  struct {
    uint64_t address;
    uint32_t n, unused;
  } push{out->deviceAddress(), kLoopLimitProbeIterations, 0};
  Expected<GpuTime> time = dispatch(device, *pipeline, bytesOf(push), 1);
  if (!time) return time.error();
  Expected<std::vector<uint32_t>> ran = out->downloadValues<uint32_t>(1);
  if (!ran) return ran.error();
  return (*ran)[0] < kLoopLimitProbeIterations ? (*ran)[0] : 0;
}

}  // namespace

Expected<uint32_t> measureLoopIterationLimit(Device& device) {
  // Keyed by the device's UUID and driver version: a context opens a Vulkan device of its own,
  // and the probe need not run again for each.
  static std::mutex mutex;
  static std::map<std::pair<std::array<uint8_t, VK_UUID_SIZE>, uint32_t>, uint32_t> measured;
  std::lock_guard<std::mutex> lock(mutex);
  auto key = std::make_pair(device.info().deviceUuid, device.info().driverVersion);
  if (auto found = measured.find(key); found != measured.end()) return found->second;
  Expected<uint32_t> limit = runProbe(device);
  if (!limit) return limit.error().withContext("measuring the loop-iteration limit of " + device.info().name);
  measured[key] = *limit;
  return *limit;
}

}  // namespace cl2vk::vulkan
