// The LLVM IR fix-ups between clang-15 and llvm-spirv-15 (runtime/llvm_ir_fixups.h), on IR text.

#include "runtime/llvm_ir_fixups.h"

#include <gtest/gtest.h>

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

// Above 32 bits the condition goes to 64; i1 cases are printed as true and false.
TEST(LlvmIrFixupsTest, WideAndBooleanSwitchesAreWidenedToo) {
  EXPECT_EQ(widenOddWidthSwitches("  switch i40 %c, label %d [\n    i40 -2, label %e\n  ]\n"),
            "  %cl2vk.switch.0 = zext i40 %c to i64\n  switch i64 %cl2vk.switch.0, label %d [\n"
            "    i64 1099511627774, label %e\n  ]\n");
  EXPECT_EQ(widenOddWidthSwitches("  switch i1 %c, label %d [\n    i1 true, label %e\n  ]\n"),
            "  %cl2vk.switch.0 = zext i1 %c to i32\n  switch i32 %cl2vk.switch.0, label %d [\n"
            "    i32 1, label %e\n  ]\n");
}

}  // namespace
}  // namespace cl2vk::runtime
