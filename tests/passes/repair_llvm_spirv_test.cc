#include "passes/environment/repair_llvm_spirv.h"

#include <gtest/gtest.h>

#include "ir/validate.h"
#include "pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

// A kernel `k(uint n, __global uint* out)` whose body is `body`; `capabilities` adds to Kernel's.
std::string kernel(const std::string& body, const std::string& capabilities = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
)" + capabilities +
         R"(
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %uint %_ptr_CrossWorkgroup_uint
          %k = OpFunction %void None %fn
          %n = OpFunctionParameter %uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
)" + body +
         R"(
               OpFunctionEnd
)";
}

// The n-body shape: the exit block, which uses the loop's last value, is written before the loop.
const std::string kExitBeforeLoop = R"(
      %entry = OpLabel
      %enter = OpULessThan %bool %uint_0 %n
               OpBranchConditional %enter %loop %done
       %exit = OpLabel
     %result = OpIAdd %uint %next %uint_1
               OpBranch %done
       %done = OpLabel
      %value = OpPhi %uint %uint_0 %entry %result %exit
               OpStore %out %value
               OpReturn
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %exit
)";

// What llvm-spirv-15 writes at -O2 for a loop that accumulates (the n-body kernel's float3 sum):
// the exit block, which uses the loop's last value, comes before the loop that defines it. Only it
// moves (after the loop, its dominator); %done, dominated by the entry, keeps its place, its phi
// being the one use allowed ahead of a definition.
TEST(RepairLlvmSpirvTest, LoopExitWrittenBeforeTheLoopMovesAfterIt) {
  test::expectPassOutput("repair-llvm-spirv", kernel(kExitBeforeLoop), kernel(R"(
      %entry = OpLabel
      %enter = OpULessThan %bool %uint_0 %n
               OpBranchConditional %enter %loop %done
       %done = OpLabel
      %value = OpPhi %uint %uint_0 %entry %result %exit
               OpStore %out %value
               OpReturn
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
     %result = OpIAdd %uint %next %uint_1
               OpBranch %done
)"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// Blocks that already follow their dominators keep their order, even where a reverse post-order
// would differ (%else before %then), and unreachable blocks stay where they are, last.
TEST(RepairLlvmSpirvTest, OrderThatFollowsDominatorsIsKept) {
  std::string module = kernel(R"(
      %entry = OpLabel
       %cond = OpULessThan %bool %uint_1 %n
               OpBranchConditional %cond %then %else
       %else = OpLabel
               OpBranch %join
       %then = OpLabel
               OpBranch %join
       %join = OpLabel
               OpReturn
       %dead = OpLabel
               OpBranch %join
)");
  test::PassRun run = test::expectPassOutput("repair-llvm-spirv", module, module, Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// An unreachable block written first among the others is put after every reachable one.
TEST(RepairLlvmSpirvTest, UnreachableBlocksGoLast) {
  test::expectPassOutput("repair-llvm-spirv", kernel(R"(
      %entry = OpLabel
               OpBranch %next
       %dead = OpLabel
               OpBranch %next
       %next = OpLabel
               OpReturn
)"),
                         kernel(R"(
      %entry = OpLabel
               OpBranch %next
       %next = OpLabel
               OpReturn
       %dead = OpLabel
               OpBranch %next
)"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// llvm-spirv-15 -O1 writes a loop's OpLoopMerge twice, ahead of the comparison that feeds the
// branch: one stays, just before the branch, with its loop control.
TEST(RepairLlvmSpirvTest, DuplicateLoopMergeBecomesOneBeforeTheBranch) {
  test::expectPassOutput("repair-llvm-spirv", kernel(R"(
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
               OpLoopMerge %exit %loop DontUnroll
               OpLoopMerge %exit %loop DontUnroll
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpReturn
)"),
                         kernel(R"(
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpLoopMerge %exit %loop DontUnroll
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpReturn
)"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// Two loops that llvm-spirv gives the same merge block: the second header loses its merge, and a
// loop merge whose merge block is its continue target (a one-block loop) is dropped too.
TEST(RepairLlvmSpirvTest, MergesTheValidatorRefusesAreDropped) {
  test::expectPassOutput("repair-llvm-spirv", kernel(R"(
      %entry = OpLabel
               OpBranch %first
      %first = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %first
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpLoopMerge %exit %first None
               OpBranchConditional %more %first %second
     %second = OpLabel
          %j = OpPhi %uint %uint_0 %first %jnext %second
      %jnext = OpIAdd %uint %j %uint_1
      %again = OpULessThan %bool %jnext %n
               OpLoopMerge %exit %second None
               OpBranchConditional %again %second %exit
       %exit = OpLabel
               OpBranch %last
       %last = OpLabel
       %stay = OpULessThan %bool %uint_1 %n
               OpLoopMerge %last %last None
               OpBranchConditional %stay %last %end
        %end = OpLabel
               OpReturn
)"),
                         kernel(R"(
      %entry = OpLabel
               OpBranch %first
      %first = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %first
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpLoopMerge %exit %first None
               OpBranchConditional %more %first %second
     %second = OpLabel
          %j = OpPhi %uint %uint_0 %first %jnext %second
      %jnext = OpIAdd %uint %j %uint_1
      %again = OpULessThan %bool %jnext %n
               OpBranchConditional %again %second %exit
       %exit = OpLabel
               OpBranch %last
       %last = OpLabel
       %stay = OpULessThan %bool %uint_1 %n
               OpBranchConditional %stay %last %end
        %end = OpLabel
               OpReturn
)"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// llvm-spirv-15 declares Shader and Matrix for OpBitReverse in a kernel; the validator would then
// hold the unstructured loop to Shader's structured rules. BitInstructions declares it instead.
TEST(RepairLlvmSpirvTest, ShaderCapabilityForBitReverseBecomesBitInstructions) {
  std::string body = R"(
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %n %entry %next %loop
       %next = OpBitReverse %uint %i
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpStore %out %next
               OpReturn
)";
  std::string before = kernel(body, "               OpCapability Matrix\n               OpCapability Shader\n");
  test::PassRun run = test::expectPassOutput(
      "repair-llvm-spirv", before,
      kernel(body,
             "               OpCapability BitInstructions\n               OpExtension \"SPV_KHR_bit_instructions\"\n"),
      Target{}, SPV_ENV_UNIVERSAL_1_2);
  auto input = test::assemble(before);
  ASSERT_TRUE(input);
  EXPECT_FALSE(ir::validate(*input, SPV_ENV_UNIVERSAL_1_2).ok()) << "the input must show the problem";
}

// __attribute__((annotate("hi"))): llvm-spirv-15 writes the string as a module-scope Function
// variable, listed in the entry point's interface, with an unused access chain left in the kernel.
TEST(RepairLlvmSpirvTest, AnnotationStringVariableGoes) {
  auto annotated = [](const std::string& interface, const std::string& globals, const std::string& code) {
    return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k")" +
           interface + R"(
               OpName %k "k"
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_3 = OpConstant %uint 3
   %uchar_104 = OpConstant %uchar 104
   %uchar_105 = OpConstant %uchar 105
     %uchar_0 = OpConstant %uchar 0
 %_arr_uchar_uint_3 = OpTypeArray %uchar %uint_3
 %_ptr_Function__arr_uchar_uint_3 = OpTypePointer Function %_arr_uchar_uint_3
 %_ptr_Function_uchar = OpTypePointer Function %uchar
       %text = OpConstantComposite %_arr_uchar_uint_3 %uchar_104 %uchar_105 %uchar_0
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
)" + globals +
           R"(
          %k = OpFunction %void None %fn
      %entry = OpLabel
)" + code + R"(
               OpReturn
               OpFunctionEnd
)";
  };
  test::expectPassOutput(
      "repair-llvm-spirv",
      annotated(" %string", "     %string = OpVariable %_ptr_Function__arr_uchar_uint_3 Function %text\n",
                "%chars = OpInBoundsPtrAccessChain %_ptr_Function_uchar %string %uint_0 %uint_0\n"),
      annotated("", "", ""), Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// A float4 ternary with a scalar condition, as llvm-spirv-15 writes it into SPIR-V 1.2: the
// condition becomes a vector of bools (SPIR-V 1.4 allows the scalar, and is left alone).
TEST(RepairLlvmSpirvTest, VectorSelectGetsAVectorCondition) {
  auto select = [](const std::string& version, const std::string& types, const std::string& code) {
    return "; Version: " + version + R"(
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
%_ptr_CrossWorkgroup_v4float = OpTypePointer CrossWorkgroup %v4float
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v4float %bool
)" + types +
           R"(
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v4float
       %cond = OpFunctionParameter %bool
      %entry = OpLabel
          %a = OpLoad %v4float %out
          %b = OpFNegate %v4float %a
)" + code + R"(
               OpStore %out %r
               OpReturn
               OpFunctionEnd
)";
  };
  std::string scalar = "          %r = OpSelect %v4float %cond %a %b\n";
  test::expectPassOutput("repair-llvm-spirv", select("1.2", "", scalar),
                         select("1.2", "     %v4bool = OpTypeVector %bool 4\n",
                                "      %conds = OpCompositeConstruct %v4bool %cond %cond %cond %cond\n"
                                "          %r = OpSelect %v4float %conds %a %b\n"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
  std::string newer = select("1.4", "", scalar);
  test::expectPassOutput("repair-llvm-spirv", newer, newer, Target{}, SPV_ENV_UNIVERSAL_1_4);
}

// llvm-spirv-15's temporary for llvm.memmove (a struct copied between global buffers at -O2),
// written inside the loop that copies: it joins the entry block's variables under a new id, with
// its decoration, and the copies and lifetime markers use it there.
TEST(RepairLlvmSpirvTest, FunctionVariableInALoopMovesToTheEntryBlock) {
  auto copying = [](const std::string& entryVariables, const std::string& loopVariable, const std::string& temporary) {
    return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpDecorate )" +
           temporary + R"( Alignment 4
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %uchar = OpTypeInt 8 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %uint_12 = OpConstant %uint 12
%_arr_uchar_uint_12 = OpTypeArray %uchar %uint_12
%_ptr_Function__arr_uchar_uint_12 = OpTypePointer Function %_arr_uchar_uint_12
%_ptr_Function_uchar = OpTypePointer Function %uchar
%_ptr_CrossWorkgroup_uchar = OpTypePointer CrossWorkgroup %uchar
         %fn = OpTypeFunction %void %uint %_ptr_CrossWorkgroup_uchar %_ptr_CrossWorkgroup_uchar
          %k = OpFunction %void None %fn
          %n = OpFunctionParameter %uint
        %dst = OpFunctionParameter %_ptr_CrossWorkgroup_uchar
        %src = OpFunctionParameter %_ptr_CrossWorkgroup_uchar
      %entry = OpLabel
)" + entryVariables +
           R"(               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
)" + loopVariable +
           R"(      %bytes = OpBitcast %_ptr_Function_uchar )" + temporary + R"(
               OpLifetimeStart %bytes 0
               OpCopyMemorySized %bytes %src %uint_12 Aligned 4
               OpCopyMemorySized %dst %bytes %uint_12 Aligned 4
               OpLifetimeStop %bytes 0
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %done
       %done = OpLabel
               OpReturn
               OpFunctionEnd
)";
  };
  test::expectPassOutput(
      "repair-llvm-spirv",
      copying("", "        %tmp = OpVariable %_ptr_Function__arr_uchar_uint_12 Function\n", "%tmp"),
      copying("    %hoisted = OpVariable %_ptr_Function__arr_uchar_uint_12 Function\n", "", "%hoisted"), Target{},
      SPV_ENV_UNIVERSAL_1_2);
}

// hashcat's kernels (issue 26): two cases of a switch branch to one block, whose phi LLVM gives an
// entry for each edge, so llvm-spirv-15 lists the switch's block twice ("OpPhi's number of
// incoming blocks ... does not match block's predecessor count"); SPIR-V wants one per parent.
TEST(RepairLlvmSpirvTest, PhiListsEachParentOnce) {
  auto switching = [](const std::string& phi) {
    return kernel(R"(
      %entry = OpLabel
               OpSwitch %n %other 1 %join 2 %join
      %other = OpLabel
               OpBranch %join
       %join = OpLabel
)" + phi + R"(
               OpStore %out %value
               OpReturn
)");
  };
  test::expectPassOutput(
      "repair-llvm-spirv", switching("%value = OpPhi %uint %uint_0 %entry %uint_0 %entry %uint_1 %other"),
      switching("%value = OpPhi %uint %uint_0 %entry %uint_1 %other"), Target{}, SPV_ENV_UNIVERSAL_1_2);
  auto input = test::assemble(switching("%value = OpPhi %uint %uint_0 %entry %uint_0 %entry %uint_1 %other"));
  ASSERT_TRUE(input);
  Status refused = ir::validate(*input, SPV_ENV_UNIVERSAL_1_2);
  ASSERT_FALSE(refused.ok()) << "SPIRV-Tools now accepts a phi that lists a parent twice";
}

// The n-body shape again, as a property: every use in the repaired function follows its
// definition, so the validator that refused the input accepts the output.
// get_global_size(4) and get_local_id(i), as llvm-spirv-15 writes them: component 4 of the
// builtin's vector (which the validator refuses) and an unchecked run-time component. The first
// becomes OpenCL's value (1 for a size), the second is read only below 3, and is 0 (an id) above.
TEST(RepairLlvmSpirvTest, WorkItemDimensionsBeyondThreeGetOpenCLsValue) {
  auto workItems = [](const std::string& constants, const std::string& code, const std::string& size) {
    return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %global_size %local_id
               OpName %k "k"
               OpDecorate %global_size BuiltIn GlobalSize
               OpDecorate %local_id BuiltIn LocalInvocationId
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
%_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
%_ptr_CrossWorkgroup_ulong = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %uint %_ptr_CrossWorkgroup_ulong
%global_size = OpVariable %_ptr_Input_v3ulong Input
   %local_id = OpVariable %_ptr_Input_v3ulong Input
)" + constants +
           R"(
          %k = OpFunction %void None %fn
          %i = OpFunctionParameter %uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_ulong
      %entry = OpLabel
      %sizes = OpLoad %v3ulong %global_size
        %ids = OpLoad %v3ulong %local_id
)" + code + "               OpStore %out " +
           size + R"(
               OpStore %out %id
               OpReturn
               OpFunctionEnd
)";
  };
  std::string before = workItems("", R"(
       %size = OpCompositeExtract %ulong %sizes 4
         %id = OpVectorExtractDynamic %ulong %ids %i
)",
                                 "%size");
  auto module = test::assemble(before);
  ASSERT_TRUE(module);
  EXPECT_FALSE(ir::validate(*module, SPV_ENV_UNIVERSAL_1_2).ok()) << "the index 4 should be refused";
  test::expectPassOutput("repair-llvm-spirv", before,
                         workItems(R"(
    %ulong_1 = OpConstant %ulong 1
    %ulong_0 = OpConstant %ulong 0
     %uint_3 = OpConstant %uint 3
     %uint_0 = OpConstant %uint 0
)",
                                   R"(
     %inside = OpULessThan %bool %i %uint_3
       %safe = OpSelect %uint %inside %i %uint_0
  %component = OpVectorExtractDynamic %ulong %ids %safe
         %id = OpSelect %ulong %inside %component %ulong_0
)",
                                   "%ulong_1"),
                         Target{}, SPV_ENV_UNIVERSAL_1_2);
}

TEST(RepairLlvmSpirvTest, RepairedModuleValidatesWhereTheInputDidNot) {
  std::string before = kernel(kExitBeforeLoop);
  auto module = test::assemble(before);
  ASSERT_TRUE(module);
  Status refused = ir::validate(*module, SPV_ENV_UNIVERSAL_1_2);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("has not been defined"), std::string::npos) << refused.error().message();
  Expected<PassResult> result = repairLlvmSpirv(*module, Target{});
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(*result, PassResult::kChanged);
  Status valid = ir::validate(*module, SPV_ENV_UNIVERSAL_1_2);
  EXPECT_TRUE(valid.ok()) << valid.error().message();
  EXPECT_EQ(*repairLlvmSpirv(*module, Target{}), PassResult::kUnchanged);
}

// atomic_compare_exchange_weak, which llvm-spirv-15 writes as OpAtomicCompareExchangeWeak (gone
// in SPIR-V 1.4, never in Vulkan), is the strong exchange with the same operands.
TEST(RepairLlvmSpirvTest, WeakCompareExchangeBecomesTheStrongOne) {
  auto exchange = [](const std::string& opcode) {
    return kernel(R"(
      %entry = OpLabel
        %old = )" +
                  opcode + R"( %uint %out %uint_1 %uint_0 %uint_0 %n %uint_0
               OpReturn
)");
  };
  test::expectPassOutput("repair-llvm-spirv", exchange("OpAtomicCompareExchangeWeak"),
                         exchange("OpAtomicCompareExchange"), Target{}, SPV_ENV_UNIVERSAL_1_2);
}

// A program-scope pointer initialized with another variable's address (`global uint* p = &x;`):
// llvm-spirv-15 lists %p in the kernel's interface but not %x, which SPIR-V 1.4 requires too.
TEST(RepairLlvmSpirvTest, VariablesReachedThroughInitializersJoinTheInterface) {
  auto module = [](const std::string& interface) {
    return R"(
; Version: 1.4
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %p)" +
           interface + R"(
               OpName %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_7 = OpConstant %uint 7
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
%_ptr_CrossWorkgroup__ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %_ptr_CrossWorkgroup_uint
          %x = OpVariable %_ptr_CrossWorkgroup_uint CrossWorkgroup %uint_7
          %p = OpVariable %_ptr_CrossWorkgroup__ptr_CrossWorkgroup_uint CrossWorkgroup %x
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
    %pointer = OpLoad %_ptr_CrossWorkgroup_uint %p
      %value = OpLoad %uint %pointer
               OpReturn
               OpFunctionEnd
)";
  };
  test::expectPassOutput("repair-llvm-spirv", module(""), module(" %x"), Target{}, SPV_ENV_UNIVERSAL_1_4);
}

}  // namespace
}  // namespace cl2vk
