// emulate-denormal-flush: before/after tests of the test-only pass that makes a device keeping
// float denormals compute as NVIDIA's FTZ hardware does: the float operands and results of
// arithmetic, comparisons, conversions and GLSL.std.450 instructions are flushed to zero of their
// sign by integer selects; loads, stores, bit casts and selects pass denormals through.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// A kernel k(__global float* in, __global float* out) with `body` between the load of in[0] (%x)
// and the store of %result to out[0].
std::string kernel(const std::string& body) {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
         %ext = OpExtInstImport "GLSL.std.450"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
    %float_1 = OpConstant %float 1
   %float_tiny = OpConstant %float 0x1p-140
  %_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_float %_ptr_CrossWorkgroup_float
          %k = OpFunction %void None %fn
         %in = OpFunctionParameter %_ptr_CrossWorkgroup_float
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_float
      %entry = OpLabel
          %x = OpLoad %float %in Aligned 4
)" + body +
         R"(
               OpStore %out %result Aligned 4
               OpReturn
               OpFunctionEnd
)";
}

// Zero of `value`'s sign where it is a denormal (the pass's integer select), as %`name`.
std::string flush(const std::string& name, const std::string& value) {
  return "%" + name + "_bits = OpBitcast %uint %" + value + "\n%" + name + "_magnitude = OpBitwiseAnd %uint %" + name +
         "_bits %uint_2147483647\n%" + name + "_tiny = OpULessThan %bool %" + name + "_magnitude %uint_8388608\n%" +
         name + "_sign = OpBitwiseAnd %uint %" + name + "_bits %uint_2147483648\n%" + name +
         "_zero = OpBitcast %float %" + name + "_sign\n%" + name + " = OpSelect %float %" + name + "_tiny %" + name +
         "_zero %" + value + "\n";
}

Target flushing() {
  Target target;
  target.emulateFloat32DenormalFlush = true;
  return target;
}

// The loaded operand is flushed before the add (a normal constant needs nothing), and the sum
// after it; the comparison then takes the flushed sum as it is and a flushed denormal constant.
// The select and the store move denormals untouched; FAbs flushes its operand and its result.
TEST(EmulateDenormalFlushTest, ArithmeticComparisonsAndGlslFlushOperandsAndResults) {
  std::string body = R"(
        %sum = OpFAdd %float %x %float_1
       %less = OpFOrdLessThan %bool %sum %float_tiny
     %chosen = OpSelect %float %less %sum %x
     %result = OpExtInst %float %ext FAbs %chosen
)";
  std::string expected = kernel(flush("x_flushed", "x") + "%sum = OpFAdd %float %x_flushed %float_1\n" +
                                flush("sum_flushed", "sum") + flush("tiny_flushed", "float_tiny") +
                                "%less = OpFOrdLessThan %bool %sum_flushed %tiny_flushed\n"
                                "%chosen = OpSelect %float %less %sum_flushed %x\n" +
                                flush("chosen_flushed", "chosen") +
                                "%abs = OpExtInst %float %ext FAbs %chosen_flushed\n" + flush("result", "abs"));
  // The new constants follow the module's.
  auto withConstants = [](std::string text) {
    std::string constants =
        "%uint_2147483647 = OpConstant %uint 2147483647\n%uint_8388608 = OpConstant %uint 8388608\n"
        "%uint_2147483648 = OpConstant %uint 2147483648\n";
    return text.replace(text.find("%k = OpFunction"), 0, constants);
  };
  test::expectPassOutput("emulate-denormal-flush", kernel(body), withConstants(expected), flushing());
}

// Conversions flush too: a float operand converted to an integer is flushed first (an integer
// converted to float is never a denormal). Bit casts do not flush.
TEST(EmulateDenormalFlushTest, ConversionsFlushButBitCastsDoNot) {
  std::string body = R"(
       %bits = OpBitcast %uint %x
    %integer = OpConvertFToU %uint %x
     %result = OpConvertUToF %float %integer
)";
  std::string expected = kernel("%bits = OpBitcast %uint %x\n" + flush("x_flushed", "x") +
                                "%integer = OpConvertFToU %uint %x_flushed\n"
                                "%result = OpConvertUToF %float %integer\n");
  std::string constants =
      "%uint_2147483647 = OpConstant %uint 2147483647\n%uint_8388608 = OpConstant %uint 8388608\n"
      "%uint_2147483648 = OpConstant %uint 2147483648\n";
  expected.replace(expected.find("%k = OpFunction"), 0, constants);
  test::expectPassOutput("emulate-denormal-flush", kernel(body), expected, flushing());
}

// Division as NVIDIA's: the dividend times the divisor's reciprocal, which is flushed (zero for a
// divisor above 2^126, as x / FLT_MAX gives there).
TEST(EmulateDenormalFlushTest, DivisionIsTheDividendTimesTheFlushedReciprocal) {
  std::string expected =
      kernel(flush("x_flushed", "x") + "%reciprocal = OpFDiv %float %float_1 %x_flushed\n" +
             flush("reciprocal_flushed", "reciprocal") + "%quotient = OpFMul %float %float_1 %reciprocal_flushed\n" +
             flush("result", "quotient"));
  std::string constants =
      "%uint_2147483647 = OpConstant %uint 2147483647\n%uint_8388608 = OpConstant %uint 8388608\n"
      "%uint_2147483648 = OpConstant %uint 2147483648\n";
  expected.replace(expected.find("%k = OpFunction"), 0, constants);
  test::expectPassOutput("emulate-denormal-flush", kernel("%result = OpFDiv %float %float_1 %x\n"), expected,
                         flushing());
}

// Off (every real device), the pass leaves the module as it is.
TEST(EmulateDenormalFlushTest, DoesNothingUnlessTheTargetAsks) {
  std::string module = kernel("%result = OpFMul %float %x %float_tiny\n");
  test::PassRun run = test::expectPassOutput("emulate-denormal-flush", module, module, Target{});
  EXPECT_TRUE(run.module);
}

}  // namespace
}  // namespace cl2vk
