#include "passes/functions/link_builtins.h"

#include <gtest/gtest.h>

#include "pass_test_util.h"
#include "passes/functions/builtin_library.h"
#include "test_util.h"

namespace cl2vk {
namespace {

using test::count;

// A function `f` whose body is `body` (ending in %r, returned), over float, float4, half and
// double parameters %x, %y, %v, %w, %h, %d, %e.
std::string moduleWith(const std::string& result, const std::string& body) {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpCapability Float16
               OpCapability Float64
        %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpName %f "f"
               OpName %x "x"
               OpName %y "y"
               OpName %v "v"
               OpName %w "w"
               OpName %h "h"
               OpName %d "d"
               OpName %e "e"
       %half = OpTypeFloat 16
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
    %v4float = OpTypeVector %float 4
         %fn = OpTypeFunction %)" +
         result + R"( %float %float %v4float %v4float %half %double %double
          %f = OpFunction %)" +
         result + R"( None %fn
          %x = OpFunctionParameter %float
          %y = OpFunctionParameter %float
          %v = OpFunctionParameter %v4float
          %w = OpFunctionParameter %v4float
          %h = OpFunctionParameter %half
          %d = OpFunctionParameter %double
          %e = OpFunctionParameter %double
      %entry = OpLabel
)" + body +
         R"(
               OpReturnValue %r
               OpFunctionEnd
)";
}

TEST(LinkBuiltins, NativeFormsStayForLowerOpenclStd) {
  // native_sin keeps the fast instruction.
  std::string body = R"(
          %r = OpExtInst %float %std native_sin %x)";
  test::expectPassOutput("link-builtins", moduleWith("float", body), moduleWith("float", body));
}

// Half cos and fmod are the float functions of the widened operands, rounded back once (NVIDIA's
// half instructions missed OpenCL's bounds); with relaxed math, half cos keeps GLSL.std.450's
// instruction and fmod, exact under any option, still goes through float.
TEST(LinkBuiltins, HalfFunctionsCallTheFloatFunction) {
  std::string body = R"(
          %s = OpExtInst %half %std cos %h
          %g = OpExtInst %half %std fmod %h %s
          %r = OpFConvert %float %g)";
  test::PassRun run = test::runPass("link-builtins", moduleWith("float", body));
  ASSERT_TRUE(run.module) << run.error;
  std::string text = test::disassemble(*run.module);
  EXPECT_EQ(count(text, " cos "), 0u) << text;
  EXPECT_EQ(count(text, " fmod "), 0u) << text;
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_cos_f32_fused"), 1u) << text;
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_fmod_f32_fused"), 1u) << text;
  EXPECT_EQ(count(text, "= OpFConvert %half"), 2u) << text;
  Target relaxed;
  relaxed.relaxedMath = true;
  run = test::runPass("link-builtins", moduleWith("float", body), relaxed);
  ASSERT_TRUE(run.module) << run.error;
  text = test::disassemble(*run.module);
  EXPECT_EQ(count(text, " cos %h"), 1u) << text;
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_fmod_f32_fused"), 1u) << text;
}

// half_cos, whose GLSL.std.450 instruction missed even its 8192 ULP on NVIDIA beyond [-pi, pi], is
// the precise function; half_exp keeps its instruction; with relaxed math both do.
TEST(LinkBuiltins, HalfFormsMissingTheirBoundCallThePreciseFunction) {
  std::string body = R"(
         %hc = OpExtInst %float %std half_cos %x
         %he = OpExtInst %float %std half_exp %hc
          %r = OpFAdd %float %hc %he)";
  test::PassRun run = test::runPass("link-builtins", moduleWith("float", body));
  ASSERT_TRUE(run.module) << run.error;
  std::string text = test::disassemble(*run.module);
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_cos_f32_fused %x"), 1u) << text;
  EXPECT_EQ(count(text, " half_exp "), 1u) << text;
  Target relaxed;
  relaxed.relaxedMath = true;
  test::expectPassOutput("link-builtins", moduleWith("float", body), moduleWith("float", body), relaxed);
}

TEST(LinkBuiltins, FmodCallsTheLibraryFunctionForItsWidth) {
  test::PassRun run = test::runPass("link-builtins", moduleWith("double", R"(
          %a = OpExtInst %float %std fmod %x %y
          %b = OpExtInst %float %std fmod %y %x
          %r = OpExtInst %double %std fmod %d %e)"));
  ASSERT_TRUE(run.module) << run.error;
  std::string text = test::disassemble(*run.module);
  EXPECT_EQ(count(text, " fmod "), 0u) << text;
  // Two float calls share one imported function; the double call has its own (the fma forms,
  // which the default target takes, each calling the long division for what they leave out).
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_fmod_f32_fused %x %y"), 1u) << text;
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_fmod_f32_fused %y %x"), 1u) << text;
  EXPECT_EQ(count(text, "OpFunctionCall %double %__cl2vk_fmod_f64_fused %d %e"), 1u) << text;
  EXPECT_EQ(count(text, "%__cl2vk_fmod_f32_fused = OpFunction"), 1u) << text;
  EXPECT_EQ(count(text, "%__cl2vk_fmod_f32 = OpFunction"), 1u) << text;
  EXPECT_EQ(count(text, "LinkageAttributes"), 0u) << text;
}

// -cl-fast-relaxed-math / -cl-unsafe-math-optimizations (Target::relaxedMath): float sin keeps
// the GLSL.std.450 instruction lower-opencl-std gives it; double sin, and float fmod (exact under
// any option), still call the library.
TEST(LinkBuiltins, RelaxedMathKeepsTheFastFloatInstructions) {
  std::string body = R"(
          %s = OpExtInst %float %std sin %x
          %m = OpExtInst %float %std fmod %x %y
          %a = OpFAdd %float %s %m
          %c = OpFConvert %double %a
          %t = OpExtInst %double %std sin %d
          %r = OpFAdd %double %c %t)";
  Target relaxed;
  relaxed.relaxedMath = true;
  test::PassRun run = test::runPass("link-builtins", moduleWith("double", body), relaxed);
  ASSERT_TRUE(run.module) << run.error;
  std::string text = test::disassemble(*run.module);
  EXPECT_EQ(count(text, " sin %x"), 1u) << text;  // the OpenCL.std instruction, as it was
  EXPECT_EQ(count(text, "__cl2vk_sin_f32"), 0u) << text;
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_fmod_f32_fused %x %y"), 1u) << text;
  EXPECT_EQ(count(text, "OpFunctionCall %double %__cl2vk_sin_f64_fused %d"), 1u) << text;
  // Without the option, float sin comes from the library too.
  run = test::runPass("link-builtins", moduleWith("double", body));
  ASSERT_TRUE(run.module) << run.error;
  text = test::disassemble(*run.module);
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_sin_f32_fused %x"), 1u) << text;
}

// Where the target takes the library's forms built on fma (Target::fusedLibraryForms), float sin
// is __cl2vk_sin_f32_fused, whose fma calls stay the instruction on a driver whose Fma is fused and
// become the library's exact fma where it is not; without the flag, the exact-reduction sin.
TEST(LinkBuiltins, FormsBuiltOnFmaWhereTheTargetTakesThem) {
  const std::string module = moduleWith("float", R"(
          %r = OpExtInst %float %std sin %x)");
  // The module after link-builtins for `target`, as text.
  auto linked = [&module](const Target& target) {
    test::PassRun run = test::runPass("link-builtins", module, target);
    EXPECT_TRUE(run.module) << run.error;
    return run.module ? test::disassemble(*run.module) : std::string();
  };
  std::string text = linked(Target{});
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_sin_f32_fused %x"), 1u) << text;
  EXPECT_GE(count(text, " fma "), 3u) << text;
  EXPECT_EQ(count(text, "__cl2vk_fma_f32"), 0u) << text;
  Target unfused;
  unfused.fusedFma = false;
  text = linked(unfused);
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_sin_f32_fused %x"), 1u) << text;
  EXPECT_EQ(count(text, " fma "), 0u) << text;
  EXPECT_GE(count(text, "OpFunctionCall %float %__cl2vk_fma_f32"), 3u) << text;
  unfused.fusedLibraryForms = false;
  text = linked(unfused);
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_sin_f32 %x"), 1u) << text;
  EXPECT_EQ(count(text, "_fused"), 0u) << text;
  EXPECT_EQ(count(text, "fma"), 0u) << text;
}

// Half erf, which GLSL.std.450 lacks, is the float function of the widened operand, rounded
// back; half ilogb's int result needs no rounding.
TEST(LinkBuiltins, HalfFunctionsGlslLacksCallTheFloatFunction) {
  std::string module = moduleWith("float", R"(
          %g = OpExtInst %half %std erf %h
          %n = OpExtInst %int %std ilogb %h
          %c = OpFConvert %float %g
          %m = OpConvertSToF %float %n
          %r = OpFAdd %float %c %m)");
  module.insert(module.find("%v4float = OpTypeVector"), "%int = OpTypeInt 32 0\n");
  test::PassRun run = test::runPass("link-builtins", module);
  ASSERT_TRUE(run.module) << run.error;
  std::string text = test::disassemble(*run.module);
  EXPECT_EQ(count(text, " erf "), 0u) << text;
  EXPECT_EQ(count(text, " ilogb "), 0u) << text;
  EXPECT_EQ(count(text, "OpFConvert %float %h"), 2u) << text;
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_erf_f32"), 1u) << text;
  EXPECT_EQ(count(text, "OpFunctionCall %uint %__cl2vk_ilogb_f32"), 1u) << text;
  EXPECT_EQ(count(text, "= OpFConvert %half"), 1u) << text;
}

TEST(LinkBuiltins, OnlyTheFunctionsCalledAreImported) {
  test::PassRun run = test::runPass("link-builtins", moduleWith("float", R"(
          %r = OpExtInst %float %std atan2pi %x %y)"));
  ASSERT_TRUE(run.module) << run.error;
  std::string text = test::disassemble(*run.module);
  EXPECT_EQ(count(text, "%__cl2vk_atan2pi_f32 = OpFunction"), 1u) << text;
  EXPECT_EQ(count(text, "fmod"), 0u) << text;
  EXPECT_EQ(count(text, "__cl2vk_asin"), 0u) << text;
  EXPECT_EQ(count(text, "__cl2vk_acos"), 0u) << text;
  EXPECT_EQ(count(text, "OpTypeFloat 64"), 1u) << text;  // the module's own double, nothing added
}

TEST(LinkBuiltins, AVectorCallsTheScalarFunctionPerComponent) {
  test::PassRun run = test::runPass("link-builtins", moduleWith("v4float", R"(
          %r = OpExtInst %v4float %std fmod %v %w)"));
  ASSERT_TRUE(run.module) << run.error;
  std::string text = test::disassemble(*run.module);
  EXPECT_EQ(count(text, "OpFunctionCall %float %__cl2vk_fmod_f32_fused"), 4u) << text;
  EXPECT_EQ(count(text, "OpCompositeExtract %float %v"), 4u) << text;
  EXPECT_EQ(count(text, "OpCompositeExtract %float %w"), 4u) << text;
  EXPECT_EQ(count(text, "OpCompositeConstruct %v4float"), 1u) << text;
}

TEST(LinkBuiltins, SincosCallsSinAndStoresCos) {
  std::string text = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpCapability Float64
        %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpName %f "f"
               OpName %x "x"
               OpName %p "p"
     %double = OpTypeFloat 64
%_ptr_CrossWorkgroup_double = OpTypePointer CrossWorkgroup %double
         %fn = OpTypeFunction %double %double %_ptr_CrossWorkgroup_double
          %f = OpFunction %double None %fn
          %x = OpFunctionParameter %double
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_double
      %entry = OpLabel
          %r = OpExtInst %double %std sincos %x %p
               OpReturnValue %r
               OpFunctionEnd
)";
  test::PassRun run = test::runPass("link-builtins", text);
  ASSERT_TRUE(run.module) << run.error;
  std::string result = test::disassemble(*run.module);
  EXPECT_EQ(count(result, "sincos"), 0u) << result;
  EXPECT_EQ(count(result, "OpFunctionCall %double %__cl2vk_sin_f64_fused %x"), 1u) << result;
  EXPECT_EQ(count(result, "OpFunctionCall %double %__cl2vk_cos_f64_fused %x"), 1u) << result;
  EXPECT_EQ(count(result, "OpStore %p"), 1u) << result;
}

TEST(LinkBuiltins, RemquoStoresTheQuotientBitsAsIntegers) {
  std::string text = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
        %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpName %f "f"
               OpName %x "x"
               OpName %y "y"
               OpName %q "q"
      %float = OpTypeFloat 32
       %uint = OpTypeInt 32 0
%_ptr_Function_uint = OpTypePointer Function %uint
         %fn = OpTypeFunction %float %float %float %_ptr_Function_uint
          %f = OpFunction %float None %fn
          %x = OpFunctionParameter %float
          %y = OpFunctionParameter %float
          %q = OpFunctionParameter %_ptr_Function_uint
      %entry = OpLabel
          %r = OpExtInst %float %std remquo %x %y %q
               OpReturnValue %r
               OpFunctionEnd
)";
  test::PassRun run = test::runPass("link-builtins", text);
  ASSERT_TRUE(run.module) << run.error;
  std::string result = test::disassemble(*run.module);
  EXPECT_EQ(count(result, " remquo "), 0u) << result;
  EXPECT_EQ(count(result, "OpFunctionCall %float %__cl2vk_remquo_f32 %x %y"), 1u) << result;
  EXPECT_EQ(count(result, "OpFunctionCall %uint %__cl2vk_remquo_quotient_f32 %x %y"), 1u) << result;
  EXPECT_EQ(count(result, "OpStore %q"), 1u) << result;
}

TEST(LinkBuiltins, AnIntegerVectorOperandIsSplitIntoIntegers) {
  std::string text = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpCapability Float64
        %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpName %f "f"
               OpName %x "x"
               OpName %n "n"
     %double = OpTypeFloat 64
       %uint = OpTypeInt 32 0
   %v2double = OpTypeVector %double 2
     %v2uint = OpTypeVector %uint 2
         %fn = OpTypeFunction %v2double %v2double %v2uint
          %f = OpFunction %v2double None %fn
          %x = OpFunctionParameter %v2double
          %n = OpFunctionParameter %v2uint
      %entry = OpLabel
          %r = OpExtInst %v2double %std pown %x %n
               OpReturnValue %r
               OpFunctionEnd
)";
  test::PassRun run = test::runPass("link-builtins", text);
  ASSERT_TRUE(run.module) << run.error;
  std::string result = test::disassemble(*run.module);
  EXPECT_EQ(count(result, "OpCompositeExtract %uint %n"), 2u) << result;
  EXPECT_EQ(count(result, "OpFunctionCall %double %__cl2vk_pown_f64"), 2u) << result;
}

TEST(LinkBuiltins, TheLibraryHasEveryFunctionThePassCalls) {
  // Every module of the library parses, and each function is there for float and double, not half.
  for (const char* name : {"fmod",   "remainder", "remquo", "remquo_quotient", "asin",         "acos", "atan",  "atan2",
                           "asinpi", "acospi",    "atanpi", "atan2pi",         "exp",          "exp2", "exp10", "expm1",
                           "log",    "log2",      "log10",  "log1p",           "sinh",         "cosh", "tanh",  "sin",
                           "cos",    "tan",       "sinpi",  "cospi",           "tanpi",        "pow",  "pown",  "powr",
                           "rootn",  "cbrt",      "asinh",  "acosh",           "atanh",        "erf",  "erfc",  "ilogb",
                           "logb",   "tgamma",    "lgamma", "lgamma_r",        "lgamma_r_sign"}) {
    for (const char* width : {"_f32", "_f64"}) {
      EXPECT_NE(findBuiltin(std::string("__cl2vk_") + name + width).module, nullptr) << name << width;
    }
    EXPECT_EQ(findBuiltin(std::string("__cl2vk_") + name + "_f16").module, nullptr) << name;
  }
  EXPECT_EQ(findBuiltin("__cl2vk_no_such_function").module, nullptr);
}

}  // namespace
}  // namespace cl2vk
