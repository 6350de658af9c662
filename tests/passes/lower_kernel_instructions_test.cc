#include "passes/instructions/lower_kernel_instructions.h"

#include <gtest/gtest.h>

#include <bit>

#include "ir/validate.h"
#include "opencl_std_evaluator_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

using test::EvalValue;

// A function `f` returning `OpBitCount %<result> %a` of a parameter %a of type `base`.
std::string bitCountModule(const std::string& result, const std::string& base) {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpCapability Int8
               OpCapability Int16
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpName %f "f"
      %uchar = OpTypeInt 8 0
     %ushort = OpTypeInt 16 0
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v2ulong = OpTypeVector %ulong 2
     %v2uint = OpTypeVector %uint 2
   %v2ushort = OpTypeVector %ushort 2
         %fn = OpTypeFunction %)" +
         result + " %" + base + R"(
          %f = OpFunction %)" +
         result + R"( None %fn
          %a = OpFunctionParameter %)" +
         base + R"(
      %entry = OpLabel
          %r = OpBitCount %)" +
         result + R"( %a
               OpReturnValue %r
               OpFunctionEnd
)";
}

uint32_t widthOf(const ir::Module& module, uint32_t type) {
  const ir::Instruction* def = module.def(type);
  if (def->opcode() == spv::Op::OpTypeVector) def = module.def(def->idOperand(0));
  return def->wordOperand(0);
}

// Vulkan counts bits of 32-bit integers only. SPIR-V 1.2 lets OpBitCount's Result be wider or
// narrower than its Base (found by a substitution search over the corpus: a ulong Base with a uint
// Result came out as an OpBitCount Vulkan rejects), so every pairing is lowered and evaluated.
TEST(LowerKernelInstructionsTest, BitCountOfEveryWidthIntoEveryWidthIs32BitAndExact) {
  struct Case {
    std::string result, base;
  } cases[] = {{"uint", "ulong"},     {"ulong", "ulong"}, {"uchar", "ulong"},   {"ulong", "uint"},
               {"ushort", "uint"},    {"uint", "uchar"},  {"ushort", "ushort"}, {"uchar", "uchar"},
               {"v2uint", "v2ulong"}, {"v2ulong", "v2uint"}, {"v2uint", "v2ushort"}};
  const uint64_t values[] = {0, 1, 0x80, 0xff, 0x8001, 0xffff, 0x80000001, 0xffffffff, 0x123456789abcdef0, ~uint64_t{0}};
  for (const Case& c : cases) {
    SCOPED_TRACE(c.result + " of " + c.base);
    std::unique_ptr<ir::Module> module = test::assemble(bitCountModule(c.result, c.base));
    ASSERT_NE(module, nullptr);
    Expected<PassResult> result = lowerKernelInstructions(*module, Target{});
    ASSERT_TRUE(result.ok()) << result.error().message();
    Status valid = ir::validate(*module, SPV_ENV_UNIVERSAL_1_2);
    ASSERT_TRUE(valid.ok()) << valid.error().message() << "\n" << test::disassemble(*module);
    for (const ir::Instruction& inst : module->functions().front().blocks().front().instructions()) {
      if (inst.opcode() != spv::Op::OpBitCount) continue;
      EXPECT_EQ(widthOf(*module, inst.typeId()), 32u) << test::disassemble(*module);
      EXPECT_EQ(widthOf(*module, module->def(inst.idOperand(0))->typeId()), 32u) << test::disassemble(*module);
    }
    bool vector = c.base.starts_with("v2");
    uint32_t baseWidth = widthOf(*module, module->def(module->functions().front().header().back().resultId())->typeId());
    test::Evaluator evaluator(*module);
    for (uint64_t value : values) {
      uint64_t bits = baseWidth == 64 ? value : value & ((uint64_t{1} << baseWidth) - 1);
      EvalValue argument{vector ? std::vector<uint64_t>{bits, bits >> 1} : std::vector<uint64_t>{bits}, {}};
      EvalValue counted = evaluator.run("f", {argument});
      ASSERT_EQ(counted.lanes.size(), argument.lanes.size());
      for (size_t lane = 0; lane < argument.lanes.size(); ++lane)
        EXPECT_EQ(counted.lanes[lane], uint64_t(std::popcount(argument.lanes[lane]))) << std::hex << argument.lanes[lane];
    }
  }
}

}  // namespace
}  // namespace cl2vk
