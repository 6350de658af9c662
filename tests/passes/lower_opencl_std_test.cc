#include "passes/instructions/lower_opencl_std.h"

#include <gtest/gtest.h>

#include <bit>
#include <cmath>
#include <functional>
#include <limits>

#include "ir/validate.h"
#include "opencl_std_evaluator_test_util.h"
#include "pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

using test::canonical;
using test::EvalValue;
using test::Int128;

// A function `f` returning `%r = OpExtInst %<result> %std <call>` of its parameters %a, %b, %c.
std::string extModule(const std::string& result, const std::vector<std::string>& params, const std::string& call) {
  std::string text = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpCapability Int8
               OpCapability Int16
               OpCapability Int64
               OpCapability Float16
               OpCapability Float64
        %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpName %f "f"
PARAM_NAMES    OpName %fn "fn"
               OpName %entry "entry"
       %void = OpTypeVoid
      %uchar = OpTypeInt 8 0
     %ushort = OpTypeInt 16 0
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %half = OpTypeFloat 16
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
     %v2uint = OpTypeVector %uint 2
     %v4uint = OpTypeVector %uint 4
    %v2float = OpTypeVector %float 2
    %v3float = OpTypeVector %float 3
    %v4float = OpTypeVector %float 4
    %v4half = OpTypeVector %half 4
%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
%_ptr_Workgroup_float = OpTypePointer Workgroup %float
%_ptr_Function_float = OpTypePointer Function %float
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
%_ptr_CrossWorkgroup_half = OpTypePointer CrossWorkgroup %half
%_ptr_CrossWorkgroup_v4uint = OpTypePointer CrossWorkgroup %v4uint
         %fn = OpTypeFunction %)" +
                     result;
  for (const std::string& param : params) text += " %" + param;
  text += "\n          %f = OpFunction %" + result + " None %fn\n";
  const char* names[] = {"a", "b", "c"};
  std::string paramNames;
  for (size_t i = 0; i < params.size(); ++i)
    paramNames += std::string("OpName %") + names[i] + " \"" + names[i] + "\"\n";
  text.replace(text.find("PARAM_NAMES"), 11, paramNames);
  for (size_t i = 0; i < params.size(); ++i)
    text += std::string("%") + names[i] + " = OpFunctionParameter %" + params[i] + "\n";
  text += "%entry = OpLabel\n";
  text += "%r = OpExtInst %" + result + " %std " + call + "\n";
  text += result == "void" ? "OpReturn\n" : "OpReturnValue %r\n";
  return text + "OpFunctionEnd\n";
}

Expected<PassResult> lower(ir::Module& module) { return lowerOpenclStd(module, Target{}); }

// Lowers, checks that no OpenCL.std is left and that the module validates.
std::unique_ptr<ir::Module> lowered(const std::string& text) {
  auto module = test::assemble(text);
  if (!module) return nullptr;
  Expected<PassResult> result = lower(*module);
  EXPECT_TRUE(result.ok()) << result.error().message();
  if (!result) return nullptr;
  std::string out = test::disassemble(*module);
  EXPECT_EQ(out.find("OpenCL.std"), std::string::npos) << out;
  // The universal rules: OpenCL 2.2's would refuse the Float16 capability of the half cases.
  Status valid = ir::validate(*module, SPV_ENV_UNIVERSAL_1_2);
  EXPECT_TRUE(valid.ok()) << valid.error().message() << "\n" << out;
  return module;
}

std::string loweredBody(const std::string& text) {
  auto module = lowered(text);
  std::string out = module ? test::disassemble(*module) : "";
  return canonical(out.substr(out.find("%f = OpFunction")));
}

std::string loweringError(const std::string& text) {
  auto module = test::assemble(text);
  Expected<PassResult> result = lower(*module);
  EXPECT_FALSE(result.ok());
  return result.ok() ? "" : result.error().message();
}

// --- What the lowering writes, one case per kind. ---

TEST(LowerOpenCLStdTest, UnsignedMaxBecomesUMax) {
  std::string text = loweredBody(extModule("uint", {"uint", "uint"}, "u_max %a %b"));
  EXPECT_EQ(text, canonical(R"(
%f = OpFunction %uint None %fn
%a = OpFunctionParameter %uint
%b = OpFunctionParameter %uint
%entry = OpLabel
%29 = OpExtInst %uint %28 UMax %a %b
OpReturnValue %29
OpFunctionEnd
)"));
}

TEST(LowerOpenCLStdTest, SignedClampBecomesSClampAndTheImportsAreSwapped) {
  auto module = lowered(extModule("uint", {"uint", "uint", "uint"}, "s_clamp %a %b %c"));
  ASSERT_TRUE(module);
  std::string text = test::disassemble(*module);
  EXPECT_NE(text.find("OpExtInstImport \"GLSL.std.450\""), std::string::npos) << text;
  EXPECT_NE(text.find("SClamp %a %b %c"), std::string::npos) << text;
}

TEST(LowerOpenCLStdTest, MadBecomesFma) {
  EXPECT_NE(loweredBody(extModule("float", {"float", "float", "float"}, "mad %a %b %c")).find("Fma %a %b %c"),
            std::string::npos);
}

TEST(LowerOpenCLStdTest, FminBecomesNMinSoThatANaNOperandGivesTheOther) {
  EXPECT_NE(loweredBody(extModule("float", {"float", "float"}, "fmin %a %b")).find("NMin %a %b"), std::string::npos);
}

TEST(LowerOpenCLStdTest, Vload4BecomesFourScalarLoadsOnThePointersStorageClass) {
  EXPECT_EQ(loweredBody(extModule("v4float", {"ulong", "_ptr_Workgroup_float"}, "vloadn %a %b 4")), canonical(R"(
%f = OpFunction %v4float None %fn
%a = OpFunctionParameter %ulong
%b = OpFunctionParameter %_ptr_Workgroup_float
%entry = OpLabel
%30 = OpIMul %ulong %a %ulong_4
%31 = OpIAdd %ulong %30 %ulong_0
%32 = OpInBoundsPtrAccessChain %_ptr_Workgroup_float %b %31
%33 = OpLoad %float %32 Aligned 4
%35 = OpIMul %ulong %a %ulong_4
%36 = OpIAdd %ulong %35 %ulong_1
%37 = OpInBoundsPtrAccessChain %_ptr_Workgroup_float %b %36
%38 = OpLoad %float %37 Aligned 4
%40 = OpIMul %ulong %a %ulong_4
%41 = OpIAdd %ulong %40 %ulong_2
%42 = OpInBoundsPtrAccessChain %_ptr_Workgroup_float %b %41
%43 = OpLoad %float %42 Aligned 4
%45 = OpIMul %ulong %a %ulong_4
%46 = OpIAdd %ulong %45 %ulong_3
%47 = OpInBoundsPtrAccessChain %_ptr_Workgroup_float %b %46
%48 = OpLoad %float %47 Aligned 4
%49 = OpCompositeConstruct %v4float %33 %38 %43 %48
OpReturnValue %49
OpFunctionEnd
)"));
}

TEST(LowerOpenCLStdTest, FractStoresTheFloorThroughItsPointer) {
  std::string text = loweredBody(extModule("float", {"float", "_ptr_CrossWorkgroup_float"}, "fract %a %b"));
  EXPECT_NE(text.find("Floor %a"), std::string::npos) << text;
  EXPECT_NE(text.find("OpStore %b"), std::string::npos) << text;
}

// --- Before/after: the whole module, as the pass writes it. ---

// An llvm-spirv style kernel: a[i] = %r, which `body` computes from %x = a[i] and %y = b[i], of
// `type` (uint or float). `import` is the module's extended instruction set ("" for none),
// `globals` follow its variable.
std::string stdKernel(const std::string& type, const std::string& body, const std::string& import,
                      const std::string& globals = "") {
  std::string text = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
)" + import + R"(
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpName %gid "__spirv_BuiltInGlobalInvocationId"
               OpName %k "k"
               OpName %a "a"
               OpName %b "b"
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
               OpDecorate %gid Constant
               OpDecorate %gid BuiltIn GlobalInvocationId
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
    %v3ulong = OpTypeVector %ulong 3
%_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
      %float = OpTypeFloat 32
%_ptr_CrossWorkgroup_TYPE = OpTypePointer CrossWorkgroup %TYPE
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_TYPE %_ptr_CrossWorkgroup_TYPE
        %gid = OpVariable %_ptr_Input_v3ulong Input
)" + globals + R"(
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %_ptr_CrossWorkgroup_TYPE
          %b = OpFunctionParameter %_ptr_CrossWorkgroup_TYPE
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid Aligned 32
          %i = OpCompositeExtract %ulong %ids 0
         %pa = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_TYPE %a %i
         %pb = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_TYPE %b %i
          %x = OpLoad %TYPE %pa Aligned 4
          %y = OpLoad %TYPE %pb Aligned 4
)" + body + R"(
               OpStore %pa %r Aligned 4
               OpReturn
               OpFunctionEnd
)";
  for (size_t at = text.find("TYPE"); at != std::string::npos; at = text.find("TYPE", at)) text.replace(at, 4, type);
  return text;
}

const std::string kOpenCLStd = R"(%std = OpExtInstImport "OpenCL.std")";
const std::string kGlslStd = R"(%glsl = OpExtInstImport "GLSL.std.450")";

// GLSL.std.450 takes OpenCL.std's place once nothing uses OpenCL.std any more.
TEST(LowerOpenCLStdTest, UMaxBecomesGlslUMaxAndGlslTakesTheOpenCLImportsPlace) {
  test::expectPassOutput("lower-opencl-std", stdKernel("uint", "%r = OpExtInst %uint %std u_max %x %y", kOpenCLStd),
                         stdKernel("uint", "%r = OpExtInst %uint %glsl UMax %x %y", kGlslStd), Target{},
                         SPV_ENV_OPENCL_2_2);
}

// OpenCL's fmin returns the other operand when one is a NaN, as NMin does (FMin leaves it undefined).
TEST(LowerOpenCLStdTest, FminBecomesGlslNMin) {
  test::expectPassOutput("lower-opencl-std", stdKernel("float", "%r = OpExtInst %float %std fmin %x %y", kOpenCLStd),
                         stdKernel("float", "%r = OpExtInst %float %glsl NMin %x %y", kGlslStd), Target{},
                         SPV_ENV_OPENCL_2_2);
}

// x + y wrapped around exactly when the sum is below x; then the result is UINT_MAX. No extended
// instruction is left, so the import goes.
TEST(LowerOpenCLStdTest, UnsignedAddSatBecomesAnAddAndASelectOnItsCarry) {
  test::expectPassOutput("lower-opencl-std", stdKernel("uint", "%r = OpExtInst %uint %std u_add_sat %x %y", kOpenCLStd),
                         stdKernel("uint", R"(
        %sum = OpIAdd %uint %x %y
      %carry = OpULessThan %bool %sum %x
          %r = OpSelect %uint %carry %uint_4294967295 %sum
)",
                                   "", R"(
       %bool = OpTypeBool
%uint_4294967295 = OpConstant %uint 4294967295
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// rotate(x, y) takes y modulo 32; the right shift's count is masked too, so that y = 0 shifts by 0
// rather than by 32 (undefined in SPIR-V).
TEST(LowerOpenCLStdTest, RotateBecomesMaskedShiftsInBothDirections) {
  test::expectPassOutput("lower-opencl-std", stdKernel("uint", "%r = OpExtInst %uint %std rotate %x %y", kOpenCLStd),
                         stdKernel("uint", R"(
       %left = OpBitwiseAnd %uint %y %uint_31
       %diff = OpISub %uint %uint_32 %left
      %right = OpBitwiseAnd %uint %diff %uint_31
         %lo = OpShiftRightLogical %uint %x %right
         %hi = OpShiftLeftLogical %uint %x %left
          %r = OpBitwiseOr %uint %hi %lo
)",
                                   "", R"(
    %uint_31 = OpConstant %uint 31
    %uint_32 = OpConstant %uint 32
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

TEST(LowerOpenCLStdTest, PrintfIsLeftForLowerPrintf) {
  EXPECT_NE(loweringError(extModule("uint", {"uint"}, "printf %a")).find("printf is left for lower-printf"),
            std::string::npos);
}

TEST(LowerOpenCLStdTest, UnsupportedInstructionsNameThemselvesAndTheirFunction) {
  std::string message = loweringError(extModule("float", {"float"}, "erf %a"));
  EXPECT_NE(message.find("OpenCL.std erf is not supported"), std::string::npos) << message;
  EXPECT_NE(message.find("in function 'f'"), std::string::npos) << message;
}

TEST(LowerOpenCLStdTest, DoubleTranscendentalsAreAnErrorNotSinglePrecision) {
  std::string message = loweringError(extModule("double", {"double"}, "sin %a"));
  EXPECT_NE(message.find("OpenCL.std sin is not supported on 64-bit floats"), std::string::npos) << message;
}

TEST(LowerOpenCLStdTest, AModuleWithoutOpenCLStdIsUnchanged) {
  auto module = test::assemble(R"(
; Version: 1.2
OpCapability Addresses
OpCapability Kernel
OpCapability Linkage
OpMemoryModel Physical64 OpenCL
)");
  ASSERT_TRUE(module);
  Expected<PassResult> result = lower(*module);
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(*result, PassResult::kUnchanged);
}

// --- Every supported instruction lowers, leaves no OpenCL.std and validates. ---

struct Coverage {
  std::string result;
  std::vector<std::string> params;
  std::string call;
};

TEST(LowerOpenCLStdTest, EverySupportedInstructionLowersAndValidates) {
  std::vector<Coverage> cases;
  for (const char* name :
       {"acos",        "acosh",        "acospi",       "asin",         "asinh",       "asinpi",       "atan",
        "atanh",       "atanpi",       "cbrt",         "ceil",         "cos",         "cosh",         "exp",
        "exp2",        "exp10",        "expm1",        "fabs",         "floor",       "log",          "log2",
        "log10",       "log1p",        "rint",         "round",        "rsqrt",       "sin",          "sinh",
        "sqrt",        "tan",          "tanh",         "trunc",        "half_cos",    "half_exp",     "half_exp2",
        "half_exp10",  "half_log",     "half_log2",    "half_log10",   "half_recip",  "half_rsqrt",   "half_sin",
        "half_sqrt",   "half_tan",     "native_cos",   "native_exp",   "native_exp2", "native_exp10", "native_log",
        "native_log2", "native_log10", "native_recip", "native_rsqrt", "native_sin",  "native_sqrt",  "native_tan",
        "degrees",     "radians",      "sign",         "length",       "normalize",   "fast_length",  "fast_normalize"})
    cases.push_back({std::string(name).find("length") != std::string::npos ? "float" : "v4float",
                     {"v4float"},
                     std::string(name) + " %a"});
  std::vector<Coverage> more = {
      {"float", {"float", "float"}, "atan2 %a %b"},
      {"float", {"float", "float"}, "atan2pi %a %b"},
      {"float", {"float", "float"}, "copysign %a %b"},
      {"float", {"float", "float"}, "fdim %a %b"},
      {"float", {"float", "float", "float"}, "fma %a %b %c"},
      {"float", {"float", "float"}, "fmax %a %b"},
      {"float", {"float", "float"}, "fmin %a %b"},
      {"float", {"float", "float"}, "fmod %a %b"},
      {"float", {"float", "_ptr_CrossWorkgroup_float"}, "fract %a %b"},
      {"float", {"float", "_ptr_CrossWorkgroup_uint"}, "frexp %a %b"},
      {"float", {"float", "float"}, "hypot %a %b"},
      {"float", {"float", "uint"}, "ldexp %a %b"},
      {"float", {"float", "float", "float"}, "mad %a %b %c"},
      {"float", {"float", "float"}, "maxmag %a %b"},
      {"float", {"float", "float"}, "minmag %a %b"},
      {"float", {"float", "_ptr_Function_float"}, "modf %a %b"},
      {"float", {"uint"}, "nan %a"},
      {"float", {"float", "float"}, "nextafter %a %b"},
      {"float", {"float", "float"}, "pow %a %b"},
      {"float", {"float", "uint"}, "pown %a %b"},
      {"float", {"float", "float"}, "powr %a %b"},
      {"float", {"float", "uint"}, "rootn %a %b"},
      {"float", {"float", "_ptr_Workgroup_float"}, "sincos %a %b"},
      {"float", {"float", "float"}, "half_divide %a %b"},
      {"float", {"float", "float"}, "half_powr %a %b"},
      {"float", {"float", "float"}, "native_divide %a %b"},
      {"float", {"float", "float"}, "native_powr %a %b"},
      {"v4float", {"v4float", "v4float", "v4float"}, "fclamp %a %b %c"},
      {"float", {"float", "float"}, "fmax_common %a %b"},
      {"float", {"float", "float"}, "fmin_common %a %b"},
      {"v4float", {"v4float", "v4float", "v4float"}, "mix %a %b %c"},
      {"v4float", {"v4float", "v4float"}, "step %a %b"},
      {"v4float", {"v4float", "v4float", "v4float"}, "smoothstep %a %b %c"},
      {"v3float", {"v3float", "v3float"}, "cross %a %b"},
      {"v4float", {"v4float", "v4float"}, "cross %a %b"},
      {"float", {"v4float", "v4float"}, "distance %a %b"},
      {"float", {"v4float", "v4float"}, "fast_distance %a %b"},
      {"double", {"double"}, "sqrt %a"},
      {"double", {"double", "double"}, "fmin %a %b"},
      {"half", {"half"}, "sin %a"},
      // Integer.
      {"v4uint", {"v4uint"}, "s_abs %a"},
      {"uint", {"uint"}, "u_abs %a"},
      {"uint", {"uint", "uint"}, "s_abs_diff %a %b"},
      {"uint", {"uint", "uint"}, "u_abs_diff %a %b"},
      {"uint", {"uint", "uint"}, "s_add_sat %a %b"},
      {"uint", {"uint", "uint"}, "u_add_sat %a %b"},
      {"uint", {"uint", "uint"}, "s_sub_sat %a %b"},
      {"uint", {"uint", "uint"}, "u_sub_sat %a %b"},
      {"uint", {"uint", "uint"}, "s_hadd %a %b"},
      {"uint", {"uint", "uint"}, "u_hadd %a %b"},
      {"uint", {"uint", "uint"}, "s_rhadd %a %b"},
      {"uint", {"uint", "uint"}, "u_rhadd %a %b"},
      {"uint", {"uint", "uint", "uint"}, "s_clamp %a %b %c"},
      {"uint", {"uint", "uint", "uint"}, "u_clamp %a %b %c"},
      {"ulong", {"ulong"}, "clz %a"},
      {"uchar", {"uchar"}, "ctz %a"},
      {"ulong", {"ulong"}, "popcount %a"},
      {"uint", {"uint", "uint", "uint"}, "s_mad_hi %a %b %c"},
      {"uint", {"uint", "uint", "uint"}, "u_mad_hi %a %b %c"},
      {"uint", {"uint", "uint", "uint"}, "s_mad_sat %a %b %c"},
      {"uint", {"uint", "uint", "uint"}, "u_mad_sat %a %b %c"},
      {"uint", {"uint", "uint"}, "s_max %a %b"},
      {"uint", {"uint", "uint"}, "u_max %a %b"},
      {"uint", {"uint", "uint"}, "s_min %a %b"},
      {"uint", {"uint", "uint"}, "u_min %a %b"},
      {"ulong", {"ulong", "ulong"}, "s_mul_hi %a %b"},
      {"uint", {"uint", "uint"}, "u_mul_hi %a %b"},
      {"v4uint", {"v4uint", "v4uint"}, "rotate %a %b"},
      {"uint", {"ushort", "ushort"}, "s_upsample %a %b"},
      {"uint", {"ushort", "ushort"}, "u_upsample %a %b"},
      {"uint", {"uint", "uint", "uint"}, "s_mad24 %a %b %c"},
      {"uint", {"uint", "uint", "uint"}, "u_mad24 %a %b %c"},
      {"uint", {"uint", "uint"}, "s_mul24 %a %b"},
      {"uint", {"uint", "uint"}, "u_mul24 %a %b"},
      {"v4float", {"v4float", "v4float", "v4float"}, "bitselect %a %b %c"},
      {"v4float", {"v4float", "v4float", "v4uint"}, "select %a %b %c"},
      {"uint", {"uint", "uint", "uint"}, "select %a %b %c"},
      // Vector loads and stores, shuffles, prefetch.
      {"void", {"v4float", "ulong", "_ptr_CrossWorkgroup_float"}, "vstoren %a %b %c"},
      {"float", {"ulong", "_ptr_CrossWorkgroup_half"}, "vload_half %a %b"},
      {"v4float", {"ulong", "_ptr_CrossWorkgroup_half"}, "vload_halfn %a %b 4"},
      {"v4float", {"ulong", "_ptr_CrossWorkgroup_half"}, "vloada_halfn %a %b 4"},
      {"void", {"float", "ulong", "_ptr_CrossWorkgroup_half"}, "vstore_half %a %b %c"},
      {"void", {"double", "ulong", "_ptr_CrossWorkgroup_half"}, "vstore_half_r %a %b %c RTZ"},
      {"void", {"v4float", "ulong", "_ptr_CrossWorkgroup_half"}, "vstore_halfn %a %b %c"},
      {"void", {"v4float", "ulong", "_ptr_CrossWorkgroup_half"}, "vstore_halfn_r %a %b %c RTP"},
      {"void", {"v4float", "ulong", "_ptr_CrossWorkgroup_half"}, "vstorea_halfn %a %b %c"},
      {"void", {"v4float", "ulong", "_ptr_CrossWorkgroup_half"}, "vstorea_halfn_r %a %b %c RTN"},
      {"v4float", {"v4float", "v4uint"}, "shuffle %a %b"},
      {"v4float", {"v4float", "v4float", "v4uint"}, "shuffle2 %a %b %c"},
      {"void", {"_ptr_CrossWorkgroup_float", "ulong"}, "prefetch %a %b"},
  };
  cases.insert(cases.end(), more.begin(), more.end());
  for (const Coverage& c : cases) {
    SCOPED_TRACE(c.call);
    lowered(extModule(c.result, c.params, c.call));
  }
}

// --- Integer semantics, through the evaluator, against C++ references. ---

uint64_t maskOf(uint32_t width) { return width == 64 ? ~0ull : (1ull << width) - 1; }
int64_t sext(uint64_t bits, uint32_t width) {
  return width == 64 ? int64_t(bits) : int64_t(bits << (64 - width)) >> (64 - width);
}

std::vector<uint64_t> edgeValues(uint32_t width) {
  uint64_t m = maskOf(width), signBit = 1ull << (width - 1);
  std::vector<uint64_t> values = {0, 1, 2, 3, m, m - 1, signBit, signBit - 1, signBit + 1, 0x55, 0xaa, 7, m >> 2};
  uint64_t state = width;
  for (int i = 0; i < 12; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    values.push_back((state >> 7) & m);
  }
  for (uint64_t& v : values) v &= m;
  return values;
}

using Reference = std::function<uint64_t(const std::vector<uint64_t>&, uint32_t)>;

Int128 saturate(Int128 value, uint32_t width, bool isSigned) {
  Int128 low = isSigned ? -(Int128(1) << (width - 1)) : 0;
  Int128 high = isSigned ? (Int128(1) << (width - 1)) - 1 : (Int128(1) << width) - 1;
  return value < low ? low : value > high ? high : value;
}

void checkInteger(const std::string& name, size_t arity, const Reference& reference) {
  const char* types[] = {"uchar", "ushort", "uint", "ulong"};
  const uint32_t widths[] = {8, 16, 32, 64};
  for (int t = 0; t < 4; ++t) {
    std::string call = name;
    std::vector<std::string> params;
    for (size_t i = 0; i < arity; ++i) {
      params.push_back(types[t]);
      call += std::string(" %") + "abc"[i];
    }
    auto module = lowered(extModule(types[t], params, call));
    ASSERT_TRUE(module);
    test::Evaluator evaluator(*module);
    std::vector<uint64_t> values = edgeValues(widths[t]);
    for (uint64_t a : values) {
      for (uint64_t b : arity > 1 ? values : std::vector<uint64_t>{0}) {
        for (uint64_t c : arity > 2 ? std::vector<uint64_t>{0, 1, maskOf(widths[t]), 1ull << (widths[t] - 1),
                                                            12345 & maskOf(widths[t])}
                                    : std::vector<uint64_t>{0}) {
          std::vector<uint64_t> args = {a, b, c};
          args.resize(arity);
          std::vector<EvalValue> inputs;
          for (uint64_t v : args) inputs.push_back(EvalValue{{v}, {}});
          uint64_t actual = evaluator.run("f", inputs).lanes.at(0);
          ASSERT_EQ(actual, reference(args, widths[t]) & maskOf(widths[t]))
              << name << " on " << types[t] << " " << a << " " << b << " " << c;
        }
      }
    }
  }
}

TEST(LowerOpenCLStdTest, SaturatingArithmeticMatchesOpenCL) {
  auto s = [](uint64_t v, uint32_t w) { return Int128(sext(v, w)); };
  auto u = [](uint64_t v, uint32_t) { return Int128(v); };
  checkInteger("s_add_sat", 2,
               [&](auto a, uint32_t w) { return uint64_t(saturate(s(a[0], w) + s(a[1], w), w, true)); });
  checkInteger("u_add_sat", 2,
               [&](auto a, uint32_t w) { return uint64_t(saturate(u(a[0], w) + u(a[1], w), w, false)); });
  checkInteger("s_sub_sat", 2,
               [&](auto a, uint32_t w) { return uint64_t(saturate(s(a[0], w) - s(a[1], w), w, true)); });
  checkInteger("u_sub_sat", 2,
               [&](auto a, uint32_t w) { return uint64_t(saturate(u(a[0], w) - u(a[1], w), w, false)); });
  checkInteger("s_mad_sat", 3,
               [&](auto a, uint32_t w) { return uint64_t(saturate(s(a[0], w) * s(a[1], w) + s(a[2], w), w, true)); });
  checkInteger("u_mad_sat", 3, [&](auto a, uint32_t w) {
    test::UInt128 product = test::UInt128(a[0]) * a[1], sum = product + a[2];
    bool overflow = sum < product || (sum >> w) != 0;
    return overflow ? maskOf(w) : uint64_t(sum);
  });
}

TEST(LowerOpenCLStdTest, HighHalvesAndHalfAddsMatchOpenCL) {
  auto s = [](uint64_t v, uint32_t w) { return Int128(sext(v, w)); };
  auto u = [](uint64_t v, uint32_t) { return Int128(v); };
  checkInteger("s_mul_hi", 2, [&](auto a, uint32_t w) { return uint64_t((s(a[0], w) * s(a[1], w)) >> w); });
  checkInteger("u_mul_hi", 2, [&](auto a, uint32_t w) { return uint64_t((test::UInt128(a[0]) * a[1]) >> w); });
  checkInteger("s_mad_hi", 3, [&](auto a, uint32_t w) { return uint64_t(((s(a[0], w) * s(a[1], w)) >> w) + a[2]); });
  checkInteger("u_mad_hi", 3, [&](auto a, uint32_t w) { return uint64_t(((test::UInt128(a[0]) * a[1]) >> w) + a[2]); });
  checkInteger("s_hadd", 2, [&](auto a, uint32_t w) { return uint64_t((s(a[0], w) + s(a[1], w)) >> 1); });
  checkInteger("u_hadd", 2, [&](auto a, uint32_t w) { return uint64_t((u(a[0], w) + u(a[1], w)) >> 1); });
  checkInteger("s_rhadd", 2, [&](auto a, uint32_t w) { return uint64_t((s(a[0], w) + s(a[1], w) + 1) >> 1); });
  checkInteger("u_rhadd", 2, [&](auto a, uint32_t w) { return uint64_t((u(a[0], w) + u(a[1], w) + 1) >> 1); });
  checkInteger("s_abs", 1, [&](auto a, uint32_t w) {
    Int128 v = s(a[0], w);
    return uint64_t(v < 0 ? -v : v);
  });
  checkInteger("s_abs_diff", 2, [&](auto a, uint32_t w) {
    Int128 d = s(a[0], w) - s(a[1], w);
    return uint64_t(d < 0 ? -d : d);
  });
  checkInteger("u_abs_diff", 2, [&](auto a, uint32_t w) {
    Int128 d = u(a[0], w) - u(a[1], w);
    return uint64_t(d < 0 ? -d : d);
  });
}

TEST(LowerOpenCLStdTest, BitCountsRotateAndMinMaxMatchOpenCL) {
  checkInteger("clz", 1, [](auto a, uint32_t w) { return uint64_t(std::countl_zero(a[0]) - (64 - w)); });
  checkInteger("ctz", 1, [](auto a, uint32_t w) { return a[0] == 0 ? w : uint64_t(std::countr_zero(a[0])); });
  checkInteger("popcount", 1, [](auto a, uint32_t) { return uint64_t(std::popcount(a[0])); });
  checkInteger("rotate", 2, [](auto a, uint32_t w) {
    uint64_t s = a[1] % w;
    return s == 0 ? a[0] : (a[0] << s) | (a[0] >> (w - s));
  });
  checkInteger("s_max", 2, [](auto a, uint32_t w) { return sext(a[0], w) > sext(a[1], w) ? a[0] : a[1]; });
  checkInteger("u_min", 2, [](auto a, uint32_t) { return std::min(a[0], a[1]); });
  checkInteger("s_clamp", 3, [](auto a, uint32_t w) {
    int64_t x = sext(a[0], w), lo = sext(a[1], w), hi = sext(a[2], w);
    return uint64_t(std::min(std::max(x, lo), hi));  // OpenCL leaves lo > hi undefined; this is GLSL's answer
  });
  checkInteger("bitselect", 3, [](auto a, uint32_t) { return (a[0] & ~a[2]) | (a[1] & a[2]); });
  checkInteger("select", 3, [](auto a, uint32_t) { return a[2] != 0 ? a[1] : a[0]; });
}

// --- Float special cases, through the evaluator. ---

void checkFloat(const std::string& name, size_t arity, const std::function<double(double, double)>& reference) {
  std::vector<std::string> params(arity, "float");
  std::string call = name + (arity > 1 ? " %a %b" : " %a");
  auto module = lowered(extModule("float", params, call));
  ASSERT_TRUE(module);
  test::Evaluator evaluator(*module);
  std::vector<float> values = {0.0f, -0.0f,  0.5f,   -0.5f,      1.5f,     2.5f,      -2.5f, 0.49999997f,
                               3.0f, -7.25f, 1e-45f, 8388609.0f, INFINITY, -INFINITY, NAN};
  for (float a : values) {
    for (float b : arity > 1 ? values : std::vector<float>{0.0f}) {
      float actual = std::bit_cast<float>(uint32_t(
          evaluator.run("f", {EvalValue{{std::bit_cast<uint32_t>(a)}, {}}, EvalValue{{std::bit_cast<uint32_t>(b)}, {}}})
              .lanes.at(0)));
      float expected = float(reference(a, b));
      if (a == 0 && b == 0 && actual == 0) continue;  // OpenCL lets fmin(-0, +0) be either zero
      if (std::isnan(expected)) {
        EXPECT_TRUE(std::isnan(actual)) << name << " " << a << " " << b << " gave " << actual;
      } else {
        EXPECT_EQ(std::bit_cast<uint32_t>(actual), std::bit_cast<uint32_t>(expected))
            << name << " " << a << " " << b << " gave " << actual << ", not " << expected;
      }
    }
  }
}

TEST(LowerOpenCLStdTest, FloatSpecialCasesFollowOpenCL) {
  checkFloat("fmin", 2, [](double a, double b) { return std::fmin(a, b); });
  checkFloat("fmax", 2, [](double a, double b) { return std::fmax(a, b); });
  checkFloat("round", 1, [](double a, double) { return std::round(a); });
  checkFloat("copysign", 2, [](double a, double b) { return std::copysign(a, b); });
  checkFloat("fdim", 2, [](double a, double b) { return std::fdim(a, b); });
  checkFloat("nextafter", 2, [](double a, double b) { return std::nextafter(float(a), float(b)); });
  checkFloat("sign", 1, [](double a, double) { return std::isnan(a) ? 0.0 : a > 0 ? 1.0 : a < 0 ? -1.0 : a; });
  checkFloat("maxmag", 2, [](double a, double b) {
    return std::fabs(a) > std::fabs(b) ? a : std::fabs(b) > std::fabs(a) ? b : std::fmax(a, b);
  });
}

// --- Geometric functions, through the evaluator. ---

// extModule with the double vectors too.
std::string geometricModule(const std::string& result, const std::vector<std::string>& params,
                            const std::string& call) {
  std::string text = extModule(result, params, call);
  text.insert(text.find("%_ptr_CrossWorkgroup_float"),
              "%v2double = OpTypeVector %double 2\n%v3double = OpTypeVector %double 3\n"
              "%v4double = OpTypeVector %double 4\n");
  return text;
}

template <typename T>
std::vector<T> geometricComponents() {
  using L = std::numeric_limits<T>;
  std::vector<T> values = {T(0),     T(-0.0),         T(1),          T(-3),          T(0.5),        L::max(), -L::max(),
                           L::min(), L::denorm_min(), L::infinity(), -L::infinity(), L::quiet_NaN()};
  for (int e : {-1070, -700, -400, -300, -149, -126, -100, -64, -40, -20, 20, 40, 64, 100, 127, 300, 400, 700, 1023}) {
    T v = std::ldexp(T(1.375), e);
    if (std::isfinite(v) && v != 0) values.push_back(v), values.push_back(-std::ldexp(T(1.75), e - 1));
  }
  return values;
}

template <typename T>
uint64_t bitsOf(T v) {
  if constexpr (sizeof(T) == 4)
    return std::bit_cast<uint32_t>(v);
  else
    return std::bit_cast<uint64_t>(v);
}
template <typename T>
T fromBits(uint64_t bits) {
  if constexpr (sizeof(T) == 4)
    return std::bit_cast<T>(uint32_t(bits));
  else
    return std::bit_cast<T>(bits);
}

// |actual - exact| in units of the last place of T at the exact value.
template <typename T>
double ulps(T actual, long double exact) {
  if (std::isnan(exact)) return std::isnan(actual) ? 0 : INFINITY;
  if (std::isinf(static_cast<T>(exact)) || std::isinf(actual)) return static_cast<T>(exact) == actual ? 0 : INFINITY;
  int exponent = exact == 0 ? std::numeric_limits<T>::min_exponent - 1 : std::ilogb(exact);
  exponent = std::max(exponent, std::numeric_limits<T>::min_exponent - 1);
  long double ulp = std::ldexp(1.0L, exponent - std::numeric_limits<T>::digits + 1);
  return double(std::fabs(static_cast<long double>(actual) - exact) / ulp);
}

// length, distance and normalize of vectors with huge, tiny and ordinary components: no overflow
// or underflow in between (OpenCL requires it; GLSL.std.450's Length gave inf for (2^64, 0)),
// within a couple of ULP of the exact value (the lowering rounds a few times; OpenCL's CTS allows
// 3 ULP plus about one per component), and OpenCL's special cases.
template <typename T>
void checkGeometric(const std::string& scalar, const std::string& vector, uint32_t n) {
  std::vector<T> components = geometricComponents<T>();
  auto lengthModule = lowered(geometricModule(scalar, {vector}, "length %a"));
  auto distanceModule = lowered(geometricModule(scalar, {vector, vector}, "distance %a %b"));
  auto normalizeModule = lowered(geometricModule(vector, {vector}, "normalize %a"));
  ASSERT_TRUE(lengthModule && distanceModule && normalizeModule);
  test::Evaluator length(*lengthModule), distance(*distanceModule), normalize(*normalizeModule);
  size_t count = components.size();
  for (size_t i = 0; i < count * count; ++i) {
    // Vectors of two of the values (the first repeated), rotated through the components.
    std::vector<T> v(n);
    for (uint32_t k = 0; k < n; ++k) v[k] = k == i % n ? components[i % count] : components[(i / count + k) % count];
    test::EvalValue a, zero;
    long double sum = 0;
    bool anyNan = false, anyInf = false;
    for (T x : v) {
      a.lanes.push_back(bitsOf(x));
      zero.lanes.push_back(bitsOf(T(0)));
      sum += static_cast<long double>(x) * x;
      anyNan |= std::isnan(x), anyInf |= std::isinf(x);
    }
    long double exact = std::sqrt(sum);
    std::string where = ::testing::PrintToString(v);
    T len = fromBits<T>(length.run("f", {a}).lanes.at(0));
    EXPECT_LE(ulps(len, exact), 2.0) << "length" << where << " = " << len;
    T dist = fromBits<T>(distance.run("f", {a, zero}).lanes.at(0));
    EXPECT_LE(ulps(dist, exact), 2.0) << "distance" << where << " = " << dist;
    test::EvalValue unit = normalize.run("f", {a});
    for (uint32_t k = 0; k < n; ++k) {
      T actual = fromBits<T>(unit.lanes.at(k));
      long double expected;
      if (anyNan) {
        expected = NAN;
      } else if (anyInf) {
        long double infinities = 0;
        for (T x : v) infinities += std::isinf(x);
        expected = std::isinf(v[k]) ? std::copysign(1.0L / std::sqrt(infinities), v[k]) : std::copysign(0.0L, v[k]);
      } else if (sum == 0) {
        expected = v[k];  // the zero vector is itself, signs included
      } else {
        expected = v[k] / exact;
      }
      EXPECT_LE(ulps(actual, expected), 2.5) << "normalize" << where << "[" << k << "] = " << actual;
      if (expected == 0 && !std::isnan(actual)) {
        EXPECT_EQ(std::signbit(actual), std::signbit(expected)) << "normalize" << where << "[" << k << "]";
      }
    }
  }
}

TEST(LowerOpenCLStdTest, LengthDistanceAndNormalizeNeitherOverflowNorUnderflow) {
  checkGeometric<float>("float", "v2float", 2);
  checkGeometric<float>("float", "v3float", 3);
  checkGeometric<float>("float", "v4float", 4);
  checkGeometric<double>("double", "v2double", 2);
  checkGeometric<double>("double", "v4double", 4);
}

TEST(LowerOpenCLStdTest, HalfGeometricFunctionsComputeInFloat) {
  for (const char* call : {"length %a", "distance %a %b", "normalize %a"}) {
    std::string result = std::string(call).starts_with("normalize") ? "v4half" : "half";
    std::string text = loweredBody(extModule(result, {"v4half", "v4half"}, call));
    EXPECT_NE(text.find("OpFConvert %v4float %a"), std::string::npos) << text;
    EXPECT_EQ(text.find("OpDot %half"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace cl2vk
