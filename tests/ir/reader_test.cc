#include "ir/reader.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "ir/writer.h"
#include "support/byte_order.h"
#include "test_util.h"

namespace cl2vk::ir {
namespace {

const char* kKernel = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
     %uint_1 = OpConstant %uint 1
         %fn = OpTypeFunction %void %uint
          %k = OpFunction %void None %fn
          %x = OpFunctionParameter %uint
      %entry = OpLabel
        %sum = OpIAdd %uint %x %uint_1
               OpReturn
               OpFunctionEnd
)";

std::vector<uint32_t> kernelWords() {
  auto module = test::assemble(kKernel);
  return module ? writeBinary(*module) : std::vector<uint32_t>{};
}

// Reading `text` fails with a message containing `expected`.
void expectAssemblyError(const std::string& text, const std::string& expected) {
  auto module = readAssembly(text);
  ASSERT_FALSE(module.ok()) << "expected an error containing: " << expected;
  EXPECT_NE(module.error().message().find(expected), std::string::npos) << module.error().message();
}

void expectBinaryError(std::span<const uint32_t> words, const std::string& expected) {
  auto module = readBinary(words);
  ASSERT_FALSE(module.ok()) << "expected an error containing: " << expected;
  EXPECT_NE(module.error().message().find(expected), std::string::npos) << module.error().message();
}

TEST(ReaderTest, RoundTripsBitIdentically) {
  std::vector<uint32_t> words = kernelWords();
  auto module = readBinary(words);
  ASSERT_TRUE(module.ok()) << module.error().message();
  EXPECT_EQ(writeBinary(**module), words);
}

TEST(ReaderTest, KeepsTheByteOrderOfTheInput) {
  std::vector<uint32_t> words = kernelWords();
  std::vector<uint32_t> swapped;
  for (uint32_t w : words) swapped.push_back(byteSwap(w));
  auto module = readBinary(swapped);
  ASSERT_TRUE(module.ok()) << module.error().message();
  EXPECT_TRUE((*module)->byteSwapped());
  EXPECT_EQ(writeBinary(**module), swapped);
}

TEST(ReaderTest, RejectsEmptyAndNonSpirvInput) {
  expectBinaryError({}, "the input is empty");
  std::vector<uint32_t> garbage = {0xdeadbeef, 1, 2, 3, 4, 5};
  expectBinaryError(garbage, "not a SPIR-V binary: wrong magic number");
  std::vector<uint8_t> odd = {0x03, 0x02, 0x23, 0x07, 0x00};
  auto module = readBinary(std::span<const uint8_t>(odd));
  ASSERT_FALSE(module.ok());
  EXPECT_EQ(module.error().message(), "the input is 5 bytes, not a whole number of 32-bit words");
}

TEST(ReaderTest, RejectsTruncatedBinaries) {
  std::vector<uint32_t> words = kernelWords();
  expectBinaryError(std::span(words).first(3), "the SPIR-V header is truncated (3 of 5 words)");
  // Cut inside any instruction: always an error, never a crash.
  std::vector<size_t> boundaries;
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) boundaries.push_back(at);
  for (size_t size = 5; size < words.size(); ++size) {
    auto module = readBinary(std::span(words).first(size));
    bool atBoundary = std::find(boundaries.begin(), boundaries.end(), size) != boundaries.end();
    if (!atBoundary) {
      EXPECT_FALSE(module.ok()) << "a module cut inside an instruction, at " << size << " words, was accepted";
    } else if (module.ok()) {
      // A cut between instructions can leave a well-formed shorter module; it is the prefix.
      EXPECT_EQ(writeBinary(**module), std::vector<uint32_t>(words.begin(), words.begin() + size));
    }
  }
  // Cutting the last function's end leaves it unfinished.
  expectBinaryError(std::span(words).first(words.size() - 1), "has no OpFunctionEnd");
}

TEST(ReaderTest, RejectsIdsOutsideTheBound) {
  std::vector<uint32_t> words = kernelWords();
  words[3] = 4;  // the bound
  expectBinaryError(words, "which is not below the header's id bound 4");
}

// The index of the first instruction with `opcode` in `words`.
size_t findInstruction(const std::vector<uint32_t>& words, spv::Op opcode) {
  for (size_t at = 5; at < words.size(); at += words[at] >> 16) {
    if ((words[at] & 0xffffu) == static_cast<uint32_t>(opcode)) return at;
  }
  ADD_FAILURE() << "no " << opcodeName(opcode);
  return 0;
}

TEST(ReaderTest, RejectsIdsDefinedTwice) {
  // The assembler refuses duplicate ids, so patch the binary: %uint takes %void's id.
  std::vector<uint32_t> words = kernelWords();
  uint32_t voidId = words[findInstruction(words, spv::Op::OpTypeVoid) + 1];
  words[findInstruction(words, spv::Op::OpTypeInt) + 1] = voidId;
  expectBinaryError(words, "Id " + std::to_string(voidId) + " is defined more than once");
}

TEST(ReaderTest, RequiresExactlyOneMemoryModel) {
  expectAssemblyError("OpCapability Kernel\n", "the module has no OpMemoryModel");
  expectAssemblyError("OpCapability Kernel\nOpMemoryModel Physical64 OpenCL\nOpMemoryModel Physical64 OpenCL\n",
                      "a second OpMemoryModel");
}

TEST(ReaderTest, RejectsIdsThatAreNeverDefined) {
  expectAssemblyError(R"(
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
          %1 = OpTypeInt 32 0
          %2 = OpTypeVector %9 4
)",
                      "uses %9, which is never defined");
}

TEST(ReaderTest, RejectsInstructionsOutOfLayoutOrder) {
  expectAssemblyError(R"(
               OpMemoryModel Physical64 OpenCL
               OpCapability Kernel
)",
                      "OpCapability belongs to the capabilities section but appears after memory model");
  expectAssemblyError(R"(
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
          %1 = OpTypeInt 32 0
          %2 = OpIAdd %1 %3 %3
          %3 = OpConstant %1 0
)",
                      "OpIAdd appears outside a function");
}

// llvm-spirv-15 --spirv-ext=+all writes SPV_INTEL_memory_access_aliasing's declarations between
// the debug names and the decorations that use them; they are read into the global section.
TEST(ReaderTest, AliasDeclarationsBeforeTheDecorationsAreGlobals) {
  auto module = ir::readAssembly(R"(
               OpCapability Kernel
               OpCapability Addresses
               OpCapability MemoryAccessAliasingINTEL
               OpExtension "SPV_INTEL_memory_access_aliasing"
               OpMemoryModel Physical64 OpenCL
               OpName %uint "uint"
     %domain = OpAliasDomainDeclINTEL
      %scope = OpAliasScopeDeclINTEL %domain
       %list = OpAliasScopeListDeclINTEL %scope
               OpDecorate %uint Alignment 4
       %uint = OpTypeInt 32 0
)");
  ASSERT_TRUE(module.ok()) << module.error().message();
  std::vector<spv::Op> globals;
  for (const ir::Instruction& inst : (*module)->section(ir::Section::kGlobal)) globals.push_back(inst.opcode());
  EXPECT_EQ(globals, (std::vector<spv::Op>{spv::Op::OpAliasDomainDeclINTEL, spv::Op::OpAliasScopeDeclINTEL,
                                           spv::Op::OpAliasScopeListDeclINTEL, spv::Op::OpTypeInt}));
  EXPECT_EQ((*module)->section(ir::Section::kAnnotation).size(), 1u);
}

TEST(ReaderTest, RejectsUnfinishedFunctionsAndBlocks) {
  const std::string prologue = R"(
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
)";
  expectAssemblyError(prologue + "%entry = OpLabel\nOpReturn\n", "function '%3' has no OpFunctionEnd");
  expectAssemblyError(prologue + "%entry = OpLabel\nOpFunctionEnd\n", "block %4 of function '%3' has no terminator");
  expectAssemblyError(prologue + "%entry = OpLabel\n%next = OpLabel\nOpReturn\nOpFunctionEnd\n",
                      "block %4 of function '%3' has no terminator");
  expectAssemblyError(prologue + "OpReturn\nOpFunctionEnd\n", "OpReturn in function '%3' is outside any block");
  expectAssemblyError(prologue + "%k2 = OpFunction %void None %fn\n", "starts inside function '%3'");
}

TEST(ReaderTest, ReportsAssemblerErrorsWithTheLine) {
  expectAssemblyError("OpCapability Kernel\nOpNotAnInstruction\n", "line 2:");
}

TEST(ReaderTest, AssemblyKeepsNumericIdsAndTheVersion) {
  auto module =
      readAssembly("; Version: 1.3\nOpCapability Kernel\nOpMemoryModel Physical64 OpenCL\n%7 = OpTypeInt 32 0\n");
  ASSERT_TRUE(module.ok()) << module.error().message();
  EXPECT_EQ((*module)->header().version, 0x00010300u);
  EXPECT_NE((*module)->def(7), nullptr);
  EXPECT_EQ((*module)->bound(), 8u);
}

TEST(ReaderTest, DetectsBinaryOrText) {
  std::vector<uint32_t> words = kernelWords();
  std::span<const uint8_t> bytes(reinterpret_cast<const uint8_t*>(words.data()), words.size() * 4);
  auto fromBinary = readBinaryOrAssembly(bytes);
  ASSERT_TRUE(fromBinary.ok()) << fromBinary.error().message();
  std::string text = kKernel;
  auto fromText =
      readBinaryOrAssembly(std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(text.data()), text.size()));
  ASSERT_TRUE(fromText.ok()) << fromText.error().message();
  EXPECT_EQ(writeBinary(**fromText), words);

  std::vector<uint8_t> binaryGarbage = {0x01, 0x00, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07};
  auto garbage = readBinaryOrAssembly(binaryGarbage);
  ASSERT_FALSE(garbage.ok());
  EXPECT_EQ(garbage.error().message(), "not a SPIR-V binary: wrong magic number");
  auto empty = readBinaryOrAssembly({});
  ASSERT_FALSE(empty.ok());
  EXPECT_EQ(empty.error().message(), "the input is empty");
}

// Random corruption of a real module: every outcome is a module or an error, never a crash.
TEST(ReaderTest, CorruptedModulesGiveErrorsNotCrashes) {
  std::vector<uint32_t> original = kernelWords();
  std::mt19937 random(1234);
  int rejected = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    std::vector<uint32_t> words = original;
    int flips = 1 + static_cast<int>(random() % 3);
    for (int f = 0; f < flips; ++f) {
      size_t at = 5 + random() % (words.size() - 5);
      switch (random() % 3) {
        case 0: words[at] = static_cast<uint32_t>(random()); break;
        case 1: words[at] ^= 1u << (random() % 32); break;
        case 2: words[at] = static_cast<uint32_t>(random() % 64); break;
      }
    }
    auto module = readBinary(words);
    if (module.ok()) {
      EXPECT_EQ(writeBinary(**module), words) << "an accepted module must still round-trip";
    } else {
      ++rejected;
      EXPECT_FALSE(module.error().message().empty());
    }
  }
  EXPECT_GT(rejected, 0);
}

}  // namespace
}  // namespace cl2vk::ir
