#include "passes/control_flow/structurize_cfg.h"

#include <gtest/gtest.h>

#include <cctype>
#include <iostream>

#include "ir/reader.h"
#include "ir/validate.h"
#include "pass_test_util.h"
#include "random_cfg_test_util.h"
#include "spirv_interpreter_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

using test::canonical;

// Every input is a Shader module: SPIRV-Tools only checks structured control flow there. `f` is
// the function under test; `main` calls it so that the module is a valid compute shader.
const std::string kShaderHeader = R"(
; Version: 1.3
               OpCapability Shader
               OpMemoryModel Logical GLSL450
               OpEntryPoint GLCompute %main "main"
               OpExecutionMode %main LocalSize 1 1 1
               OpName %f "f"
               OpName %fnf "fnf"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
    %uint_10 = OpConstant %uint 10
        %fnv = OpTypeFunction %void
        %fnf = OpTypeFunction %uint %uint %uint
       %main = OpFunction %void None %fnv
      %start = OpLabel
     %result = OpFunctionCall %uint %f %uint_1 %uint_2
               OpReturn
               OpFunctionEnd
)";

const spv_target_env kVulkanEnvironments[] = {SPV_ENV_VULKAN_1_1, SPV_ENV_VULKAN_1_2, SPV_ENV_VULKAN_1_3};

void expectValidForVulkan(const ir::Module& module) {
  for (spv_target_env env : kVulkanEnvironments) {
    Status valid = ir::validate(module, env);
    EXPECT_TRUE(valid.ok()) << ir::environmentName(env) << ": " << valid.error().message() << "\n"
                            << test::disassemble(module);
  }
}

const ir::Function* functionNamed(const ir::Module& module, const std::string& name) {
  for (const ir::Function& function : module.functions()) {
    if (module.functionName(function) == name) return &function;
  }
  return nullptr;
}

// Runs `f` of both modules on a grid of arguments; they must return the same and store the same.
void expectSameBehaviour(const ir::Module& before, const ir::Module& after, const std::string& what) {
  const ir::Function* original = functionNamed(before, "f");
  const ir::Function* structured = functionNamed(after, "f");
  ASSERT_TRUE(original && structured);
  test::SpirvInterpreter runBefore(before), runAfter(after);
  for (uint64_t x : {0u, 1u, 2u, 3u, 7u, 100u, 12345u, 0xdeadbeefu}) {
    for (uint64_t y : {0u, 1u, 5u, 77u}) {
      test::InterpreterResult expected = runBefore.run(*original, {x, y});
      ASSERT_EQ(expected.error, "") << what;
      test::InterpreterResult actual = runAfter.run(*structured, {x, y});
      ASSERT_EQ(actual.error, "") << what << " x=" << x << " y=" << y << "\n" << test::disassemble(after);
      ASSERT_EQ(actual.trace, expected.trace) << what << " x=" << x << " y=" << y << "\n" << test::disassemble(after);
    }
  }
}

// OpName for every named id `function` defines, so that the disassembly keeps the names.
std::string namesOf(const std::string& function) {
  std::string names;
  for (size_t at = function.find('%'); at != std::string::npos; at = function.find('%', at + 1)) {
    size_t end = function.find_first_of(" \n", at);
    std::string name = function.substr(at + 1, end - at - 1);
    if (function.compare(end, 3, " = ") != 0 || name == "f" || std::isdigit(name[0])) continue;
    names += "OpName %" + name + " \"" + name + "\"\n";
  }
  return names;
}

std::string withNames(const std::string& function) {
  std::string header = kShaderHeader;
  size_t at = header.find("OpName %f");
  header.insert(at, namesOf(function));
  return header + function;
}

// Structurizes `f` (given as its assembly), checks it validates and behaves as before, and
// returns the disassembly of `f`.
std::string structurized(const std::string& function, const Target& target = Target{}) {
  auto before = test::assemble(withNames(function));
  auto module = test::assemble(withNames(function));
  if (!module || !before) return "";
  Expected<PassResult> result = structurizeControlFlow(*module, target);
  EXPECT_TRUE(result.ok()) << result.error().message();
  if (!result.ok()) return "";
  expectValidForVulkan(*module);
  expectSameBehaviour(*before, *module, "structurized f");
  std::string text = test::disassemble(*module);
  return canonical(text.substr(text.find("%f = OpFunction")));
}

TEST(StructurizeCfgTest, IfThenGetsTheJoinAsItsMerge) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
          %c = OpULessThan %bool %x %y
               OpBranchConditional %c %then %join
       %then = OpLabel
          %a = OpIAdd %uint %x %uint_1
               OpBranch %join
       %join = OpLabel
          %r = OpPhi %uint %a %then %x %entry
               OpReturnValue %r
               OpFunctionEnd
)"),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
              %c = OpULessThan %bool %x %y
                   OpSelectionMerge %join None
                   OpBranchConditional %c %then %join
           %then = OpLabel
              %a = OpIAdd %uint %x %uint_1
                   OpBranch %join
           %join = OpLabel
              %r = OpPhi %uint %x %entry %a %then
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

TEST(StructurizeCfgTest, IfElseJoinsAtTheirCommonSuccessor) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
          %c = OpULessThan %bool %x %y
               OpBranchConditional %c %then %else
       %then = OpLabel
          %a = OpIAdd %uint %x %uint_1
               OpBranch %join
       %else = OpLabel
          %b = OpISub %uint %y %uint_1
               OpBranch %join
       %join = OpLabel
          %r = OpPhi %uint %a %then %b %else
               OpReturnValue %r
               OpFunctionEnd
)"),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
              %c = OpULessThan %bool %x %y
                   OpSelectionMerge %join None
                   OpBranchConditional %c %then %else
           %then = OpLabel
              %a = OpIAdd %uint %x %uint_1
                   OpBranch %join
           %else = OpLabel
              %b = OpISub %uint %y %uint_1
                   OpBranch %join
           %join = OpLabel
              %r = OpPhi %uint %b %else %a %then
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

TEST(StructurizeCfgTest, ShortCircuitAndRoutesTheSharedElseThroughAFlag) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
         %c1 = OpULessThan %bool %x %uint_10
               OpBranchConditional %c1 %rhs %else
        %rhs = OpLabel
         %c2 = OpULessThan %bool %y %uint_10
               OpBranchConditional %c2 %then %else
       %then = OpLabel
          %a = OpIAdd %uint %x %y
               OpBranch %join
       %else = OpLabel
               OpBranch %join
       %join = OpLabel
          %r = OpPhi %uint %a %then %uint_0 %else
               OpReturnValue %r
               OpFunctionEnd
)"),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
             %c1 = OpULessThan %bool %x %uint_10
                   OpSelectionMerge %26 None
                   OpBranchConditional %c1 %rhs %26
            %rhs = OpLabel
             %c2 = OpULessThan %bool %y %uint_10
                   OpSelectionMerge %27 None
                   OpBranchConditional %c2 %then %27
           %then = OpLabel
              %a = OpIAdd %uint %x %y
                   OpBranch %27
             %27 = OpLabel
             %33 = OpPhi %uint %uint_2 %rhs %uint_4 %then
             %31 = OpPhi %uint %29 %rhs %a %then
                   OpBranch %26
             %26 = OpLabel
             %34 = OpPhi %uint %uint_2 %entry %33 %27
             %32 = OpPhi %uint %29 %entry %31 %27
             %30 = OpIEqual %bool %34 %uint_2
                   OpSelectionMerge %join None
                   OpBranchConditional %30 %else %join
           %else = OpLabel
                   OpBranch %join
           %join = OpLabel
              %r = OpPhi %uint %32 %26 %uint_0 %else
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

TEST(StructurizeCfgTest, LoopWithBreakAndContinue) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %latch
        %sum = OpPhi %uint %x %entry %sum2 %latch
       %more = OpULessThan %bool %i %uint_10
               OpBranchConditional %more %body %exit
       %body = OpLabel
        %odd = OpBitwiseAnd %uint %i %uint_1
      %isodd = OpINotEqual %bool %odd %uint_0
               OpBranchConditional %isodd %latch %check
      %check = OpLabel
       %big = OpUGreaterThan %bool %sum %y
               OpBranchConditional %big %exit %add
        %add = OpLabel
       %sum1 = OpIAdd %uint %sum %i
               OpBranch %latch
      %latch = OpLabel
       %sum2 = OpPhi %uint %sum %body %sum1 %add
       %next = OpIAdd %uint %i %uint_1
               OpBranch %header
       %exit = OpLabel
          %r = OpPhi %uint %sum %header %sum %check
               OpReturnValue %r
               OpFunctionEnd
)"),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
                   OpBranch %header
         %header = OpLabel
              %i = OpPhi %uint %uint_0 %entry %next %latch
            %sum = OpPhi %uint %x %entry %sum2 %latch
                   OpLoopMerge %exit %latch None
                   OpBranch %34
             %34 = OpLabel
           %more = OpULessThan %bool %i %uint_10
                   OpBranchConditional %more %body %exit
           %body = OpLabel
            %odd = OpBitwiseAnd %uint %i %uint_1
          %isodd = OpINotEqual %bool %odd %uint_0
                   OpBranchConditional %isodd %latch %check
          %check = OpLabel
            %big = OpUGreaterThan %bool %sum %y
                   OpBranchConditional %big %exit %add
            %add = OpLabel
           %sum1 = OpIAdd %uint %sum %i
                   OpBranch %latch
          %latch = OpLabel
           %sum2 = OpPhi %uint %sum %body %sum1 %add
           %next = OpIAdd %uint %i %uint_1
                   OpBranch %header
           %exit = OpLabel
                   OpReturnValue %sum
                   OpFunctionEnd
)"));
}

TEST(StructurizeCfgTest, NestedLoopsBreakOutOfBothThroughEachMerge) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %outer
      %outer = OpLabel
          %i = OpPhi %uint %uint_0 %entry %inext %outerlatch
               OpBranch %inner
      %inner = OpLabel
          %j = OpPhi %uint %uint_0 %outer %jnext %innerlatch
          %p = OpIMul %uint %i %j
      %found = OpUGreaterThan %bool %p %x
               OpBranchConditional %found %done %innerlatch
 %innerlatch = OpLabel
      %jnext = OpIAdd %uint %j %uint_1
     %jmore = OpULessThan %bool %jnext %uint_10
               OpBranchConditional %jmore %inner %outerlatch
 %outerlatch = OpLabel
      %inext = OpIAdd %uint %i %uint_1
     %imore = OpULessThan %bool %inext %uint_10
               OpBranchConditional %imore %outer %done
       %done = OpLabel
          %r = OpPhi %uint %p %inner %inext %outerlatch
               OpReturnValue %r
               OpFunctionEnd
)"),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
                   OpBranch %outer
          %outer = OpLabel
              %i = OpPhi %uint %uint_0 %entry %inext %34
                   OpLoopMerge %done %34 None
                   OpBranch %32
             %32 = OpLabel
                   OpBranch %inner
          %inner = OpLabel
              %j = OpPhi %uint %uint_0 %32 %jnext %35
                   OpLoopMerge %36 %35 None
                   OpBranch %33
             %33 = OpLabel
              %p = OpIMul %uint %i %j
          %found = OpUGreaterThan %bool %p %x
                   OpBranchConditional %found %36 %innerlatch
     %innerlatch = OpLabel
          %jnext = OpIAdd %uint %j %uint_1
          %jmore = OpULessThan %bool %jnext %uint_10
                   OpBranchConditional %jmore %35 %36
             %35 = OpLabel
                   OpBranch %inner
             %36 = OpLabel
             %39 = OpPhi %uint %uint_0 %33 %uint_1 %innerlatch
             %38 = OpIEqual %bool %39 %uint_0
                   OpBranchConditional %38 %done %outerlatch
     %outerlatch = OpLabel
          %inext = OpIAdd %uint %i %uint_1
          %imore = OpULessThan %bool %inext %uint_10
                   OpBranchConditional %imore %34 %done
             %34 = OpLabel
                   OpBranch %outer
           %done = OpLabel
              %r = OpPhi %uint %p %36 %inext %outerlatch
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

TEST(StructurizeCfgTest, EarlyReturnInsideALoopStaysAReturn) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %body
        %hit = OpIEqual %bool %i %y
               OpBranchConditional %hit %early %body
      %early = OpLabel
               OpReturnValue %i
       %body = OpLabel
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %uint_10
               OpBranchConditional %more %header %exit
       %exit = OpLabel
               OpReturnValue %x
               OpFunctionEnd
)"),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
                   OpBranch %header
         %header = OpLabel
              %i = OpPhi %uint %uint_0 %entry %next %27
                   OpLoopMerge %28 %27 None
                   OpBranch %26
             %26 = OpLabel
            %hit = OpIEqual %bool %i %y
                   OpBranchConditional %hit %28 %body
           %body = OpLabel
           %next = OpIAdd %uint %i %uint_1
           %more = OpULessThan %bool %next %uint_10
                   OpBranchConditional %more %27 %28
             %27 = OpLabel
                   OpBranch %header
             %28 = OpLabel
             %32 = OpPhi %uint %uint_0 %26 %uint_1 %body
             %30 = OpIEqual %bool %32 %uint_0
                   OpSelectionMerge %31 None
                   OpBranchConditional %30 %early %exit
          %early = OpLabel
                   OpReturnValue %i
           %exit = OpLabel
                   OpReturnValue %x
             %31 = OpLabel
                   OpUnreachable
                   OpFunctionEnd
)"));
}

TEST(StructurizeCfgTest, SwitchCasesMeetAtTheSwitchMerge) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
        %sel = OpUMod %uint %x %uint_3
               OpSwitch %sel %default 1 %one 2 %two
    %default = OpLabel
               OpBranch %join
        %one = OpLabel
          %a = OpIAdd %uint %y %uint_1
               OpBranch %join
        %two = OpLabel
          %b = OpIAdd %uint %y %uint_2
               OpBranch %join
       %join = OpLabel
          %r = OpPhi %uint %y %default %a %one %b %two
               OpReturnValue %r
               OpFunctionEnd
)"),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
            %sel = OpUMod %uint %x %uint_3
                   OpSelectionMerge %join None
                   OpSwitch %sel %default 1 %one 2 %two
        %default = OpLabel
                   OpBranch %join
            %one = OpLabel
              %a = OpIAdd %uint %y %uint_1
                   OpBranch %join
            %two = OpLabel
              %b = OpIAdd %uint %y %uint_2
                   OpBranch %join
           %join = OpLabel
              %r = OpPhi %uint %b %two %a %one %y %default
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

TEST(StructurizeCfgTest, RotatedDoWhileLoopAsClangEmitsIt) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
      %limit = OpUMod %uint %x %uint_10
       %skip = OpIEqual %bool %limit %uint_0
               OpBranchConditional %skip %end %preheader
  %preheader = OpLabel
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %preheader %next %loop
        %acc = OpPhi %uint %y %preheader %acc2 %loop
       %acc2 = OpIMul %uint %acc %uint_3
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %limit
               OpBranchConditional %more %loop %loopexit
   %loopexit = OpLabel
      %final = OpPhi %uint %acc2 %loop
               OpBranch %end
        %end = OpLabel
          %r = OpPhi %uint %y %entry %final %loopexit
               OpReturnValue %r
               OpFunctionEnd
)"),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
          %limit = OpUMod %uint %x %uint_10
           %skip = OpIEqual %bool %limit %uint_0
                   OpSelectionMerge %end None
                   OpBranchConditional %skip %end %preheader
      %preheader = OpLabel
                   OpBranch %loop
           %loop = OpLabel
              %i = OpPhi %uint %uint_0 %preheader %next %32
            %acc = OpPhi %uint %y %preheader %acc2 %32
                   OpLoopMerge %loopexit %32 None
                   OpBranch %31
             %31 = OpLabel
           %acc2 = OpIMul %uint %acc %uint_3
           %next = OpIAdd %uint %i %uint_1
           %more = OpULessThan %bool %next %limit
                   OpBranchConditional %more %32 %loopexit
             %32 = OpLabel
                   OpBranch %loop
       %loopexit = OpLabel
                   OpBranch %end
            %end = OpLabel
              %r = OpPhi %uint %y %entry %acc2 %loopexit
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

TEST(StructurizeCfgTest, LoopWithTwoExitsDispatchesOnAnExitSelector) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %latch
        %hit = OpIEqual %bool %i %y
               OpBranchConditional %hit %found %latch
      %latch = OpLabel
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %x
               OpBranchConditional %more %header %missing
      %found = OpLabel
          %a = OpIAdd %uint %i %uint_10
               OpBranch %join
    %missing = OpLabel
               OpBranch %join
       %join = OpLabel
          %r = OpPhi %uint %a %found %uint_0 %missing
               OpReturnValue %r
               OpFunctionEnd
)"),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
                   OpBranch %header
         %header = OpLabel
              %i = OpPhi %uint %uint_0 %entry %next %30
                   OpLoopMerge %31 %30 None
                   OpBranch %29
             %29 = OpLabel
            %hit = OpIEqual %bool %i %y
                   OpBranchConditional %hit %31 %latch
          %latch = OpLabel
           %next = OpIAdd %uint %i %uint_1
           %more = OpULessThan %bool %next %x
                   OpBranchConditional %more %30 %31
             %30 = OpLabel
                   OpBranch %header
             %31 = OpLabel
             %35 = OpPhi %uint %uint_0 %29 %uint_1 %latch
             %33 = OpIEqual %bool %35 %uint_0
                   OpSelectionMerge %join None
                   OpBranchConditional %33 %found %missing
          %found = OpLabel
              %a = OpIAdd %uint %i %uint_10
                   OpBranch %join
        %missing = OpLabel
                   OpBranch %join
           %join = OpLabel
              %r = OpPhi %uint %uint_0 %missing %a %found
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

TEST(StructurizeCfgTest, IrreducibleLoopIsAnErrorNamingTheBlock) {
  auto module = test::assemble(withNames(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
          %c = OpULessThan %bool %x %y
               OpBranchConditional %c %a %b
          %a = OpLabel
               OpBranch %b
          %b = OpLabel
               OpBranchConditional %c %a %done
       %done = OpLabel
               OpReturnValue %x
               OpFunctionEnd
)"));
  ASSERT_TRUE(module);
  Expected<PassResult> result = structurizeControlFlow(*module, Target{});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.error().message(),
            "irreducible control flow in function 'f': block %b is entered from outside its loop other than through "
            "the header %a");
}

// The module as a compute shader: the Kernel capability, addressing and entry point replaced,
// the rest kept, so that the validator checks the structure of a Kernel module's result.
std::unique_ptr<ir::Module> asShader(const ir::Module& kernel) {
  std::string text = test::disassemble(kernel);
  auto replace = [&text](const std::string& from, const std::string& to) {
    size_t at = text.find(from);
    if (at != std::string::npos) text.replace(at, from.size(), to);
  };
  replace("OpCapability Addresses\n", "");
  replace("OpCapability Kernel", "OpCapability Shader");
  replace("OpMemoryModel Physical64 OpenCL", "OpMemoryModel Logical GLSL450");
  size_t entry = text.find("OpEntryPoint Kernel ");
  std::string id = text.substr(entry + 20, text.find(' ', entry + 20) - entry - 20);
  replace("OpEntryPoint Kernel", "OpEntryPoint GLCompute");
  size_t line = text.find('\n', entry);
  text.insert(line + 1, "OpExecutionMode " + id + " LocalSize 1 1 1\n");
  return test::assemble("; Version: 1.3\n" + text);
}

TEST(StructurizeCfgTest, LlvmSpirvLoopControlStaysWithItsLoop) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %uint_10
               OpLoopMerge %exit %loop Unroll
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpReturnValue %next
               OpFunctionEnd
)"),
            canonical(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %24
               OpLoopMerge %exit %24 Unroll
               OpBranch %23
         %23 = OpLabel
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %uint_10
               OpBranchConditional %more %24 %exit
         %24 = OpLabel
               OpBranch %loop
       %exit = OpLabel
               OpReturnValue %next
               OpFunctionEnd
)"));
}

// --- Loop-closed SSA for SIMD drivers (Target::loopExitPhis: SwiftShader, llvmpipe) -------------

Target simdLoopTarget() {
  Target target;
  target.loopExitPhis = true;
  return target;
}

// The shape clang gives loops from -O1 on: the latch tests and leaves. %acc2 and %next are read
// after the loop through phis in its merge, and the continue target branches on the latch's test
// again (true there), so that each phi has a second incoming value, OpUndef on an edge no
// invocation takes, and SPIRV-Tools does not fold it.
TEST(StructurizeCfgTest, RotatedLoopValuesReadAfterItGoThroughMergePhisThatStay) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
      %limit = OpUMod %uint %x %uint_10
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
        %acc = OpPhi %uint %y %entry %acc2 %loop
       %acc2 = OpIMul %uint %acc %uint_3
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %limit
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
          %r = OpIAdd %uint %acc2 %next
               OpReturnValue %r
               OpFunctionEnd
)",
                         simdLoopTarget()),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
          %limit = OpUMod %uint %x %uint_10
                   OpBranch %loop
           %loop = OpLabel
              %i = OpPhi %uint %uint_0 %entry %next %28
            %acc = OpPhi %uint %y %entry %acc2 %28
                   OpLoopMerge %exit %28 None
                   OpBranch %27
             %27 = OpLabel
           %acc2 = OpIMul %uint %acc %uint_3
           %next = OpIAdd %uint %i %uint_1
           %more = OpULessThan %bool %next %limit
                   OpBranchConditional %more %28 %exit
             %28 = OpLabel
                   OpBranchConditional %more %loop %exit
           %exit = OpLabel
             %30 = OpPhi %uint %next %27 %31 %28
             %29 = OpPhi %uint %acc2 %27 %31 %28
              %r = OpIAdd %uint %29 %30
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

// The shape clang gives loops at -O0: the header tests, the body follows, the latch counts. The
// continue target branches on the header's test.
TEST(StructurizeCfgTest, TopTestedLoopValuesReadAfterItGoThroughMergePhisThatStay) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
      %limit = OpUMod %uint %x %uint_10
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %latch
        %acc = OpPhi %uint %y %entry %acc2 %latch
      %twice = OpIAdd %uint %acc %acc
       %more = OpULessThan %bool %i %limit
               OpBranchConditional %more %body %exit
       %body = OpLabel
       %acc2 = OpIMul %uint %twice %uint_3
               OpBranch %latch
      %latch = OpLabel
       %next = OpIAdd %uint %i %uint_1
               OpBranch %header
       %exit = OpLabel
          %r = OpIAdd %uint %twice %i
               OpReturnValue %r
               OpFunctionEnd
)",
                         simdLoopTarget()),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
          %limit = OpUMod %uint %x %uint_10
                   OpBranch %header
         %header = OpLabel
              %i = OpPhi %uint %uint_0 %entry %next %latch
            %acc = OpPhi %uint %y %entry %acc2 %latch
                   OpLoopMerge %exit %latch None
                   OpBranch %30
             %30 = OpLabel
          %twice = OpIAdd %uint %acc %acc
           %more = OpULessThan %bool %i %limit
                   OpBranchConditional %more %body %exit
           %body = OpLabel
           %acc2 = OpIMul %uint %twice %uint_3
                   OpBranch %latch
          %latch = OpLabel
           %next = OpIAdd %uint %i %uint_1
                   OpBranchConditional %more %header %exit
           %exit = OpLabel
             %32 = OpPhi %uint %i %30 %33 %latch
             %31 = OpPhi %uint %twice %30 %33 %latch
              %r = OpIAdd %uint %31 %32
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

// A `break` inside an `if`: %found, where the loop is left, becomes its merge; the continue
// target branches on the `if`'s condition (false there) to the header or to %found.
TEST(StructurizeCfgTest, BreakInsideAnIfReadsItsValuesThroughMergePhisThatStay) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
      %limit = OpUMod %uint %x %uint_10
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %latch
        %sum = OpPhi %uint %y %entry %sum2 %latch
       %sum2 = OpIAdd %uint %sum %i
        %big = OpUGreaterThan %bool %sum2 %limit
               OpBranchConditional %big %found %latch
      %found = OpLabel
          %d = OpISub %uint %sum2 %limit
               OpBranch %exit
      %latch = OpLabel
       %next = OpIAdd %uint %i %uint_1
               OpBranch %header
       %exit = OpLabel
          %r = OpIMul %uint %d %i
               OpReturnValue %r
               OpFunctionEnd
)",
                         simdLoopTarget()),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
          %limit = OpUMod %uint %x %uint_10
                   OpBranch %header
         %header = OpLabel
              %i = OpPhi %uint %uint_0 %entry %next %latch
            %sum = OpPhi %uint %y %entry %sum2 %latch
                   OpLoopMerge %found %latch None
                   OpBranch %30
             %30 = OpLabel
           %sum2 = OpIAdd %uint %sum %i
            %big = OpUGreaterThan %bool %sum2 %limit
                   OpBranchConditional %big %found %latch
          %latch = OpLabel
           %next = OpIAdd %uint %i %uint_1
                   OpBranchConditional %big %found %header
          %found = OpLabel
             %32 = OpPhi %uint %i %30 %33 %latch
             %31 = OpPhi %uint %sum2 %30 %33 %latch
              %d = OpISub %uint %31 %limit
                   OpBranch %exit
           %exit = OpLabel
              %r = OpIMul %uint %d %32
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

// An endless loop left only from inside nested ifs: no test both dominates the continue target
// and decides whether to come to it, so the continue target branches on a phi of what each edge
// into it knows (the `if`s' conditions, negated where their false side comes to it).
TEST(StructurizeCfgTest, LoopLeftFromNestedIfsBranchesOnWhatItsEdgesKnow) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
      %limit = OpUMod %uint %x %uint_10
               OpBranch %header
     %header = OpLabel
          %j = OpPhi %uint %uint_0 %entry %next %latch
          %v = OpIMul %uint %j %uint_3
        %big = OpUGreaterThan %bool %v %limit
               OpBranchConditional %big %inner %latch
      %inner = OpLabel
        %odd = OpBitwiseAnd %uint %j %uint_1
       %even = OpIEqual %bool %odd %uint_0
               OpBranchConditional %even %exit %latch
      %latch = OpLabel
       %next = OpIAdd %uint %j %uint_1
               OpBranch %header
       %exit = OpLabel
          %r = OpIAdd %uint %v %y
               OpReturnValue %r
               OpFunctionEnd
)",
                         simdLoopTarget()),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
          %limit = OpUMod %uint %x %uint_10
                   OpBranch %header
         %header = OpLabel
              %j = OpPhi %uint %uint_0 %entry %next %latch
                   OpLoopMerge %exit %latch None
                   OpBranch %30
             %30 = OpLabel
              %v = OpIMul %uint %j %uint_3
            %big = OpUGreaterThan %bool %v %limit
             %32 = OpLogicalNot %bool %big
                   OpBranchConditional %big %inner %latch
          %inner = OpLabel
            %odd = OpBitwiseAnd %uint %j %uint_1
           %even = OpIEqual %bool %odd %uint_0
             %33 = OpLogicalNot %bool %even
                   OpBranchConditional %even %exit %latch
          %latch = OpLabel
             %34 = OpPhi %bool %32 %30 %33 %inner
           %next = OpIAdd %uint %j %uint_1
                   OpBranchConditional %34 %header %exit
           %exit = OpLabel
             %31 = OpPhi %uint %v %inner %35 %latch
              %r = OpIAdd %uint %31 %y
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

// Each level of nested loops closes what is read after it: %p through the inner merge, then that
// phi and %inext through the outer merge.
TEST(StructurizeCfgTest, NestedLoopsCloseTheirValuesAtEachMerge) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %outer
      %outer = OpLabel
          %i = OpPhi %uint %uint_0 %entry %inext %outerlatch
               OpBranch %inner
      %inner = OpLabel
          %j = OpPhi %uint %uint_0 %outer %jnext %inner
          %p = OpIMul %uint %i %j
      %jnext = OpIAdd %uint %j %uint_1
      %jmore = OpULessThan %bool %jnext %uint_3
               OpBranchConditional %jmore %inner %outerlatch
 %outerlatch = OpLabel
      %inext = OpIAdd %uint %i %uint_1
      %imore = OpULessThan %bool %inext %uint_10
               OpBranchConditional %imore %outer %exit
       %exit = OpLabel
          %r = OpIAdd %uint %p %inext
               OpReturnValue %r
               OpFunctionEnd
)",
                         simdLoopTarget()),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
                   OpBranch %outer
          %outer = OpLabel
              %i = OpPhi %uint %uint_0 %entry %inext %32
                   OpLoopMerge %exit %32 None
                   OpBranch %30
             %30 = OpLabel
                   OpBranch %inner
          %inner = OpLabel
              %j = OpPhi %uint %uint_0 %30 %jnext %33
                   OpLoopMerge %outerlatch %33 None
                   OpBranch %31
             %31 = OpLabel
              %p = OpIMul %uint %i %j
          %jnext = OpIAdd %uint %j %uint_1
          %jmore = OpULessThan %bool %jnext %uint_3
                   OpBranchConditional %jmore %33 %outerlatch
             %33 = OpLabel
                   OpBranchConditional %jmore %inner %outerlatch
     %outerlatch = OpLabel
             %34 = OpPhi %uint %p %31 %35 %33
          %inext = OpIAdd %uint %i %uint_1
          %imore = OpULessThan %bool %inext %uint_10
                   OpBranchConditional %imore %32 %exit
             %32 = OpLabel
                   OpBranchConditional %imore %outer %exit
           %exit = OpLabel
             %37 = OpPhi %uint %inext %outerlatch %35 %32
             %36 = OpPhi %uint %34 %outerlatch %35 %32
              %r = OpIAdd %uint %36 %37
                   OpReturnValue %r
                   OpFunctionEnd
)"));
}

// SPIRV-Tools' full unroll (SwiftShader runs it on loops with the Unroll hint) leaves merge phis
// naming blocks it removed, and the passes after it crash on that, so a closed loop loses the hint.
TEST(StructurizeCfgTest, ClosedLoopLosesItsUnrollHint) {
  EXPECT_EQ(structurized(R"(
          %f = OpFunction %uint None %fnf
          %x = OpFunctionParameter %uint
          %y = OpFunctionParameter %uint
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %loop
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %uint_10
               OpLoopMerge %exit %loop Unroll
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpReturnValue %next
               OpFunctionEnd
)",
                         simdLoopTarget()),
            canonical(R"(
              %f = OpFunction %uint None %fnf
              %x = OpFunctionParameter %uint
              %y = OpFunctionParameter %uint
          %entry = OpLabel
                   OpBranch %loop
           %loop = OpLabel
              %i = OpPhi %uint %uint_0 %entry %next %24
                   OpLoopMerge %exit %24 None
                   OpBranch %23
             %23 = OpLabel
           %next = OpIAdd %uint %i %uint_1
           %more = OpULessThan %bool %next %uint_10
                   OpBranchConditional %more %24 %exit
             %24 = OpLabel
                   OpBranchConditional %more %loop %exit
           %exit = OpLabel
             %25 = OpPhi %uint %next %23 %26 %24
                   OpReturnValue %25
                   OpFunctionEnd
)"));
}

// Every module of the OpenCL corpus (clang -O0 and -O2 through llvm-spirv) is structurized and
// stays a valid OpenCL module.
// --- Before/after: whole kernels as structurize-cfg sees them -----------------------------------

// A kernel after lower-synchronization: a GLCompute entry point that reads `global uint* out` (a
// PhysicalStorageBuffer pointer by now) and `uint n` from push constants; `body` goes on from there.
std::string computeKernel(const std::string& body) {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint GLCompute %k "k"
               OpName %k "k"
               OpDecorate %size_x SpecId 0
               OpDecorate %size_y SpecId 1
               OpDecorate %size_z SpecId 2
               OpDecorate %gl_WorkGroupSize BuiltIn WorkgroupSize
               OpDecorate %_arr_uint_uint_4 ArrayStride 4
               OpMemberDecorate %100 0 Offset 0
               OpDecorate %100 Block
               OpDecorate %_ptr_PhysicalStorageBuffer_uint ArrayStride 4
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %bool = OpTypeBool
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_4 = OpConstant %uint 4
       %void = OpTypeVoid
   %noParams = OpTypeFunction %void
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

// if (1 < n) *out = n;: the conditional branch gets the block both paths reach as its merge.
TEST(StructurizeCfgTest, KernelBoundsCheckGetsASelectionMerge) {
  test::expectPassOutput("structurize-cfg", computeKernel(R"(
    %inRange = OpULessThan %bool %uint_1 %n
               OpBranchConditional %inRange %store %done
      %store = OpLabel
               OpStore %out %n Aligned 4
               OpBranch %done
       %done = OpLabel
)"),
                         computeKernel(R"(
    %inRange = OpULessThan %bool %uint_1 %n
               OpSelectionMerge %done None
               OpBranchConditional %inRange %store %done
      %store = OpLabel
               OpStore %out %n Aligned 4
               OpBranch %done
       %done = OpLabel
)"));
}

// for (i = 0; i < n; ++i) sum += out[i]; *out = sum; as clang rotates it: a guard, then a loop
// whose single block branches back to itself. The header keeps the phis and gets the OpLoopMerge;
// its body moves to a block of its own, the back edge goes through a new continue block, and the
// exit through a new merge block, which the guard's merge (the old exit) now follows.
TEST(StructurizeCfgTest, KernelLoopGetsALoopMergeAndAContinueBlock) {
  test::expectPassOutput("structurize-cfg", computeKernel(R"(
               OpBranch %body
       %body = OpLabel
      %empty = OpIEqual %bool %n %uint_0
               OpBranchConditional %empty %exit %loop
       %loop = OpLabel
          %i = OpPhi %uint %next %loop %uint_0 %body
        %sum = OpPhi %uint %sum2 %loop %uint_0 %body
       %wide = OpUConvert %ulong %i
    %element = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %out %wide
      %value = OpLoad %uint %element Aligned 4
       %sum2 = OpIAdd %uint %value %sum
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
          %r = OpPhi %uint %uint_0 %body %sum2 %loop
               OpStore %out %r Aligned 4
)"),
                         computeKernel(R"(
               OpBranch %body
       %body = OpLabel
      %empty = OpIEqual %bool %n %uint_0
               OpSelectionMerge %exit None
               OpBranchConditional %empty %exit %loop
       %loop = OpLabel
          %i = OpPhi %uint %uint_0 %body %next %continue
        %sum = OpPhi %uint %uint_0 %body %sum2 %continue
               OpLoopMerge %merge %continue None
               OpBranch %loopBody
   %loopBody = OpLabel
       %wide = OpUConvert %ulong %i
    %element = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %out %wide
      %value = OpLoad %uint %element Aligned 4
       %sum2 = OpIAdd %uint %value %sum
       %next = OpIAdd %uint %i %uint_1
       %more = OpULessThan %bool %next %n
               OpBranchConditional %more %continue %merge
   %continue = OpLabel
               OpBranch %loop
      %merge = OpLabel
               OpBranch %exit
       %exit = OpLabel
          %r = OpPhi %uint %uint_0 %body %sum2 %merge
               OpStore %out %r Aligned 4
)"));
}

TEST(StructurizeCfgTest, CorpusModulesStructurizeAndStayValid) {
  for (const auto& path : test::supportedCorpusModules()) {
    auto module = ir::readBinary(test::readWords(path));
    ASSERT_TRUE(module.ok()) << path << ": " << module.error().message();
    Expected<PassResult> result = structurizeControlFlow(**module, Target{});
    ASSERT_TRUE(result.ok()) << path << ": " << result.error().message();
    Status valid = ir::validate(**module, ir::universalEnvironment(**module));
    EXPECT_TRUE(valid.ok()) << path << ": " << valid.error().message();
  }
}

TEST(StructurizeCfgTest, KernelModulesAreStructurizedToo) {
  for (uint32_t seed = 0; seed < 60; ++seed) {
    std::string text = test::randomReducibleFunction(seed, /*kernel=*/true);
    auto before = test::assemble(text);
    auto module = test::assemble(text);
    ASSERT_TRUE(before && module) << text;
    Expected<PassResult> result = structurizeControlFlow(*module, Target{});
    ASSERT_TRUE(result.ok()) << "seed " << seed << ": " << result.error().message();
    Status kernelValid = ir::validate(*module, ir::validationEnvironment(*module, SPV_ENV_VULKAN_1_2));
    ASSERT_TRUE(kernelValid.ok()) << "seed " << seed << ": " << kernelValid.error().message();
    auto shader = asShader(*module);
    ASSERT_TRUE(shader);
    Status valid = ir::validate(*shader, SPV_ENV_VULKAN_1_2);
    ASSERT_TRUE(valid.ok()) << "seed " << seed << ": " << valid.error().message() << "\n" << test::disassemble(*shader);
    expectSameBehaviour(*before, *module, "kernel seed " + std::to_string(seed));
  }
}

TEST(StructurizeCfgTest, RandomReducibleGraphsKeepTheirBehaviourAndValidate) {
  for (uint32_t seed = 0; seed < 400; ++seed) {
    std::string text = test::randomReducibleFunction(seed, /*kernel=*/false);
    auto before = test::assemble(text);
    auto module = test::assemble(text);
    ASSERT_TRUE(before && module) << text;
    Expected<PassResult> result = structurizeControlFlow(*module, Target{});
    ASSERT_TRUE(result.ok()) << "seed " << seed << ": " << result.error().message() << "\n" << text;
    Status valid = ir::validate(*module, SPV_ENV_VULKAN_1_2);
    ASSERT_TRUE(valid.ok()) << "seed " << seed << ": " << valid.error().message() << "\n"
                            << text << "\n"
                            << test::disassemble(*module);
    expectSameBehaviour(*before, *module, "seed " + std::to_string(seed));
  }
}

// With loop-closed SSA for SIMD drivers, random graphs and kernels still validate and behave the
// same (the continue targets' new edges are never taken).
TEST(StructurizeCfgTest, RandomGraphsWithLoopExitPhisKeepTheirBehaviourAndValidate) {
  for (uint32_t seed = 0; seed < 400; ++seed) {
    for (bool kernel : {false, true}) {
      if (kernel && seed >= 60) continue;
      std::string text = test::randomReducibleFunction(seed, kernel);
      auto before = test::assemble(text);
      auto module = test::assemble(text);
      ASSERT_TRUE(before && module) << text;
      Expected<PassResult> result = structurizeControlFlow(*module, simdLoopTarget());
      ASSERT_TRUE(result.ok()) << "seed " << seed << ": " << result.error().message() << "\n" << text;
      auto shader = kernel ? asShader(*module) : nullptr;
      ASSERT_TRUE(shader || !kernel);
      Status valid = ir::validate(kernel ? *shader : *module, SPV_ENV_VULKAN_1_2);
      ASSERT_TRUE(valid.ok()) << "seed " << seed << ": " << valid.error().message() << "\n"
                              << text << "\n"
                              << test::disassemble(*module);
      expectSameBehaviour(*before, *module, "seed " + std::to_string(seed));
    }
  }
}

TEST(StructurizeCfgTest, CorpusModulesWithLoopExitPhisStayValid) {
  for (const auto& path : test::supportedCorpusModules()) {
    auto module = ir::readBinary(test::readWords(path));
    ASSERT_TRUE(module.ok()) << path << ": " << module.error().message();
    Expected<PassResult> result = structurizeControlFlow(**module, simdLoopTarget());
    ASSERT_TRUE(result.ok()) << path << ": " << result.error().message();
    Status valid = ir::validate(**module, ir::universalEnvironment(**module));
    EXPECT_TRUE(valid.ok()) << path << ": " << valid.error().message();
  }
}

}  // namespace
}  // namespace cl2vk
