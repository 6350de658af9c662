#include "passes/types/lower_int64.h"

#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

Target withoutInt64() {
  Target target;
  target.int64 = false;
  return target;
}

const std::string kHeader = R"(
; Version: 1.5
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint GLCompute %k "k"
               OpName %k "k"
)";

// w += 5 on a __local ulong.
const std::string kLocalAdd = kHeader + R"(
               OpName %w "w"
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
    %ulong_5 = OpConstant %ulong 5
%_ptr_Workgroup_ulong = OpTypePointer Workgroup %ulong
          %w = OpVariable %_ptr_Workgroup_ulong Workgroup
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %x = OpLoad %ulong %w
          %y = OpIAdd %ulong %x %ulong_5
               OpStore %w %y
               OpReturn
               OpFunctionEnd
)";

TEST(LowerInt64Test, AddCarriesIntoTheHighWordAndMemoryHoldsUvec2) {
  test::expectPassOutput("lower-int64", kLocalAdd, kHeader + R"(
               OpName %w "w"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %v2uint = OpTypeVector %uint 2
%_ptr_Workgroup_v2uint = OpTypePointer Workgroup %v2uint
          %w = OpVariable %_ptr_Workgroup_v2uint Workgroup
          %7 = OpTypeFunction %void
     %uint_5 = OpConstant %uint 5
     %uint_0 = OpConstant %uint 0
       %bool = OpTypeBool
     %uint_1 = OpConstant %uint 1
          %k = OpFunction %void None %7
          %8 = OpLabel
         %13 = OpLoad %v2uint %w
         %14 = OpCompositeExtract %uint %13 0
         %15 = OpCompositeExtract %uint %13 1
         %18 = OpIAdd %uint %14 %uint_5
         %20 = OpULessThan %bool %18 %14
         %22 = OpSelect %uint %20 %uint_1 %uint_0
         %24 = OpIAdd %uint %15 %22
         %25 = OpCompositeConstruct %v2uint %18 %24
               OpStore %w %25
               OpReturn
               OpFunctionEnd
)",
                         withoutInt64());
}

TEST(LowerInt64Test, ADeviceWithInt64KeepsNativeCode) {
  test::expectPassOutput("lower-int64", kLocalAdd, kLocalAdd, Target{});
}

// An undefined ulong as a vector's component (the translation fuzzer's find: the undef's halves
// were made with a lookup that only types and constants may use).
TEST(LowerInt64Test, AnUndefinedComponentBecomesTwoUndefinedWords) {
  test::expectPassOutput("lower-int64", kHeader + R"(
               OpName %w "w"
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
    %v2ulong = OpTypeVector %ulong 2
    %ulong_5 = OpConstant %ulong 5
      %undef = OpUndef %ulong
%_ptr_Workgroup_v2ulong = OpTypePointer Workgroup %v2ulong
          %w = OpVariable %_ptr_Workgroup_v2ulong Workgroup
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %v = OpCompositeConstruct %v2ulong %ulong_5 %undef
               OpStore %w %v
               OpReturn
               OpFunctionEnd
)",
                         kHeader + R"(
               OpName %w "w"
               OpDecorate %_arr_v2uint_uint_2 ArrayStride 8
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %v2uint = OpTypeVector %uint 2
     %uint_2 = OpConstant %uint 2
%_arr_v2uint_uint_2 = OpTypeArray %v2uint %uint_2
%_ptr_Workgroup__arr_v2uint_uint_2 = OpTypePointer Workgroup %_arr_v2uint_uint_2
          %w = OpVariable %_ptr_Workgroup__arr_v2uint_uint_2 Workgroup
          %2 = OpTypeFunction %void
     %uint_5 = OpConstant %uint 5
     %uint_0 = OpConstant %uint 0
      %undef = OpUndef %uint
          %k = OpFunction %void None %2
          %4 = OpLabel
          %5 = OpCompositeConstruct %v2uint %uint_5 %undef
          %6 = OpCompositeConstruct %v2uint %uint_0 %undef
          %7 = OpCompositeExtract %uint %5 0
          %8 = OpCompositeExtract %uint %6 0
          %9 = OpCompositeConstruct %v2uint %7 %8
         %10 = OpCompositeExtract %uint %5 1
         %11 = OpCompositeExtract %uint %6 1
         %12 = OpCompositeConstruct %v2uint %10 %11
         %13 = OpCompositeConstruct %_arr_v2uint_uint_2 %9 %12
               OpStore %w %13
               OpReturn
               OpFunctionEnd
)",
                         withoutInt64());
}

// A kernel module whose %k takes buffer addresses of uints `stride` bytes apart, up to %uint.
std::string bufferKernelHeader(uint32_t stride) {
  return R"(
; Version: 1.5
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint GLCompute %k "k"
               OpName %k "k"
               OpDecorate %_ptr_PhysicalStorageBuffer_uint ArrayStride )" +
         std::to_string(stride) + R"(
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
)";
}

// for (ulong i = 0; i < 10; ++i) out[i] = (uint)i; on a buffer address.
TEST(LowerInt64Test, PhisSplitInTwoAndABufferStepIsAddressArithmeticOnThePair) {
  const std::string header = bufferKernelHeader(4);
  test::expectPassOutput("lower-int64", header + R"(
      %ulong = OpTypeInt 64 0
    %ulong_0 = OpConstant %ulong 0
    %ulong_1 = OpConstant %ulong 1
   %ulong_10 = OpConstant %ulong 10
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
         %fn = OpTypeFunction %void %_ptr_PhysicalStorageBuffer_uint
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_PhysicalStorageBuffer_uint
      %entry = OpLabel
               OpBranch %loop
       %loop = OpLabel
          %i = OpPhi %ulong %ulong_0 %entry %next %loop
         %at = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %out %i
     %narrow = OpUConvert %uint %i
               OpStore %at %narrow Aligned 4
       %next = OpIAdd %ulong %i %ulong_1
       %more = OpULessThan %bool %next %ulong_10
               OpBranchConditional %more %loop %exit
       %exit = OpLabel
               OpReturn
               OpFunctionEnd
)",
                         header + R"(
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
         %10 = OpTypeFunction %void %_ptr_PhysicalStorageBuffer_uint
    %uint_30 = OpConstant %uint 30
     %uint_2 = OpConstant %uint 2
     %v2uint = OpTypeVector %uint 2
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
    %uint_10 = OpConstant %uint 10
          %k = OpFunction %void None %10
         %11 = OpFunctionParameter %_ptr_PhysicalStorageBuffer_uint
         %12 = OpLabel
               OpBranch %13
         %13 = OpLabel
         %20 = OpPhi %uint %uint_0 %12 %41 %13
         %21 = OpPhi %uint %uint_0 %12 %45 %13
         %23 = OpShiftRightLogical %uint %20 %uint_30
         %25 = OpShiftLeftLogical %uint %21 %uint_2
         %26 = OpBitwiseOr %uint %25 %23
         %27 = OpShiftLeftLogical %uint %20 %uint_2
         %29 = OpBitcast %v2uint %11
         %30 = OpCompositeExtract %uint %29 0
         %31 = OpCompositeExtract %uint %29 1
         %32 = OpIAdd %uint %30 %27
         %33 = OpULessThan %bool %32 %30
         %36 = OpSelect %uint %33 %uint_1 %uint_0
         %37 = OpIAdd %uint %31 %26
         %38 = OpIAdd %uint %37 %36
         %39 = OpCompositeConstruct %v2uint %32 %38
         %40 = OpBitcast %_ptr_PhysicalStorageBuffer_uint %39
               OpStore %40 %20 Aligned 4
         %41 = OpIAdd %uint %20 %uint_1
         %42 = OpULessThan %bool %41 %20
         %43 = OpSelect %uint %42 %uint_1 %uint_0
         %45 = OpIAdd %uint %21 %43
         %47 = OpULessThan %bool %45 %uint_0
         %48 = OpIEqual %bool %45 %uint_0
         %49 = OpULessThan %bool %41 %uint_10
         %50 = OpLogicalAnd %bool %48 %49
         %51 = OpLogicalOr %bool %47 %50
               OpBranchConditional %51 %13 %19
         %19 = OpLabel
               OpReturn
               OpFunctionEnd
)",
                         withoutInt64());
}

// out[3] = 7 and out[i] = 7 with an int i, on a buffer address of 12-byte elements: indexes that
// are sign-extended 32-bit values stay pointer steps, by those values.
TEST(LowerInt64Test, AStepByASignExtendedIntStaysAStepByThatInt) {
  const std::string header = bufferKernelHeader(12) + R"(
     %uint_7 = OpConstant %uint 7
)";
  test::expectPassOutput("lower-int64", header + R"(
      %ulong = OpTypeInt 64 0
    %ulong_3 = OpConstant %ulong 3
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
         %fn = OpTypeFunction %void %_ptr_PhysicalStorageBuffer_uint %uint
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_PhysicalStorageBuffer_uint
          %i = OpFunctionParameter %uint
      %entry = OpLabel
         %at = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %out %ulong_3
               OpStore %at %uint_7 Aligned 4
       %wide = OpSConvert %ulong %i
        %atI = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %out %wide
               OpStore %atI %uint_7 Aligned 4
               OpReturn
               OpFunctionEnd
)",
                         header + R"(
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
         %fn = OpTypeFunction %void %_ptr_PhysicalStorageBuffer_uint %uint
     %uint_3 = OpConstant %uint 3
     %uint_0 = OpConstant %uint 0
    %uint_31 = OpConstant %uint 31
     %v2uint = OpTypeVector %uint 2
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_PhysicalStorageBuffer_uint
          %i = OpFunctionParameter %uint
      %entry = OpLabel
         %at = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %out %uint_3
               OpStore %at %uint_7 Aligned 4
       %sign = OpShiftRightArithmetic %uint %i %uint_31
        %atI = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %out %i
               OpStore %atI %uint_7 Aligned 4
               OpReturn
               OpFunctionEnd
)",
                         withoutInt64());
}

// out[2^31] = 7 on a buffer address of 12-byte elements: an index past int's range moves the
// address by the constant 2^31 * 12 = 0x6_0000_0000 on the pair, with no multiplication.
TEST(LowerInt64Test, AConstantStepPastIntMovesTheAddressByAConstant) {
  const std::string header = bufferKernelHeader(12) + R"(
     %uint_7 = OpConstant %uint 7
)";
  test::expectPassOutput("lower-int64", header + R"(
      %ulong = OpTypeInt 64 0
  %ulong_big = OpConstant %ulong 2147483648
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
         %fn = OpTypeFunction %void %_ptr_PhysicalStorageBuffer_uint
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_PhysicalStorageBuffer_uint
      %entry = OpLabel
         %at = OpPtrAccessChain %_ptr_PhysicalStorageBuffer_uint %out %ulong_big
               OpStore %at %uint_7 Aligned 4
               OpReturn
               OpFunctionEnd
)",
                         header + R"(
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
         %fn = OpTypeFunction %void %_ptr_PhysicalStorageBuffer_uint
   %uint_big = OpConstant %uint 2147483648
     %uint_0 = OpConstant %uint 0
     %uint_6 = OpConstant %uint 6
     %v2uint = OpTypeVector %uint 2
     %uint_1 = OpConstant %uint 1
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_PhysicalStorageBuffer_uint
      %entry = OpLabel
       %bits = OpBitcast %v2uint %out
         %lo = OpCompositeExtract %uint %bits 0
         %hi = OpCompositeExtract %uint %bits 1
    %movedLo = OpIAdd %uint %lo %uint_0
    %wrapped = OpULessThan %bool %movedLo %lo
      %carry = OpSelect %uint %wrapped %uint_1 %uint_0
     %plus6 = OpIAdd %uint %hi %uint_6
    %movedHi = OpIAdd %uint %plus6 %carry
      %moved = OpCompositeConstruct %v2uint %movedLo %movedHi
         %at = OpBitcast %_ptr_PhysicalStorageBuffer_uint %moved
               OpStore %at %uint_7 Aligned 4
               OpReturn
               OpFunctionEnd
)",
                         withoutInt64());
}

// A clustered reduce (cl_khr_subgroup_clustered_reduce on a device with clustered operations):
// the sum stays three clustered 32-bit sums; a maximum combines, lane by lane, only the lanes of
// the same cluster (lane & ~(size - 1) equal).
TEST(LowerInt64Test, AClusteredReduceStaysInItsCluster) {
  const std::string module = kHeader + R"(
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_3 = OpConstant %uint 3
     %uint_4 = OpConstant %uint 4
      %ulong = OpTypeInt 64 0
%_ptr_Workgroup_ulong = OpTypePointer Workgroup %ulong
          %w = OpVariable %_ptr_Workgroup_ulong Workgroup
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %x = OpLoad %ulong %w
        %sum = OpGroupNonUniformIAdd %ulong %uint_3 ClusteredReduce %x %uint_4
        %max = OpGroupNonUniformUMax %ulong %uint_3 ClusteredReduce %sum %uint_4
               OpStore %w %max
               OpReturn
               OpFunctionEnd
)";
  Target target = withoutInt64();
  target.maxSubgroupSize = 8;
  test::PassRun run = test::runPass("lower-int64", module, target);
  ASSERT_TRUE(run.module) << run.error;
  std::string text = run.text();
  EXPECT_EQ(test::count(text, "OpTypeInt 64"), 0u) << text;
  EXPECT_EQ(test::count(text, "OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce"), 3u) << text;
  EXPECT_EQ(test::count(text, "OpGroupNonUniformUMax"), 0u) << text;
  // Both words of each of the 8 lanes; per lane, its cluster compared with this lane's and the
  // high words' equality in the 64-bit comparison.
  EXPECT_EQ(test::count(text, "OpGroupNonUniformBroadcast %uint %uint_3"), 16u) << text;
  EXPECT_EQ(test::count(text, "OpNot %uint"), 1u) << text;
  EXPECT_EQ(test::count(text, "OpIEqual %bool"), 16u) << text;
}

TEST(LowerInt64Test, ABitwiseSubgroupReduceRunsWordByWord) {
  const std::string header = kHeader + R"(
               OpName %w "w"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_3 = OpConstant %uint 3
)";
  test::expectPassOutput("lower-int64", header + R"(
      %ulong = OpTypeInt 64 0
%_ptr_Workgroup_ulong = OpTypePointer Workgroup %ulong
          %w = OpVariable %_ptr_Workgroup_ulong Workgroup
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %x = OpLoad %ulong %w
          %y = OpGroupNonUniformBitwiseXor %ulong %uint_3 Reduce %x
               OpStore %w %y
               OpReturn
               OpFunctionEnd
)",
                         header + R"(
     %v2uint = OpTypeVector %uint 2
%_ptr_Workgroup_v2uint = OpTypePointer Workgroup %v2uint
          %w = OpVariable %_ptr_Workgroup_v2uint Workgroup
          %8 = OpTypeFunction %void
          %k = OpFunction %void None %8
          %9 = OpLabel
         %13 = OpLoad %v2uint %w
         %14 = OpCompositeExtract %uint %13 0
         %15 = OpCompositeExtract %uint %13 1
         %16 = OpGroupNonUniformBitwiseXor %uint %uint_3 Reduce %14
         %17 = OpGroupNonUniformBitwiseXor %uint %uint_3 Reduce %15
         %18 = OpCompositeConstruct %v2uint %16 %17
               OpStore %w %18
               OpReturn
               OpFunctionEnd
)",
                         withoutInt64());
}

// SwiftShader cannot compile a pointer-to-pointer bit cast that is later bit-cast to a uvec2.
TEST(LowerInt64Test, ABufferPointerCastGoesThroughAUvec2) {
  const std::string header = R"(
; Version: 1.5
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability PhysicalStorageBufferAddresses
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint GLCompute %k "k"
               OpName %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
)";
  test::expectPassOutput("lower-int64", header + R"(
      %ulong = OpTypeInt 64 0
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
%_ptr_PhysicalStorageBuffer_float = OpTypePointer PhysicalStorageBuffer %float
         %fn = OpTypeFunction %void %_ptr_PhysicalStorageBuffer_uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %_ptr_PhysicalStorageBuffer_uint
      %entry = OpLabel
          %q = OpBitcast %_ptr_PhysicalStorageBuffer_float %p
          %x = OpLoad %float %q Aligned 4
               OpReturn
               OpFunctionEnd
)",
                         header + R"(
%_ptr_PhysicalStorageBuffer_uint = OpTypePointer PhysicalStorageBuffer %uint
%_ptr_PhysicalStorageBuffer_float = OpTypePointer PhysicalStorageBuffer %float
          %8 = OpTypeFunction %void %_ptr_PhysicalStorageBuffer_uint
     %v2uint = OpTypeVector %uint 2
          %k = OpFunction %void None %8
          %9 = OpFunctionParameter %_ptr_PhysicalStorageBuffer_uint
         %10 = OpLabel
         %14 = OpBitcast %v2uint %9
         %15 = OpBitcast %_ptr_PhysicalStorageBuffer_float %14
         %12 = OpLoad %float %15 Aligned 4
               OpReturn
               OpFunctionEnd
)",
                         withoutInt64());
}

TEST(LowerInt64Test, A64BitAtomicIsRefusedNamingKernelInstructionAndFeature) {
  test::PassRun run = test::runPass("lower-int64", kHeader + R"(
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
     %uint_1 = OpConstant %uint 1
     %uint_0 = OpConstant %uint 0
    %ulong_5 = OpConstant %ulong 5
%_ptr_Workgroup_ulong = OpTypePointer Workgroup %ulong
          %w = OpVariable %_ptr_Workgroup_ulong Workgroup
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
        %old = OpAtomicIAdd %ulong %w %uint_1 %uint_0 %ulong_5
               OpReturn
               OpFunctionEnd
)",
                                    withoutInt64());
  EXPECT_EQ(run.error,
            "kernel 'k': %12 = OpAtomicIAdd in function 'k': 64-bit atomics need Vulkan's shaderInt64 and "
            "shaderBufferInt64Atomics, which this device lacks");
}

}  // namespace
}  // namespace cl2vk
