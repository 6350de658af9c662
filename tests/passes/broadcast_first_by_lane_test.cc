// broadcast-first-by-lane: before/after tests. Where the driver cannot compile a broadcast-first of
// a computed float (llvmpipe on a CPU without AVX-512), every OpGroupNonUniformBroadcastFirst
// becomes a broadcast from the lane that a broadcast-first of SubgroupLocalInvocationId names (a
// shuffle before SPIR-V 1.5); elsewhere the module is left alone.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

Target llvmpipe(spv_target_env env) {
  Target target;
  target.vulkanEnv = env;
  target.broadcastFirstOfComputedFloats = false;
  return target;
}

// A compute shader (SPIR-V `version`) that narrows the double in a Private variable to %x and
// broadcasts it with `body` into %r, which it stores; `withLane` declares
// SubgroupLocalInvocationId, which the pass adds (the entry point lists it once finalize-vulkan
// runs, so the pass's own output does not validate; kernel_tests' CpuCodeGeneration runs it).
std::string shader(const std::string& version, const std::string& body, bool withLane = false) {
  std::string lane = withLane ? "%_ptr_Input_uint = OpTypePointer Input %uint\n"
                                "%gl_SubgroupInvocationID = OpVariable %_ptr_Input_uint Input\n"
                              : "";
  std::string decoration = withLane ? "OpDecorate %gl_SubgroupInvocationID BuiltIn SubgroupLocalInvocationId\n" : "";
  // Before SPIR-V 1.4 the interface lists Input and Output variables only.
  std::string interface = version == "1.3" ? "" : "%value %single";
  return "; Version: " + version + R"(
               OpCapability Shader
               OpCapability Float64
               OpCapability GroupNonUniform
               OpCapability GroupNonUniformBallot
               OpCapability GroupNonUniformShuffle
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %k "k" )" +
         interface + R"(
               OpExecutionMode %k LocalSize 8 1 1
               OpName %k "k"
)" + decoration +
         R"(
       %void = OpTypeVoid
   %noParams = OpTypeFunction %void
       %uint = OpTypeInt 32 0
     %uint_3 = OpConstant %uint 3
     %double = OpTypeFloat 64
      %float = OpTypeFloat 32
%_ptr_Private_double = OpTypePointer Private %double
%_ptr_Private_float = OpTypePointer Private %float
      %value = OpVariable %_ptr_Private_double Private
     %single = OpVariable %_ptr_Private_float Private
)" + lane +
         R"(
          %k = OpFunction %void None %noParams
      %entry = OpLabel
       %wide = OpLoad %double %value
          %x = OpFConvert %float %wide
)" + body +
         R"(
               OpStore %single %r
               OpReturn
               OpFunctionEnd
)";
}

const char* kBroadcastFirst = "%r = OpGroupNonUniformBroadcastFirst %float %uint_3 %x\n";

TEST(BroadcastFirstByLaneTest, BroadcastFirstBecomesABroadcastFromTheFirstLane) {
  std::string before = shader("1.5", kBroadcastFirst);
  test::expectPassOutput("broadcast-first-by-lane", before,
                         shader("1.5", R"(
       %lane = OpLoad %uint %gl_SubgroupInvocationID
      %first = OpGroupNonUniformBroadcastFirst %uint %uint_3 %lane
          %r = OpGroupNonUniformBroadcast %float %uint_3 %x %first
)",
                                true),
                         llvmpipe(SPV_ENV_VULKAN_1_2));
}

// SPIR-V 1.3's OpGroupNonUniformBroadcast wants a constant lane.
TEST(BroadcastFirstByLaneTest, BeforeSpirv15TheValueIsShuffledFromTheFirstLane) {
  std::string before = shader("1.3", kBroadcastFirst);
  test::expectPassOutput("broadcast-first-by-lane", before,
                         shader("1.3", R"(
       %lane = OpLoad %uint %gl_SubgroupInvocationID
      %first = OpGroupNonUniformBroadcastFirst %uint %uint_3 %lane
          %r = OpGroupNonUniformShuffle %float %uint_3 %x %first
)",
                                true),
                         llvmpipe(SPV_ENV_VULKAN_1_1));
}

TEST(BroadcastFirstByLaneTest, OtherDriversAreLeftAlone) {
  std::string before = shader("1.5", kBroadcastFirst);
  test::expectPassOutput("broadcast-first-by-lane", before, before, Target{}, SPV_ENV_VULKAN_1_2);
}

}  // namespace
}  // namespace cl2vk
