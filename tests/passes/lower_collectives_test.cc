#include "passes/collectives/lower_collectives.h"

#include <gtest/gtest.h>

#include "ir/reader.h"
#include "ir/validate.h"
#include "pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

using test::count;

// A kernel whose body is `%r = <collective>` on a uint parameter, in Kernel SPIR-V.
std::string kernelWith(const std::string& collective, const std::string& extra = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Groups
               OpCapability GroupUniformArithmeticKHR
               OpExtension "SPV_KHR_uniform_group_instructions"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %x "x"
               OpName %r "r"
               OpName %entry "entry"
       %void = OpTypeVoid
       %bool = OpTypeBool
       %uint = OpTypeInt 32 0
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
)" + extra +
         R"(
         %fn = OpTypeFunction %void %uint
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
      %entry = OpLabel
)" + collective +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// A kernel as lower-collectives sees it (after lower-kernel-interface): a GLCompute entry point
// that reads `global uint* out` and `uint x` from push constants, computes %r from %x in `body`
// and stores it to *out. `globals` adds types, constants and variables; `locals`, Function
// variables; `capabilities`, capabilities and extensions. Where `globals` declares the
// LocalInvocationIndex variable (as the pass does when it needs one), its BuiltIn decoration follows.
std::string computeKernel(const std::string& body, const std::string& globals = "", const std::string& locals = "",
                          const std::string& capabilities = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Groups
)" + capabilities +
         R"(
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
)" +
         (globals.find("%gl_LocalInvocationIndex") != std::string::npos
              ? "               OpDecorate %gl_LocalInvocationIndex BuiltIn LocalInvocationIndex\n"
              : "") +
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
  %_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
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
)" + locals +
         R"(
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

PassContext lavapipeLike() {
  PassContext context;
  context.target.minSubgroupSize = context.target.maxSubgroupSize = 8;
  context.target.maxWorkGroupInvocations = 1024;
  return context;
}

// A GPU's: 32-lane subgroups, so that the partials of a work-group of 1024 fit in one subgroup.
PassContext gpuLike() {
  PassContext context;
  context.target.minSubgroupSize = context.target.maxSubgroupSize = 32;
  context.target.maxWorkGroupInvocations = 1024;
  return context;
}

std::string lowered(const std::string& source, PassContext context = lavapipeLike()) {
  auto module = test::assemble(source);
  if (!module) return "";
  Expected<PassResult> result = lowerCollectives(*module, context);
  EXPECT_TRUE(result.ok()) << result.error().message();
  return test::disassemble(*module);
}

TEST(LowerCollectivesTest, SubgroupReduceBecomesOneNonUniformInstruction) {
  test::expectPassOutput("lower-collectives", computeKernel("%r = OpGroupIAdd %uint %uint_3 Reduce %x"),
                         computeKernel("%r = OpGroupNonUniformIAdd %uint %uint_3 Reduce %x"));
}

TEST(LowerCollectivesTest, SubgroupScansKeepTheirGroupOperation) {
  std::string khr = "OpCapability GroupUniformArithmeticKHR\nOpExtension \"SPV_KHR_uniform_group_instructions\"\n";
  test::expectPassOutput("lower-collectives",
                         computeKernel("%r = OpGroupBitwiseXorKHR %uint %uint_3 ExclusiveScan %x", "", "", khr),
                         computeKernel("%r = OpGroupNonUniformBitwiseXor %uint %uint_3 ExclusiveScan %x", "", "", khr));
}

TEST(LowerCollectivesTest, SubgroupVoteBecomesNonUniformAll) {
  test::expectPassOutput("lower-collectives", computeKernel(R"(
    %nonZero = OpINotEqual %bool %x %uint_0
        %all = OpGroupAll %bool %uint_3 %nonZero
          %r = OpSelect %uint %all %uint_1 %uint_0
)"),
                         computeKernel(R"(
    %nonZero = OpINotEqual %bool %x %uint_0
        %all = OpGroupNonUniformAll %bool %uint_3 %nonZero
          %r = OpSelect %uint %all %uint_1 %uint_0
)"));
}

// work_group_broadcast(x, 0): the invocation whose linear local id is 0 writes x into the
// subgroup partials in Workgroup memory, and after one barrier every invocation reads it. The
// partials are double buffered (a Private parity flips at each collective) so that the next
// collective needs no barrier before it writes. A half holds an element per subgroup the
// dispatch's work-group can have (from the work-group size specialization constants), one
// subgroup's worth more, and the slot of a work-group reduce's total (whose constant, `totalSlot`,
// nothing reads here); an element is two words, room for 64-bit values. (The x size is read for
// the linear id a 2D or 3D local id would need; a 1D one leaves it unused.)
TEST(LowerCollectivesTest, WorkgroupBroadcastGoesThroughDoubleBufferedWorkgroupMemory) {
  test::expectPassOutput("lower-collectives", computeKernel("%r = OpGroupBroadcast %uint %uint_2 %x %uint_0"),
                         computeKernel(R"(
    %localId = OpUConvert %ulong %uint_0
      %sizeX = OpCompositeExtract %uint %gl_WorkGroupSize 0
     %sizeX64 = OpUConvert %ulong %sizeX
      %index = OpLoad %uint %gl_LocalInvocationIndex
    %index64 = OpUConvert %ulong %index
     %source = OpIEqual %bool %index64 %localId
     %parity = OpLoad %uint %parityVariable
    %flipped = OpBitwiseXor %uint %parity %uint_1
               OpStore %parityVariable %flipped
       %base = OpIMul %uint %parity %halfLength
               OpBranchConditional %source %write %read
      %write = OpLabel
     %wordAt = OpIMul %uint %base %uint_2
       %slot = OpAccessChain %_ptr_Workgroup_uint %partials %wordAt
               OpStore %slot %x
               OpBranch %read
       %read = OpLabel
               OpControlBarrier %uint_2 %uint_2 %uint_264
    %readAt = OpIMul %uint %base %uint_2
  %readSlot = OpAccessChain %_ptr_Workgroup_uint %partials %readAt
          %r = OpLoad %uint %readSlot
               OpBranch %after
      %after = OpLabel
)",
                                       R"(
  %invocationsXY = OpSpecConstantOp %uint IMul %size_x %size_y
  %invocations = OpSpecConstantOp %uint IMul %invocationsXY %size_z
    %roundedUp = OpSpecConstantOp %uint IAdd %invocations %uint_0
    %subgroups = OpSpecConstantOp %uint UDiv %roundedUp %uint_1
     %uint_129 = OpConstant %uint 129
   %halfLength = OpSpecConstantOp %uint IAdd %subgroups %uint_129
    %totalSlot = OpSpecConstantOp %uint ISub %halfLength %uint_1
     %elements = OpSpecConstantOp %uint IMul %halfLength %uint_2
          %110 = OpSpecConstantOp %uint IMul %elements %uint_2
  %_arr_uint_110 = OpTypeArray %uint %110
  %_ptr_Workgroup__arr_uint_110 = OpTypePointer Workgroup %_arr_uint_110
   %partials = OpVariable %_ptr_Workgroup__arr_uint_110 Workgroup
  %_ptr_Input_uint = OpTypePointer Input %uint
  %gl_LocalInvocationIndex = OpVariable %_ptr_Input_uint Input
  %_ptr_Private_uint = OpTypePointer Private %uint
  %parityVariable = OpVariable %_ptr_Private_uint Private %uint_0
  %_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
   %uint_264 = OpConstant %uint 264
)"));
}

// async_work_group_copy(tile, out, 64, 0) and its wait: the work-group copies the elements in a
// loop strided by the work-group size, and the wait becomes a work-group barrier over Workgroup and
// CrossWorkgroup memory (776). Events become uints nothing reads.
TEST(LowerCollectivesTest, AsyncCopyBecomesAStridedLoopAndItsWaitABarrier) {
  std::string globals = R"(
      %Event = OpTypeEvent
  %_ptr_Function_Event = OpTypePointer Function %Event
   %no_event = OpConstantNull %Event
    %ulong_1 = OpConstant %ulong 1
   %ulong_64 = OpConstant %ulong 64
    %uint_64 = OpConstant %uint 64
  %_arr_uint_uint_64 = OpTypeArray %uint %uint_64
  %_ptr_Workgroup__arr_uint_uint_64 = OpTypePointer Workgroup %_arr_uint_uint_64
  %_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
      %tiles = OpVariable %_ptr_Workgroup__arr_uint_uint_64 Workgroup
)";
  test::expectPassOutput("lower-collectives",
                         computeKernel(R"(
       %tile = OpInBoundsAccessChain %_ptr_Workgroup_uint %tiles %uint_0
      %event = OpGroupAsyncCopy %Event %uint_2 %tile %out %ulong_64 %ulong_1 %no_event
               OpStore %events %event
               OpGroupWaitEvents %uint_2 %uint_1 %events
          %r = OpLoad %uint %tile
)",
                                       globals, "%events = OpVariable %_ptr_Function_Event Function"),
                         computeKernel(R"(
       %tile = OpInBoundsAccessChain %_ptr_Workgroup_uint %tiles %uint_0
      %count = OpUConvert %uint %ulong_64
      %first = OpLoad %uint %gl_LocalInvocationIndex
      %sizeX = OpCompositeExtract %uint %gl_WorkGroupSize 0
      %sizeY = OpCompositeExtract %uint %gl_WorkGroupSize 1
     %sizeXY = OpIMul %uint %sizeX %sizeY
      %sizeZ = OpCompositeExtract %uint %gl_WorkGroupSize 2
       %step = OpIMul %uint %sizeXY %sizeZ
               OpBranch %header
     %header = OpLabel
          %i = OpPhi %uint %first %entry %next %body
     %inside = OpULessThan %bool %i %count
               OpBranchConditional %inside %body %exit
       %body = OpLabel
        %i64 = OpUConvert %ulong %i
    %strided = OpIMul %ulong %i64 %ulong_1
       %from = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_uint %out %strided
         %to = OpInBoundsPtrAccessChain %_ptr_Workgroup_uint %tile %i64
    %element = OpLoad %uint %from
               OpStore %to %element
       %next = OpIAdd %uint %i %step
               OpBranch %header
       %exit = OpLabel
               OpBranch %after
      %after = OpLabel
               OpStore %events %no_event
               OpControlBarrier %uint_2 %uint_2 %uint_776
          %r = OpLoad %uint %tile
)",
                                       R"(
  %_ptr_Function_uint = OpTypePointer Function %uint
   %no_event = OpConstantNull %uint
    %ulong_1 = OpConstant %ulong 1
   %ulong_64 = OpConstant %ulong 64
    %uint_64 = OpConstant %uint 64
  %_arr_uint_uint_64 = OpTypeArray %uint %uint_64
  %_ptr_Workgroup__arr_uint_uint_64 = OpTypePointer Workgroup %_arr_uint_uint_64
  %_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
      %tiles = OpVariable %_ptr_Workgroup__arr_uint_uint_64 Workgroup
  %_ptr_Input_uint = OpTypePointer Input %uint
  %gl_LocalInvocationIndex = OpVariable %_ptr_Input_uint Input
   %uint_776 = OpConstant %uint 776
)",
                                       "%events = OpVariable %_ptr_Function_uint Function"));
}

// Target::shuffleScans: log2(subgroup size) shuffle-up steps instead of the scan instruction; an
// exclusive scan takes one more step for the value of the lane before.
TEST(LowerCollectivesTest, ShuffleScansTakeOneShuffleUpPerDoublingOfTheSubgroup) {
  struct Case {
    PassContext context;
    std::string kind;
    size_t shuffles;
  } cases[] = {{gpuLike(), "InclusiveScan", 5}, {gpuLike(), "ExclusiveScan", 6}, {lavapipeLike(), "InclusiveScan", 3}};
  for (Case& c : cases) {
    c.context.target.shuffleScans = true;
    std::string text = lowered(kernelWith("%r = OpGroupFMax %uint %uint_3 " + c.kind + " %x"), c.context);
    EXPECT_EQ(count(text, "OpGroupNonUniformShuffleUp %uint %uint_3 %"), c.shuffles) << c.kind << "\n" << text;
    EXPECT_EQ(count(text, "Scan"), 0u) << text;
    EXPECT_EQ(count(text, "OpGroupFMax"), 0u) << text;
  }
  // Reductions keep the reduce instruction.
  PassContext context = gpuLike();
  context.target.shuffleScans = true;
  std::string text = lowered(kernelWith("%r = OpGroupIAdd %uint %uint_3 Reduce %x"), context);
  EXPECT_EQ(count(text, "OpGroupNonUniformIAdd %uint %uint_3 Reduce %x"), 1u) << text;
  EXPECT_EQ(count(text, "ShuffleUp"), 0u) << text;
}

// Subgroup operations on 64-bit integers need shaderSubgroupExtendedTypes, as on 8/16-bit types.
TEST(LowerCollectivesTest, LongSubgroupOperationsNeedExtendedTypes) {
  std::string types = "      %ulong = OpTypeInt 64 0\n";
  std::string collective = "%wide = OpUConvert %ulong %x\n%r = OpGroupIAdd %ulong %uint_3 Reduce %wide";
  PassContext context = gpuLike();
  EXPECT_EQ(count(lowered(kernelWith(collective, types), context), "OpGroupNonUniformIAdd %ulong"), 1u);
  context.target.subgroupExtendedTypes = false;
  std::string text = lowered(kernelWith(collective, types), context);
  EXPECT_EQ(count(text, "OpGroupNonUniformIAdd"), 0u) << text;
  EXPECT_NE(text.find("OpControlBarrier %uint_3 %uint_3"), std::string::npos)
      << "the subgroup's slice of Workgroup memory";
}

// Without extended types a char collective goes through Workgroup memory as its zero-extended
// word (the translation fuzzer's find: a bit cast of the char to a uint, which is not valid).
TEST(LowerCollectivesTest, CharCollectivesWithoutExtendedTypesStoreWords) {
  std::string types = "      %uchar = OpTypeInt 8 0\n";
  std::string collective = "%narrow = OpUConvert %uchar %x\n%r = OpGroupUMax %uchar %uint_2 Reduce %narrow";
  PassContext context = gpuLike();
  context.target.subgroupExtendedTypes = false;
  std::string text = lowered(kernelWith(collective, types), context);
  EXPECT_EQ(count(text, "OpBitcast"), 0u) << text;
  EXPECT_GE(count(text, "OpUConvert %uint"), 1u) << text;
  EXPECT_NE(text.find("OpUConvert %uchar"), std::string::npos) << "the result read back as a char\n" << text;
}

// Work-group collectives carry two paths, chosen per dispatch by the kLinearSubgroups
// specialization constant: the subgroup path (two barriers for reduce and scans) and the
// Workgroup-memory path for shapes whose subgroups are not laid out linearly (a tree or a
// Hillis-Steele scan: one barrier before, and one in, its loop, plus one after).
TEST(LowerCollectivesTest, WorkgroupReduceIsSubgroupReducePlusACombineWithOneBarrier) {
  std::string text = lowered(kernelWith("%r = OpGroupIAdd %uint %uint_2 Reduce %x"), gpuLike());
  // One on the subgroup path (its partials are double-buffered), three on the Workgroup-memory path.
  EXPECT_EQ(count(text, "OpControlBarrier %uint_2 %uint_2"), 1u + 3u) << text;
  EXPECT_EQ(count(text, "OpBitwiseXor %uint"), 1u) << "the parity that picks the half of the partials flips";
  EXPECT_EQ(count(text, "OpSpecConstantTrue"), 1u) << "the path is picked by a specialization constant";
  EXPECT_EQ(count(text, "OpGroupNonUniformIAdd %uint %uint_3 Reduce"), 2u) << "one per subgroup, one over the partials";
  EXPECT_EQ(count(text, "OpGroupNonUniformElect"), 1u) << "one lane per subgroup publishes its partial";
  EXPECT_NE(text.find("Workgroup"), std::string::npos) << "the partials go through Workgroup memory";
  EXPECT_EQ(count(text, "OpGroupIAdd"), 0u);
}

// With 8-lane subgroups a work-group can have 128 partials: when it has more than a subgroup has
// lanes, the first subgroup alone folds them and shares the total after a second barrier.
TEST(LowerCollectivesTest, WorkgroupReduceOfManyPartialsFoldsThemInOneSubgroup) {
  std::string text = lowered(kernelWith("%r = OpGroupIAdd %uint %uint_2 Reduce %x"), lavapipeLike());
  EXPECT_EQ(count(text, "OpControlBarrier %uint_2 %uint_2"), 2u + 3u) << text;
  EXPECT_EQ(count(text, "OpGroupNonUniformIAdd %uint %uint_3 Reduce"), 3u)
      << "per subgroup, and a fold in each variant";
  EXPECT_EQ(count(text, "OpGroupNonUniformElect"), 2u) << "the partials, and the total";
  EXPECT_EQ(count(text, "OpUGreaterThan %bool"), 1u) << "the variant is picked by the subgroup count";
}

TEST(LowerCollectivesTest, WorkgroupScanAddsThePrefixOfEarlierSubgroups) {
  std::string text = lowered(kernelWith("%r = OpGroupIAdd %uint %uint_2 ExclusiveScan %x"));
  EXPECT_EQ(count(text, "OpControlBarrier %uint_2 %uint_2"), 1u + 4u) << text;
  EXPECT_EQ(count(text, "OpGroupNonUniformIAdd %uint %uint_3 ExclusiveScan %x"), 1u) << text;
  EXPECT_NE(text.find("SubgroupId"), std::string::npos) << "the prefix covers the subgroups before this one";
}

TEST(LowerCollectivesTest, AllCollectivesOfAKernelShareTheirScratchArrays) {
  std::string text =
      lowered(kernelWith("%a = OpGroupIAdd %uint %uint_2 Reduce %x\n%b = OpGroupUMax %uint %uint_2 InclusiveScan %a\n"
                         "%r = OpGroupBroadcast %uint %uint_2 %b %uint_3"));
  // One per-subgroup array for the subgroup path, one per-invocation array for the other, and one
  // parity for the halves of the first.
  EXPECT_EQ(count(text, "OpVariable %_ptr_Workgroup"), 2u) << text;
  EXPECT_EQ(count(text, "OpVariable %_ptr_Private_uint Private"), 1u) << text;
  // Reduce: one barrier on the subgroup path, one more where many partials are folded by one
  // subgroup, and the Workgroup-memory path's three; scan: one and three; the broadcast goes
  // through the double-buffered partials: one.
  EXPECT_EQ(count(text, "OpControlBarrier %uint_2 %uint_2"), (2u + 3u) + (1u + 3u) + 1u) << text;
}

TEST(LowerCollectivesTest, EveryCollectiveOfTheCorpusIsLowered) {
  for (const auto& path : test::supportedCorpusModules()) {
    if (path.parent_path() != test::corpusDir()) continue;  // the collectives corpus
    auto module = ir::readBinary(test::readWords(path));
    ASSERT_TRUE(module.ok()) << module.error().message();
    PassContext context = lavapipeLike();
    Expected<PassResult> result = lowerCollectives(**module, context);
    ASSERT_TRUE(result.ok()) << path << ": " << result.error().message();
    std::string text = test::disassemble(**module);
    for (const char* kernelOnly : {"OpGroupIAdd", "OpGroupFAdd", "OpGroupSMax", "OpGroupAll ", "OpGroupBroadcast ",
                                   "OpGroupIMulKHR", "OpGroupBitwiseAndKHR", "OpGroupLogicalXorKHR"})
      EXPECT_EQ(text.find(kernelOnly), std::string::npos) << path << " still has " << kernelOnly;
  }
}

TEST(LowerCollectivesTest, GroupOperationsMustBeReduceOrScans) {
  for (const char* scope : {"%uint_2", "%uint_3"}) {
    auto module = test::assemble(kernelWith(std::string("%r = OpGroupIAdd %uint ") + scope + " ClusteredReduce %x"));
    ASSERT_TRUE(module);
    PassContext context = lavapipeLike();
    Expected<PassResult> result = lowerCollectives(*module, context);
    ASSERT_FALSE(result.ok()) << scope;
    EXPECT_NE(result.error().message().find("group operation 3 is not an OpenCL collective"), std::string::npos)
        << result.error().message();
  }
}

TEST(LowerCollectivesTest, ScopesMustBeConstantWorkgroupOrSubgroup) {
  auto module =
      test::assemble(kernelWith("%r = OpGroupIAdd %uint %uint_4 Reduce %x", "     %uint_4 = OpConstant %uint 4\n"));
  ASSERT_TRUE(module);
  PassContext context = lavapipeLike();
  Expected<PassResult> result = lowerCollectives(*module, context);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message().find("kernel 'k': %"), std::string::npos) << result.error().message();
  EXPECT_NE(result.error().message().find("the scope must be the constant Workgroup or Subgroup"), std::string::npos)
      << result.error().message();
}

// SPIRV-Tools lets a broadcast of a v2ulong into a uint result through; lowering it gave an OpStore
// of the wrong type (found by the fuzzer: tests/fuzz/regressions/broadcast-value-of-another-type).
TEST(LowerCollectivesTest, OperandsMustHaveTheResultType) {
  std::string types =
      "      %ulong = OpTypeInt 64 0\n    %v2ulong = OpTypeVector %ulong 2\n"
      "    %ulong_0 = OpConstant %ulong 0\n       %zero = OpConstantNull %v2ulong\n";
  struct Case {
    std::string collective, expected;
  } cases[] = {
      {"%r = OpGroupBroadcast %uint %uint_2 %zero %x", "the value must have the result's type"},
      {"%r = OpGroupIAdd %ulong %uint_2 Reduce %x", "the operand X must have the result's type"},
      {"%r = OpGroupBroadcast %uint %uint_2 %x %zero", ""},  // a 2D local id is fine
  };
  for (const Case& c : cases) {
    auto module = test::assemble(kernelWith(c.collective, types));
    ASSERT_TRUE(module);
    PassContext context = lavapipeLike();
    Expected<PassResult> result = lowerCollectives(*module, context);
    if (c.expected.empty()) {
      EXPECT_TRUE(result.ok()) << c.collective << ": " << result.error().message();
      continue;
    }
    ASSERT_FALSE(result.ok()) << c.collective;
    EXPECT_NE(result.error().message().find(c.expected), std::string::npos) << result.error().message();
  }
}

// SPIRV-Tools 2023.1 checks no operand of OpGroupAsyncCopy: what the lowering cannot copy is
// refused with the reason, and a well-formed copy between global and local memory is lowered.
TEST(LowerCollectivesTest, AsyncCopiesNeedPointersBetweenGlobalAndLocalAndIntegerCounts) {
  std::string types = R"(
      %ulong = OpTypeInt 64 0
      %event = OpTypeEvent
 %ptr_global = OpTypePointer CrossWorkgroup %uint
  %ptr_local = OpTypePointer Workgroup %uint
%ptr_global_ulong = OpTypePointer CrossWorkgroup %ulong
    %ulong_4 = OpConstant %ulong 4
    %ulong_1 = OpConstant %ulong 1
   %no_event = OpConstantNull %event
     %global = OpConstantNull %ptr_global
%global_ulong = OpConstantNull %ptr_global_ulong
      %local = OpVariable %ptr_local Workgroup
)";
  struct Case {
    std::string copy, expected;
  } cases[] = {
      {"%r = OpGroupAsyncCopy %event %uint_2 %local %global %ulong_4 %ulong_1 %no_event", ""},
      {"%r = OpGroupAsyncCopy %event %uint_2 %global %local %ulong_4 %ulong_1 %no_event\n"
       "OpGroupWaitEvents %uint_2 %uint_2 %no_event_ptr",
       ""},
      {"%r = OpGroupAsyncCopy %event %uint_2 %x %global %ulong_4 %ulong_1 %no_event", "must be pointers"},
      {"%r = OpGroupAsyncCopy %event %uint_2 %global %global %ulong_4 %ulong_1 %no_event",
       "must be between a __global and a __local pointer"},
      {"%r = OpGroupAsyncCopy %event %uint_2 %local %global_ulong %ulong_4 %ulong_1 %no_event",
       "the same element type"},
      {"%r = OpGroupAsyncCopy %event %uint_2 %local %global %ulong_4 %x %no_event", "integers of one type"},
      {"%r = OpGroupAsyncCopy %event %uint_3 %local %global %ulong_4 %ulong_1 %no_event", "the constant Workgroup"},
  };
  for (const Case& c : cases) {
    std::string extra = types;
    if (c.copy.find("%no_event_ptr") != std::string::npos)
      extra += "%ptr_event = OpTypePointer Workgroup %event\n%no_event_ptr = OpVariable %ptr_event Workgroup\n";
    auto module = test::assemble(kernelWith(c.copy, extra));
    ASSERT_TRUE(module) << c.copy;
    PassContext context = lavapipeLike();
    Expected<PassResult> result = lowerCollectives(*module, context);
    if (c.expected.empty()) {
      ASSERT_TRUE(result.ok()) << c.copy << ": " << result.error().message();
      std::string out = test::disassemble(*module);
      EXPECT_EQ(out.find("OpGroupAsyncCopy"), std::string::npos) << out;
      EXPECT_EQ(out.find("OpGroupWaitEvents"), std::string::npos) << out;
      EXPECT_EQ(out.find("OpTypeEvent"), std::string::npos) << out;
      continue;
    }
    ASSERT_FALSE(result.ok()) << c.copy;
    EXPECT_NE(result.error().message().find(c.expected), std::string::npos) << result.error().message();
  }
}

// --- The cl_khr_subgroup_* instructions -----------------------------------------------------------

// Without Vulkan's clustered operations (lavapipe), a clustered reduction is log2(cluster size)
// shuffle steps, each taking the value of the partner block's lowest active lane (from a ballot).
TEST(LowerCollectivesTest, ClusteredReduceWithoutClusteredOperationsIsShuffleSteps) {
  std::string reduce = "%r = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %x %uint_4";
  std::string constants = "     %uint_4 = OpConstant %uint 4\n";
  PassContext context = lavapipeLike();
  context.target.subgroupClustered = false;
  std::string text = lowered(kernelWith(reduce, constants), context);
  EXPECT_EQ(count(text, "OpGroupNonUniformShuffle %uint %uint_3"), 2u) << text;
  EXPECT_EQ(count(text, "OpGroupNonUniformBallot %v4uint"), 1u) << text;
  EXPECT_EQ(count(text, "FindILsb"), 2u) << text;
  EXPECT_EQ(count(text, "ClusteredReduce"), 0u) << text;
  // Where the device has them, the instruction stays.
  text = lowered(kernelWith(reduce, constants), lavapipeLike());
  EXPECT_EQ(count(text, "OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %x %uint_4"), 1u) << text;
  EXPECT_EQ(count(text, "Shuffle"), 0u) << text;
}

// A cluster size that is not a constant (clang-15 -O2 had merged a switch over cluster sizes into
// one call) is refused by name also where the device has clustered operations and the instruction
// would stay: SPIRV-Tools lets it through, and NVIDIA's driver crashed compiling it.
TEST(LowerCollectivesTest, ClusteredReduceOfAVariableClusterSizeIsRefused) {
  for (bool clustered : {true, false}) {
    SCOPED_TRACE(clustered ? "clustered operations" : "shuffle steps");
    auto module = test::assemble(kernelWith("%r = OpGroupNonUniformIAdd %uint %uint_3 ClusteredReduce %x %x"));
    ASSERT_TRUE(module);
    PassContext context = lavapipeLike();
    context.target.subgroupClustered = clustered;
    Expected<PassResult> result = lowerCollectives(*module, context);
    ASSERT_FALSE(result.ok());
    EXPECT_NE(result.error().message().find("kernel 'k': "), std::string::npos) << result.error().message();
    EXPECT_NE(result.error().message().find(
                  "OpGroupNonUniformIAdd in function 'k': the cluster size must be a constant power of two"),
              std::string::npos)
        << result.error().message();
  }
}

// A clustered reduction of a ulong on a device with clustered operations but without
// shaderSubgroupExtendedTypes takes the shuffle steps too, which move it as 32-bit words; a plain
// reduction of it is refused by name.
TEST(LowerCollectivesTest, ClusteredReduceWithoutExtendedTypesIsShuffleSteps) {
  std::string types =
      "      %ulong = OpTypeInt 64 0\n     %uint_4 = OpConstant %uint 4\n     %v2uint = OpTypeVector %uint 2\n";
  PassContext context = lavapipeLike();
  context.target.subgroupExtendedTypes = false;
  std::string text = lowered(kernelWith("%wide = OpUConvert %ulong %x\n"
                                        "%sum = OpGroupNonUniformIAdd %ulong %uint_3 ClusteredReduce %wide %uint_4\n"
                                        "%r = OpUConvert %uint %sum",
                                        types),
                             context);
  EXPECT_EQ(count(text, "OpGroupNonUniformShuffle %v2uint %uint_3"), 2u) << text;
  EXPECT_EQ(count(text, "ClusteredReduce"), 0u) << text;
  auto module =
      test::assemble(kernelWith("%wide = OpUConvert %ulong %x\n"
                                "%sum = OpGroupNonUniformIAdd %ulong %uint_3 Reduce %wide\n"
                                "%r = OpUConvert %uint %sum",
                                types));
  ASSERT_TRUE(module);
  Expected<PassResult> result = lowerCollectives(*module, context);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message().find("needs Vulkan's shaderSubgroupExtendedTypes"), std::string::npos)
      << result.error().message();
}

// sub_group_rotate is a shuffle from lane (lane + delta) mod get_max_sub_group_size(); the
// clustered form stays within the aligned cluster (masks, no division).
TEST(LowerCollectivesTest, RotateBecomesAShuffle) {
  std::string constants = "     %uint_4 = OpConstant %uint 4\n";
  std::string text = lowered(kernelWith("%r = OpGroupNonUniformRotateKHR %uint %uint_3 %x %uint_2", constants));
  EXPECT_EQ(count(text, "OpGroupNonUniformRotateKHR"), 0u) << text;
  EXPECT_EQ(count(text, "OpGroupNonUniformShuffle %uint %uint_3 %x"), 1u) << text;
  EXPECT_EQ(count(text, "OpUMod"), 1u) << text;
  text = lowered(kernelWith("%r = OpGroupNonUniformRotateKHR %uint %uint_3 %x %uint_2 %uint_4", constants));
  EXPECT_EQ(count(text, "OpGroupNonUniformShuffle %uint %uint_3 %x"), 1u) << text;
  EXPECT_EQ(count(text, "OpUMod"), 0u) << text;
}

// 64-bit values move as two 32-bit words and 8/16-bit ones as one word, so that shuffles and
// broadcasts of them need no shaderSubgroupExtendedTypes; vectors of them, one component at a time.
TEST(LowerCollectivesTest, ShufflesMoveWords) {
  std::string types =
      "      %ulong = OpTypeInt 64 0\n     %ushort = OpTypeInt 16 0\n     %v2uint = OpTypeVector %uint 2\n";
  PassContext context = lavapipeLike();
  context.target.subgroupExtendedTypes = false;
  std::string text = lowered(kernelWith("%wide = OpUConvert %ulong %x\n"
                                        "%moved = OpGroupNonUniformShuffle %ulong %uint_3 %wide %uint_2\n"
                                        "%r = OpUConvert %uint %moved",
                                        types),
                             context);
  EXPECT_EQ(count(text, "OpGroupNonUniformShuffle %v2uint %uint_3"), 1u) << text;
  text = lowered(kernelWith("%narrow = OpUConvert %ushort %x\n"
                            "%moved = OpGroupNonUniformShuffleDown %ushort %uint_3 %narrow %uint_2\n"
                            "%r = OpUConvert %uint %moved",
                            types),
                 context);
  EXPECT_EQ(count(text, "OpGroupNonUniformShuffleDown %uint %uint_3"), 1u) << text;
  EXPECT_EQ(count(text, "ShuffleDown %ushort"), 0u) << text;
  // A vector of them (sub_group_non_uniform_broadcast of a ulong2): component by component, each
  // as words; Vulkan's validation refused the ulong2 broadcast without the feature.
  text = lowered(kernelWith("%wide = OpUConvert %ulong %x\n"
                            "%pair = OpCompositeConstruct %v2ulong %wide %wide\n"
                            "%moved = OpGroupNonUniformBroadcast %v2ulong %uint_3 %pair %uint_2\n"
                            "%low = OpCompositeExtract %ulong %moved 0\n"
                            "%r = OpUConvert %uint %low",
                            types + "    %v2ulong = OpTypeVector %ulong 2\n"),
                 context);
  EXPECT_EQ(count(text, "OpGroupNonUniformBroadcast %v2uint %uint_3"), 2u) << text;
  EXPECT_EQ(count(text, "OpGroupNonUniformBroadcast %v2ulong"), 0u) << text;
}

// OpenCL counts the bits of get_max_sub_group_size() lanes, a partial sub-group's as a full one's
// (the CTS's reading); Vulkan all SubgroupSize bits, more where the work-group is smaller than a
// subgroup. The ballot is masked first, with a mask made of the enqueued work-group size and
// SubgroupSize alone: no sub-group id or local id (a partial sub-group's own lanes) enters it.
TEST(LowerCollectivesTest, BallotCountSeesTheLanesBelowTheMaxSubgroupSize) {
  std::string types = "     %v4uint = OpTypeVector %uint 4\n";
  for (bool byRow : {false, true}) {
    for (std::string kind : {"Reduce", "InclusiveScan"}) {
      SCOPED_TRACE(kind + (byRow ? ", sub-groups by row" : ""));
      PassContext context = lavapipeLike();
      context.target.subgroupsByRow = byRow;
      std::string text = lowered(kernelWith("%bits = OpCompositeConstruct %v4uint %x %x %x %x\n"
                                            "%r = OpGroupNonUniformBallotBitCount %uint %uint_3 " +
                                                kind + " %bits",
                                            types),
                                 context);
      EXPECT_EQ(count(text, "BuiltIn SubgroupId"), 0u) << text;
      EXPECT_EQ(count(text, "BuiltIn LocalInvocationId"), 0u) << text;
      size_t mask = text.find("OpBitwiseAnd %v4uint");
      if (kind == "InclusiveScan") {  // only the lanes up to this one count: nothing to mask
        EXPECT_EQ(mask, std::string::npos) << text;
        continue;
      }
      ASSERT_NE(mask, std::string::npos) << text;
      EXPECT_EQ(count(text, "BuiltIn SubgroupSize"), 1u) << text;
      size_t name = text.rfind('%', mask - 4);
      std::string masked = text.substr(name, text.find(' ', name) - name);
      EXPECT_EQ(count(text, "OpGroupNonUniformBallotBitCount %uint %uint_3 Reduce " + masked), 1u) << text;
    }
  }
}

// A device without the operation refuses the instruction by name.
TEST(LowerCollectivesTest, NonUniformInstructionsNeedTheDevicesOperations) {
  auto module = test::assemble(kernelWith("%r = OpGroupNonUniformShuffleXor %uint %uint_3 %x %uint_2"));
  ASSERT_TRUE(module);
  PassContext context = lavapipeLike();
  context.target.subgroupShuffle = false;
  Expected<PassResult> result = lowerCollectives(*module, context);
  ASSERT_FALSE(result.ok());
  EXPECT_NE(result.error().message().find("kernel 'k': "), std::string::npos) << result.error().message();
  EXPECT_NE(result.error().message().find(
                "OpGroupNonUniformShuffleXor in function 'k': the device lacks Vulkan's subgroup shuffle operations"),
            std::string::npos)
      << result.error().message();
}

// sub_group_non_uniform_all_equal of a long without shaderSubgroupExtendedTypes compares its two
// words; with it, the instruction stays.
TEST(LowerCollectivesTest, AllEqualOfALongComparesWordsWithoutExtendedTypes) {
  std::string types = "      %ulong = OpTypeInt 64 0\n     %v2uint = OpTypeVector %uint 2\n";
  std::string vote =
      "%wide = OpUConvert %ulong %x\n%equal = OpGroupNonUniformAllEqual %bool %uint_3 %wide\n"
      "%r = OpSelect %uint %equal %uint_3 %uint_2";
  PassContext context = lavapipeLike();
  std::string text = lowered(kernelWith(vote, types), context);
  EXPECT_EQ(count(text, "OpGroupNonUniformAllEqual %bool %uint_3"), 1u) << text;
  EXPECT_EQ(count(text, "OpBitcast %v2uint"), 0u) << text;
  context.target.subgroupExtendedTypes = false;
  text = lowered(kernelWith(vote, types), context);
  EXPECT_EQ(count(text, "OpGroupNonUniformAllEqual %bool %uint_3"), 1u) << text;
  EXPECT_EQ(count(text, "OpBitcast %v2uint"), 1u) << text;
}

}  // namespace
}  // namespace cl2vk
