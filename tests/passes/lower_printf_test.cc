// lower-printf: before/after tests of printf calls becoming records in the hidden printf buffer,
// and of what the pass tells the runtime in the reflection.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

const std::string kHeader = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int8
        %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %x "x"
               OpName %str "str"
)";

// The types and the string "%d" of the kernels here.
const std::string kTypes = R"(
      %uchar = OpTypeInt 8 0
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %ulong_0 = OpConstant %ulong 0
    %ulong_3 = OpConstant %ulong 3
   %uchar_37 = OpConstant %uchar 37
  %uchar_100 = OpConstant %uchar 100
    %uchar_0 = OpConstant %uchar 0
       %void = OpTypeVoid
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
%_arr_uchar_ulong_3 = OpTypeArray %uchar %ulong_3
%_ptr_UniformConstant__arr_uchar_ulong_3 = OpTypePointer UniformConstant %_arr_uchar_ulong_3
%_ptr_UniformConstant_uchar = OpTypePointer UniformConstant %uchar
         %fn = OpTypeFunction %void %float
   %contents = OpConstantComposite %_arr_uchar_ulong_3 %uchar_37 %uchar_100 %uchar_0
        %str = OpVariable %_ptr_UniformConstant__arr_uchar_ulong_3 UniformConstant %contents
)";

// kernel void k(float x) { printf("%d", x); } as llvm-spirv writes it: the float promoted to double.
const std::string kPrintFloat = kHeader + kTypes + R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %float
      %entry = OpLabel
        %fmt = OpInBoundsPtrAccessChain %_ptr_UniformConstant_uchar %str %ulong_0 %ulong_0
          %d = OpFConvert %double %x
     %printf = OpExtInst %uint %std printf %fmt %d
               OpReturn
               OpFunctionEnd
)";

// The kernel gets a hidden last parameter, the buffer; the call reserves two words (the format's
// index and the float's bits) with one atomic add and writes them only when they fit within the
// capacity in word 1; the record starts after the two header words. The promotion to double and
// the format's access chain go: the record holds the float itself.
TEST(LowerPrintfTest, ACallBecomesARecordInTheHiddenBuffer) {
  test::PassRun run = test::expectPassOutput("lower-printf", kPrintFloat, kHeader + R"(
               OpName %buffer "cl2vk.printf_buffer"
)" + kTypes + R"(
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
    %newtype = OpTypeFunction %void %float %_ptr_CrossWorkgroup_uint
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
     %uint_1 = OpConstant %uint 1
       %bool = OpTypeBool
    %uint_m1 = OpConstant %uint 4294967295
          %k = OpFunction %void None %newtype
          %x = OpFunctionParameter %float
     %buffer = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
       %bits = OpBitcast %uint %x
   %reserved = OpAtomicIAdd %uint %buffer %uint_1 %uint_0 %uint_2
%capacity_at = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %buffer %uint_1
   %capacity = OpLoad %uint %capacity_at Aligned 4
    %oneFits = OpULessThanEqual %bool %uint_2 %capacity
       %room = OpISub %uint %capacity %uint_2
    %allFit = OpULessThanEqual %bool %reserved %room
       %fits = OpLogicalAnd %bool %oneFits %allFit
               OpBranchConditional %fits %write %done
      %write = OpLabel
      %first = OpIAdd %uint %reserved %uint_2
   %index_at = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %buffer %first
               OpStore %index_at %uint_0 Aligned 4
     %second = OpIAdd %uint %first %uint_1
   %float_at = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %buffer %second
               OpStore %float_at %bits Aligned 4
               OpBranch %done
       %done = OpLabel
     %result = OpSelect %uint %fits %uint_0 %uint_m1
               OpBranch %rest
       %rest = OpLabel
               OpReturn
               OpFunctionEnd
)");
  ASSERT_EQ(run.context.reflection.printfFormats.size(), 1u);
  const PrintfFormat& format = run.context.reflection.printfFormats[0];
  EXPECT_EQ(format.format, "%d");
  ASSERT_EQ(format.arguments.size(), 1u);
  EXPECT_EQ(format.arguments[0].kind, PrintfArgument::Kind::kFloat);
  EXPECT_EQ(format.arguments[0].bits, 32u);
  EXPECT_EQ(format.arguments[0].words(), 1u);
}

// A %s argument that is a constant string goes to the reflection and takes no words; a long's
// two words go low first; a vector's components one after the other.
TEST(LowerPrintfTest, StringsGoToTheReflectionAndWideValuesTakeTwoWords) {
  std::string before = kHeader + kTypes + R"(
     %v2uint = OpTypeVector %uint 2
    %ulong_5 = OpConstant %ulong 5
    %uint_7 = OpConstant %uint 7
    %pair = OpConstantComposite %v2uint %uint_7 %uint_7
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %float
      %entry = OpLabel
        %fmt = OpInBoundsPtrAccessChain %_ptr_UniformConstant_uchar %str %ulong_0 %ulong_0
        %tail = OpInBoundsPtrAccessChain %_ptr_UniformConstant_uchar %str %ulong_0 %ulong_0
     %printf = OpExtInst %uint %std printf %fmt %tail %ulong_5 %pair
               OpReturn
               OpFunctionEnd
)";
  test::PassRun run = test::runPass("lower-printf", before);
  ASSERT_TRUE(run.module) << run.error;
  ASSERT_EQ(run.context.reflection.printfFormats.size(), 1u);
  const std::vector<PrintfArgument>& arguments = run.context.reflection.printfFormats[0].arguments;
  ASSERT_EQ(arguments.size(), 3u);
  EXPECT_EQ(arguments[0].kind, PrintfArgument::Kind::kString);
  EXPECT_EQ(arguments[0].text, "%d");
  EXPECT_EQ(arguments[0].words(), 0u);
  EXPECT_EQ(arguments[1].kind, PrintfArgument::Kind::kInt);
  EXPECT_EQ(arguments[1].words(), 2u);
  EXPECT_EQ(arguments[2].components, 2u);
  EXPECT_EQ(arguments[2].words(), 2u);
  // The format's index, the long's two words and the vector's two: one reservation of 5 words.
  EXPECT_NE(run.text().find("OpAtomicIAdd %uint %cl2vk_printf_buffer %uint_1 %uint_0 %uint_5"), std::string::npos)
      << run.text();
}

// OpenCL C requires a literal format; one read from memory cannot be formatted on the host.
TEST(LowerPrintfTest, AFormatThatIsNotAConstantStringIsAnErrorNamingTheKernel) {
  std::string before = kHeader + kTypes + R"(
%_ptr_Function_uchar = OpTypePointer Function %uchar
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %float
      %entry = OpLabel
      %local = OpVariable %_ptr_Function_uchar Function
     %printf = OpExtInst %uint %std printf %local
               OpReturn
               OpFunctionEnd
)";
  EXPECT_EQ(test::runPass("lower-printf", before).text(),
            "error: kernel 'k': %24 = OpExtInst in function 'k': the printf format is not a constant string");
}

// printf("%d", x) with a pointer that is not a constant string: the host could not read it.
TEST(LowerPrintfTest, AStringArgumentThatIsNotConstantIsAnError) {
  std::string before = kHeader + kTypes + R"(
%_ptr_CrossWorkgroup_uchar = OpTypePointer CrossWorkgroup %uchar
     %pfn = OpTypeFunction %void %_ptr_CrossWorkgroup_uchar
          %k = OpFunction %void None %pfn
          %x = OpFunctionParameter %_ptr_CrossWorkgroup_uchar
      %entry = OpLabel
        %fmt = OpInBoundsPtrAccessChain %_ptr_UniformConstant_uchar %str %ulong_0 %ulong_0
     %printf = OpExtInst %uint %std printf %fmt %x
               OpReturn
               OpFunctionEnd
)";
  // The format is "%d": the pointer is printed as a number, which is allowed (%p would be too).
  EXPECT_TRUE(test::runPass("lower-printf", before).module);
  // With "%s" it is refused.
  std::string withS = before;
  withS.replace(withS.find("%uchar_37 %uchar_100"), 20, "%uchar_37 %uchar_115");
  withS.replace(withS.find("  %uchar_100 = OpConstant %uchar 100"), 36, "  %uchar_115 = OpConstant %uchar 115");
  EXPECT_NE(test::runPass("lower-printf", withS).text().find("printf argument 1 for %s is not a constant string"),
            std::string::npos)
      << test::runPass("lower-printf", withS).text();
}

TEST(LowerPrintfTest, AKernelWithoutPrintfIsUnchanged) {
  std::string before = kHeader + kTypes + R"(
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %float
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  test::expectPassOutput("lower-printf", before, before);
}

}  // namespace
}  // namespace cl2vk
