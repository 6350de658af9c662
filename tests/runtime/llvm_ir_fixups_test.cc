// The LLVM IR fix-ups between clang-15 and llvm-spirv-15 (runtime/llvm_ir_fixups.h), on IR text.

#include "runtime/llvm_ir_fixups.h"

#include <gtest/gtest.h>

#include <string>

namespace cl2vk::runtime {
namespace {

// What clang-15 -O2 makes of `switch (x & 3)` with three cases (hashcat's kernels have hundreds):
// an i2 switch whose case 2 LLVM prints as -2. The condition is zero-extended to 32 bits before
// the switch and each case value is written as its unsigned 2-bit value.
TEST(LlvmIrFixupsTest, OddWidthSwitchSwitchesOnTheZeroExtendedCondition) {
  EXPECT_EQ(widenOddWidthSwitches(R"(
  %8 = trunc i32 %7 to i2
  switch i2 %8, label %11 [
    i2 0, label %12
    i2 1, label %9
    i2 -2, label %10
  ]

9:
  switch i4 %x, label %done [
    i4 -1, label %a
  ], !prof !3
  switch i32 %y, label %done [
    i32 -1, label %a
  ]
)"),
            R"(
  %8 = trunc i32 %7 to i2
  %cl2vk.switch.0 = zext i2 %8 to i32
  switch i32 %cl2vk.switch.0, label %11 [
    i32 0, label %12
    i32 1, label %9
    i32 2, label %10
  ]

9:
  %cl2vk.switch.1 = zext i4 %x to i32
  switch i32 %cl2vk.switch.1, label %done [
    i32 15, label %a
  ], !prof !3
  switch i32 %y, label %done [
    i32 -1, label %a
  ]
)");
}

// clang-15 -O2 on the CTS's compare_pointers (`ptr = (__local int*)NULL; gptr == ptr`): a cast
// of a __local null to __global, which llvm-spirv-15 crashes on, is the __global null; casts of
// null to or from generic, and of non-null values, stay.
TEST(LlvmIrFixupsTest, NullCastsBetweenNamedSpacesAreNull) {
  EXPECT_EQ(foldNullCastsBetweenNamedSpaces(R"(
  store i32 zext (i1 icmp eq (i32 addrspace(1)* addrspacecast (i32 addrspace(3)* null to i32 addrspace(1)*), i32 addrspace(1)* null) to i32), i32 addrspace(1)* %4, align 4
  %6 = addrspacecast i32* null to i32 addrspace(1)*
  %7 = addrspacecast i32 addrspace(3)* null to i32 addrspace(4)*
  %8 = addrspacecast i32 addrspace(3)* %l to i32 addrspace(4)*
  %9 = icmp eq i32 addrspace(4)* addrspacecast (i32 addrspace(1)* null to i32 addrspace(4)*), %8
)"),
            R"(
  store i32 zext (i1 icmp eq (i32 addrspace(1)* null, i32 addrspace(1)* null) to i32), i32 addrspace(1)* %4, align 4
  %6 = bitcast i32 addrspace(1)* null to i32 addrspace(1)*
  %7 = addrspacecast i32 addrspace(3)* null to i32 addrspace(4)*
  %8 = addrspacecast i32 addrspace(3)* %l to i32 addrspace(4)*
  %9 = icmp eq i32 addrspace(4)* addrspacecast (i32 addrspace(1)* null to i32 addrspace(4)*), %8
)");
}

// Above 32 bits the condition goes to 64; i1 cases are printed as true and false.
TEST(LlvmIrFixupsTest, WideAndBooleanSwitchesAreWidenedToo) {
  EXPECT_EQ(widenOddWidthSwitches("  switch i40 %c, label %d [\n    i40 -2, label %e\n  ]\n"),
            "  %cl2vk.switch.0 = zext i40 %c to i64\n  switch i64 %cl2vk.switch.0, label %d [\n"
            "    i64 1099511627774, label %e\n  ]\n");
  EXPECT_EQ(widenOddWidthSwitches("  switch i1 %c, label %d [\n    i1 true, label %e\n  ]\n"),
            "  %cl2vk.switch.0 = zext i1 %c to i32\n  switch i32 %cl2vk.switch.0, label %d [\n"
            "    i32 1, label %e\n  ]\n");
}

// Every declared sub_group_* function becomes nomerge, first among its function attributes (after
// the parameter list, whose own parentheses and attributes stay as they are); other declarations,
// the work-item queries get_sub_group_* included, and calls are left alone; the kernel, which
// calls one, is nomerge too (kernels may call kernels).
TEST(LlvmIrFixupsTest, SubgroupFunctionDeclarationsBecomeNomerge) {
  std::string before = R"(define spir_kernel void @k(i32 addrspace(1)* %out) #0 {
  %1 = call spir_func i32 @_Z25sub_group_broadcast_firsti(i32 noundef 1) #5
  ret void
}
declare spir_func i32 @_Z25sub_group_broadcast_firsti(i32 noundef) #3
declare spir_func <8 x i32> @_Z31sub_group_non_uniform_broadcastDv8_ij(<8 x i32> noundef, i32 noundef) #3
declare spir_func i32 @_Z30sub_group_clustered_reduce_addij(i32 noundef, i32 noundef) local_unnamed_addr #3
declare spir_func i32 @_Z16sub_group_rotateii(i32 noundef, i32 noundef)
declare spir_func i32 @_Z18get_sub_group_sizev() #4
declare spir_func void @_Z7barrierj(i32 noundef) #4
declare spir_func i32 @_Z9sub_group_elect_not_mangled_this_way() nomerge #3
)";
  std::string after = R"(define spir_kernel void @k(i32 addrspace(1)* %out) nomerge #0 {
  %1 = call spir_func i32 @_Z25sub_group_broadcast_firsti(i32 noundef 1) #5
  ret void
}
declare spir_func i32 @_Z25sub_group_broadcast_firsti(i32 noundef) nomerge #3
declare spir_func <8 x i32> @_Z31sub_group_non_uniform_broadcastDv8_ij(<8 x i32> noundef, i32 noundef) nomerge #3
declare spir_func i32 @_Z30sub_group_clustered_reduce_addij(i32 noundef, i32 noundef) local_unnamed_addr nomerge #3
declare spir_func i32 @_Z16sub_group_rotateii(i32 noundef, i32 noundef) nomerge
declare spir_func i32 @_Z18get_sub_group_sizev() #4
declare spir_func void @_Z7barrierj(i32 noundef) #4
declare spir_func i32 @_Z9sub_group_elect_not_mangled_this_way() nomerge #3
)";
  EXPECT_EQ(keepSubgroupCallsApart(before), after);
}

// A function that calls a sub-group function, directly or through another, is nomerge too: clang
// merged a helper's calls from both arms of an if before inlining it. Functions that call none
// keep their attributes.
TEST(LlvmIrFixupsTest, FunctionsThatCallSubgroupFunctionsBecomeNomerge) {
  std::string before = R"(define internal spir_func i32 @outer(i32 noundef %x) #2 {
  %1 = call spir_func i32 @inner(i32 noundef %x) #5
  ret i32 %1
}
define spir_kernel void @k(i32 addrspace(1)* %out) unnamed_addr #0 !kernel_arg_addr_space !4 {
  %1 = call spir_func i32 @outer(i32 noundef 1) #5
  %2 = call spir_func i32 @plain(i32 noundef %1) #5
  ret void
}
define internal spir_func i32 @inner(i32 noundef %x) #2 {
  %1 = call spir_func i32 @_Z21sub_group_reduce_addi(i32 noundef %x) #5
  ret i32 %1
}
define internal spir_func i32 @plain(i32 noundef %x) #2 {
  %1 = call spir_func i32 @_Z18get_sub_group_sizev() #5
  ret i32 %1
}
declare spir_func i32 @_Z21sub_group_reduce_addi(i32 noundef) #3
declare spir_func i32 @_Z18get_sub_group_sizev() #4
)";
  std::string after = R"(define internal spir_func i32 @outer(i32 noundef %x) nomerge #2 {
  %1 = call spir_func i32 @inner(i32 noundef %x) #5
  ret i32 %1
}
define spir_kernel void @k(i32 addrspace(1)* %out) unnamed_addr nomerge #0 !kernel_arg_addr_space !4 {
  %1 = call spir_func i32 @outer(i32 noundef 1) #5
  %2 = call spir_func i32 @plain(i32 noundef %1) #5
  ret void
}
define internal spir_func i32 @inner(i32 noundef %x) nomerge #2 {
  %1 = call spir_func i32 @_Z21sub_group_reduce_addi(i32 noundef %x) #5
  ret i32 %1
}
define internal spir_func i32 @plain(i32 noundef %x) #2 {
  %1 = call spir_func i32 @_Z18get_sub_group_sizev() #5
  ret i32 %1
}
declare spir_func i32 @_Z21sub_group_reduce_addi(i32 noundef) nomerge #3
declare spir_func i32 @_Z18get_sub_group_sizev() #4
)";
  EXPECT_EQ(keepSubgroupCallsApart(before), after);
}

TEST(LlvmIrFixupsTest, KernelAttributesComeFromClangsMetadata) {
  const std::string ir =
      R"(define dso_local spir_kernel void @hinted(i32 addrspace(1)* noundef align 4 %0) #0 !kernel_arg_addr_space !4 !vec_type_hint !8 !work_group_size_hint !9 {
  ret void
}
define dso_local spir_kernel void @required() #0 !kernel_arg_type !10 !vec_type_hint !11 !reqd_work_group_size !12 {
  ret void
}
define dso_local spir_kernel void @plain() #0 !kernel_arg_type !10 {
  ret void
}
define dso_local spir_func void @helper() #0 !vec_type_hint !8 {
  ret void
}
define dso_local spir_kernel void @scalar() #0 !vec_type_hint !13 {
  ret void
}
!4 = !{i32 1}
!8 = !{<4 x i32> undef, i32 1}
!9 = !{i32 2, i32 3, i32 4}
!10 = !{}
!11 = !{<16 x i64> undef, i32 0}
!12 = !{i32 8, i32 1, i32 1}
!13 = !{half undef, i32 1}
)";
  KernelAttributeList expected = {{"hinted", "vec_type_hint(int4) work_group_size_hint(2,3,4)"},
                                  {"required", "vec_type_hint(ulong16) reqd_work_group_size(8,1,1)"},
                                  {"scalar", "vec_type_hint(half)"}};
  EXPECT_EQ(kernelAttributes(ir), expected);
}

}  // namespace
}  // namespace cl2vk::runtime
