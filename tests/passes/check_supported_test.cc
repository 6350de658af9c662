// check-supported: before/after tests. The pass changes nothing: a module it accepts comes out as it
// went in, and one it refuses fails with a message that names the construct (and, inside a
// function, the kernel and the instruction). Messages name instructions by their ids, which the
// assembler numbers in order of first appearance.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// An llvm-spirv style module: the exported function `body` holds the code, with a __global float*
// %p; the kernel `k` only calls it. `capabilities`, `globals` and `code` add to it.
std::string module(const std::string& code, const std::string& globals = "", const std::string& capabilities = "") {
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
               OpName %body "body"
               OpName %p "p"
               OpName %k "k"
               OpName %q "q"
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
               OpDecorate %gid Constant
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %body LinkageAttributes "body" Export
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
    %v3ulong = OpTypeVector %ulong 3
%_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
      %float = OpTypeFloat 32
%_ptr_CrossWorkgroup_float = OpTypePointer CrossWorkgroup %float
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_float
)" + globals +
         R"(
        %gid = OpVariable %_ptr_Input_v3ulong Input
       %body = OpFunction %void None %fn
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_float
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid Aligned 32
          %i = OpCompositeExtract %ulong %ids 0
       %elem = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_float %p %i
)" + code +
         R"(
               OpReturn
               OpFunctionEnd
          %k = OpFunction %void None %fn
          %q = OpFunctionParameter %_ptr_CrossWorkgroup_float
         %kl = OpLabel
       %call = OpFunctionCall %void %body %q
               OpReturn
               OpFunctionEnd
)";
}

// p[i] = fabs(p[i]): OpenCL.std instructions are for later passes to lower.
const std::string kAbsolute = R"(
          %x = OpLoad %float %elem Aligned 4
          %y = OpExtInst %float %std fabs %x
               OpStore %elem %y Aligned 4
)";

TEST(CheckSupportedTest, ASupportedKernelComesOutUnchanged) {
  std::string before = module(kAbsolute);
  test::expectPassOutput("check-supported", before, before, Target{}, SPV_ENV_OPENCL_2_2);
}

TEST(CheckSupportedTest, DoubleComesOutUnchangedWhenTheTargetHasFloat64) {
  std::string before = module(R"(
          %x = OpLoad %float %elem Aligned 4
          %d = OpFConvert %double %x
          %s = OpFMul %double %d %d
          %y = OpFConvert %float %s
               OpStore %elem %y Aligned 4
)",
                              "%double = OpTypeFloat 64", "OpCapability Float64");
  test::expectPassOutput("check-supported", before, before, Target{}, SPV_ENV_OPENCL_2_2);
}

// printf is lower-printf's to rewrite.
TEST(CheckSupportedTest, PrintfComesOutUnchanged) {
  std::string before = module(R"(
        %fmt = OpInBoundsPtrAccessChain %_ptr_UniformConstant_uchar %str %ulong_0 %ulong_0
     %printf = OpExtInst %uint %std printf %fmt %i
)",
                              R"(
      %uchar = OpTypeInt 8 0
    %ulong_0 = OpConstant %ulong 0
    %ulong_2 = OpConstant %ulong 2
   %uchar_37 = OpConstant %uchar 37
    %uchar_0 = OpConstant %uchar 0
%_arr_uchar_ulong_2 = OpTypeArray %uchar %ulong_2
%_ptr_UniformConstant__arr_uchar_ulong_2 = OpTypePointer UniformConstant %_arr_uchar_ulong_2
%_ptr_UniformConstant_uchar = OpTypePointer UniformConstant %uchar
   %contents = OpConstantComposite %_arr_uchar_ulong_2 %uchar_37 %uchar_0
        %str = OpVariable %_ptr_UniformConstant__arr_uchar_ulong_2 UniformConstant %contents
)",
                              "OpCapability Int8");
  test::expectPassOutput("check-supported", before, before, Target{}, SPV_ENV_OPENCL_2_2);
}

// printf("%f", x) as llvm-spirv writes it: the float promoted to double, which lower-printf drops,
// so a target without 64-bit floats accepts it; the same double used by anything else is refused.
TEST(CheckSupportedTest, APrintfPromotionToDoubleNeedsNoFloat64) {
  std::string printf = R"(
          %x = OpLoad %float %elem Aligned 4
          %d = OpFConvert %double %x
        %fmt = OpInBoundsPtrAccessChain %_ptr_UniformConstant_uchar %str %ulong_0 %ulong_0
     %printf = OpExtInst %uint %std printf %fmt %d
)";
  std::string globals = R"(
      %uchar = OpTypeInt 8 0
    %ulong_0 = OpConstant %ulong 0
    %ulong_2 = OpConstant %ulong 2
   %uchar_37 = OpConstant %uchar 37
    %uchar_0 = OpConstant %uchar 0
     %double = OpTypeFloat 64
%_arr_uchar_ulong_2 = OpTypeArray %uchar %ulong_2
%_ptr_UniformConstant__arr_uchar_ulong_2 = OpTypePointer UniformConstant %_arr_uchar_ulong_2
%_ptr_UniformConstant_uchar = OpTypePointer UniformConstant %uchar
   %contents = OpConstantComposite %_arr_uchar_ulong_2 %uchar_37 %uchar_0
        %str = OpVariable %_ptr_UniformConstant__arr_uchar_ulong_2 UniformConstant %contents
)";
  Target noFloat64;
  noFloat64.float64 = false;
  std::string before = module(printf, globals, "OpCapability Int8\nOpCapability Float64");
  test::expectPassOutput("check-supported", before, before, noFloat64);
  std::string alsoMultiplied =
      module(printf + "          %m = OpFMul %double %d %d\n", globals, "OpCapability Int8\nOpCapability Float64");
  EXPECT_NE(test::runPass("check-supported", alsoMultiplied, noFloat64).text().find("no Vulkan shaderFloat64"),
            std::string::npos);
}

// A type of an unsupported kind is refused where it is declared, before any function is looked at.
TEST(CheckSupportedTest, PipeAndQueueTypesAreRefusedByName) {
  struct Case {
    std::string capability, type, message;
  };
  for (const Case& c : {
           Case{"OpCapability Pipes", "%pipe = OpTypePipe ReadOnly",
                "error: %15 = OpTypePipe: pipes are not supported by cl2vk"},
           Case{"OpCapability DeviceEnqueue", "%queue = OpTypeQueue",
                "error: %15 = OpTypeQueue: device-side enqueue is not supported by cl2vk"},
       }) {
    EXPECT_EQ(test::runPass("check-supported", module(kAbsolute, c.type, c.capability)).text(), c.message);
  }
}

// What llvm-spirv-15 --spirv-ext=+all writes for float atomics, integer dot products and
// _BitInt(N) wider than 64 bits (narrower ones widen-odd-integers widens) is refused by name (docs/frontend.md), not
// left to fail Vulkan's validation as an internal error.
TEST(CheckSupportedTest, AllExtensionsConstructsAreRefusedByName) {
  struct Case {
    std::string capability, globals, code, message;
  };
  const std::string kInt8 = R"(
      %uchar = OpTypeInt 8 0
    %v4uchar = OpTypeVector %uchar 4
    %uchar_1 = OpConstant %uchar 1
   %v4uchar_1 = OpConstantComposite %v4uchar %uchar_1 %uchar_1 %uchar_1 %uchar_1
)";
  for (const Case& c : {
           Case{"OpCapability AtomicFloat32AddEXT\nOpExtension \"SPV_EXT_shader_atomic_float_add\"",
                "%uint_1 = OpConstant %uint 1\n%uint_0 = OpConstant %uint 0\n%float_1 = OpConstant %float 1",
                "%old = OpAtomicFAddEXT %float %elem %uint_1 %uint_0 %float_1\n",
                "error: kernel 'k': %24 = OpAtomicFAddEXT in function 'body': floating-point atomics are not supported "
                "by cl2vk"},
           Case{"OpCapability Int8\nOpCapability DotProduct\nOpCapability DotProductInput4x8Bit\n"
                "OpExtension \"SPV_KHR_integer_dot_product\"",
                kInt8, "%dot = OpUDot %uint %v4uchar_1 %v4uchar_1\n",
                "error: kernel 'k': %25 = OpUDot in function 'body': integer dot products (cl_khr_integer_dot_product) "
                "are not supported by cl2vk"},
           Case{"OpCapability ArbitraryPrecisionIntegersINTEL\n"
                "OpExtension \"SPV_INTEL_arbitrary_precision_integers\"",
                "%int128 = OpTypeInt 128 0", "", "error: %15 = OpTypeInt: 128-bit integers are not supported by cl2vk"},
       }) {
    EXPECT_EQ(test::runPass("check-supported", module(kAbsolute + c.code, c.globals, c.capability)).text(), c.message);
  }
}

// A module for 32-bit devices (pyopencl ships add-vectors-32.spv next to its 64-bit twin and picks
// by CL_DEVICE_ADDRESS_BITS) would truncate cl2vk's 64-bit buffer addresses: refused, saying why.
TEST(CheckSupportedTest, A32BitModuleIsRefusedNamingTheAddressBits) {
  std::string physical32 = module(kAbsolute);
  physical32.replace(physical32.find("Physical64"), 10, "Physical32");
  EXPECT_EQ(test::runPass("check-supported", physical32).text(),
            "error: the module is for 32-bit devices (the Physical32 addressing model, spir-unknown-unknown); cl2vk's "
            "devices have 64-bit addresses (CL_DEVICE_ADDRESS_BITS is 64): build it for spir64 (Physical64)");
}

// An extension cl2vk has no decision for is refused by name rather than left to fail later.
TEST(CheckSupportedTest, UnknownExtensionIsRefusedByName) {
  EXPECT_EQ(test::runPass("check-supported", module(kAbsolute, "", "OpExtension \"SPV_INTEL_fpga_reg\"")).text(),
            "error: the SPIR-V extension SPV_INTEL_fpga_reg is not supported by cl2vk (docs/frontend.md lists what it "
            "does with each extension llvm-spirv-15 writes)");
  std::string known = module(kAbsolute, "", "OpCapability OptNoneINTEL\nOpExtension \"SPV_INTEL_optnone\"");
  test::expectPassOutput("check-supported", known, known);
}

TEST(CheckSupportedTest, DoubleArithmeticIsRefusedWithoutFloat64NamingTheFirstInstruction) {
  Target noFloat64;
  noFloat64.float64 = false;
  std::string before = module(R"(
          %x = OpLoad %float %elem Aligned 4
          %d = OpFConvert %double %x
          %s = OpFMul %double %d %d
          %y = OpFConvert %float %s
               OpStore %elem %y Aligned 4
)",
                              "%double = OpTypeFloat 64", "OpCapability Float64");
  EXPECT_EQ(test::runPass("check-supported", before, noFloat64).text(),
            "error: kernel 'k': %21 = OpFConvert in function 'body': double (64-bit floating point) is not supported "
            "on this device (no Vulkan shaderFloat64)");
}

}  // namespace
}  // namespace cl2vk
