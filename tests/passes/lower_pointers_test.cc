// lower-pointers: before/after tests of __global pointers becoming PhysicalStorageBuffer ones and
// __local, __private and __constant ones becoming access chains from their variable.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// The __global uint* type, before the pass.
const std::string kGlobalPointer = "%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint";

// A kernel as lower-pointers sees it (after lower-kernel-interface and lower-collectives): a
// GLCompute entry point that reads `global uint* out` and `uint x` from push constants, computes %r
// in `body` and stores it to *out. `globals` adds types, constants and variables; `pointerType` is
// how the global pointer type is declared (the pass retypes it in place); `decorations` adds
// annotations.

std::string computeKernel(const std::string& body, const std::string& globals = "",
                          const std::string& pointerType = kGlobalPointer, const std::string& decorations = "") {
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
)" + decorations +
         R"(
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %bool = OpTypeBool
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
       %void = OpTypeVoid
   %noParams = OpTypeFunction %void
)" + pointerType +
         R"(
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
)" + globals +
         R"(
          %k = OpFunction %void None %noParams
      %entry = OpLabel
        %low = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_0
    %lowBits = OpLoad %uint %low
       %high = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_1
   %highBits = OpLoad %uint %high
      %words = OpCompositeConstruct %v2uint %lowBits %highBits
    %address = OpBitcast %ulong %words
        %out = OpConvertUToPtr %_ptr_CrossWorkgroup_uint %address
      %xWord = OpAccessChain %_ptr_PushConstant_uint %args %uint_0 %uint_2
          %x = OpLoad %uint %xWord
)" + body +
         R"(
               OpStore %out %r Aligned 4
               OpReturn
               OpFunctionEnd
)";
}

// The pointer type after the pass: the same id, now PhysicalStorageBuffer (named as before here,
// so that the rest of the module reads the same; the comparison is of the disassembly).
const std::string kBufferPointer = "%_ptr_CrossWorkgroup_uint = OpTypePointer PhysicalStorageBuffer %uint";

// out[x]: the CrossWorkgroup pointer type becomes a PhysicalStorageBuffer one in place, pointer
// arithmetic becomes OpPtrAccessChain (Vulkan has no in-bounds form for it) and the pointer type
// it steps through gets its ArrayStride; a load without an alignment gets the type's.
TEST(LowerPointersTest, GlobalPointersBecomePhysicalStorageBufferPointers) {
  test::expectPassOutput("lower-pointers", computeKernel(R"(
       %wide = OpUConvert %ulong %x
    %element = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %out %wide
          %r = OpLoad %uint %element
)"),
                         computeKernel(R"(
       %wide = OpUConvert %ulong %x
    %element = OpPtrAccessChain %_ptr_CrossWorkgroup_uint %out %wide
          %r = OpLoad %uint %element Aligned 4
)",
                                       "", kBufferPointer, "OpDecorate %_ptr_CrossWorkgroup_uint ArrayStride 4"));
}

// SPIR-V 1.5's OpBitcast between a pointer and a vector of two 32-bit integers (the CTS's
// spirv15_ptr_bitcast) is a conversion through a 64-bit integer, as OpConvertPtrToU and
// OpConvertUToPtr write it.
TEST(LowerPointersTest, BitcastsBetweenPointersAndIntegersBecomeConversions) {
  test::expectPassOutput("lower-pointers", computeKernel(R"(
       %bits = OpBitcast %v2uint %out
       %back = OpBitcast %_ptr_CrossWorkgroup_uint %bits
          %r = OpLoad %uint %back Aligned 4
)"),
                         computeKernel(R"(
     %asUint = OpConvertPtrToU %ulong %out
       %bits = OpBitcast %v2uint %asUint
     %asLong = OpBitcast %ulong %bits
       %back = OpConvertUToPtr %_ptr_CrossWorkgroup_uint %asLong
          %r = OpLoad %uint %back Aligned 4
)",
                                       "", kBufferPointer));
}

// (tile + 1)[x] and tile[1] on a __local uint tile[16]: Workgroup memory has no addresses in
// Vulkan, so each access gets an access chain from the variable with the indices summed.
TEST(LowerPointersTest, LocalPointerArithmeticBecomesAccessChainsFromTheVariable) {
  std::string globals = R"(
   %ulong_16 = OpConstant %ulong 16
    %ulong_0 = OpConstant %ulong 0
    %ulong_1 = OpConstant %ulong 1
  %_arr_uint_ulong_16 = OpTypeArray %uint %ulong_16
  %_ptr_Workgroup__arr_uint_ulong_16 = OpTypePointer Workgroup %_arr_uint_ulong_16
  %_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
       %tile = OpVariable %_ptr_Workgroup__arr_uint_ulong_16 Workgroup
)";
  test::expectPassOutput("lower-pointers",
                         computeKernel(R"(
       %wide = OpUConvert %ulong %x
     %second = OpInBoundsPtrAccessChain %_ptr_Workgroup_uint %tile %ulong_0 %ulong_1
    %element = OpInBoundsPtrAccessChain %_ptr_Workgroup_uint %second %wide
               OpStore %element %x Aligned 4
          %r = OpLoad %uint %second Aligned 4
)",
                                       globals),
                         computeKernel(R"(
       %wide = OpUConvert %ulong %x
      %index = OpIAdd %ulong %ulong_1 %wide
    %element = OpAccessChain %_ptr_Workgroup_uint %tile %index
               OpStore %element %x Aligned 4
     %second = OpAccessChain %_ptr_Workgroup_uint %tile %ulong_1
          %r = OpLoad %uint %second Aligned 4
)",
                                       globals, kBufferPointer));
}

// constant uint table[4] at program scope: Vulkan has no UniformConstant memory for it, so the
// table becomes a Private variable with the same initializer, read through an access chain.
TEST(LowerPointersTest, ConstantTablesBecomePrivateVariables) {
  std::string types = R"(
    %ulong_0 = OpConstant %ulong 0
    %ulong_4 = OpConstant %ulong 4
     %uint_5 = OpConstant %uint 5
  %_arr_uint_ulong_4 = OpTypeArray %uint %ulong_4
  %_ptr_UniformConstant__arr_uint_ulong_4 = OpTypePointer UniformConstant %_arr_uint_ulong_4
  %_ptr_UniformConstant_uint = OpTypePointer UniformConstant %uint
     %values = OpConstantComposite %_arr_uint_ulong_4 %uint_1 %uint_2 %uint_3 %uint_5
)";
  test::expectPassOutput("lower-pointers",
                         computeKernel(R"(
          %i = OpBitwiseAnd %uint %x %uint_3
       %wide = OpUConvert %ulong %i
    %element = OpInBoundsPtrAccessChain %_ptr_UniformConstant_uint %table %ulong_0 %wide
          %r = OpLoad %uint %element Aligned 4
)",
                                       types + R"(
      %table = OpVariable %_ptr_UniformConstant__arr_uint_ulong_4 UniformConstant %values
)"),
                         // The variable keeps its place; the Private pointer types come after it
                         // (finalize-vulkan sorts the globals).
                         computeKernel(R"(
          %i = OpBitwiseAnd %uint %x %uint_3
       %wide = OpUConvert %ulong %i
    %element = OpAccessChain %_ptr_Private_uint %table %wide
          %r = OpLoad %uint %element Aligned 4
)",
                                       types + R"(
      %table = OpVariable %_ptr_Private__arr_uint_ulong_4 Private %values
  %_ptr_Private_uint = OpTypePointer Private %uint
  %_ptr_Private__arr_uint_ulong_4 = OpTypePointer Private %_arr_uint_ulong_4
)",
                                       kBufferPointer));
}

// OpenCL C 2.0's generic pointers: one that space inference traces to global memory becomes a
// buffer pointer too, and its cast from the global pointer goes (the generic type stays, unused,
// for finalize-vulkan to drop).
TEST(LowerPointersTest, GenericPointersIntoGlobalMemoryBecomeBufferPointers) {
  std::string generic = "%_ptr_Generic_uint = OpTypePointer Generic %uint\n";
  test::expectPassOutput("lower-pointers",
                         computeKernel(R"(
    %generic = OpPtrCastToGeneric %_ptr_Generic_uint %out
       %wide = OpUConvert %ulong %x
    %element = OpInBoundsPtrAccessChain %_ptr_Generic_uint %generic %wide
          %r = OpLoad %uint %element Aligned 4
)",
                                       generic),
                         computeKernel(R"(
       %wide = OpUConvert %ulong %x
    %element = OpPtrAccessChain %_ptr_CrossWorkgroup_uint %out %wide
          %r = OpLoad %uint %element Aligned 4
)",
                                       generic, kBufferPointer, "OpDecorate %_ptr_CrossWorkgroup_uint ArrayStride 4"));
}

// A generic pointer that is `out` or &tile[x] as x decides: one pointer value cannot be both a
// buffer pointer and a __local one, so it becomes a tagged 64-bit integer (tagged_pointers.h):
// the buffer address, or the __local word memory's byte offset with tag 1 in the top two bits.
// The load branches on the tag to a load of each space, and no generic pointer is left.
TEST(LowerPointersTest, GenericPointerIntoTwoSpacesAsThePathDecidesIsTagged) {
  std::string globals = R"(
  %_ptr_Generic_uint = OpTypePointer Generic %uint
  %_ptr_Workgroup__arr_uint_uint_4 = OpTypePointer Workgroup %_arr_uint_uint_4
  %_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
       %tile = OpVariable %_ptr_Workgroup__arr_uint_uint_4 Workgroup
)";
  test::PassRun run = test::runPass("lower-pointers", computeKernel(R"(
    %element = OpAccessChain %_ptr_Workgroup_uint %tile %x
      %local = OpPtrCastToGeneric %_ptr_Generic_uint %element
     %global = OpPtrCastToGeneric %_ptr_Generic_uint %out
        %odd = OpBitwiseAnd %uint %x %uint_1
     %isOdd = OpIEqual %bool %odd %uint_1
     %either = OpSelect %_ptr_Generic_uint %isOdd %global %local
          %r = OpLoad %uint %either Aligned 4
)",
                                                                    globals));
  ASSERT_TRUE(run.module) << run.error;
  std::string text = run.text();
  // The generic pointer type is left declared, unused (finalize-vulkan drops it).
  EXPECT_EQ(text.find("_ptr_Generic_uint"), text.rfind("_ptr_Generic_uint")) << text;
  EXPECT_EQ(text.find("OpPtrCastToGeneric"), std::string::npos) << text;
  EXPECT_NE(text.find("OpSelect %ulong"), std::string::npos) << text;
  EXPECT_NE(text.find("OpConstant %ulong 4611686018427387904"), std::string::npos) << "tag 1 << 62: " << text;
  EXPECT_NE(text.find("OpShiftRightLogical %ulong"), std::string::npos) << text;
  EXPECT_NE(text.find("OpConvertUToPtr %_ptr_PhysicalStorageBuffer_uint"), std::string::npos) << text;
  EXPECT_NE(text.find("OpLoad %uint %"), std::string::npos) << text;
  EXPECT_NE(text.find("OpPhi %uint"), std::string::npos) << "the load's two results joined: " << text;
}

// The part of a module both reinterpreted-memory tests share: a float variable read as a uint, and
// byte 2 of a __local uint tile[4] stored through a uchar pointer.
const std::string kReinterpretingHeader = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int8
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint GLCompute %k "k"
               OpName %k "k"
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %uchar = OpTypeInt 8 0
      %float = OpTypeFloat 32
     %uint_0 = OpConstant %uint 0
     %uint_2 = OpConstant %uint 2
    %ulong_4 = OpConstant %ulong 4
       %void = OpTypeVoid
   %noParams = OpTypeFunction %void
  %_ptr_Function_float = OpTypePointer Function %float
  %_ptr_Function_uint = OpTypePointer Function %uint
  %_arr_uint_ulong_4 = OpTypeArray %uint %ulong_4
  %_ptr_Workgroup__arr_uint_ulong_4 = OpTypePointer Workgroup %_arr_uint_ulong_4
  %_ptr_Workgroup_uchar = OpTypePointer Workgroup %uchar
)";

// A union in private memory and a byte view of __local memory: Vulkan's typed pointers cannot
// express either, so each variable becomes an array of 32-bit words. The float is stored as its
// bits and read back as a uint; the byte store sets and clears its 8 bits of word 0 with
// atomics, because other work-items may store the word's other bytes at the same time.
TEST(LowerPointersTest, ReinterpretedPrivateAndLocalMemoryBecomesWords) {
  test::expectPassOutput("lower-pointers", kReinterpretingHeader + R"(
       %tile = OpVariable %_ptr_Workgroup__arr_uint_ulong_4 Workgroup
    %float_1 = OpConstant %float 1
    %uchar_7 = OpConstant %uchar 7
          %k = OpFunction %void None %noParams
      %entry = OpLabel
      %value = OpVariable %_ptr_Function_float Function
               OpStore %value %float_1 Aligned 4
       %bits = OpBitcast %_ptr_Function_uint %value
          %r = OpLoad %uint %bits Aligned 4
      %bytes = OpBitcast %_ptr_Workgroup_uchar %tile
      %third = OpInBoundsPtrAccessChain %_ptr_Workgroup_uchar %bytes %uint_2
               OpStore %third %uchar_7 Aligned 1
               OpReturn
               OpFunctionEnd
)",
                         kReinterpretingHeader + R"(
    %float_1 = OpConstant %float 1
    %uchar_7 = OpConstant %uchar 7
     %uint_4 = OpConstant %uint 4
 %tile_words = OpTypeArray %uint %uint_4
  %_ptr_Workgroup_tile_words = OpTypePointer Workgroup %tile_words
       %tile = OpVariable %_ptr_Workgroup_tile_words Workgroup
     %uint_1 = OpConstant %uint 1
%value_words = OpTypeArray %uint %uint_1
  %_ptr_Function_value_words = OpTypePointer Function %value_words
  %_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
    %uint_16 = OpConstant %uint 16
   %uint_255 = OpConstant %uint 255
          %k = OpFunction %void None %noParams
      %entry = OpLabel
      %value = OpVariable %_ptr_Function_value_words Function
  %floatBits = OpBitcast %uint %float_1
    %toValue = OpAccessChain %_ptr_Function_uint %value %uint_0
               OpStore %toValue %floatBits
  %fromValue = OpAccessChain %_ptr_Function_uint %value %uint_0
          %r = OpLoad %uint %fromValue
       %byte = OpUConvert %uint %uchar_7
       %mask = OpShiftLeftLogical %uint %uint_255 %uint_16
     %placed = OpShiftLeftLogical %uint %byte %uint_16
      %clear = OpNot %uint %mask
       %keep = OpBitwiseOr %uint %clear %placed
      %word0 = OpAccessChain %_ptr_Workgroup_uint %tile %uint_0
        %set = OpAtomicOr %uint %word0 %uint_2 %uint_0 %placed
     %word0b = OpAccessChain %_ptr_Workgroup_uint %tile %uint_0
    %cleared = OpAtomicAnd %uint %word0b %uint_2 %uint_0 %keep
               OpReturn
               OpFunctionEnd
)");
}

// Without a reinterpretation the same variables keep their types: a uint read of the uint tile
// stays an access chain into it.
TEST(LowerPointersTest, MemoryReadAsItsOwnTypeKeepsTypedAccess) {
  std::string module = kReinterpretingHeader + R"(
  %_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
       %tile = OpVariable %_ptr_Workgroup__arr_uint_ulong_4 Workgroup
          %k = OpFunction %void None %noParams
      %entry = OpLabel
      %third = OpInBoundsAccessChain %_ptr_Workgroup_uint %tile %uint_2
          %r = OpLoad %uint %third Aligned 4
               OpReturn
               OpFunctionEnd
)";
  std::string after = module;
  after.replace(after.find("OpInBoundsAccessChain"), std::string("OpInBoundsAccessChain").size(), "OpAccessChain");
  test::expectPassOutput("lower-pointers", module, after);
}

// A __local tile passed to a function the module only declares: what a plain C99 `inline` function
// looks like when the front end did not inline it (CLBlast's helpers on NVIDIA). No rewrite can
// follow the pointer into a body that is not there, and the error says so by the callee's name.
TEST(LowerPointersTest, LocalPointerPassedToAnUndefinedFunctionNamesIt) {
  std::string globals = R"(
   %ulong_16 = OpConstant %ulong 16
  %_arr_uint_ulong_16 = OpTypeArray %uint %ulong_16
  %_ptr_Workgroup__arr_uint_ulong_16 = OpTypePointer Workgroup %_arr_uint_ulong_16
  %_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
  %takesTile = OpTypeFunction %uint %_ptr_Workgroup_uint
       %tile = OpVariable %_ptr_Workgroup__arr_uint_ulong_16 Workgroup
     %helper = OpFunction %uint None %takesTile
   %tileParam = OpFunctionParameter %_ptr_Workgroup_uint
               OpFunctionEnd
)";
  test::PassRun run = test::runPass("lower-pointers", computeKernel(R"(
      %first = OpInBoundsAccessChain %_ptr_Workgroup_uint %tile %uint_0
          %r = OpFunctionCall %uint %helper %first
)",
                                                                    globals, kGlobalPointer,
                                                                    "OpDecorate %helper LinkageAttributes "
                                                                    "\"transposeTile\" Import"));
  EXPECT_TRUE(run.error.starts_with("kernel 'k': %")) << run.error;
  EXPECT_TRUE(run.error.ends_with(
      " = OpFunctionCall in function 'k': passes a __local or __private pointer to 'transposeTile', which is not "
      "defined in the module (a plain C99 `inline` function the front end did not inline has no definition: make "
      "it `static inline`)"))
      << run.error;
}

}  // namespace
}  // namespace cl2vk
