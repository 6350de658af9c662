#include "passes/vectors/lower_wide_vectors.h"

#include <gtest/gtest.h>

#include <sstream>

#include "analysis/data_layout.h"
#include "ir/validate.h"
#include "pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

using test::canonical;

// A kernel %k; each test adds its function type, constants and body.
const std::string kHeader = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int8
               OpCapability Int64
               OpCapability Vector16
        %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
NAMES
ANNOTATIONS
       %void = OpTypeVoid
       %bool = OpTypeBool
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
     %uint_0 = OpConstant %uint 0
     %uint_5 = OpConstant %uint 5
    %ulong_3 = OpConstant %ulong 3
    %float_2 = OpConstant %float 2
    %v4uint = OpTypeVector %uint 4
   %v4float = OpTypeVector %float 4
   %v8float = OpTypeVector %float 8
  %v16float = OpTypeVector %float 16
   %v16uchar = OpTypeVector %uchar 16
    %v8bool = OpTypeVector %bool 8
%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
%_ptr_CrossWorkgroup_v8float = OpTypePointer CrossWorkgroup %v8float
%_ptr_CrossWorkgroup_v16float = OpTypePointer CrossWorkgroup %v16float
%_ptr_CrossWorkgroup_v4uint = OpTypePointer CrossWorkgroup %v4uint
)";

// The header and `body`, with an OpName for every id the body defines (so that the expected text
// reads with the same names) and `annotations`, decorations of those ids.
std::string moduleText(const std::string& body, const std::string& annotations = "") {
  std::string names;
  std::istringstream lines(body);
  for (std::string line; std::getline(lines, line);) {
    size_t start = line.find('%'), end = line.find(" = ");
    if (start != std::string::npos && end != std::string::npos && start < end) {
      std::string id = line.substr(start + 1, end - start - 1);
      names += "OpName %" + id + " \"" + id + "\"\n";
    }
  }
  std::string text = kHeader + body;
  text.replace(text.find("NAMES"), 5, names);
  text.replace(text.find("ANNOTATIONS"), 11, annotations);
  return text;
}

std::unique_ptr<ir::Module> lowered(const std::string& body, const std::string& annotations = "") {
  auto module = test::assemble(moduleText(body, annotations));
  if (!module) return nullptr;
  Expected<PassResult> result = lowerWideVectors(*module, Target{});
  EXPECT_TRUE(result.ok()) << result.error().message();
  if (!result) return nullptr;
  std::string text = test::disassemble(*module);
  EXPECT_EQ(text.find("Vector16"), std::string::npos) << text;
  for (const ir::Instruction& inst : module->section(ir::Section::kGlobal)) {
    if (inst.opcode() == spv::Op::OpTypeVector) {
      EXPECT_LE(inst.wordOperand(1), 4u) << text;
    }
  }
  Status valid = ir::validate(*module, ir::validationEnvironment(*module, SPV_ENV_VULKAN_1_2));
  EXPECT_TRUE(valid.ok()) << valid.error().message() << "\n" << text;
  return module;
}

// The kernel after the pass, from its OpFunction on.
std::string loweredKernel(const std::string& body) {
  auto module = lowered(body);
  std::string text = module ? test::disassemble(*module) : "";
  return canonical(text.substr(text.find("%k = OpFunction")));
}

std::string loweringError(const std::string& body) {
  auto module = test::assemble(moduleText(body));
  if (!module) return "";
  Expected<PassResult> result = lowerWideVectors(*module, Target{});
  EXPECT_FALSE(result.ok());
  return result.ok() ? "" : result.error().message();
}

TEST(LowerWideVectorsTest, ArithmeticOnLoadedFloat8GoesPartByPart) {
  EXPECT_EQ(loweredKernel(R"(
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v8float %_ptr_CrossWorkgroup_v8float
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
      %entry = OpLabel
          %x = OpLoad %v8float %a Aligned 32
          %y = OpFAdd %v8float %x %x
          %z = OpVectorTimesScalar %v8float %y %float_2
               OpStore %out %z Aligned 32
               OpReturn
               OpFunctionEnd
)"),
            canonical(R"(
%k = OpFunction %void None %fn
%a = OpFunctionParameter %_ptr_CrossWorkgroup__arr_v4float_uint_2
%out = OpFunctionParameter %_ptr_CrossWorkgroup__arr_v4float_uint_2
%entry = OpLabel
%37 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_0
%38 = OpLoad %v4float %37 Aligned 16
%40 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_1
%41 = OpLoad %v4float %40 Aligned 16
%42 = OpFAdd %v4float %38 %38
%43 = OpFAdd %v4float %41 %41
%44 = OpVectorTimesScalar %v4float %42 %float_2
%45 = OpVectorTimesScalar %v4float %43 %float_2
%46 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %out %uint_0
OpStore %46 %44 Aligned 16
%47 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %out %uint_1
OpStore %47 %45 Aligned 16
OpReturn
OpFunctionEnd
)"));
}

TEST(LowerWideVectorsTest, ByValueFloat16ArrivesAsAnArrayOfPartsAndHiIsTheUpperParts) {
  EXPECT_EQ(loweredKernel(R"(
         %fn = OpTypeFunction %void %v16float %_ptr_CrossWorkgroup_v8float
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %v16float
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
      %entry = OpLabel
         %hi = OpVectorShuffle %v8float %a %a 8 9 10 11 12 13 14 15
               OpStore %out %hi Aligned 32
               OpReturn
               OpFunctionEnd
)"),
            canonical(R"(
%k = OpFunction %void None %fn
%a = OpFunctionParameter %_arr_v4float_uint_4
%out = OpFunctionParameter %_ptr_CrossWorkgroup__arr_v4float_uint_2
%entry = OpLabel
%34 = OpCompositeExtract %v4float %a 0
%35 = OpCompositeExtract %v4float %a 1
%36 = OpCompositeExtract %v4float %a 2
%37 = OpCompositeExtract %v4float %a 3
%39 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %out %uint_0
OpStore %39 %36 Aligned 16
%41 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %out %uint_1
OpStore %41 %37 Aligned 16
OpReturn
OpFunctionEnd
)"));
}

TEST(LowerWideVectorsTest, EvenComponentsOfTwoPartsBecomeOneShufflePerPart) {
  EXPECT_EQ(loweredKernel(R"(
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v16float %_ptr_CrossWorkgroup_v8float
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_v16float
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
      %entry = OpLabel
          %x = OpLoad %v16float %a Aligned 64
       %even = OpVectorShuffle %v8float %x %x 0 2 4 6 8 10 12 14
               OpStore %out %even Aligned 32
               OpReturn
               OpFunctionEnd
)"),
            canonical(R"(
%k = OpFunction %void None %fn
%a = OpFunctionParameter %_ptr_CrossWorkgroup__arr_v4float_uint_4
%out = OpFunctionParameter %_ptr_CrossWorkgroup__arr_v4float_uint_2
%entry = OpLabel
%36 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_0
%37 = OpLoad %v4float %36 Aligned 16
%39 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_1
%40 = OpLoad %v4float %39 Aligned 16
%41 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_2
%42 = OpLoad %v4float %41 Aligned 16
%44 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_3
%45 = OpLoad %v4float %44 Aligned 16
%46 = OpVectorShuffle %v4float %37 %40 0 2 4 6
%47 = OpVectorShuffle %v4float %42 %45 0 2 4 6
%48 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %out %uint_0
OpStore %48 %46 Aligned 16
%49 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %out %uint_1
OpStore %49 %47 Aligned 16
OpReturn
OpFunctionEnd
)"));
}

TEST(LowerWideVectorsTest, BitcastOfUchar16ToUint4GoesThroughWords) {
  EXPECT_EQ(loweredKernel(R"(
         %fn = OpTypeFunction %void %v16uchar %_ptr_CrossWorkgroup_v4uint
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %v16uchar
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v4uint
      %entry = OpLabel
          %w = OpBitcast %v4uint %a
               OpStore %out %w Aligned 16
               OpReturn
               OpFunctionEnd
)"),
            canonical(R"(
%k = OpFunction %void None %fn
%a = OpFunctionParameter %_arr_v4uchar_uint_4
%out = OpFunctionParameter %_ptr_CrossWorkgroup_v4uint
%entry = OpLabel
%35 = OpCompositeExtract %v4uchar %a 0
%36 = OpCompositeExtract %v4uchar %a 1
%37 = OpCompositeExtract %v4uchar %a 2
%38 = OpCompositeExtract %v4uchar %a 3
%39 = OpBitcast %uint %35
%40 = OpBitcast %uint %36
%41 = OpBitcast %uint %37
%42 = OpBitcast %uint %38
%43 = OpCompositeConstruct %v4uint %39 %40 %41 %42
OpStore %out %43 Aligned 16
OpReturn
OpFunctionEnd
)"));
}

TEST(LowerWideVectorsTest, Vload16AndVstore8BecomeVload4AndVstore4AtScaledOffsets) {
  EXPECT_EQ(loweredKernel(R"(
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_float %_ptr_CrossWorkgroup_float
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_float
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_float
      %entry = OpLabel
          %x = OpExtInst %v16float %std vloadn %ulong_3 %a 16
         %lo = OpVectorShuffle %v8float %x %x 0 1 2 3 4 5 6 7
          %m = OpExtInst %v8float %std fmin %lo %lo
          %s = OpExtInst %void %std vstoren %m %ulong_3 %out
               OpReturn
               OpFunctionEnd
)"),
            canonical(R"(
%k = OpFunction %void None %fn
%a = OpFunctionParameter %_ptr_CrossWorkgroup_float
%out = OpFunctionParameter %_ptr_CrossWorkgroup_float
%entry = OpLabel
%38 = OpIMul %ulong %ulong_3 %ulong_4
%39 = OpExtInst %v4float %1 vloadn %38 %a 4
%40 = OpIMul %ulong %ulong_3 %ulong_4
%42 = OpIAdd %ulong %40 %ulong_1
%43 = OpExtInst %v4float %1 vloadn %42 %a 4
%44 = OpIMul %ulong %ulong_3 %ulong_4
%46 = OpIAdd %ulong %44 %ulong_2
%47 = OpExtInst %v4float %1 vloadn %46 %a 4
%48 = OpIMul %ulong %ulong_3 %ulong_4
%49 = OpIAdd %ulong %48 %ulong_3
%50 = OpExtInst %v4float %1 vloadn %49 %a 4
%51 = OpExtInst %v4float %1 fmin %39 %39
%52 = OpExtInst %v4float %1 fmin %43 %43
%53 = OpIMul %ulong %ulong_3 %ulong_2
%54 = OpExtInst %void %1 vstoren %51 %53 %out
%55 = OpIMul %ulong %ulong_3 %ulong_2
%56 = OpIAdd %ulong %55 %ulong_1
%57 = OpExtInst %void %1 vstoren %52 %56 %out
OpReturn
OpFunctionEnd
)"));
}

TEST(LowerWideVectorsTest, DynamicExtractPicksThePartBySelects) {
  EXPECT_EQ(loweredKernel(R"(
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v8float %uint %_ptr_CrossWorkgroup_float
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
          %i = OpFunctionParameter %uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_float
      %entry = OpLabel
          %x = OpLoad %v8float %a Aligned 32
          %e = OpVectorExtractDynamic %float %x %i
               OpStore %out %e Aligned 4
               OpReturn
               OpFunctionEnd
)"),
            canonical(R"(
%k = OpFunction %void None %fn
%a = OpFunctionParameter %_ptr_CrossWorkgroup__arr_v4float_uint_2
%i = OpFunctionParameter %uint
%out = OpFunctionParameter %_ptr_CrossWorkgroup_float
%entry = OpLabel
%37 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_0
%38 = OpLoad %v4float %37 Aligned 16
%40 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_1
%41 = OpLoad %v4float %40 Aligned 16
%42 = OpShiftRightLogical %uint %i %uint_2
%44 = OpBitwiseAnd %uint %i %uint_3
%45 = OpVectorExtractDynamic %float %38 %44
%46 = OpVectorExtractDynamic %float %41 %44
%47 = OpIEqual %bool %42 %uint_1
%48 = OpSelect %float %47 %46 %45
OpStore %out %48 Aligned 4
OpReturn
OpFunctionEnd
)"));
}

TEST(LowerWideVectorsTest, PhiAndSelectOnComparisonsGoPartByPartAndAnyCombinesTheParts) {
  EXPECT_EQ(loweredKernel(R"(
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v8float %_ptr_CrossWorkgroup_v8float
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
      %entry = OpLabel
          %x = OpLoad %v8float %a Aligned 32
       %less = OpFOrdLessThan %v8bool %x %x
        %any = OpAny %bool %less
               OpBranchConditional %any %then %merge
       %then = OpLabel
          %n = OpFNegate %v8float %x
               OpBranch %merge
      %merge = OpLabel
          %p = OpPhi %v8float %x %entry %n %then
          %r = OpSelect %v8float %less %p %x
               OpStore %out %r Aligned 32
               OpReturn
               OpFunctionEnd
)"),
            canonical(R"(
%k = OpFunction %void None %fn
%a = OpFunctionParameter %_ptr_CrossWorkgroup__arr_v4float_uint_2
%out = OpFunctionParameter %_ptr_CrossWorkgroup__arr_v4float_uint_2
%entry = OpLabel
%42 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_0
%43 = OpLoad %v4float %42 Aligned 16
%45 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_1
%46 = OpLoad %v4float %45 Aligned 16
%47 = OpFOrdLessThan %v4bool %43 %43
%48 = OpFOrdLessThan %v4bool %46 %46
%49 = OpAny %bool %47
%50 = OpAny %bool %48
%51 = OpLogicalOr %bool %49 %50
OpBranchConditional %51 %then %merge
%then = OpLabel
%52 = OpFNegate %v4float %43
%53 = OpFNegate %v4float %46
OpBranch %merge
%merge = OpLabel
%54 = OpPhi %v4float %43 %entry %52 %then
%55 = OpPhi %v4float %46 %entry %53 %then
%56 = OpSelect %v4float %47 %54 %43
%57 = OpSelect %v4float %48 %55 %46
%58 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %out %uint_0
OpStore %58 %56 Aligned 16
%59 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %out %uint_1
OpStore %59 %57 Aligned 16
OpReturn
OpFunctionEnd
)"));
}

TEST(LowerWideVectorsTest, ComponentPointerIntoAWorkgroupFloat16ArrayIndexesPartAndComponent) {
  EXPECT_EQ(loweredKernel(R"(
%_arr_v16float_uint_5 = OpTypeArray %v16float %uint_5
%_ptr_Workgroup_arr = OpTypePointer Workgroup %_arr_v16float_uint_5
%_ptr_Workgroup_float = OpTypePointer Workgroup %float
      %tile = OpVariable %_ptr_Workgroup_arr Workgroup
         %fn = OpTypeFunction %void %uint %_ptr_CrossWorkgroup_float
          %k = OpFunction %void None %fn
          %i = OpFunctionParameter %uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_float
      %entry = OpLabel
          %c = OpInBoundsAccessChain %_ptr_Workgroup_float %tile %uint_0 %i
          %v = OpLoad %float %c Aligned 4
               OpStore %out %v Aligned 4
               OpReturn
               OpFunctionEnd
)"),
            canonical(R"(
%k = OpFunction %void None %fn
%i = OpFunctionParameter %uint
%out = OpFunctionParameter %_ptr_CrossWorkgroup_float
%entry = OpLabel
%39 = OpShiftRightLogical %uint %i %uint_2
%41 = OpBitwiseAnd %uint %i %uint_3
%c = OpInBoundsAccessChain %_ptr_Workgroup_float %tile %uint_0 %39 %41
%v = OpLoad %float %c Aligned 4
OpStore %out %v Aligned 4
OpReturn
OpFunctionEnd
)"));
}

TEST(LowerWideVectorsTest, SaturatingConversionKeepsItsDecorationsOnEachPart) {
  std::string text =
      test::disassemble(*lowered(R"(
     %v8uint = OpTypeVector %uint 8
%_ptr_CrossWorkgroup_v8uint = OpTypePointer CrossWorkgroup %v8uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v8float %_ptr_CrossWorkgroup_v8uint
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v8uint
      %entry = OpLabel
          %x = OpLoad %v8float %a Aligned 32
          %n = OpConvertFToS %v8uint %x
               OpStore %out %n Aligned 32
               OpReturn
               OpFunctionEnd
)",
                                 "OpDecorate %n SaturatedConversion\nOpDecorate %n FPRoundingMode RTE\n"));
  size_t saturated = 0;
  for (size_t at = text.find("SaturatedConversion"); at != std::string::npos;
       at = text.find("SaturatedConversion", at + 1))
    ++saturated;
  EXPECT_EQ(saturated, 2u) << text;
}

TEST(LowerWideVectorsTest, StoreOfAConstantIntoAStructMemberGoesPartByPart) {
  // Both members keep their offsets (0 and 32) and the struct its size (64).
  EXPECT_EQ(loweredKernel(R"(
     %uint_1 = OpConstant %uint 1
      %eight = OpConstantComposite %v8float %float_2 %float_2 %float_2 %float_2 %float_2 %float_2 %float_2 %float_2
       %pair = OpTypeStruct %v8float %v8float
%_ptr_CrossWorkgroup_pair = OpTypePointer CrossWorkgroup %pair
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_pair
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_pair
      %entry = OpLabel
     %second = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v8float %a %uint_1
               OpStore %second %eight Aligned 32
               OpReturn
               OpFunctionEnd
)"),
            canonical(R"(
%k = OpFunction %void None %fn
%a = OpFunctionParameter %_ptr_CrossWorkgroup_pair
%entry = OpLabel
%second = OpInBoundsAccessChain %_ptr_CrossWorkgroup__arr_v4float_uint_2 %a %uint_1
%40 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %second %uint_0
OpStore %40 %37 Aligned 16
%41 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %second %uint_1
OpStore %41 %37 Aligned 16
OpReturn
OpFunctionEnd
)"));
}

// --- Before/after: the whole module, as the pass writes it. ---

// An llvm-spirv style kernel %k with the global id %i: `types` (with the kernel's type %fn) follow
// %float, `globals` the module's variable; `params` are the kernel's parameters, `body` its code.
// `capabilities` follow Int64 (Vector16, which the pass removes).
std::string wideKernel(const std::string& capabilities, const std::string& types, const std::string& params,
                       const std::string& body, const std::string& globals = "", const std::string& decorations = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
)" + capabilities +
         R"(
        %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpName %gid "__spirv_BuiltInGlobalInvocationId"
               OpName %k "k"
               OpName %a "a"
               OpName %out "out"
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
               OpDecorate %gid Constant
               OpDecorate %gid BuiltIn GlobalInvocationId
)" + decorations +
         R"(
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
    %v3ulong = OpTypeVector %ulong 3
%_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
      %float = OpTypeFloat 32
)" + types +
         R"(
        %gid = OpVariable %_ptr_Input_v3ulong Input
)" + globals +
         R"(
          %k = OpFunction %void None %fn
)" + params +
         R"(
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid Aligned 32
          %i = OpCompositeExtract %ulong %ids 0
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// A __global float8* becomes a pointer to an array of two float4; each float8 load, operation and
// store becomes two, one per part.
TEST(LowerWideVectorsTest, Float8InGlobalMemoryBecomesTwoFloat4PartsLoadedAddedAndStoredApart) {
  test::expectPassOutput("lower-wide-vectors",
                         wideKernel("OpCapability Vector16", R"(
    %v8float = OpTypeVector %float 8
%_ptr_CrossWorkgroup_v8float = OpTypePointer CrossWorkgroup %v8float
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v8float %_ptr_CrossWorkgroup_v8float
)",
                                    R"(
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
)",
                                    R"(
         %pa = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_v8float %a %i
          %x = OpLoad %v8float %pa Aligned 32
          %y = OpFAdd %v8float %x %x
         %po = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_v8float %out %i
               OpStore %po %y Aligned 32
)"),
                         wideKernel("", R"(
    %v4float = OpTypeVector %float 4
     %uint_2 = OpConstant %uint 2
%_arr_v4float_uint_2 = OpTypeArray %v4float %uint_2
%_ptr_CrossWorkgroup__arr_v4float_uint_2 = OpTypePointer CrossWorkgroup %_arr_v4float_uint_2
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup__arr_v4float_uint_2 %_ptr_CrossWorkgroup__arr_v4float_uint_2
)",
                                    R"(
          %a = OpFunctionParameter %_ptr_CrossWorkgroup__arr_v4float_uint_2
        %out = OpFunctionParameter %_ptr_CrossWorkgroup__arr_v4float_uint_2
)",
                                    R"(
         %pa = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup__arr_v4float_uint_2 %a %i
        %pa0 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %pa %uint_0
         %x0 = OpLoad %v4float %pa0 Aligned 16
        %pa1 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %pa %uint_1
         %x1 = OpLoad %v4float %pa1 Aligned 16
         %y0 = OpFAdd %v4float %x0 %x0
         %y1 = OpFAdd %v4float %x1 %x1
         %po = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup__arr_v4float_uint_2 %out %i
        %po0 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %po %uint_0
               OpStore %po0 %y0 Aligned 16
        %po1 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %po %uint_1
               OpStore %po1 %y1 Aligned 16
)",
                                    R"(
     %uint_0 = OpConstant %uint 0
%_ptr_CrossWorkgroup_v4float = OpTypePointer CrossWorkgroup %v4float
     %uint_1 = OpConstant %uint 1
)",
                                    // The parts' array is aligned like the float8 it stands for.
                                    "OpDecorate %_arr_v4float_uint_2 Alignment 32\n"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// A float8 argument arrives as an array of its two parts, taken apart at the entry; .hi is the
// second part and .s7 its last component.
TEST(LowerWideVectorsTest, HiAndS7OfAFloat8ArgumentComeFromItsSecondPart) {
  test::expectPassOutput("lower-wide-vectors",
                         wideKernel("OpCapability Vector16", R"(
    %v4float = OpTypeVector %float 4
    %v8float = OpTypeVector %float 8
%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
%_ptr_CrossWorkgroup_v4float = OpTypePointer CrossWorkgroup %v4float
         %fn = OpTypeFunction %void %v8float %_ptr_CrossWorkgroup_v4float %_ptr_CrossWorkgroup_float
)",
                                    R"(
          %a = OpFunctionParameter %v8float
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v4float
       %last = OpFunctionParameter %_ptr_CrossWorkgroup_float
)",
                                    R"(
         %hi = OpVectorShuffle %v4float %a %a 4 5 6 7
         %po = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_v4float %out %i
               OpStore %po %hi Aligned 16
         %s7 = OpCompositeExtract %float %a 7
               OpStore %last %s7 Aligned 4
)"),
                         R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
        %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpName %gid "__spirv_BuiltInGlobalInvocationId"
               OpName %k "k"
               OpName %a "a"
               OpName %out "out"
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
               OpDecorate %gid Constant
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %_arr_v4float_uint_2 Alignment 32
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
    %v3ulong = OpTypeVector %ulong 3
%_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
%_ptr_CrossWorkgroup_v4float = OpTypePointer CrossWorkgroup %v4float
     %uint_2 = OpConstant %uint 2
%_arr_v4float_uint_2 = OpTypeArray %v4float %uint_2
         %fn = OpTypeFunction %void %_arr_v4float_uint_2 %_ptr_CrossWorkgroup_v4float %_ptr_CrossWorkgroup_float
        %gid = OpVariable %_ptr_Input_v3ulong Input
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_arr_v4float_uint_2
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v4float
       %last = OpFunctionParameter %_ptr_CrossWorkgroup_float
      %entry = OpLabel
         %a0 = OpCompositeExtract %v4float %a 0
         %a1 = OpCompositeExtract %v4float %a 1
        %ids = OpLoad %v3ulong %gid Aligned 32
          %i = OpCompositeExtract %ulong %ids 0
         %po = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_v4float %out %i
               OpStore %po %a1 Aligned 16
         %s7 = OpCompositeExtract %float %a1 3
               OpStore %last %s7 Aligned 4
               OpReturn
               OpFunctionEnd
)",
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// vload8(i, a) reads the floats at a + 8i: vload4 at offsets 2i and 2i + 1 (vstore8 likewise).
TEST(LowerWideVectorsTest, Vload8AndVstore8BecomeTwoVload4AndVstore4AtDoubledOffsets) {
  const std::string params = R"(
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_float
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_float
)";
  test::expectPassOutput("lower-wide-vectors",
                         wideKernel("OpCapability Vector16", R"(
    %v8float = OpTypeVector %float 8
%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_float %_ptr_CrossWorkgroup_float
)",
                                    params, R"(
          %x = OpExtInst %v8float %std vloadn %i %a 8
          %y = OpFMul %v8float %x %x
         %st = OpExtInst %void %std vstoren %y %i %out
)"),
                         wideKernel("", R"(
%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_float %_ptr_CrossWorkgroup_float
)",
                                    params, R"(
     %load0i = OpIMul %ulong %i %ulong_2
         %x0 = OpExtInst %v4float %std vloadn %load0i %a 4
     %load1i = OpIMul %ulong %i %ulong_2
     %load1j = OpIAdd %ulong %load1i %ulong_1
         %x1 = OpExtInst %v4float %std vloadn %load1j %a 4
         %y0 = OpFMul %v4float %x0 %x0
         %y1 = OpFMul %v4float %x1 %x1
    %store0i = OpIMul %ulong %i %ulong_2
        %st0 = OpExtInst %void %std vstoren %y0 %store0i %out
    %store1i = OpIMul %ulong %i %ulong_2
    %store1j = OpIAdd %ulong %store1i %ulong_1
        %st1 = OpExtInst %void %std vstoren %y1 %store1j %out
)",
                                    R"(
    %v4float = OpTypeVector %float 4
    %ulong_2 = OpConstant %ulong 2
    %ulong_1 = OpConstant %ulong 1
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// A struct keeps OpenCL C's layout when its float16 becomes an array of four float4: the array is
// aligned like the vector (64 bytes, not one part's 16), so the member after a float stays at 64
// and the struct's size at 128 (the CTS's vectors vec_align_struct).
TEST(LowerWideVectorsTest, StructWithAWideMemberKeepsItsLayout) {
  auto module = lowered(R"(
          %s = OpTypeStruct %float %v16float
   %_ptr_s = OpTypePointer CrossWorkgroup %s
         %fn = OpTypeFunction %void %_ptr_s
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_s
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_TRUE(module);
  uint32_t structType = 0;
  for (const ir::Instruction& inst : module->section(ir::Section::kGlobal)) {
    if (inst.opcode() == spv::Op::OpTypeStruct) structType = inst.resultId();
  }
  ASSERT_NE(structType, 0u);
  Expected<std::vector<uint32_t>> offsets = memberOffsets(*module, structType);
  Expected<TypeLayout> layout = layoutOf(*module, structType);
  ASSERT_TRUE(offsets.ok() && layout.ok());
  EXPECT_EQ(*offsets, (std::vector<uint32_t>{0, 64}));
  EXPECT_EQ(layout->size, 128u);
  EXPECT_EQ(layout->alignment, 64u);
}

// shuffle(float8, uint4): each result component is the mask's component modulo 8, picked from
// the part that holds it by a select, as a dynamic extract is.
TEST(LowerWideVectorsTest, ShuffleOfFloat8PicksEachComponentByItsMaskModuloEight) {
  EXPECT_EQ(loweredKernel(R"(
%_ptr_CrossWorkgroup_v4float = OpTypePointer CrossWorkgroup %v4float
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v8float %v4uint %_ptr_CrossWorkgroup_v4float
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
       %mask = OpFunctionParameter %v4uint
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v4float
      %entry = OpLabel
          %x = OpLoad %v8float %a Aligned 32
          %r = OpExtInst %v4float %std shuffle %x %mask
               OpStore %out %r Aligned 16
               OpReturn
               OpFunctionEnd
)"),
            canonical(R"(
%k = OpFunction %void None %fn
%a = OpFunctionParameter %_ptr_CrossWorkgroup__arr_v4float_uint_2
%mask = OpFunctionParameter %v4uint
%out = OpFunctionParameter %_ptr_CrossWorkgroup_v4float
%entry = OpLabel
%37 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_0
%38 = OpLoad %v4float %37 Aligned 16
%40 = OpInBoundsAccessChain %_ptr_CrossWorkgroup_v4float %a %uint_1
%41 = OpLoad %v4float %40 Aligned 16
%42 = OpCompositeExtract %uint %mask 0
%44 = OpBitwiseAnd %uint %42 %uint_7
%45 = OpShiftRightLogical %uint %44 %uint_2
%47 = OpBitwiseAnd %uint %44 %uint_3
%48 = OpVectorExtractDynamic %float %38 %47
%49 = OpVectorExtractDynamic %float %41 %47
%50 = OpIEqual %bool %45 %uint_1
%51 = OpSelect %float %50 %49 %48
%52 = OpCompositeExtract %uint %mask 1
%53 = OpBitwiseAnd %uint %52 %uint_7
%54 = OpShiftRightLogical %uint %53 %uint_2
%55 = OpBitwiseAnd %uint %53 %uint_3
%56 = OpVectorExtractDynamic %float %38 %55
%57 = OpVectorExtractDynamic %float %41 %55
%58 = OpIEqual %bool %54 %uint_1
%59 = OpSelect %float %58 %57 %56
%60 = OpCompositeExtract %uint %mask 2
%61 = OpBitwiseAnd %uint %60 %uint_7
%62 = OpShiftRightLogical %uint %61 %uint_2
%63 = OpBitwiseAnd %uint %61 %uint_3
%64 = OpVectorExtractDynamic %float %38 %63
%65 = OpVectorExtractDynamic %float %41 %63
%66 = OpIEqual %bool %62 %uint_1
%67 = OpSelect %float %66 %65 %64
%68 = OpCompositeExtract %uint %mask 3
%69 = OpBitwiseAnd %uint %68 %uint_7
%70 = OpShiftRightLogical %uint %69 %uint_2
%71 = OpBitwiseAnd %uint %69 %uint_3
%72 = OpVectorExtractDynamic %float %38 %71
%73 = OpVectorExtractDynamic %float %41 %71
%74 = OpIEqual %bool %70 %uint_1
%75 = OpSelect %float %74 %73 %72
%76 = OpCompositeConstruct %v4float %51 %59 %67 %75
OpStore %out %76 Aligned 16
OpReturn
OpFunctionEnd
)"));
}

// Every other shape: shuffle2 of two float16 by a uint16 mask (mod 32, the 16 bit choosing the
// second), and a float4 spread to float16. No OpenCL.std shuffle is left and the module validates.
TEST(LowerWideVectorsTest, Shuffle2OfFloat16AndShuffleToFloat16PickEveryComponent) {
  std::string body = R"(
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v16float %_ptr_CrossWorkgroup_v16uint %_ptr_CrossWorkgroup_v4float
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_v16float
          %m = OpFunctionParameter %_ptr_CrossWorkgroup_v16uint
          %f = OpFunctionParameter %_ptr_CrossWorkgroup_v4float
      %entry = OpLabel
          %x = OpLoad %v16float %a Aligned 64
       %mask = OpLoad %v16uint %m Aligned 64
          %y = OpFNegate %v16float %x
          %r = OpExtInst %v16float %std shuffle2 %x %y %mask
          %q = OpLoad %v4float %f Aligned 16
          %s = OpExtInst %v16float %std shuffle %q %mask
          %t = OpFAdd %v16float %r %s
               OpStore %a %t Aligned 64
               OpReturn
               OpFunctionEnd
)";
  std::string header =
      "%v16uint = OpTypeVector %uint 16\n%_ptr_CrossWorkgroup_v16uint = OpTypePointer CrossWorkgroup %v16uint\n"
      "%_ptr_CrossWorkgroup_v4float = OpTypePointer CrossWorkgroup %v4float\n";
  auto module = lowered(header + body);
  ASSERT_TRUE(module);
  std::string text = test::disassemble(*module);
  EXPECT_EQ(text.find("shuffle"), std::string::npos) << text;
  // Each of the 16 components of shuffle2: 4 part extracts from x, 4 from y; of the spread: 1.
  EXPECT_EQ(test::count(text, "OpVectorExtractDynamic %float"), 16u * 8 + 16u) << text;
  // shuffle2: the index, its lane in x's and in y's parts, and the bit choosing y; the spread: the index.
  EXPECT_EQ(test::count(text, "OpBitwiseAnd %uint %"), 16u * 4 + 16u) << text;
}

TEST(LowerWideVectorsTest, DotOfWideVectorsIsAnErrorNamingTheInstruction) {
  EXPECT_EQ(loweringError(R"(
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v8float
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
      %entry = OpLabel
          %x = OpLoad %v8float %a Aligned 32
          %y = OpDot %float %x %x
               OpReturn
               OpFunctionEnd
)"),
            "kernel 'k': %7 = OpDot in function 'k': vectors of 8 or 16 components are not supported in OpDot");
}

// A component-wise GLSL.std.450 instruction on a wide vector (exact half narrowing, which runs
// before this pass, emits FindUMsb) goes part by part; a geometric one is refused by name.
TEST(LowerWideVectorsTest, ComponentWiseGlslInstructionsGoPartByPart) {
  std::string text = moduleText(R"(
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v8float
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
      %entry = OpLabel
          %x = OpLoad %v8float %out Aligned 32
          %y = OpExtInst %v8float %glsl FAbs %x
               OpStore %out %y Aligned 32
               OpReturn
               OpFunctionEnd
)");
  text.replace(text.find("%std = OpExtInstImport"), 0, "%glsl = OpExtInstImport \"GLSL.std.450\"\n");
  auto module = test::assemble(text);
  ASSERT_TRUE(module);
  Expected<PassResult> result = lowerWideVectors(*module, Target{});
  ASSERT_TRUE(result.ok()) << result.error().message();
  std::string out = test::disassemble(*module);
  size_t first = out.find("OpExtInst %v4float %1 FAbs %");
  ASSERT_NE(first, std::string::npos) << out;
  EXPECT_NE(out.find("OpExtInst %v4float %1 FAbs %", first + 1), std::string::npos) << out;
  EXPECT_EQ(out.find("%v8float"), std::string::npos) << out;

  text.replace(text.find("FAbs %x"), 7, "Normalize %x");
  module = test::assemble(text);
  ASSERT_TRUE(module);
  result = lowerWideVectors(*module, Target{});
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message().find("this GLSL.std.450 instruction is not supported on vectors of 8 or 16"),
            std::string::npos)
      << result.error().message();
}

// sub_group_broadcast of a float8 (cl_khr_subgroup_extended_types): each 4-wide part is broadcast
// from the same work-item.
TEST(LowerWideVectorsTest, BroadcastOfFloat8IsABroadcastPerPart) {
  std::string text = moduleText(R"(
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v8float
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v8float
      %entry = OpLabel
          %x = OpLoad %v8float %out Aligned 32
          %y = OpGroupBroadcast %v8float %uint_5 %x %uint_0
               OpStore %out %y Aligned 32
               OpReturn
               OpFunctionEnd
)");
  text.replace(text.find("OpCapability Vector16"), 21, "OpCapability Vector16\nOpCapability Groups");
  auto module = test::assemble(text);
  ASSERT_TRUE(module);
  Expected<PassResult> result = lowerWideVectors(*module, Target{});
  ASSERT_TRUE(result.ok()) << result.error().message();
  std::string out = test::disassemble(*module);
  size_t first = out.find("OpGroupBroadcast %v4float %uint_5 %");
  ASSERT_NE(first, std::string::npos) << out;
  EXPECT_NE(out.find("OpGroupBroadcast %v4float %uint_5 %", first + 1), std::string::npos) << out;
  EXPECT_EQ(out.find("OpGroupBroadcast %v8float"), std::string::npos) << out;
  EXPECT_NE(out.find(" %uint_0\n", first), std::string::npos) << "the same work-item for both parts\n" << out;
}

// sub_group_non_uniform_broadcast of a float16 (cl_khr_subgroup_ballot) from a lane known only
// at run time: four 4-wide broadcasts from that one lane. The other moves between lanes go the
// same way (the CTS's 8 and 16-wide broadcasts were refused).
TEST(LowerWideVectorsTest, NonUniformBroadcastOfFloat16IsABroadcastPerPart) {
  for (std::string move : {"OpGroupNonUniformBroadcast", "OpGroupNonUniformShuffle"}) {
    SCOPED_TRACE(move);
    std::string text = moduleText(R"(
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_v16float %uint
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_v16float
       %lane = OpFunctionParameter %uint
      %entry = OpLabel
          %x = OpLoad %v16float %out Aligned 64
          %y = )" + move + R"( %v16float %uint_3 %x %lane
               OpStore %out %y Aligned 64
               OpReturn
               OpFunctionEnd
)");
    text.replace(text.find("OpCapability Vector16"), 21,
                 "OpCapability Vector16\nOpCapability GroupNonUniformBallot\nOpCapability GroupNonUniformShuffle");
    text.replace(text.find("     %uint_5 ="), 0, "     %uint_3 = OpConstant %uint 3\n");
    auto module = test::assemble(text);
    ASSERT_TRUE(module);
    Expected<PassResult> result = lowerWideVectors(*module, Target{});
    ASSERT_TRUE(result.ok()) << result.error().message();
    std::string out = test::disassemble(*module);
    EXPECT_EQ(test::count(out, move + " %v4float %uint_3 %"), 4u) << out;
    EXPECT_EQ(test::count(out, " %lane\n"), 4u) << "the same lane for every part\n" << out;
    EXPECT_EQ(out.find(move + " %v16float"), std::string::npos) << out;
  }
}

}  // namespace
}  // namespace cl2vk
