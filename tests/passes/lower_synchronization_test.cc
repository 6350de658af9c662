// lower-synchronization: before/after tests of the scopes and memory semantics Vulkan reads.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// The module around one kernel body, with a __global uint* %p; `globals` adds types and constants.
std::string kernel(const std::string& body, const std::string& globals = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %p "p"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
   %uint_528 = OpConstant %uint 528
   %uint_784 = OpConstant %uint 784
   %uint_520 = OpConstant %uint 520
  %_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint
)" + globals + R"(
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
)" + body + R"(
               OpReturn
               OpFunctionEnd
)";
}

// barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE): CrossWorkgroupMemory (512) becomes
// UniformMemory (64), which covers the PhysicalStorageBuffer memory global pointers become.
TEST(LowerSynchronizationTest, GlobalMemoryFenceBecomesUniformMemory) {
  test::expectPassOutput("lower-synchronization",
                         kernel("OpControlBarrier %uint_2 %uint_2 %uint_784"),
                         kernel("OpControlBarrier %uint_2 %uint_2 %uint_336", "%uint_336 = OpConstant %uint 336"));
}

}  // namespace
}  // namespace cl2vk
