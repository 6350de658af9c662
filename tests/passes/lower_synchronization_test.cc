// lower-synchronization: before/after tests of the scopes and memory semantics Vulkan reads.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

// The module around one kernel body, with a __global uint* %p; `globals` adds types and constants.
std::string kernel(const std::string& body, const std::string& globals = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %p "p"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
   %uint_528 = OpConstant %uint 528
   %uint_784 = OpConstant %uint 784
   %uint_520 = OpConstant %uint 520
  %_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_uint
)" + globals +
         R"(
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// barrier(CLK_GLOBAL_MEM_FENCE | CLK_LOCAL_MEM_FENCE): CrossWorkgroupMemory (512) becomes
// UniformMemory (64), which covers the PhysicalStorageBuffer memory global pointers become.
TEST(LowerSynchronizationTest, GlobalMemoryFenceBecomesUniformMemory) {
  test::expectPassOutput("lower-synchronization", kernel("OpControlBarrier %uint_2 %uint_2 %uint_784"),
                         kernel("OpControlBarrier %uint_2 %uint_2 %uint_336", "%uint_336 = OpConstant %uint 336"));
}

// A fence and a barrier whose semantics order (AcquireRelease, 8) but name no memory: Vulkan
// requires an ordering to name a storage class, and there is nothing to order; the fence goes and
// the barrier keeps its execution part.
TEST(LowerSynchronizationTest, OrderingWithoutMemoryIsDropped) {
  test::expectPassOutput(
      "lower-synchronization",
      kernel(R"(
               OpMemoryBarrier %uint_2 %uint_8
               OpControlBarrier %uint_2 %uint_2 %uint_8
)",
             "%uint_8 = OpConstant %uint 8"),
      kernel("OpControlBarrier %uint_2 %uint_2 %uint_0", "%uint_8 = OpConstant %uint 8\n%uint_0 = OpConstant %uint 0"));
}

// atomic_fetch_add, atomic_load and atomic_store with memory_order_seq_cst (16, naming no memory)
// on a __global int: buffer atomics take Device scope; the order names the memory OpenCL orders,
// UniformMemory (64) and WorkgroupMemory (256); a load keeps only Acquire (2) and a store only
// Release (4), which is what Vulkan allows them.
TEST(LowerSynchronizationTest, GlobalAtomicsGetDeviceScopeAndNameTheMemoryTheyOrder) {
  test::expectPassOutput("lower-synchronization",
                         kernel(R"(
        %old = OpAtomicIAdd %uint %p %uint_2 %uint_16 %uint_1
     %loaded = OpAtomicLoad %uint %p %uint_2 %uint_16
        %sum = OpIAdd %uint %old %loaded
               OpAtomicStore %p %uint_2 %uint_16 %sum
)",
                                "%uint_16 = OpConstant %uint 16"),
                         kernel(R"(
        %old = OpAtomicIAdd %uint %p %uint_1 %uint_336 %uint_1
     %loaded = OpAtomicLoad %uint %p %uint_1 %uint_322
        %sum = OpIAdd %uint %old %loaded
               OpAtomicStore %p %uint_1 %uint_324 %sum
)",
                                R"(
    %uint_16 = OpConstant %uint 16
   %uint_336 = OpConstant %uint 336
   %uint_322 = OpConstant %uint 322
   %uint_324 = OpConstant %uint 324
)"));
}

// atomic_compare_exchange_strong with memory_order_seq_cst for both outcomes: the exchange that
// succeeds keeps the order, the one that fails only loads, so its Unequal semantics keep Acquire
// (SwiftShader's shader compiler aborts on a SequentiallyConsistent Unequal).
TEST(LowerSynchronizationTest, FailedCompareExchangeKeepsOnlyAcquire) {
  test::expectPassOutput("lower-synchronization",
                         kernel(R"(
        %old = OpAtomicCompareExchange %uint %p %uint_2 %uint_16 %uint_16 %uint_1 %uint_2
)",
                                "%uint_16 = OpConstant %uint 16"),
                         kernel(R"(
        %old = OpAtomicCompareExchange %uint %p %uint_1 %uint_336 %uint_322 %uint_1 %uint_2
)",
                                R"(
    %uint_16 = OpConstant %uint 16
   %uint_336 = OpConstant %uint 336
   %uint_322 = OpConstant %uint 322
)"));
}

// memory_order_release to succeed, memory_order_acquire to fail (C17 allows it; the CTS's c11_atomics
// runs it): the exchange orders both, AcquireRelease, since SwiftShader's shader compiler aborts the
// process on a Release exchange whose failure is Acquire. A relaxed one that fails with Acquire
// becomes Acquire.
TEST(LowerSynchronizationTest, CompareExchangeOrdersWhatItsFailureOrders) {
  test::expectPassOutput("lower-synchronization",
                         kernel(R"(
        %old = OpAtomicCompareExchange %uint %p %uint_2 %uint_4 %uint_2 %uint_1 %uint_2
       %old2 = OpAtomicCompareExchange %uint %p %uint_2 %uint_0 %uint_2 %uint_1 %uint_2
)",
                                "%uint_4 = OpConstant %uint 4\n%uint_0 = OpConstant %uint 0"),
                         kernel(R"(
        %old = OpAtomicCompareExchange %uint %p %uint_1 %uint_328 %uint_322 %uint_1 %uint_2
       %old2 = OpAtomicCompareExchange %uint %p %uint_1 %uint_322 %uint_322 %uint_1 %uint_2
)",
                                R"(
     %uint_4 = OpConstant %uint 4
     %uint_0 = OpConstant %uint 0
   %uint_324 = OpConstant %uint 324
   %uint_322 = OpConstant %uint 322
   %uint_328 = OpConstant %uint 328
)"));
}

// An atomic on a private variable (a generic pointer may reach one) has nothing to race with, and
// Vulkan has no atomics on Function memory: it becomes a load, the operation and a store.
TEST(LowerSynchronizationTest, PrivateAtomicBecomesLoadOperationAndStore) {
  std::string types = "%uint_16 = OpConstant %uint 16\n%_ptr_Function_uint = OpTypePointer Function %uint\n";
  test::expectPassOutput("lower-synchronization",
                         kernel(R"(
    %counter = OpVariable %_ptr_Function_uint Function
        %old = OpAtomicIAdd %uint %counter %uint_2 %uint_16 %uint_1
               OpStore %p %old Aligned 4
)",
                                types),
                         kernel(R"(
    %counter = OpVariable %_ptr_Function_uint Function
        %old = OpLoad %uint %counter
        %new = OpIAdd %uint %old %uint_1
               OpStore %counter %new
               OpStore %p %old Aligned 4
)",
                                types + "%bool = OpTypeBool\n"));
}

// For llvmpipe, which runs a memory barrier as a work-group barrier (Target::memoryBarriers off):
// the atomics become relaxed (llvmpipe's are sequentially consistent whatever SPIR-V says), a
// fence becomes an OR of 0 into a workgroup word, and so do an acquiring load's (after it) and a
// releasing store's (before it). The control barrier keeps its semantics (SequentiallyConsistent
// with UniformMemory, 80).
TEST(LowerSynchronizationTest, FencesBecomeAtomicsWhereTheDriverRunsThemAsBarriers) {
  Target llvmpipe;
  llvmpipe.memoryBarriers = false;
  test::expectPassOutput("lower-synchronization",
                         kernel(R"(
        %old = OpAtomicIAdd %uint %p %uint_2 %uint_16 %uint_1
               OpMemoryBarrier %uint_2 %uint_520
     %loaded = OpAtomicLoad %uint %p %uint_2 %uint_16
        %sum = OpIAdd %uint %old %loaded
               OpAtomicStore %p %uint_2 %uint_16 %sum
               OpControlBarrier %uint_2 %uint_2 %uint_528
)",
                                "%uint_16 = OpConstant %uint 16"),
                         kernel(R"(
        %old = OpAtomicIAdd %uint %p %uint_1 %uint_0 %uint_1
          %a = OpAtomicOr %uint %word %uint_2 %uint_0 %uint_0
     %loaded = OpAtomicLoad %uint %p %uint_1 %uint_0
          %b = OpAtomicOr %uint %word %uint_2 %uint_0 %uint_0
        %sum = OpIAdd %uint %old %loaded
          %c = OpAtomicOr %uint %word %uint_2 %uint_0 %uint_0
               OpAtomicStore %p %uint_1 %uint_0 %sum
               OpControlBarrier %uint_2 %uint_2 %uint_80
)",
                                // The orders the atomics had on the way (336, 72, 322, 324) stay as
                                // constants nothing uses, for finalize-vulkan to remove.
                                R"(%uint_16 = OpConstant %uint 16
%uint_336 = OpConstant %uint 336
%uint_72 = OpConstant %uint 72
%uint_322 = OpConstant %uint 322
%uint_324 = OpConstant %uint 324
%uint_80 = OpConstant %uint 80
%_ptr_Workgroup_uint = OpTypePointer Workgroup %uint
%word = OpVariable %_ptr_Workgroup_uint Workgroup
%uint_0 = OpConstant %uint 0
)"),
                         llvmpipe);
}

}  // namespace
}  // namespace cl2vk
