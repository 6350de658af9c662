#include "passes/functions/resolve_builtin_calls.h"

#include <gtest/gtest.h>

#include <sstream>

#include "ir/collectives.h"
#include "ir/reader.h"
#include "ir/validate.h"
#include "pass_test_util.h"
#include "passes/functions/inline_functions.h"
#include "test_util.h"

namespace cl2vk {
namespace {

using test::canonical;

// A kernel `k` that loads in[0], passes it to the imported builtin `%builtin` (linked by NAME) and
// stores the result to out[0]. ARGS are the call's arguments after the loaded value.
const std::string kModule = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %in "in"
               OpName %out "out"
               OpName %ids "ids"
               OpName %entry "entry"
               OpName %x "x"
               OpName %id0 "id0"
               OpName %id1 "id1"
               OpName %id2 "id2"
               OpName %builtin "NAME"
               OpDecorate %builtin LinkageAttributes "NAME" Import
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
%_ptr_CrossWorkgroup_TYPE = OpTypePointer CrossWorkgroup %TYPE
%fn_kernel = OpTypeFunction %void %_ptr_CrossWorkgroup_TYPE %_ptr_CrossWorkgroup_TYPE %v3ulong
 %fn_builtin = OpTypeFunction %TYPE PARAMS
    %builtin = OpFunction %TYPE Pure %fn_builtin
DECLARED_PARAMS
               OpFunctionEnd
          %k = OpFunction %void None %fn_kernel
         %in = OpFunctionParameter %_ptr_CrossWorkgroup_TYPE
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_TYPE
        %ids = OpFunctionParameter %v3ulong
      %entry = OpLabel
         %id0 = OpCompositeExtract %ulong %ids 0
         %id1 = OpCompositeExtract %ulong %ids 1
         %id2 = OpCompositeExtract %ulong %ids 2
          %x = OpLoad %TYPE %in Aligned ALIGN
          %r = OpFunctionCall %TYPE %builtin %x ARGS
               OpStore %out %r Aligned ALIGN
               OpReturn
               OpFunctionEnd
)";

void replaceAll(std::string& text, const std::string& from, const std::string& to) {
  for (size_t at = text.find(from); at != std::string::npos; at = text.find(from, at + to.size()))
    text.replace(at, from.size(), to);
}

// kModule calling `name` on a value of type `type` ("uint" or "ulong"); `extraParams` are the
// types of the arguments after the value, `args` the kernel's values passed for them.
std::string moduleCalling(const std::string& name, const std::string& type, const std::string& extraParams = "",
                          const std::string& args = "") {
  std::string text = kModule;
  std::string params = "%" + type + (extraParams.empty() ? "" : " " + extraParams);
  std::string declared;
  size_t n = 0;
  for (size_t start = 0; start < params.size();) {
    size_t end = params.find(' ', start);
    if (end == std::string::npos) end = params.size();
    declared += "%param" + std::to_string(n++) + " = OpFunctionParameter " + params.substr(start, end - start) + "\n";
    start = end + 1;
  }
  replaceAll(text, "DECLARED_PARAMS", declared);
  replaceAll(text, "PARAMS", params);
  replaceAll(text, "NAME", name);
  replaceAll(text, "ARGS", args);
  replaceAll(text, "ALIGN", type == "ulong" ? "8" : "4");
  replaceAll(text, "TYPE", type);
  return text;
}

// Runs the pass; the result must be valid OpenCL SPIR-V.
std::unique_ptr<ir::Module> resolved(const std::string& source) {
  auto module = test::assemble(source);
  if (!module) return nullptr;
  Expected<PassResult> result = resolveBuiltinCalls(*module, Target{});
  EXPECT_TRUE(result.ok()) << result.error().message();
  Status valid = ir::validate(*module, ir::validationEnvironment(*module, SPV_ENV_VULKAN_1_2));
  EXPECT_TRUE(valid.ok()) << valid.error().message() << "\n" << test::disassemble(*module);
  return module;
}

// The kernel's body after the pass.
std::string resolvedKernel(const std::string& source) {
  auto module = resolved(source);
  if (!module) return "";
  std::string text = test::disassemble(*module);
  return canonical(text.substr(text.find("%entry = OpLabel")));
}

TEST(ResolveBuiltinCallsTest, BitwiseReduceBecomesAGroupInstructionAndTheDeclarationGoes) {
  auto module = resolved(moduleCalling("_Z21work_group_reduce_andi", "uint"));
  ASSERT_TRUE(module);
  EXPECT_EQ(canonical(test::disassemble(*module)), canonical(R"(
OpCapability Addresses
OpCapability Linkage
OpCapability Kernel
OpCapability Int64
OpCapability GroupUniformArithmeticKHR
OpExtension "SPV_KHR_uniform_group_instructions"
OpMemoryModel Physical64 OpenCL
OpEntryPoint Kernel %k "k"
OpName %k "k"
OpName %in "in"
OpName %out "out"
OpName %ids "ids"
OpName %entry "entry"
OpName %x "x"
OpName %id0 "id0"
OpName %id1 "id1"
OpName %id2 "id2"
%void = OpTypeVoid
%uint = OpTypeInt 32 0
%ulong = OpTypeInt 64 0
%v3ulong = OpTypeVector %ulong 3
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
%16 = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %_ptr_CrossWorkgroup_uint %v3ulong
%17 = OpTypeFunction %uint %uint
%uint_2 = OpConstant %uint 2
%k = OpFunction %void None %16
%in = OpFunctionParameter %_ptr_CrossWorkgroup_uint
%out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
%ids = OpFunctionParameter %v3ulong
%entry = OpLabel
%id0 = OpCompositeExtract %ulong %ids 0
%id1 = OpCompositeExtract %ulong %ids 1
%id2 = OpCompositeExtract %ulong %ids 2
%x = OpLoad %uint %in Aligned 4
%21 = OpGroupBitwiseAndKHR %uint %uint_2 Reduce %x
OpStore %out %21 Aligned 4
OpReturn
OpFunctionEnd
)"));
}

TEST(ResolveBuiltinCallsTest, LogicalScanTurnsTheIntPredicateIntoBoolAndBackIntoOneOrZero) {
  EXPECT_EQ(resolvedKernel(moduleCalling("_Z36work_group_scan_inclusive_logical_ori", "uint")), canonical(R"(
%entry = OpLabel
%id0 = OpCompositeExtract %ulong %ids 0
%id1 = OpCompositeExtract %ulong %ids 1
%id2 = OpCompositeExtract %ulong %ids 2
%x = OpLoad %uint %in Aligned 4
%23 = OpINotEqual %bool %x %uint_0
%24 = OpGroupLogicalOrKHR %bool %uint_2 InclusiveScan %23
%26 = OpSelect %uint %24 %uint_1 %uint_0
OpStore %out %26 Aligned 4
OpReturn
OpFunctionEnd
)"));
}

TEST(ResolveBuiltinCallsTest, LongExclusiveXorStaysSixtyFourBits) {
  EXPECT_EQ(resolvedKernel(moduleCalling("_Z29work_group_scan_exclusive_xorl", "ulong")), canonical(R"(
%entry = OpLabel
%id0 = OpCompositeExtract %ulong %ids 0
%id1 = OpCompositeExtract %ulong %ids 1
%id2 = OpCompositeExtract %ulong %ids 2
%x = OpLoad %ulong %in Aligned 8
%21 = OpGroupBitwiseXorKHR %ulong %uint_2 ExclusiveScan %x
OpStore %out %21 Aligned 8
OpReturn
OpFunctionEnd
)"));
}

TEST(ResolveBuiltinCallsTest, SubGroupFormsRunAtSubgroupScope) {
  EXPECT_EQ(resolvedKernel(moduleCalling("_Z28sub_group_scan_inclusive_xorj", "uint")), canonical(R"(
%entry = OpLabel
%id0 = OpCompositeExtract %ulong %ids 0
%id1 = OpCompositeExtract %ulong %ids 1
%id2 = OpCompositeExtract %ulong %ids 2
%x = OpLoad %uint %in Aligned 4
%21 = OpGroupBitwiseXorKHR %uint %uint_3 InclusiveScan %x
OpStore %out %21 Aligned 4
OpReturn
OpFunctionEnd
)"));
}

TEST(ResolveBuiltinCallsTest, BroadcastWithThreeLocalIdsPassesThemAsAVector) {
  auto module =
      resolved(moduleCalling("_Z20work_group_broadcastjmmm", "uint", "%ulong %ulong %ulong", "%id0 %id1 %id2"));
  ASSERT_TRUE(module);
  std::string text = test::disassemble(*module);
  EXPECT_NE(text.find("OpCapability Groups"), std::string::npos) << text;
  EXPECT_EQ(canonical(text.substr(text.find("%entry = OpLabel"))), canonical(R"(
%entry = OpLabel
%id0 = OpCompositeExtract %ulong %ids 0
%id1 = OpCompositeExtract %ulong %ids 1
%id2 = OpCompositeExtract %ulong %ids 2
%x = OpLoad %uint %in Aligned 4
%24 = OpCompositeConstruct %v3ulong %id0 %id1 %id2
%25 = OpGroupBroadcast %uint %uint_2 %x %24
OpStore %out %25 Aligned 4
OpReturn
OpFunctionEnd
)"));
}

TEST(ResolveBuiltinCallsTest, TheOpcodeAndItsSignednessComeFromTheMangledName) {
  auto opcodeFor = [](const std::string& name, const std::string& type, const std::string& extraParams = "",
                      const std::string& args = "") {
    std::string text = resolvedKernel(moduleCalling(name, type, extraParams, args));
    size_t at = text.find("OpGroup");
    return at == std::string::npos ? text : text.substr(at, text.find(' ', at) - at);
  };
  EXPECT_EQ(opcodeFor("_Z21work_group_reduce_mini", "uint"), "OpGroupSMin");
  EXPECT_EQ(opcodeFor("_Z21work_group_reduce_minj", "uint"), "OpGroupUMin");
  EXPECT_EQ(opcodeFor("_Z29work_group_scan_inclusive_maxl", "ulong"), "OpGroupSMax");
  EXPECT_EQ(opcodeFor("_Z29work_group_scan_exclusive_maxm", "ulong"), "OpGroupUMax");
  EXPECT_EQ(opcodeFor("_Z21work_group_reduce_addj", "uint"), "OpGroupIAdd");
  EXPECT_EQ(opcodeFor("_Z20sub_group_reduce_mulm", "ulong"), "OpGroupIMulKHR");
  EXPECT_EQ(opcodeFor("_Z20work_group_broadcastmmm", "ulong", "%ulong %ulong", "%id0 %id1"), "OpGroupBroadcast");
  EXPECT_EQ(opcodeFor("_Z19sub_group_broadcastmm", "ulong", "%ulong", "%id2"), "OpGroupBroadcast");
  EXPECT_EQ(opcodeFor("_Z13sub_group_anyi", "uint"), "OpGroupAny");
}

TEST(ResolveBuiltinCallsTest, VoteGoesThroughBool) {
  EXPECT_EQ(resolvedKernel(moduleCalling("_Z14work_group_alli", "uint")), canonical(R"(
%entry = OpLabel
%id0 = OpCompositeExtract %ulong %ids 0
%id1 = OpCompositeExtract %ulong %ids 1
%id2 = OpCompositeExtract %ulong %ids 2
%x = OpLoad %uint %in Aligned 4
%23 = OpINotEqual %bool %x %uint_0
%24 = OpGroupAll %bool %uint_2 %23
%26 = OpSelect %uint %24 %uint_1 %uint_0
OpStore %out %26 Aligned 4
OpReturn
OpFunctionEnd
)"));
}

TEST(ResolveBuiltinCallsTest, OtherImportedFunctionsStay) {
  auto module = test::assemble(moduleCalling("_Z3fooj", "uint"));
  ASSERT_TRUE(module);
  Expected<PassResult> result = resolveBuiltinCalls(*module, Target{});
  ASSERT_TRUE(result.ok()) << result.error().message();
  EXPECT_EQ(*result, PassResult::kUnchanged);
  EXPECT_NE(test::disassemble(*module).find("OpFunctionCall %uint %_Z3fooj"), std::string::npos);
}

// The call sits in a helper, so the message names the kernel that reaches it and the function.
const std::string kUnrecognised = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %helper "helper"
               OpName %builtin "NAME"
               OpDecorate %builtin LinkageAttributes "NAME" Import
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
    %fn_void = OpTypeFunction %void %uint
    %fn_uint = OpTypeFunction %uint %uint
    %builtin = OpFunction %uint Pure %fn_uint
          %p = OpFunctionParameter %uint
               OpFunctionEnd
     %helper = OpFunction %uint None %fn_uint
          %v = OpFunctionParameter %uint
         %h0 = OpLabel
          %r = OpFunctionCall %uint %builtin %v
               OpReturnValue %r
               OpFunctionEnd
          %k = OpFunction %void None %fn_void
          %x = OpFunctionParameter %uint
      %entry = OpLabel
          %c = OpFunctionCall %uint %helper %x
               OpReturn
               OpFunctionEnd
)";

std::string errorFor(const std::string& name) {
  std::string text = kUnrecognised;
  replaceAll(text, "NAME", name);
  auto module = test::assemble(text);
  if (!module) return "";
  Expected<PassResult> result = resolveBuiltinCalls(*module, Target{});
  if (result.ok()) return "no error";
  EXPECT_NE(test::disassemble(*module).find("OpFunctionCall %uint %" + name), std::string::npos)
      << "an error leaves the module unchanged";
  return result.error().message();
}

TEST(ResolveBuiltinCallsTest, UnrecognisedCollectiveNamesTheKernelTheCallAndTheName) {
  EXPECT_EQ(errorFor("_Z21work_group_reduce_andjj"),
            "kernel 'k': %11 = OpFunctionCall in function 'helper': '_Z21work_group_reduce_andjj' is not a collective "
            "builtin cl2vk recognises: work_group_reduce_and takes 1 argument, the name has 2");
  EXPECT_EQ(errorFor("_Z21work_group_reduce_andDv4_j"),
            "kernel 'k': %11 = OpFunctionCall in function 'helper': '_Z21work_group_reduce_andDv4_j' is not a "
            "collective builtin cl2vk recognises: unknown parameter type code 'Dv4_j'");
  EXPECT_EQ(errorFor("_Z21work_group_reduce_andf"),
            "kernel 'k': %11 = OpFunctionCall in function 'helper': '_Z21work_group_reduce_andf' is not a collective "
            "builtin cl2vk recognises: work_group_reduce_and has no 32-bit float form");
  EXPECT_EQ(errorFor("_Z21work_group_reduce_andm"),
            "kernel 'k': %11 = OpFunctionCall in function 'helper': '_Z21work_group_reduce_andm' is not a collective "
            "builtin cl2vk recognises: argument 1 is not a 64-bit integer");
}

// --- Before/after: the whole module, as the pass writes it. ---

// An llvm-spirv style kernel `k` that stores to out[i] the %r its `body` computes from %x = in[i].
// With `builtin` (a mangled name) the module imports it as %builtin, a function of uint(`params`);
// with "" only that function type is left, as the pass leaves it. `capabilities` (and extensions)
// follow Int64, `globals` the module's variable.
std::string collectiveKernel(const std::string& body, const std::string& builtin, const std::string& params = "%uint",
                             const std::string& capabilities = "", const std::string& globals = "") {
  std::string name, linkage, declaration;
  if (!builtin.empty()) {
    name = "OpName %builtin \"" + builtin + "\"";
    linkage = "OpDecorate %builtin LinkageAttributes \"" + builtin + "\" Import";
    declaration = "%builtin = OpFunction %uint None %fn_builtin\n";
    std::istringstream types(params);
    int n = 0;
    for (std::string type; types >> type;)
      declaration += "%param" + std::to_string(n++) + " = OpFunctionParameter " + type + "\n";
    declaration += "OpFunctionEnd";
  }
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
)" + capabilities +
         R"(
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpName %gid "__spirv_BuiltInGlobalInvocationId"
               OpName %k "k"
               OpName %in "in"
               OpName %out "out"
)" + name +
         R"(
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
               OpDecorate %gid Constant
               OpDecorate %gid BuiltIn GlobalInvocationId
)" + linkage +
         R"(
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
    %v3ulong = OpTypeVector %ulong 3
%_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint %_ptr_CrossWorkgroup_uint
 %fn_builtin = OpTypeFunction %uint )" +
         params + R"(
        %gid = OpVariable %_ptr_Input_v3ulong Input
)" + globals +
         "\n" + declaration + R"(
          %k = OpFunction %void None %fn
         %in = OpFunctionParameter %_ptr_CrossWorkgroup_uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid Aligned 32
          %i = OpCompositeExtract %ulong %ids 0
         %pi = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %in %i
          %x = OpLoad %uint %pi Aligned 4
)" + body +
         R"(
         %po = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %out %i
               OpStore %po %r Aligned 4
               OpReturn
               OpFunctionEnd
)";
}

const std::string kUniformGroupInstructions = R"(
               OpCapability GroupUniformArithmeticKHR
               OpExtension "SPV_KHR_uniform_group_instructions"
)";

TEST(ResolveBuiltinCallsTest, WorkGroupReduceAndBecomesOpGroupBitwiseAndKHRAndTheImportGoes) {
  test::expectPassOutput("resolve-builtin-calls",
                         collectiveKernel("%r = OpFunctionCall %uint %builtin %x", "_Z21work_group_reduce_andj"),
                         collectiveKernel("%r = OpGroupBitwiseAndKHR %uint %uint_2 Reduce %x", "", "%uint",
                                          kUniformGroupInstructions, "%uint_2 = OpConstant %uint 2"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// The mangled parameter type `i` (int) makes it the signed minimum; OpGroupSMin needs only Groups.
TEST(ResolveBuiltinCallsTest, WorkGroupReduceMinOfIntBecomesOpGroupSMin) {
  test::expectPassOutput("resolve-builtin-calls",
                         collectiveKernel("%r = OpFunctionCall %uint %builtin %x", "_Z21work_group_reduce_mini"),
                         collectiveKernel("%r = OpGroupSMin %uint %uint_2 Reduce %x", "", "%uint",
                                          "OpCapability Groups", "%uint_2 = OpConstant %uint 2"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// Subgroup scope (3); the int predicate becomes a bool (x != 0) and the bool result 1 or 0.
TEST(ResolveBuiltinCallsTest, SubGroupLogicalXorScanGoesThroughBoolAtSubgroupScope) {
  test::expectPassOutput(
      "resolve-builtin-calls",
      collectiveKernel("%r = OpFunctionCall %uint %builtin %x", "_Z36sub_group_scan_exclusive_logical_xori"),
      collectiveKernel(R"(
          %b = OpINotEqual %bool %x %uint_0
       %scan = OpGroupLogicalXorKHR %bool %uint_3 ExclusiveScan %b
          %r = OpSelect %uint %scan %uint_1 %uint_0
)",
                       "", "%uint", kUniformGroupInstructions, R"(
     %uint_3 = OpConstant %uint 3
     %uint_0 = OpConstant %uint 0
       %bool = OpTypeBool
     %uint_1 = OpConstant %uint 1
)"),
      Target{}, SPV_ENV_OPENCL_2_2);
}

// work_group_broadcast(x, local_id_x, local_id_y): OpGroupBroadcast takes the ids as one vector.
TEST(ResolveBuiltinCallsTest, WorkGroupBroadcastGathersTheLocalIdsIntoAVector) {
  test::expectPassOutput("resolve-builtin-calls",
                         collectiveKernel("%r = OpFunctionCall %uint %builtin %x %i %i", "_Z20work_group_broadcastjmm",
                                          "%uint %ulong %ulong"),
                         collectiveKernel(R"(
        %lid = OpCompositeConstruct %v2ulong %i %i
          %r = OpGroupBroadcast %uint %uint_2 %x %lid
)",
                                          "", "%uint %ulong %ulong", "OpCapability Groups", R"(
     %uint_2 = OpConstant %uint 2
    %v2ulong = OpTypeVector %ulong 2
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

TEST(ResolveBuiltinCallsTest, ACallToAnImportThatIsNoCollectiveComesOutUnchanged) {
  std::string before = collectiveKernel("%r = OpFunctionCall %uint %builtin %x", "_Z3fooj");
  test::expectPassOutput("resolve-builtin-calls", before, before, Target{}, SPV_ENV_OPENCL_2_2);
}

class ResolveBuiltinCallsCorpusTest : public testing::TestWithParam<std::filesystem::path> {};

TEST_P(ResolveBuiltinCallsCorpusTest, NoCollectiveCallIsLeftAndTheModuleStaysValid) {
  auto module = ir::readBinary(test::readWords(GetParam()));
  ASSERT_TRUE(module.ok()) << module.error().message();
  ir::Module& m = **module;
  Expected<PassResult> inlined = inlineFunctions(m, Target{});
  ASSERT_TRUE(inlined.ok()) << inlined.error().message();
  Expected<PassResult> result = resolveBuiltinCalls(m, Target{});
  ASSERT_TRUE(result.ok()) << result.error().message();
  for (const ir::Function& function : m.functions()) {
    for (const ir::Block& block : function.blocks()) {
      for (const ir::Instruction& inst : block.instructions()) {
        if (inst.opcode() != spv::Op::OpFunctionCall) continue;
        std::string callee = ir::linkageName(m, inst.idOperand(0));
        EXPECT_FALSE(ir::isCollectiveBuiltinName(callee)) << m.describe(inst) << " calls " << callee;
      }
    }
  }
  Status valid = ir::validate(m, ir::universalEnvironment(m));
  EXPECT_TRUE(valid.ok()) << valid.error().message();
}

std::string corpusTestName(const testing::TestParamInfo<std::filesystem::path>& info) {
  std::string dir = info.param.parent_path().filename().string();
  std::string name = (dir == "kernels" ? dir + "_" : "") + info.param.filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(ResolveBuiltinCalls, ResolveBuiltinCallsCorpusTest,
                         testing::ValuesIn(test::supportedCorpusModules()), corpusTestName);

}  // namespace
}  // namespace cl2vk
