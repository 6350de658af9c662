#include "passes/functions/inline_functions.h"

#include <gtest/gtest.h>

#include "ir/reader.h"
#include "ir/validate.h"
#include "pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

using test::canonical;

// The kernel, after the pass, as text from its entry block on.
std::string inlined(const std::string& source, Expected<PassResult>* result = nullptr) {
  auto module = test::assemble(source);
  if (!module) return "";
  Expected<PassResult> r = inlineFunctions(*module, Target{});
  if (result) *result = r;
  EXPECT_TRUE(r.ok()) << r.error().message();
  Status valid = ir::validate(*module, ir::validationEnvironment(*module, SPV_ENV_VULKAN_1_2));
  EXPECT_TRUE(valid.ok()) << valid.error().message() << "\n" << test::disassemble(*module);
  return test::disassemble(*module);
}

const std::string kHeader = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %twice "twice"
               OpName %x "x"
               OpName %entry "entry"
               OpName %r "r"
               OpName %v "v"
               OpName %fn_void "fn_void"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
%_ptr_Function_uint = OpTypePointer Function %uint
    %fn_uint = OpTypeFunction %uint %uint
    %fn_void = OpTypeFunction %void %uint
)";

TEST(InlineFunctionsTest, CallBecomesTheCalleesBlocksAndAPhiOfItsReturns) {
  std::string text = inlined(kHeader + R"(
      %twice = OpFunction %uint None %fn_uint
          %v = OpFunctionParameter %uint
         %t0 = OpLabel
        %neg = OpSLessThan %bool %v %uint_0
               OpBranchConditional %neg %t1 %t2
         %t1 = OpLabel
               OpReturnValue %uint_0
         %t2 = OpLabel
         %tv = OpIMul %uint %v %uint_2
               OpReturnValue %tv
               OpFunctionEnd
          %k = OpFunction %void None %fn_void
          %x = OpFunctionParameter %uint
      %entry = OpLabel
          %r = OpFunctionCall %uint %twice %x
          %s = OpIAdd %uint %r %r
               OpReturn
               OpFunctionEnd
)");
  EXPECT_EQ(canonical(text.substr(text.find("%k = OpFunction"))), canonical(R"(
%k = OpFunction %void None %fn_void
%x = OpFunctionParameter %uint
%entry = OpLabel
OpBranch %22
%22 = OpLabel
%23 = OpSLessThan %bool %x %uint_0
OpBranchConditional %23 %24 %25
%24 = OpLabel
OpBranch %21
%25 = OpLabel
%26 = OpIMul %uint %x %uint_2
OpBranch %21
%21 = OpLabel
%27 = OpPhi %uint %uint_0 %24 %26 %25
%20 = OpIAdd %uint %27 %27
OpReturn
OpFunctionEnd
)"));
  EXPECT_EQ(text.find("%twice = OpFunction"), std::string::npos) << "the uncalled helper is removed";
}

TEST(InlineFunctionsTest, CalleeVariablesMoveToTheCallersEntryBlock) {
  std::string text = inlined(kHeader + R"(
      %twice = OpFunction %uint None %fn_uint
          %v = OpFunctionParameter %uint
         %t0 = OpLabel
        %tmp = OpVariable %_ptr_Function_uint Function
               OpStore %tmp %v
         %ld = OpLoad %uint %tmp
               OpReturnValue %ld
               OpFunctionEnd
          %k = OpFunction %void None %fn_void
          %x = OpFunctionParameter %uint
      %entry = OpLabel
       %mine = OpVariable %_ptr_Function_uint Function
          %r = OpFunctionCall %uint %twice %x
               OpStore %mine %r
               OpReturn
               OpFunctionEnd
)");
  std::string body = text.substr(text.find("%entry = OpLabel"));
  size_t firstBranch = body.find("OpBranch");
  EXPECT_EQ(std::count(body.begin(), body.begin() + static_cast<long>(firstBranch), 'V'), 2)
      << "both OpVariables precede the first branch:\n"
      << body;
}

TEST(InlineFunctionsTest, NestedCallsAreInlinedCalleesFirstAndVoidCallsNeedNoPhi) {
  std::string text = inlined(kHeader + R"(
      %leaf = OpFunction %uint None %fn_uint
         %lv = OpFunctionParameter %uint
         %l0 = OpLabel
         %lr = OpIMul %uint %lv %uint_2
               OpReturnValue %lr
               OpFunctionEnd
      %twice = OpFunction %void None %fn_void
          %v = OpFunctionParameter %uint
         %t0 = OpLabel
         %tc = OpFunctionCall %uint %leaf %v
               OpReturn
               OpFunctionEnd
          %k = OpFunction %void None %fn_void
          %x = OpFunctionParameter %uint
      %entry = OpLabel
          %r = OpFunctionCall %void %twice %x
          %s = OpFunctionCall %void %twice %x
               OpReturn
               OpFunctionEnd
)");
  EXPECT_EQ(text.find("OpFunctionCall"), std::string::npos) << text;
  EXPECT_EQ(std::count(text.begin(), text.end(), '\n') > 0, true);
  // Two copies of %leaf's multiply, one per call of %twice.
  size_t multiplies = 0;
  for (size_t at = text.find("OpIMul"); at != std::string::npos; at = text.find("OpIMul", at + 1)) ++multiplies;
  EXPECT_EQ(multiplies, 2u);
  EXPECT_EQ(text.find("OpPhi"), std::string::npos);
}

TEST(InlineFunctionsTest, RecursionIsAnErrorNamingTheCycle) {
  auto module = test::assemble(kHeader + R"(
      %twice = OpFunction %uint None %fn_uint
          %v = OpFunctionParameter %uint
         %t0 = OpLabel
         %tc = OpFunctionCall %uint %twice %v
               OpReturnValue %tc
               OpFunctionEnd
          %k = OpFunction %void None %fn_void
          %x = OpFunctionParameter %uint
      %entry = OpLabel
          %r = OpFunctionCall %uint %twice %x
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(module);
  Expected<PassResult> result = inlineFunctions(*module, Target{});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message(), "kernel 'k': recursion is not supported: 'twice' calls 'twice'");
}

TEST(InlineFunctionsTest, ImportedDeclarationsAreLeftCalled) {
  std::string text = inlined(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpDecorate %ext LinkageAttributes "_Z21work_group_reduce_andi" Import
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
    %fn_uint = OpTypeFunction %uint %uint
    %fn_void = OpTypeFunction %void %uint
        %ext = OpFunction %uint None %fn_uint
          %a = OpFunctionParameter %uint
               OpFunctionEnd
          %k = OpFunction %void None %fn_void
          %x = OpFunctionParameter %uint
      %entry = OpLabel
          %r = OpFunctionCall %uint %ext %x
               OpReturn
               OpFunctionEnd
)");
  EXPECT_NE(text.find("OpFunctionCall"), std::string::npos);
  EXPECT_NE(text.find("LinkageAttributes \"_Z21work_group_reduce_andi\" Import"), std::string::npos);
}

// --- Before/after: the whole module, as the pass writes it. ---

// A kernel %k with a __global uint* %p, and the `functions` before it; `names` are the OpName and
// OpDecorate lines of those functions (the pass drops them with the functions it removes).
std::string kernelModule(const std::string& functions, const std::string& names = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %p "p"
)" + names +
         R"(
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
%_ptr_Function_uint = OpTypePointer Function %uint
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
    %fn_uint = OpTypeFunction %uint %uint
  %fn_kernel = OpTypeFunction %void %_ptr_CrossWorkgroup_uint
)" + functions;
}

// llvm-spirv writes each kernel as an exported function and an entry point that only calls it.
TEST(InlineFunctionsTest, TheKernelsCallOfItsExportedBodyBecomesTheBodysBlocks) {
  test::expectPassOutput("inline-functions",
                         kernelModule(R"(
       %body = OpFunction %void None %fn_kernel
          %q = OpFunctionParameter %_ptr_CrossWorkgroup_uint
         %b0 = OpLabel
          %x = OpLoad %uint %q Aligned 4
          %y = OpIMul %uint %x %uint_2
               OpStore %q %y Aligned 4
               OpReturn
               OpFunctionEnd
          %k = OpFunction %void None %fn_kernel
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
         %k0 = OpLabel
       %call = OpFunctionCall %void %body %p
               OpReturn
               OpFunctionEnd
)",
                                      R"(
               OpName %body "body"
               OpName %q "q"
               OpDecorate %body LinkageAttributes "body" Export
)"),
                         kernelModule(R"(
          %k = OpFunction %void None %fn_kernel
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
         %k0 = OpLabel
               OpBranch %b0
         %b0 = OpLabel
          %x = OpLoad %uint %p Aligned 4
          %y = OpIMul %uint %x %uint_2
               OpStore %p %y Aligned 4
               OpBranch %after
      %after = OpLabel
               OpReturn
               OpFunctionEnd
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// Each return branches to the block after the call, where a phi picks the returned value.
TEST(InlineFunctionsTest, AHelperWithTwoReturnsBecomesBranchesToAPhi) {
  test::expectPassOutput("inline-functions",
                         kernelModule(R"(
     %helper = OpFunction %uint None %fn_uint
          %v = OpFunctionParameter %uint
         %h0 = OpLabel
        %neg = OpSLessThan %bool %v %uint_0
               OpBranchConditional %neg %h1 %h2
         %h1 = OpLabel
               OpReturnValue %uint_0
         %h2 = OpLabel
    %doubled = OpIMul %uint %v %uint_2
               OpReturnValue %doubled
               OpFunctionEnd
          %k = OpFunction %void None %fn_kernel
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
         %k0 = OpLabel
          %x = OpLoad %uint %p Aligned 4
          %r = OpFunctionCall %uint %helper %x
               OpStore %p %r Aligned 4
               OpReturn
               OpFunctionEnd
)",
                                      R"(OpName %helper "helper")"),
                         kernelModule(R"(
          %k = OpFunction %void None %fn_kernel
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
         %k0 = OpLabel
          %x = OpLoad %uint %p Aligned 4
               OpBranch %h0
         %h0 = OpLabel
        %neg = OpSLessThan %bool %x %uint_0
               OpBranchConditional %neg %h1 %h2
         %h1 = OpLabel
               OpBranch %after
         %h2 = OpLabel
    %doubled = OpIMul %uint %x %uint_2
               OpBranch %after
      %after = OpLabel
          %r = OpPhi %uint %uint_0 %h1 %doubled %h2
               OpStore %p %r Aligned 4
               OpReturn
               OpFunctionEnd
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// OpVariable must open the entry block, so the helper's %tmp joins the kernel's %mine there.
TEST(InlineFunctionsTest, AHelpersVariableMovesToTheKernelsEntryBlock) {
  test::expectPassOutput("inline-functions",
                         kernelModule(R"(
     %helper = OpFunction %uint None %fn_uint
          %v = OpFunctionParameter %uint
         %h0 = OpLabel
        %tmp = OpVariable %_ptr_Function_uint Function
               OpStore %tmp %v Aligned 4
         %ld = OpLoad %uint %tmp Aligned 4
               OpReturnValue %ld
               OpFunctionEnd
          %k = OpFunction %void None %fn_kernel
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
         %k0 = OpLabel
       %mine = OpVariable %_ptr_Function_uint Function
          %x = OpLoad %uint %p Aligned 4
          %r = OpFunctionCall %uint %helper %x
               OpStore %mine %r Aligned 4
               OpReturn
               OpFunctionEnd
)",
                                      R"(OpName %helper "helper")"),
                         kernelModule(R"(
          %k = OpFunction %void None %fn_kernel
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
         %k0 = OpLabel
       %mine = OpVariable %_ptr_Function_uint Function
        %tmp = OpVariable %_ptr_Function_uint Function
          %x = OpLoad %uint %p Aligned 4
               OpBranch %h0
         %h0 = OpLabel
               OpStore %tmp %x Aligned 4
         %ld = OpLoad %uint %tmp Aligned 4
               OpBranch %after
      %after = OpLabel
          %r = OpPhi %uint %ld %h0
               OpStore %mine %r Aligned 4
               OpReturn
               OpFunctionEnd
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// A struct passed by value: clang -O0 hands the helper the caller's own variable with the ByVal
// attribute, and the helper owns a copy. %bump writes its copy: the caller's %s must not change
// (the kernel reads it after the call), so the inlined body works on a fresh variable that the
// call site fills from the argument.
const std::string kByValNames = R"(
               OpName %pair "pair"
               OpName %s "s"
               OpName %bump "bump"
               OpName %peek "peek"
               OpName %m "m"
               OpName %n "n"
               OpDecorate %m FuncParamAttr ByVal
               OpDecorate %n FuncParamAttr ByVal
)";
const std::string kByValHelpers = R"(
       %pair = OpTypeStruct %uint %uint
%_ptr_Function_pair = OpTypePointer Function %pair
    %fn_pair = OpTypeFunction %uint %_ptr_Function_pair
       %bump = OpFunction %uint None %fn_pair
          %m = OpFunctionParameter %_ptr_Function_pair
         %b0 = OpLabel
         %mf = OpInBoundsPtrAccessChain %_ptr_Function_uint %m %uint_0 %uint_0
         %mv = OpLoad %uint %mf Aligned 4
        %mv2 = OpIMul %uint %mv %uint_2
               OpStore %mf %mv2 Aligned 4
               OpReturnValue %mv2
               OpFunctionEnd
       %peek = OpFunction %uint None %fn_pair
          %n = OpFunctionParameter %_ptr_Function_pair
         %e0 = OpLabel
         %nf = OpInBoundsPtrAccessChain %_ptr_Function_uint %n %uint_0 %uint_0
         %nv = OpLoad %uint %nf Aligned 4
               OpReturnValue %nv
               OpFunctionEnd
)";

TEST(InlineFunctionsTest, AByValParameterTheCalleeWritesIsACopyOfTheArgument) {
  test::expectPassOutput("inline-functions",
                         kernelModule(kByValHelpers + R"(
          %k = OpFunction %void None %fn_kernel
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
         %k0 = OpLabel
          %s = OpVariable %_ptr_Function_pair Function
         %sf = OpInBoundsPtrAccessChain %_ptr_Function_uint %s %uint_0 %uint_0
               OpStore %sf %uint_2 Aligned 4
          %r = OpFunctionCall %uint %bump %s
         %sv = OpLoad %uint %sf Aligned 4
        %sum = OpIAdd %uint %r %sv
               OpStore %p %sum Aligned 4
               OpReturn
               OpFunctionEnd
)",
                                      kByValNames),
                         kernelModule(R"(
       %pair = OpTypeStruct %uint %uint
%_ptr_Function_pair = OpTypePointer Function %pair
    %fn_pair = OpTypeFunction %uint %_ptr_Function_pair
          %k = OpFunction %void None %fn_kernel
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
         %k0 = OpLabel
          %s = OpVariable %_ptr_Function_pair Function
       %copy = OpVariable %_ptr_Function_pair Function
         %sf = OpInBoundsPtrAccessChain %_ptr_Function_uint %s %uint_0 %uint_0
               OpStore %sf %uint_2 Aligned 4
      %whole = OpLoad %pair %s
               OpStore %copy %whole
               OpBranch %b0
         %b0 = OpLabel
         %mf = OpInBoundsPtrAccessChain %_ptr_Function_uint %copy %uint_0 %uint_0
         %mv = OpLoad %uint %mf Aligned 4
        %mv2 = OpIMul %uint %mv %uint_2
               OpStore %mf %mv2 Aligned 4
               OpBranch %after
      %after = OpLabel
          %r = OpPhi %uint %mv2 %b0
         %sv = OpLoad %uint %sf Aligned 4
        %sum = OpIAdd %uint %r %sv
               OpStore %p %sum Aligned 4
               OpReturn
               OpFunctionEnd
)",
                                      R"(
               OpName %pair "pair"
               OpName %s "s"
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// A helper that only reads its by-value struct reads the caller's: no copy is needed.
TEST(InlineFunctionsTest, AByValParameterTheCalleeOnlyReadsIsTheArgumentItself) {
  test::PassRun run = test::runPass("inline-functions", kernelModule(kByValHelpers + R"(
          %k = OpFunction %void None %fn_kernel
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
         %k0 = OpLabel
          %s = OpVariable %_ptr_Function_pair Function
          %r = OpFunctionCall %uint %peek %s
               OpStore %p %r Aligned 4
               OpReturn
               OpFunctionEnd
)",
                                                                     kByValNames));
  ASSERT_TRUE(run.module) << run.error;
  std::string text = run.text();
  EXPECT_EQ(test::count(text, "OpVariable"), 1u) << text;
  EXPECT_NE(text.find("OpInBoundsPtrAccessChain %_ptr_Function_uint %s %uint_0 %uint_0"), std::string::npos) << text;
}

// An imported function has no body to inline: its call stays. A function no kernel calls goes.
TEST(InlineFunctionsTest, ImportsStayCalledAndFunctionsNoKernelReachesGo) {
  const std::string external = R"(
   %external = OpFunction %uint None %fn_uint
         %e0 = OpFunctionParameter %uint
               OpFunctionEnd
)";
  const std::string kernel = R"(
          %k = OpFunction %void None %fn_kernel
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
         %k0 = OpLabel
          %x = OpLoad %uint %p Aligned 4
          %r = OpFunctionCall %uint %external %x
               OpStore %p %r Aligned 4
               OpReturn
               OpFunctionEnd
)";
  const std::string unused = R"(
     %unused = OpFunction %uint None %fn_uint
          %v = OpFunctionParameter %uint
         %u0 = OpLabel
               OpReturnValue %v
               OpFunctionEnd
)";
  const std::string importName = R"(
               OpName %external "external"
               OpDecorate %external LinkageAttributes "external" Import
)";
  test::expectPassOutput("inline-functions", kernelModule(external + unused + kernel, importName),
                         kernelModule(external + kernel, importName), Target{}, SPV_ENV_OPENCL_2_2);
}

TEST(InlineFunctionsTest, EveryCorpusModuleStaysValidOpenCL) {
  for (const auto& path : test::supportedCorpusModules()) {
    auto module = ir::readBinary(test::readWords(path));
    ASSERT_TRUE(module.ok()) << module.error().message();
    Expected<PassResult> result = inlineFunctions(**module, Target{});
    ASSERT_TRUE(result.ok()) << path << ": " << result.error().message();
    Status valid = ir::validate(**module, ir::universalEnvironment(**module));
    EXPECT_TRUE(valid.ok()) << path << ": " << valid.error().message();
    for (const ir::Function& function : (*module)->functions()) {
      for (const ir::Block& block : function.blocks()) {
        for (const ir::Instruction& inst : block.instructions()) {
          if (inst.opcode() != spv::Op::OpFunctionCall) continue;
          EXPECT_TRUE((*module)->function(inst.idOperand(0))->isDeclaration()) << path;
        }
      }
    }
  }
}

}  // namespace
}  // namespace cl2vk
