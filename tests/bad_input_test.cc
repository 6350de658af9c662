// Bad input to the translator, one class at a time: each is refused with an error that says what is
// wrong and where (the instruction, the kernel), never translated and never a crash. The
// modules are a small valid kernel (bad_modules.h) and mutations of its words or its text.

#include <gtest/gtest.h>

#include <regex>

#include <spirv/unified1/spirv.hpp11>

#include "bad_modules.h"
#include "cl2vk/translator.h"

namespace cl2vk {
namespace {

using test::assembleWords;
using test::kStoreOneKernel;
using test::replaced;

// The translator's error for `input`; the test fails when it translates.
std::string refusal(std::span<const uint32_t> input, const Target& target = Target{}) {
  Expected<Translation> translation = translate(input, target);
  EXPECT_FALSE(translation.ok()) << "the bad module was translated";
  return translation.ok() ? "" : translation.error().message();
}

// EXPECT_CONTAINS(error, "words") prints the whole text when the words are not in it.
#define EXPECT_CONTAINS(text, part) \
  EXPECT_NE((text).find(part), std::string::npos) << "expected '" << (part) << "' in: " << (text)

TEST(BadInput, TheValidKernelTranslates) {
  std::vector<uint32_t> valid = assembleWords(kStoreOneKernel);
  Expected<Translation> translation = translate(valid, Target{});
  EXPECT_TRUE(translation.ok()) << translation.error().message();
}

TEST(BadInput, EmptyInputIsRefused) { EXPECT_EQ(refusal({}), "the input is empty"); }

TEST(BadInput, WrongMagicIsRefused) {
  std::vector<uint32_t> module = assembleWords(kStoreOneKernel);
  module[0] = 0xdeadbeef;
  EXPECT_EQ(refusal(module), "not a SPIR-V binary: wrong magic number");
}

TEST(BadInput, TruncatedHeaderIsRefused) {
  std::vector<uint32_t> module = assembleWords(kStoreOneKernel);
  module.resize(3);
  EXPECT_EQ(refusal(module), "the SPIR-V header is truncated (3 of 5 words)");
}

TEST(BadInput, BinaryCutInsideAnInstructionIsRefusedNamingIt) {
  std::vector<uint32_t> module = assembleWords(kStoreOneKernel);
  module.resize(module.size() - 3);  // OpStore loses its last word, OpReturn and OpFunctionEnd
  std::string error = refusal(module);
  EXPECT_CONTAINS(error, "invalid SPIR-V at instruction ");
  EXPECT_CONTAINS(error, "End of input reached while decoding OpStore");
}

TEST(BadInput, UnknownVersionIsRefused) {
  std::vector<uint32_t> module = assembleWords(kStoreOneKernel);
  module[1] = 0x00090000;
  EXPECT_EQ(refusal(module), "unsupported SPIR-V version 9.0 (cl2vk reads 1.0 to 1.6)");
}

TEST(BadInput, GarbageAfterTheHeaderIsRefusedNamingTheInstruction) {
  std::vector<uint32_t> module = assembleWords(kStoreOneKernel);
  module.resize(5);
  for (uint32_t word : {0x12345678u, 0xffffffffu, 0u, 0xabcdef01u}) module.push_back(word);
  EXPECT_EQ(refusal(module), "invalid SPIR-V at instruction 1: Invalid opcode: 22136");
}

TEST(BadInput, ZeroWordCountIsRefused) {
  std::vector<uint32_t> module = assembleWords(kStoreOneKernel);
  module.insert(module.begin() + 5, 0);
  EXPECT_EQ(refusal(module), "invalid SPIR-V at instruction 1: Invalid instruction word count: 0");
}

TEST(BadInput, IdAtOrAboveTheBoundIsRefusedNamingTheInstruction) {
  std::vector<uint32_t> module = assembleWords(kStoreOneKernel);
  module[3] = 5;  // the header's id bound: %5 and above are out of range
  std::string error = refusal(module);
  EXPECT_TRUE(std::regex_match(error, std::regex("instruction [0-9]+: Op[A-Za-z]+ defines %[0-9]+, which is not below "
                                                 "the header's id bound 5")))
      << error;
}

// An id bound above SPIR-V's limit (0x3FFFFF, which the validator and drivers hold to) with few
// ids in use, as a generator that leaves gaps may write (and as the translator's own passes left
// hashcat's SHA-512 kernels): the module is renumbered, not refused, and the translation's bound
// is within the limit.
TEST(BadInput, AnIdBoundAboveTheLimitIsRenumberedNotRefused) {
  std::vector<uint32_t> module = assembleWords(kStoreOneKernel);
  module[3] = 5'000'000;
  Expected<Translation> translation = translate(module, Target{});
  ASSERT_TRUE(translation.ok()) << translation.error().message();
  ASSERT_GT(translation->spirv.size(), 5u);
  EXPECT_LE(translation->spirv[3], 0x3FFFFFu);
  EXPECT_TRUE(translate(assembleWords(kStoreOneKernel), Target{}).ok());

  // Invalid besides: refused by the validator, as with a small bound (the renumbering, whose
  // optimizer assumes a valid module, never sees it).
  std::vector<uint32_t> invalid = assembleWords(
      replaced(kStoreOneKernel, "%x = OpCompositeExtract %ulong %ids 0", "%x = OpCompositeExtract %uint %ids 0"));
  invalid[3] = 5'000'000;
  std::string error = refusal(invalid);
  EXPECT_CONTAINS(error, "the input is not valid SPIR-V: SPIRV-Tools validation (spv1.6) failed: Result type");
}

TEST(BadInput, UseOfAnUndefinedIdIsRefusedNamingTheInstruction) {
  std::vector<uint32_t> module = assembleWords(kStoreOneKernel);
  // OpStore's object becomes the id just past the old bound, which the bound now allows.
  const uint32_t undefined = module[3]++;
  for (size_t at = 5; at < module.size(); at += module[at] >> 16) {
    if ((module[at] & 0xffff) == static_cast<uint32_t>(spv::Op::OpStore)) module[at + 2] = undefined;
  }
  EXPECT_EQ(refusal(module),
            "instruction 25 (OpStore) uses %" + std::to_string(undefined) + ", which is never defined");
}

TEST(BadInput, TypeMismatchIsRefusedByTheValidatorNamingTheInstruction) {
  std::string text =
      replaced(kStoreOneKernel, "%x = OpCompositeExtract %ulong %ids 0", "%x = OpCompositeExtract %uint %ids 0");
  std::string error = refusal(assembleWords(text));
  EXPECT_CONTAINS(error,
                  "the input is not valid SPIR-V: SPIRV-Tools validation (spv1.6) failed: Result type (OpTypeInt) "
                  "does not match the type that results from indexing into the composite");
  EXPECT_CONTAINS(error, "OpCompositeExtract %uint");
}

TEST(BadInput, ShaderModuleIsRefused) {
  std::string text = replaced(replaced(kStoreOneKernel, "OpCapability Kernel", "OpCapability Shader"),
                              "OpMemoryModel Physical64 OpenCL", "OpMemoryModel Logical GLSL450");
  EXPECT_EQ(refusal(assembleWords(text)),
            "not an OpenCL module: it does not declare the Kernel capability (cl2vk reads what "
            "clang -target spir64 and llvm-spirv produce, not Vulkan or GLSL shaders)");
}

TEST(BadInput, ModuleWithoutKernelsIsRefused) {
  std::string text = replaced(kStoreOneKernel, "OpEntryPoint Kernel %kernel \"store_one\" %gid\n", "");
  EXPECT_EQ(refusal(assembleWords(text)), "the module has no kernel (no OpEntryPoint with the Kernel execution model)");
}

// A double stored through a __global pointer: the kernel and the instruction are named.
std::string storeDouble() {
  std::string text = replaced(kStoreOneKernel, "OpCapability Int64\n", "OpCapability Int64\nOpCapability Float64\n");
  text = replaced(text, "%uint_1 = OpConstant %uint 1",
                  "%uint_1 = OpConstant %uint 1\n%double = OpTypeFloat 64\n%double_1 = OpConstant %double 1\n"
                  "%ptr_double = OpTypePointer CrossWorkgroup %double");
  return replaced(text, "OpStore %slot %uint_1 Aligned 4",
                  "%as_double = OpBitcast %ptr_double %slot\nOpStore %as_double %double_1 Aligned 8");
}

TEST(BadInput, DoubleOnADeviceWithoutFloat64IsRefusedNamingTheKernel) {
  Target target;
  target.float64 = false;
  EXPECT_EQ(refusal(assembleWords(storeDouble()), target),
            "kernel 'store_one': OpStore in function 'store_one': double (64-bit floating point) is not "
            "supported on this device (no Vulkan shaderFloat64)");
  EXPECT_TRUE(translate(assembleWords(storeDouble()), Target{}).ok()) << "refused with float64";
}

TEST(BadInput, UnusedCapabilitiesOfUnsupportedFeaturesAreHarmless) {
  // Declared but unused: nothing needs them in the translation, which drops them.
  for (const char* capability : {"Pipes", "DeviceEnqueue", "ImageBasic", "Float64"}) {
    std::string text = replaced(kStoreOneKernel, "OpCapability Int64\n",
                                std::string("OpCapability Int64\nOpCapability ") + capability + "\n");
    Expected<Translation> translation = translate(assembleWords(text), Target{});
    EXPECT_TRUE(translation.ok()) << capability << ": " << translation.error().message();
  }
}

}  // namespace
}  // namespace cl2vk
