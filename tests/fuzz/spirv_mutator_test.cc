// The fuzz target's input format and its SPIR-V mutator: mutants keep a well-formed header and
// instruction stream, and enough of them still validate to reach the translator's passes.

#include "spirv_mutator.h"

#include <gtest/gtest.h>
#include <spirv-tools/libspirv.hpp>

#include <cstring>

#include "fuzz_input.h"
#include "ir/writer.h"
#include "test_util.h"

namespace cl2vk::fuzz {
namespace {

const char* kKernel = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
%ptr = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ptr %uint
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
          %x = OpFunctionParameter %uint
      %entry = OpLabel
        %sum = OpIAdd %uint %x %uint_1
       %prod = OpIMul %uint %sum %uint_2
       %diff = OpISub %uint %prod %x
               OpStore %p %diff Aligned 4
               OpReturn
               OpFunctionEnd
)";

std::vector<uint8_t> kernelBytes() {
  std::unique_ptr<ir::Module> module = test::assemble(kKernel);
  std::vector<uint32_t> words = ir::writeBinary(*module);
  std::vector<uint8_t> bytes(words.size() * sizeof(uint32_t));
  std::memcpy(bytes.data(), words.data(), bytes.size());
  return bytes;
}

std::vector<uint32_t> moduleWords(const std::vector<uint8_t>& bytes) { return decodeFuzzInput(bytes).words; }

TEST(SpirvMutatorTest, KeepsTheHeaderAndWholeInstructions) {
  std::vector<uint8_t> original = kernelBytes();
  std::vector<uint32_t> originalWords = moduleWords(original);
  std::minstd_rand rng(1);
  for (int i = 0; i < 500; ++i) {
    std::optional<std::vector<uint8_t>> mutant = mutateSpirv(original, 1 << 16, rng);
    ASSERT_TRUE(mutant.has_value()) << "mutation " << i;
    std::vector<uint32_t> words = moduleWords(*mutant);
    ASSERT_GE(words.size(), 5u);
    EXPECT_EQ(words[0], originalWords[0]);  // magic
    EXPECT_EQ(words[1], originalWords[1]);  // version
    EXPECT_EQ(words[4], originalWords[4]);  // schema
    EXPECT_GE(words[3], originalWords[3]);  // the bound only grows (duplicates take fresh ids)
    size_t at = 5;
    while (at < words.size()) {
      uint32_t wordCount = words[at] >> 16;
      ASSERT_NE(wordCount, 0u) << "mutation " << i << " left a zero word count at word " << at;
      at += wordCount;
    }
    EXPECT_EQ(at, words.size()) << "mutation " << i << " left an instruction running past the end";
  }
}

TEST(SpirvMutatorTest, ManyMutantsStillValidate) {
  std::vector<uint8_t> original = kernelBytes();
  spvtools::SpirvTools tools(SPV_ENV_UNIVERSAL_1_2);
  tools.SetMessageConsumer([](spv_message_level_t, const char*, const spv_position_t&, const char*) {});
  std::minstd_rand rng(2);
  int changedAndValid = 0;
  for (int i = 0; i < 400; ++i) {
    std::optional<std::vector<uint8_t>> mutant = mutateSpirv(original, 1 << 16, rng);
    ASSERT_TRUE(mutant.has_value());
    std::vector<uint32_t> words = moduleWords(*mutant);
    if (words != moduleWords(original) && tools.Validate(words)) ++changedAndValid;
  }
  // Byte mutations almost never produce a changed module that validates; these should, often.
  EXPECT_GE(changedAndValid, 40) << "of 400 mutants";
}

TEST(SpirvMutatorTest, LeavesWhatIsNotSpirvToByteMutations) {
  std::minstd_rand rng(3);
  std::vector<uint8_t> text(64, 'x');
  EXPECT_FALSE(mutateSpirv(text, 1 << 16, rng).has_value());
  EXPECT_FALSE(mutateSpirv({}, 1 << 16, rng).has_value());
  std::vector<uint8_t> bytes = kernelBytes();
  EXPECT_FALSE(mutateSpirv(bytes, bytes.size() - 4, rng).has_value()) << "a mutant may not outgrow maxSize";
}

TEST(FuzzInputTest, TrailingBytesChooseTheTarget) {
  std::vector<uint8_t> bytes = kernelBytes();
  FuzzInput plain = decodeFuzzInput(bytes);
  EXPECT_EQ(plain.words.size() * 4, bytes.size());
  EXPECT_EQ(plain.target.vulkanEnv, Target{}.vulkanEnv);
  EXPECT_EQ(plain.target.maxSubgroupSize, Target{}.maxSubgroupSize);

  bytes.push_back(0x02 | (2 << 2) | 0x80);  // Vulkan 1.3, subgroups of 8, a small device
  bytes.push_back(0x08);                    // 256 bytes of push constants
  FuzzInput selected = decodeFuzzInput(bytes);
  EXPECT_EQ(selected.words, plain.words);
  EXPECT_EQ(selected.target.vulkanEnv, SPV_ENV_VULKAN_1_3);
  EXPECT_EQ(selected.target.minSubgroupSize, 8u);
  EXPECT_EQ(selected.target.maxSubgroupSize, 8u);
  EXPECT_FALSE(selected.target.int64);
  EXPECT_FALSE(selected.target.float64);
  EXPECT_TRUE(selected.target.int16);
  EXPECT_TRUE(selected.target.loopExitPhis);
  EXPECT_FALSE(selected.target.pointerPhis);
  EXPECT_EQ(selected.target.maxPushConstantsSize, 256u);
  EXPECT_FALSE(plain.target.loopExitPhis);

  bytes[bytes.size() - 2] = 0x02;  // Vulkan 1.3 alone
  bytes.back() = 0x80;             // loop-closing phis (as llvmpipe)
  FuzzInput llvmpipe = decodeFuzzInput(bytes);
  EXPECT_TRUE(llvmpipe.target.loopExitPhis);
  EXPECT_FALSE(llvmpipe.target.float64Rounding);
  EXPECT_FALSE(llvmpipe.target.broadcastFirstOfComputedFloats);
  EXPECT_FALSE(llvmpipe.target.fusedFma);
  EXPECT_FALSE(llvmpipe.target.memoryBarriers);
  EXPECT_TRUE(llvmpipe.target.pointerPhis);
  EXPECT_TRUE(llvmpipe.target.int64);
}

}  // namespace
}  // namespace cl2vk::fuzz
