#include "passes/memory/promote_variables.h"

#include <gtest/gtest.h>

#include "ir/opcode_classes.h"
#include "ir/reader.h"
#include "ir/validate.h"
#include "pass_test_util.h"
#include "passes/functions/inline_functions.h"
#include "test_util.h"

namespace cl2vk {
namespace {

using test::canonical;

const std::string kHeader = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %x "x"
               OpName %c "c"
               OpName %entry "entry"
               OpName %fn "fn"
               OpName %p "p"
NAMES       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_4 = OpConstant %uint 4
%_ptr_Function_uint = OpTypePointer Function %uint
%_arr_uint_uint_4 = OpTypeArray %uint %uint_4
%_ptr_Function__arr_uint_uint_4 = OpTypePointer Function %_arr_uint_uint_4
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %uint %bool %_ptr_CrossWorkgroup_uint
)";

// `extraNames` are OpName lines for ids the body defines.
std::string promoted(const std::string& body, const std::string& extraNames = "") {
  std::string header = kHeader;
  header.replace(header.find("NAMES"), 5, extraNames);
  auto module = test::assemble(header + body);
  if (!module) return "";
  Expected<PassResult> result = promoteVariables(*module, Target{});
  EXPECT_TRUE(result.ok()) << result.error().message();
  Status valid = ir::validate(*module, ir::validationEnvironment(*module, SPV_ENV_VULKAN_1_2));
  EXPECT_TRUE(valid.ok()) << valid.error().message() << "\n" << test::disassemble(*module);
  std::string text = test::disassemble(*module);
  return canonical(text.substr(text.find("%k = OpFunction")));
}

TEST(PromoteVariablesTest, StoresOnBothSidesOfADiamondBecomeAPhi) {
  EXPECT_EQ(promoted(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
          %v = OpVariable %_ptr_Function_uint Function
               OpBranchConditional %c %then %else
       %then = OpLabel
               OpStore %v %x Aligned 4
               OpBranch %merge
       %else = OpLabel
               OpStore %v %uint_1 Aligned 4
               OpBranch %merge
      %merge = OpLabel
          %r = OpLoad %uint %v Aligned 4
               OpStore %p %r Aligned 4
               OpReturn
               OpFunctionEnd
)",
                     "OpName %then \"then\"\nOpName %else \"else\"\nOpName %merge \"merge\"\n"),
            canonical(R"(
%k = OpFunction %void None %fn
%x = OpFunctionParameter %uint
%c = OpFunctionParameter %bool
%p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
%entry = OpLabel
OpBranchConditional %c %then %else
%then = OpLabel
OpBranch %merge
%else = OpLabel
OpBranch %merge
%merge = OpLabel
%22 = OpPhi %uint %x %then %uint_1 %else
OpStore %p %22 Aligned 4
OpReturn
OpFunctionEnd
)"));
}

TEST(PromoteVariablesTest, ALoopCounterGetsAPhiInTheLoopHeader) {
  std::string text = promoted(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
          %i = OpVariable %_ptr_Function_uint Function
               OpStore %i %uint_0
               OpBranch %head
       %head = OpLabel
         %iv = OpLoad %uint %i
       %more = OpULessThan %bool %iv %x
               OpBranchConditional %more %body %exit
       %body = OpLabel
       %next = OpIAdd %uint %iv %uint_1
               OpStore %i %next
               OpBranch %head
       %exit = OpLabel
       %last = OpLoad %uint %i
               OpStore %p %last
               OpReturn
               OpFunctionEnd
)");
  EXPECT_NE(text.find("OpPhi %uint %uint_0 %entry %"), std::string::npos) << text;
  EXPECT_EQ(text.find("OpVariable"), std::string::npos) << text;
  EXPECT_EQ(text.find("OpLoad"), std::string::npos) << text;
}

TEST(PromoteVariablesTest, VariablesWhoseAddressIsTakenStay) {
  std::string text = promoted(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
        %arr = OpVariable %_ptr_Function__arr_uint_uint_4 Function
       %elem = OpInBoundsPtrAccessChain %_ptr_Function_uint %arr %uint_0 %x
               OpStore %elem %x
         %ld = OpLoad %uint %elem
               OpStore %p %ld
               OpReturn
               OpFunctionEnd
)");
  EXPECT_NE(text.find("OpVariable"), std::string::npos) << text;
}

TEST(PromoteVariablesTest, ALoadBeforeAnyStoreIsUndefined) {
  std::string text = promoted(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
          %v = OpVariable %_ptr_Function_uint Function
         %ld = OpLoad %uint %v
               OpStore %p %ld
               OpReturn
               OpFunctionEnd
)");
  EXPECT_NE(text.find("OpStore %p %"), std::string::npos) << text;
  EXPECT_EQ(text.find("OpLoad"), std::string::npos) << text;
}

// --- Before/after: the whole module, as the pass writes it. ---

// kHeader and `functions`; `names` are OpName lines for the ids they define.
std::string promoteModule(const std::string& functions, const std::string& names = "") {
  std::string header = kHeader;
  header.replace(header.find("NAMES"), 5, names);
  return header + functions;
}

// As clang writes at -O0: a parameter spilled to %x_addr, reloaded, updated and reloaded again.
TEST(PromoteVariablesTest, ASpilledParameterBecomesTheValuesStoredToIt) {
  test::expectPassOutput("promote-variables", promoteModule(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
     %x_addr = OpVariable %_ptr_Function_uint Function
               OpStore %x_addr %x Aligned 4
         %x0 = OpLoad %uint %x_addr Aligned 4
        %add = OpIAdd %uint %x0 %uint_1
               OpStore %x_addr %add Aligned 4
         %x1 = OpLoad %uint %x_addr Aligned 4
               OpStore %p %x1 Aligned 4
               OpReturn
               OpFunctionEnd
)"),
                         promoteModule(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
        %add = OpIAdd %uint %x %uint_1
               OpStore %p %add Aligned 4
               OpReturn
               OpFunctionEnd
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// As clang writes a `volatile int` local at -O2: lifetime markers through a pointer cast (clang's
// is to a byte pointer; Int8 would need a capability here) and
// volatile accesses. The markers and the cast go and the value lives in SSA (private memory has
// no observer but its own work-item).
TEST(PromoteVariablesTest, AVolatileLocalWithLifetimeMarkersBecomesAValue) {
  test::expectPassOutput("promote-variables", promoteModule(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
        %tid = OpVariable %_ptr_Function_uint Function
      %bytes = OpBitcast %_ptr_Function__arr_uint_uint_4 %tid
               OpLifetimeStart %bytes 4
               OpStore %tid %x Volatile|Aligned 4
         %t0 = OpLoad %uint %tid Volatile|Aligned 4
         %t1 = OpLoad %uint %tid Volatile|Aligned 4
        %sum = OpIAdd %uint %t0 %t1
               OpStore %p %sum Aligned 4
               OpLifetimeStop %bytes 4
               OpReturn
               OpFunctionEnd
)"),
                         promoteModule(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
        %sum = OpIAdd %uint %x %x
               OpStore %p %sum Aligned 4
               OpReturn
               OpFunctionEnd
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// The header's phi takes 0 from the entry and the incremented value from the body; the load after
// the loop reads the phi too.
TEST(PromoteVariablesTest, ALoopCounterBecomesAPhiInTheLoopHeader) {
  const std::string names = "OpName %head \"head\"\nOpName %body \"body\"\nOpName %exit \"exit\"\n";
  test::expectPassOutput("promote-variables",
                         promoteModule(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
          %i = OpVariable %_ptr_Function_uint Function
               OpStore %i %uint_0
               OpBranch %head
       %head = OpLabel
         %iv = OpLoad %uint %i
       %more = OpULessThan %bool %iv %x
               OpBranchConditional %more %body %exit
       %body = OpLabel
       %next = OpIAdd %uint %iv %uint_1
               OpStore %i %next
               OpBranch %head
       %exit = OpLabel
       %last = OpLoad %uint %i
               OpStore %p %last
               OpReturn
               OpFunctionEnd
)",
                                       names),
                         promoteModule(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
               OpBranch %head
       %head = OpLabel
          %i = OpPhi %uint %uint_0 %entry %next %body
       %more = OpULessThan %bool %i %x
               OpBranchConditional %more %body %exit
       %body = OpLabel
       %next = OpIAdd %uint %i %uint_1
               OpBranch %head
       %exit = OpLabel
               OpStore %p %i
               OpReturn
               OpFunctionEnd
)",
                                       names),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// Loading a variable nothing was stored to reads an undefined value, which becomes a global OpUndef.
TEST(PromoteVariablesTest, ALoadBeforeAnyStoreBecomesOpUndef) {
  test::expectPassOutput("promote-variables", promoteModule(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
          %v = OpVariable %_ptr_Function_uint Function
         %ld = OpLoad %uint %v
               OpStore %p %ld
               OpReturn
               OpFunctionEnd
)"),
                         promoteModule(R"(
      %undef = OpUndef %uint
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
               OpStore %p %undef
               OpReturn
               OpFunctionEnd
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// An array indexed through an access chain is not loaded and stored whole: it stays in memory.
TEST(PromoteVariablesTest, AnArrayIndexedThroughAnAccessChainComesOutUnchanged) {
  std::string before = promoteModule(R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
          %c = OpFunctionParameter %bool
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
        %arr = OpVariable %_ptr_Function__arr_uint_uint_4 Function
       %elem = OpInBoundsPtrAccessChain %_ptr_Function_uint %arr %uint_0 %x
               OpStore %elem %x
         %ld = OpLoad %uint %elem
               OpStore %p %ld
               OpReturn
               OpFunctionEnd
)");
  test::expectPassOutput("promote-variables", before, before, Target{}, SPV_ENV_OPENCL_2_2);
}

// -O0 keeps every local in a variable: after inlining and promotion, no promotable one is left and
// the module is still valid OpenCL SPIR-V.
// Whether `variable` must stay in memory: an atomic operates on it, or its address becomes a
// generic pointer (as the expected value of an OpenCL C 2.0 compare-exchange does), which
// promote-variables does not follow.
bool staysInMemory(const ir::Module& module, uint32_t variable) {
  for (const ir::Use& use : module.uses(variable)) {
    spv::Op op = use.user->opcode();
    if (ir::isAtomic(op) || op == spv::Op::OpPtrCastToGeneric) return true;
  }
  return false;
}

TEST(PromoteVariablesTest, CorpusModulesAtO0BecomeSsa) {
  size_t checked = 0;
  for (const auto& path : test::supportedCorpusModules()) {
    if (path.string().find(".O0.") == std::string::npos) continue;
    auto module = ir::readBinary(test::readWords(path));
    ASSERT_TRUE(module.ok()) << module.error().message();
    ASSERT_TRUE(inlineFunctions(**module, Target{}).ok());
    Expected<PassResult> result = promoteVariables(**module, Target{});
    ASSERT_TRUE(result.ok()) << path << ": " << result.error().message();
    Status valid = ir::validate(**module, ir::universalEnvironment(**module));
    EXPECT_TRUE(valid.ok()) << path << ": " << valid.error().message();
    for (const ir::Function& function : (*module)->functions()) {
      for (const ir::Block& block : function.blocks()) {
        for (const ir::Instruction& inst : block.instructions()) {
          if (inst.opcode() != spv::Op::OpVariable || staysInMemory(**module, inst.resultId())) continue;
          EXPECT_NE(ir::opcodeName((*module)->def((*module)->def(inst.typeId())->idOperand(1))->opcode()), "OpTypeInt")
              << path << ": a scalar variable was left";
        }
      }
    }
    ++checked;
  }
  EXPECT_GT(checked, 10u);
}

}  // namespace
}  // namespace cl2vk
