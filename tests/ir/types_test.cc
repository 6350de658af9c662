#include "ir/types.h"

#include <gtest/gtest.h>

#include <limits>

#include "test_util.h"

namespace cl2vk::ir {
namespace {

const char* kTypes = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Float16
               OpMemoryModel Physical64 OpenCL
       %uint = OpTypeInt 32 0
     %uint_7 = OpConstant %uint 7
      %float = OpTypeFloat 32
    %v4float = OpTypeVector %float 4
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
)";

size_t globalCount(const Module& module) { return module.section(Section::kGlobal).size(); }

TEST(TypesTest, GetOrCreateReturnsTheExistingDefinition) {
  auto module = test::assemble(kTypes);
  ASSERT_TRUE(module);
  size_t before = globalCount(*module);
  uint32_t uintType = typeInt(*module, 32);
  uint32_t floatType = typeFloat(*module, 32);

  EXPECT_EQ(module->def(uintType)->opcode(), spv::Op::OpTypeInt);
  EXPECT_EQ(typeVector(*module, floatType, 4), module->def(typeVector(*module, floatType, 4))->resultId());
  EXPECT_EQ(module->def(typePointer(*module, spv::StorageClass::CrossWorkgroup, uintType))->opcode(),
            spv::Op::OpTypePointer);
  EXPECT_EQ(module->def(constantUint(*module, 32, 7))->opcode(), spv::Op::OpConstant);
  EXPECT_EQ(globalCount(*module), before) << "nothing new should have been added";
}

TEST(TypesTest, GetOrCreateAddsOnceAndThenReuses) {
  auto module = test::assemble(kTypes);
  ASSERT_TRUE(module);
  size_t before = globalCount(*module);
  uint32_t bound = module->bound();

  uint32_t ulongType = typeInt(*module, 64);
  EXPECT_EQ(ulongType, bound);
  EXPECT_EQ(typeInt(*module, 64), ulongType);
  uint32_t v2 = typeVector(*module, ulongType, 2);
  EXPECT_EQ(typeVector(*module, ulongType, 2), v2);
  uint32_t big = constantUint(*module, 64, 0x1234567890ull);
  EXPECT_EQ(constantUint(*module, 64, 0x1234567890ull), big);
  EXPECT_NE(constantUint(*module, 64, 0x1234567891ull), big);
  uint32_t fn = typeFunction(*module, typeVoid(*module), {ulongType, v2});
  EXPECT_EQ(typeFunction(*module, typeVoid(*module), {ulongType, v2}), fn);
  EXPECT_EQ(constantBool(*module, true), constantBool(*module, true));
  EXPECT_NE(constantBool(*module, true), constantBool(*module, false));
  uint32_t null = constantNull(*module, v2);
  EXPECT_EQ(constantNull(*module, v2), null);
  uint32_t composite = constantComposite(*module, v2, {big, big});
  EXPECT_EQ(constantComposite(*module, v2, {big, big}), composite);

  // ulong, v2ulong, two ulong constants, void, function, bool, true, false, null, composite.
  EXPECT_EQ(globalCount(*module), before + 11);
  EXPECT_EQ(module->def(big)->operand(0).words, (std::vector<uint32_t>{0x34567890u, 0x12u}));
}

TEST(TypesTest, RemovedDefinitionsAreNotHandedOutAgain) {
  auto module = test::assemble(kTypes);
  ASSERT_TRUE(module);
  uint32_t seven = constantUint(*module, 32, 7);
  ASSERT_TRUE(module->remove(module->def(seven)).ok());
  uint32_t again = constantUint(*module, 32, 7);
  EXPECT_NE(again, seven);
  EXPECT_NE(module->def(again), nullptr);
}

TEST(TypesTest, FloatConstantsUseTheTypeWidth) {
  auto module = test::assemble(kTypes);
  ASSERT_TRUE(module);
  uint32_t half = typeFloat(*module, 16);
  uint32_t f32 = typeFloat(*module, 32);
  uint32_t f64 = typeFloat(*module, 64);
  double inf = std::numeric_limits<double>::infinity();

  EXPECT_EQ(module->def(constantFloat(*module, half, inf))->operand(0).words, std::vector<uint32_t>{0x7c00u});
  EXPECT_EQ(module->def(constantFloat(*module, half, -inf))->operand(0).words, std::vector<uint32_t>{0xfc00u});
  EXPECT_EQ(module->def(constantFloat(*module, half, 1.0))->operand(0).words, std::vector<uint32_t>{0x3c00u});
  EXPECT_EQ(module->def(constantFloat(*module, f32, 1.0))->operand(0).words, std::vector<uint32_t>{0x3f800000u});
  EXPECT_EQ(module->def(constantFloat(*module, f64, -inf))->operand(0).words,
            (std::vector<uint32_t>{0x00000000u, 0xfff00000u}));
}

TEST(TypesTest, HalfConversionRoundsToNearestEven) {
  EXPECT_EQ(floatToHalfBits(0.0), 0x0000u);
  EXPECT_EQ(floatToHalfBits(-0.0), 0x8000u);
  EXPECT_EQ(floatToHalfBits(65504.0), 0x7bffu);                // largest finite half
  EXPECT_EQ(floatToHalfBits(65520.0), 0x7c00u);                // rounds up to infinity
  EXPECT_EQ(floatToHalfBits(1.0 + 1.0 / 2048), 0x3c00u);       // halfway: to even (down)
  EXPECT_EQ(floatToHalfBits(1.0 + 3.0 / 2048), 0x3c02u);       // halfway: to even (up)
  EXPECT_EQ(floatToHalfBits(5.960464477539063e-08), 0x0001u);  // smallest subnormal
  EXPECT_EQ(floatToHalfBits(std::numeric_limits<double>::quiet_NaN()) & 0x7c00u, 0x7c00u);
}

TEST(TypesTest, NarrowSignedConstantsAreSignExtended) {
  auto module = test::assemble(R"(
; Version: 1.6
               OpCapability Shader
               OpCapability Int16
               OpMemoryModel Logical GLSL450
)");
  ASSERT_TRUE(module);
  uint32_t i16 = typeInt(*module, 16, true);
  uint32_t u16 = typeInt(*module, 16, false);
  EXPECT_EQ(module->def(constantBits(*module, i16, 0xffffu))->operand(0).words, std::vector<uint32_t>{0xffffffffu});
  EXPECT_EQ(module->def(constantBits(*module, u16, 0xffffu))->operand(0).words, std::vector<uint32_t>{0x0000ffffu});
}

}  // namespace
}  // namespace cl2vk::ir
