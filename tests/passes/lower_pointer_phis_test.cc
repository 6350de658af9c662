// lower-pointer-phis: before/after tests. Where the target cannot run a phi of buffer pointers
// (SwiftShader), each such phi becomes a phi of the addresses as uvec2, the incoming pointers
// bit-cast at the ends of their predecessors and the result bit-cast back after the phis; elsewhere
// the module is left alone.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

Target withoutPointerPhis() {
  Target target;
  target.pointerPhis = false;
  return target;
}

// A compute shader that reads two buffer addresses and a count from push constants and stores
// through %out; `body` goes between them, in the entry block %entry, and ends in %done. `globals`
// go after the types and constants.
std::string shader(const std::string& body, const std::string& globals = "") {
  return R"(
; Version: 1.5
               OpCapability Shader
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel PhysicalStorageBuffer64 GLSL450
               OpEntryPoint GLCompute %k "k" %args
               OpExecutionMode %k LocalSize 1 1 1
               OpName %k "k"
               OpDecorate %_arr_uint_uint_6 ArrayStride 4
               OpMemberDecorate %block 0 Offset 0
               OpDecorate %block Block
               OpDecorate %_ptr_PhysicalStorageBuffer_uint ArrayStride 4
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
     %uint_6 = OpConstant %uint 6
       %void = OpTypeVoid
   %noParams = OpTypeFunction %void
  %_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
     %v2uint = OpTypeVector %uint 2
  %_arr_uint_uint_6 = OpTypeArray %uint %uint_6
      %block = OpTypeStruct %_arr_uint_uint_6
  %_ptr_PushConstant_block = OpTypePointer PushConstant %block
       %args = OpVariable %_ptr_PushConstant_block PushConstant
  %_ptr_PushConstant_uint = OpTypePointer PushConstant %uint
      %undef = OpUndef %_ptr_PhysicalStorageBuffer_uint
)" + globals +
         R"(
          %k = OpFunction %void None %noParams
      %entry = OpLabel
         %w0 = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_0
         %a0 = OpLoad %uint %w0
         %w1 = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_1
         %a1 = OpLoad %uint %w1
         %w2 = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_2
         %b0 = OpLoad %uint %w2
         %w3 = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_3
         %b1 = OpLoad %uint %w3
         %w4 = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_4
          %n = OpLoad %uint %w4
      %aBits = OpCompositeConstruct %v2uint %a0 %a1
          %a = OpBitcast %_ptr_PhysicalStorageBuffer_uint %aBits
      %bBits = OpCompositeConstruct %v2uint %b0 %b1
          %b = OpBitcast %_ptr_PhysicalStorageBuffer_uint %bBits
)" + body +
         R"(
       %done = OpLabel
               OpReturn
               OpFunctionEnd
)";
}

// `chosen = n ? a : b; *chosen = n` as -O0 code leaves it: a phi of the two pointers.
const std::string kChoice = R"(
       %zero = OpIEqual %bool %n %uint_0
               OpSelectionMerge %join None
               OpBranchConditional %zero %useB %join
       %useB = OpLabel
               OpBranch %join
       %join = OpLabel
     %chosen = OpPhi %_ptr_PhysicalStorageBuffer_uint %a %entry %b %useB
               OpStore %chosen %n Aligned 4
               OpBranch %done
)";

TEST(LowerPointerPhisTest, PointerPhiBecomesAnAddressPhi) {
  test::expectPassOutput("lower-pointer-phis", shader(kChoice), shader(R"(
       %zero = OpIEqual %bool %n %uint_0
         %90 = OpBitcast %v2uint %a
               OpSelectionMerge %join None
               OpBranchConditional %zero %useB %join
       %useB = OpLabel
         %91 = OpBitcast %v2uint %b
               OpBranch %join
       %join = OpLabel
         %92 = OpPhi %v2uint %90 %entry %91 %useB
     %chosen = OpBitcast %_ptr_PhysicalStorageBuffer_uint %92
               OpStore %chosen %n Aligned 4
               OpBranch %done
)"),
                         withoutPointerPhis(), SPV_ENV_VULKAN_1_3);
}

// A loop's pointer phi is read by another phi after the loop: that one reads its address phi, not
// a bit cast of the pointer.
TEST(LowerPointerPhisTest, LoopPointerPhiReadsItsOwnAddressPhi) {
  test::expectPassOutput("lower-pointer-phis", shader(R"(
               OpBranch %loop
       %loop = OpLabel
          %p = OpPhi %_ptr_PhysicalStorageBuffer_uint %a %entry %next %latch
          %i = OpPhi %uint %uint_0 %entry %inext %latch
               OpLoopMerge %exit %latch None
               OpBranch %body
       %body = OpLabel
               OpStore %p %i Aligned 4
       %more = OpULessThan %bool %i %n
               OpBranchConditional %more %latch %exit
      %latch = OpLabel
       %next = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %p %uint_1
      %inext = OpIAdd %uint %i %uint_1
               OpBranch %loop
       %exit = OpLabel
       %last = OpPhi %_ptr_PhysicalStorageBuffer_uint %p %body
               OpStore %last %n Aligned 4
               OpBranch %done
)"),
                         shader(R"(
         %90 = OpBitcast %v2uint %a
               OpBranch %loop
       %loop = OpLabel
         %91 = OpPhi %v2uint %90 %entry %92 %latch
          %i = OpPhi %uint %uint_0 %entry %inext %latch
          %p = OpBitcast %_ptr_PhysicalStorageBuffer_uint %91
               OpLoopMerge %exit %latch None
               OpBranch %body
       %body = OpLabel
               OpStore %p %i Aligned 4
       %more = OpULessThan %bool %i %n
               OpBranchConditional %more %latch %exit
      %latch = OpLabel
       %next = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %p %uint_1
      %inext = OpIAdd %uint %i %uint_1
         %92 = OpBitcast %v2uint %next
               OpBranch %loop
       %exit = OpLabel
         %93 = OpPhi %v2uint %91 %body
       %last = OpBitcast %_ptr_PhysicalStorageBuffer_uint %93
               OpStore %last %n Aligned 4
               OpBranch %done
)"),
                         withoutPointerPhis(), SPV_ENV_VULKAN_1_3);
}

// An undefined incoming pointer (what the structurizer gives a path that never reads the value)
// becomes an undefined address.
TEST(LowerPointerPhisTest, UndefinedPointerBecomesAnUndefinedAddress) {
  std::string before = kChoice;
  before.replace(before.find("%a %entry"), 2, "%undef");
  test::expectPassOutput("lower-pointer-phis", shader(before),
                         shader(R"(
       %zero = OpIEqual %bool %n %uint_0
               OpSelectionMerge %join None
               OpBranchConditional %zero %useB %join
       %useB = OpLabel
         %91 = OpBitcast %v2uint %b
               OpBranch %join
       %join = OpLabel
         %92 = OpPhi %v2uint %90 %entry %91 %useB
     %chosen = OpBitcast %_ptr_PhysicalStorageBuffer_uint %92
               OpStore %chosen %n Aligned 4
               OpBranch %done
)",
                                "%90 = OpUndef %v2uint\n"),
                         withoutPointerPhis(), SPV_ENV_VULKAN_1_3);
}

TEST(LowerPointerPhisTest, TargetsThatRunPointerPhisAreLeftAlone) {
  test::expectPassOutput("lower-pointer-phis", shader(kChoice), shader(kChoice), Target{}, SPV_ENV_VULKAN_1_3);
}

}  // namespace
}  // namespace cl2vk
