// finalize-vulkan: before/after tests of the last pass, which turns the lowered module into
// Vulkan SPIR-V: capabilities and extensions from what the module uses, the memory model, the
// version, entry point interfaces, the execution modes and decorations Vulkan takes, and no unused
// globals. Its output is validated for the target's Vulkan environment.
#include <gtest/gtest.h>

#include <algorithm>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// What finalize-vulkan sees (after structurize-cfg): the Kernel capabilities and OpenCL memory
// model still, `capabilities` and execution `modes` added.
std::string openclHeader(const std::string& capabilities = "", const std::string& modes = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
)" + capabilities +
         R"(
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint GLCompute %k "k"
)" + modes +
         R"(
               OpSource OpenCL_C 200000
               OpName %k "k"
)";
}

// The rest of a GLCompute kernel that reads `global uint* out` (PhysicalStorageBuffer by now) and
// `uint n` from push constants; `decorations` and `globals` add to those sections, and `body`
// follows the push-constant reads.
std::string kernel(const std::string& header, const std::string& body, const std::string& globals = "",
                   const std::string& decorations = "") {
  return header + R"(
               OpDecorate %size_x SpecId 0
               OpDecorate %size_y SpecId 1
               OpDecorate %size_z SpecId 2
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
               OpDecorate %_arr_uint_uint_4 ArrayStride 4
               OpMemberDecorate %100 0 Offset 0
               OpDecorate %100 Block
               OpDecorate %_ptr_PhysicalStorageBuffer_uint ArrayStride 4
)" + decorations +
         R"(
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_4 = OpConstant %uint 4
       %void = OpTypeVoid
  %_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
     %size_x = OpSpecConstant %uint 1
     %size_y = OpSpecConstant %uint 1
     %size_z = OpSpecConstant %uint 1
     %v3uint = OpTypeVector %uint 3
  %gl_WorkGroupSize = OpSpecConstantComposite %v3uint %size_x %size_y %size_z
  %_arr_uint_uint_4 = OpTypeArray %uint %uint_4
        %100 = OpTypeStruct %_arr_uint_uint_4
  %_ptr_PushConstant__struct_100 = OpTypePointer PushConstant %100
       %args = OpVariable %_ptr_PushConstant__struct_100 PushConstant
  %_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
     %v2uint = OpTypeVector %uint 2
   %noParams = OpTypeFunction %void
)" + globals +
         R"(
          %k = OpFunction %void None %noParams
      %entry = OpLabel
        %low = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_0
    %lowBits = OpLoad %uint %low
       %high = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_1
   %highBits = OpLoad %uint %high
      %words = OpCompositeConstruct %v2uint %lowBits %highBits
    %address = OpBitcast %ulong %words
        %out = OpConvertUToPtr %_ptr_PhysicalStorageBuffer_uint %address
      %nWord = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_2
          %n = OpLoad %uint %nWord
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// Globals lower-kernel-interface and lower-collectives leave behind: the kernel's old function
// type, and a constant nothing reads.
const std::string kLeftovers = R"(
     %uint_3 = OpConstant %uint 3
     %kernel = OpTypeFunction %void %_ptr_PhysicalStorageBuffer_uint %uint
)";

// if (1 < n) *out = n;: the Kernel capabilities give way to Shader and what the module uses
// (64-bit integers, buffer addresses), the memory model becomes GLSL450 with 64-bit buffer
// addresses, SPIR-V 1.5 (Vulkan 1.2) lists the push constants in the entry point's interface, and
// the globals nothing uses go.
TEST(FinalizeVulkanTest, KernelModuleBecomesAVulkanComputeShader) {
  std::string body = R"(
    %inRange = OpULessThan %bool %uint_1 %n
               OpSelectionMerge %done None
               OpBranchConditional %inRange %store %done
      %store = OpLabel
               OpStore %out %n Aligned 4
               OpBranch %done
       %done = OpLabel
)";
  test::PassRun run =
      test::expectPassOutput("finalize-vulkan", kernel(openclHeader(), body, "%bool = OpTypeBool" + kLeftovers),
                             kernel(R"(
               OpCapability Shader
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k" %args
               OpSource OpenCL_C 200000
               OpName %k "k"
)",
                                    body, "%bool = OpTypeBool"),
                             Target{}, SPV_ENV_VULKAN_1_2);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(run.module->header().version, 0x00010500u);
  EXPECT_EQ(run.context.reflection.requirements.capabilities,
            (std::vector<std::string>{"Shader", "Int64", "PhysicalStorageBufferAddresses"}));
}

// Vulkan has no null PhysicalStorageBuffer pointer: NULL is address 0. Its conversion to an
// integer (how pointers are compared) becomes the constant 0, and another use gets a pointer made
// from 0 right before it.
TEST(FinalizeVulkanTest, NullGlobalPointerIsAddressZero) {
  std::string null = "%null = OpConstantNull %_ptr_PhysicalStorageBuffer_uint\n";
  test::expectPassOutput("finalize-vulkan",
                         kernel(openclHeader(), R"(
    %nullAddress = OpConvertPtrToU %ulong %null
     %isNull = OpIEqual %bool %address %nullAddress
     %target = OpSelect %_ptr_PhysicalStorageBuffer_uint %isNull %null %out
               OpStore %target %n Aligned 4
)",
                                "%bool = OpTypeBool\n" + null),
                         kernel(R"(
               OpCapability Shader
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k" %args
               OpSource OpenCL_C 200000
               OpName %k "k"
)",
                                R"(
     %isNull = OpIEqual %bool %address %ulong_0
    %nullPointer = OpConvertUToPtr %_ptr_PhysicalStorageBuffer_uint %ulong_0
     %target = OpSelect %_ptr_PhysicalStorageBuffer_uint %isNull %nullPointer %out
               OpStore %target %n Aligned 4
)",
                                "%bool = OpTypeBool\n%ulong_0 = OpConstant %ulong 0\n"),
                         Target{}, SPV_ENV_VULKAN_1_2);
}

// OpenCL's ContractionOff (-cl-fp-contract=off) has no execution mode in Vulkan: every float
// operation gets NoContraction instead. LocalSize (reqd_work_group_size) stays.
TEST(FinalizeVulkanTest, ContractionOffBecomesNoContractionOnFloatArithmetic) {
  std::string body = R"(
          %f = OpConvertUToF %float %n
    %product = OpFMul %float %f %f
        %sum = OpFAdd %float %product %f
          %r = OpConvertFToU %uint %sum
               OpStore %out %r Aligned 4
)";
  std::string modes = "OpExecutionMode %k LocalSize 64 1 1\nOpExecutionMode %k ContractionOff\n";
  test::expectPassOutput(
      "finalize-vulkan", kernel(openclHeader("", modes), body, "%float = OpTypeFloat 32\n"),
      kernel(R"(
               OpCapability Shader
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k" %args
               OpExecutionMode %k LocalSize 64 1 1
               OpSource OpenCL_C 200000
               OpName %k "k"
)",
             body, "%float = OpTypeFloat 32\n", "OpDecorate %product NoContraction\nOpDecorate %sum NoContraction\n"),
      Target{}, SPV_ENV_VULKAN_1_2);
}

// A __generic pointer that no pass could give an address space (here an undefined one, which
// promote-variables makes of a pointer variable read before any store) is refused by name instead
// of reaching Vulkan, which has no generic pointers (a translation fuzzer's find).
TEST(FinalizeVulkanTest, AGenericPointerLeftIsRefusedNamingItsUser) {
  std::string body = R"(
          %v = OpLoad %uint %undefined Aligned 4
               OpStore %out %v Aligned 4
)";
  test::PassRun run = test::runPass(
      "finalize-vulkan",
      kernel(openclHeader("OpCapability GenericPointer\n"), body,
             "%_ptr_Generic_uint = OpTypePointer Generic %uint\n%undefined = OpUndef %_ptr_Generic_uint\n"),
      Target{});
  EXPECT_FALSE(run.module);
  EXPECT_NE(run.error.find("OpLoad"), std::string::npos) << run.error;
  EXPECT_NE(run.error.find("__generic pointer whose address space cl2vk cannot tell"), std::string::npos) << run.error;
}

// llvm-spirv-15 gives a kernel-scope __local struct LLVM's `undef` initializer, a composite of
// OpUndef parts, which Vulkan refuses on a Workgroup variable (only OpConstantNull, with an
// extension): the CTS's non_uniform_work_group kernels ended in an internal error. It goes, and
// so do the constants nothing uses any more.
TEST(FinalizeVulkanTest, AnUndefinedInitializerOfAWorkgroupVariableGoes) {
  std::string body = R"(
     %member = OpAccessChain %_ptr_Workgroup_uint %shared %uint_1
               OpStore %member %n
               OpControlBarrier %uint_2 %uint_2 %uint_264
         %v = OpLoad %uint %member
               OpStore %out %v Aligned 4
)";
  std::string types = R"(
   %uint_264 = OpConstant %uint 264
     %200 = OpTypeStruct %_arr_uint_uint_4 %uint
%_ptr_Workgroup_shape = OpTypePointer Workgroup %200
%_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
)";
  std::string undefined = R"(
  %undefArray = OpUndef %_arr_uint_uint_4
  %undefUint = OpUndef %uint
  %undefShape = OpConstantComposite %200 %undefArray %undefUint
)";
  test::expectPassOutput(
      "finalize-vulkan",
      kernel(openclHeader(), body,
             types + undefined + "%shared = OpVariable %_ptr_Workgroup_shape Workgroup %undefShape\n"),
      kernel(R"(
               OpCapability Shader
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k" %args %shared
               OpSource OpenCL_C 200000
               OpName %k "k"
)",
             body, types + "%shared = OpVariable %_ptr_Workgroup_shape Workgroup\n"),
      Target{}, SPV_ENV_VULKAN_1_2);
}

// OpenCL C's signed overflow is undefined, and llvm-spirv says so with NoSignedWrap: kept for
// SPIR-V 1.4 and later on the arithmetic it may decorate (the driver's compiler counts a strided
// loop's trips with it), dropped for Vulkan 1.1's SPIR-V 1.3.
TEST(FinalizeVulkanTest, WrapDecorationsStayOnArithmeticFromSpirv14) {
  std::string body = R"(
       %next = OpIAdd %uint %n %uint_1
    %shifted = OpShiftLeftLogical %uint %next %uint_2
               OpStore %out %shifted Aligned 4
)";
  std::string wraps = "OpDecorate %next NoSignedWrap\nOpDecorate %shifted NoUnsignedWrap\n";
  std::string vulkanHeader = R"(
               OpCapability Shader
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k" %args
               OpSource OpenCL_C 200000
               OpName %k "k"
)";
  test::expectPassOutput("finalize-vulkan", kernel(openclHeader(), body, "", wraps),
                         kernel(vulkanHeader, body, "", wraps), Target{}, SPV_ENV_VULKAN_1_2);
  Target vulkan11;
  vulkan11.vulkanEnv = SPV_ENV_VULKAN_1_1;
  test::PassRun run = test::runPass("finalize-vulkan", kernel(openclHeader(), body, "", wraps), vulkan11);
  ASSERT_TRUE(run.module) << run.error;
  EXPECT_EQ(run.text().find("Wrap"), std::string::npos) << run.text();
}

// A device that can keep float denormals (shaderDenormPreserveFloat32) is told to for every kernel
// that computes in float: OpenCL's CL_FP_DENORM, which NVIDIA's driver would otherwise not honour.
TEST(FinalizeVulkanTest, FloatKernelsKeepDenormalsWhereTheDeviceCan) {
  Target keeps;
  keeps.denormPreserveFloat32 = true;
  std::string body = R"(
          %f = OpConvertUToF %float %n
    %product = OpFMul %float %f %f
          %r = OpConvertFToU %uint %product
               OpStore %out %r Aligned 4
)";
  std::string modes = "OpExecutionMode %k LocalSize 64 1 1\n";
  test::expectPassOutput("finalize-vulkan", kernel(openclHeader("", modes), body, "%float = OpTypeFloat 32\n"),
                         kernel(R"(
               OpCapability Shader
               OpCapability Int64
               OpCapability DenormPreserve
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k" %args
               OpExecutionMode %k LocalSize 64 1 1
               OpExecutionMode %k DenormPreserve 32
               OpSource OpenCL_C 200000
               OpName %k "k"
)",
                                body, "%float = OpTypeFloat 32\n"),
                         keeps, SPV_ENV_VULKAN_1_2);
  // Without float arithmetic there is nothing to keep, and the device's default stays.
  std::string integers = "OpStore %out %n Aligned 4\n";
  test::PassRun run = test::expectPassOutput("finalize-vulkan", kernel(openclHeader("", modes), integers),
                                             kernel(R"(
               OpCapability Shader
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k" %args
               OpExecutionMode %k LocalSize 64 1 1
               OpSource OpenCL_C 200000
               OpName %k "k"
)",
                                                    integers),
                                             keeps, SPV_ENV_VULKAN_1_2);
  EXPECT_TRUE(run.module);
}

// For Vulkan 1.1 (SPIR-V 1.3): a subgroup reduction asks for GroupNonUniformArithmetic, buffer
// addresses need their extension, and the entry point lists only Input and Output variables.
TEST(FinalizeVulkanTest, Vulkan11GetsSubgroupCapabilitiesAndTheBufferAddressExtension) {
  Target vulkan11;
  vulkan11.vulkanEnv = SPV_ENV_VULKAN_1_1;
  std::string body = R"(
          %r = OpGroupNonUniformIAdd %uint %uint_3 Reduce %n
               OpStore %out %r Aligned 4
)";
  test::PassRun run =
      test::expectPassOutput("finalize-vulkan", kernel(openclHeader("OpCapability Groups\n"), body, kLeftovers),
                             kernel(R"(
               OpCapability Shader
               OpCapability Int64
               OpCapability GroupNonUniform
               OpCapability GroupNonUniformArithmetic
               OpCapability PhysicalStorageBufferAddresses
               OpExtension "SPV_KHR_physical_storage_buffer"
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k"
               OpSource OpenCL_C 200000
               OpName %k "k"
)",
                                    body, "%uint_3 = OpConstant %uint 3\n"),
                             vulkan11, SPV_ENV_VULKAN_1_1);
  ASSERT_TRUE(run.module);
  EXPECT_EQ(run.module->header().version, 0x00010300u);
  EXPECT_TRUE(run.context.reflection.requirements.subgroupArithmetic);
}

// One work-group hands another a value through a buffer, as the CTS's c11_atomics atomic_flag
// does: a relaxed exchange, an acquire fence at device scope, a load and a store of the data, a
// release fence, a relaxed store. Under GLSL450 NVIDIA read the data from a cache the other
// work-group's store had not reached. The module takes Vulkan's memory model: the buffer accesses
// are NonPrivatePointer, the acquire makes visible and the release available, and the work-group
// barrier's SequentiallyConsistent (264 + 8: WorkgroupMemory, SequentiallyConsistent) becomes
// AcquireRelease with both. The push-constant loads, a work-item's own, stay as they were.
const std::string kHandOff = R"(
        %old = OpAtomicExchange %uint %out %uint_1 %uint_0 %uint_1
               OpMemoryBarrier %uint_1 %acquire
          %v = OpLoad %uint %out Aligned 4
       %next = OpIAdd %uint %v %n
               OpStore %out %next Aligned 4
               OpMemoryBarrier %uint_1 %release
               OpControlBarrier %uint_2 %uint_2 %workGroupBarrier
               OpAtomicStore %out %uint_1 %uint_0 %uint_0
)";

TEST(FinalizeVulkanTest, OrderingAcrossWorkGroupsTakesVulkansMemoryModel) {
  std::string before =
      "%acquire = OpConstant %uint 66\n%release = OpConstant %uint 68\n"
      "%workGroupBarrier = OpConstant %uint 272\n";
  std::string after = R"(
          %old = OpAtomicExchange %uint %out %uint_1 %uint_0 %uint_1
               OpMemoryBarrier %uint_1 %acquireVisible
          %v = OpLoad %uint %out Aligned|NonPrivatePointer 4
       %next = OpIAdd %uint %v %n
               OpStore %out %next Aligned|NonPrivatePointer 4
               OpMemoryBarrier %uint_1 %releaseAvailable
               OpControlBarrier %uint_2 %uint_2 %bothWays
               OpAtomicStore %out %uint_1 %uint_0 %uint_0
)";
  test::PassRun run = test::expectPassOutput(
      "finalize-vulkan", kernel(openclHeader(), kHandOff, before),
      kernel(R"(
               OpCapability Shader
               OpCapability Int64
               OpCapability VulkanMemoryModel
               OpCapability VulkanMemoryModelDeviceScope
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 Vulkan
               OpEntryPoint GLCompute %k "k" %args
               OpSource OpenCL_C 200000
               OpName %k "k"
)",
             after,
             "%acquireVisible = OpConstant %uint 16450\n%releaseAvailable = OpConstant %uint 8260\n"
             "%bothWays = OpConstant %uint 24840\n"),
      Target{}, SPV_ENV_VULKAN_1_2);
  ASSERT_TRUE(run.module);
  EXPECT_NE(std::find(run.context.reflection.requirements.capabilities.begin(),
                      run.context.reflection.requirements.capabilities.end(), "VulkanMemoryModelDeviceScope"),
            run.context.reflection.requirements.capabilities.end());
}

// Work-group scope alone (barrier(CLK_GLOBAL_MEM_FENCE), OpenCL 1.x's relaxed atomics), a device
// without Vulkan's memory model, and Vulkan 1.1 (SPIR-V 1.3, where it is an extension) keep GLSL450.
TEST(FinalizeVulkanTest, OtherwiseTheModuleKeepsGlsl450) {
  std::string workGroupOnly = R"(
        %old = OpAtomicIAdd %uint %out %uint_1 %uint_0 %uint_1
               OpControlBarrier %uint_2 %uint_2 %workGroupBarrier
          %v = OpLoad %uint %out Aligned 4
               OpStore %out %v Aligned 4
)";
  std::string constants =
      "%acquire = OpConstant %uint 66\n%release = OpConstant %uint 68\n"
      "%workGroupBarrier = OpConstant %uint 272\n";
  Target noModel;
  noModel.vulkanMemoryModel = false;
  Target vulkan11;
  vulkan11.vulkanEnv = SPV_ENV_VULKAN_1_1;
  struct Case {
    std::string body;
    Target target;
    spv_target_env env;
  };
  for (const Case& c : {Case{workGroupOnly, Target{}, SPV_ENV_VULKAN_1_2}, Case{kHandOff, noModel, SPV_ENV_VULKAN_1_2},
                        Case{kHandOff, vulkan11, SPV_ENV_VULKAN_1_1}}) {
    test::PassRun run = test::runPass("finalize-vulkan", kernel(openclHeader(), c.body, constants), c.target);
    ASSERT_TRUE(run.module) << run.error;
    std::string text = test::canonicalAssembly(*run.module);
    EXPECT_NE(text.find("GLSL450"), std::string::npos) << text;
    EXPECT_EQ(text.find("NonPrivatePointer"), std::string::npos) << text;
    EXPECT_EQ(text.find("VulkanMemoryModel"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace cl2vk
