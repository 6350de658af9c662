// cl2vk/specialization.h: a module's specialization constants as clSetProgramSpecializationConstant
// sees them, and new values written into it (spirv/generators/spec_constants.spvasm).
#include "cl2vk/specialization.h"

#include <gtest/gtest.h>

#include <cstring>

#include "cl2vk/spirv.h"
#include "cl2vk/translator.h"
#include "test_util.h"

namespace cl2vk {
namespace {

std::vector<uint32_t> specConstantsModule() {
  return test::readWords(test::corpusDir() / "generators" / "spec_constants.spv");
}

size_t occurrences(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

template <typename T>
std::vector<uint8_t> bytesOf(T value) {
  std::vector<uint8_t> bytes(sizeof value);
  std::memcpy(bytes.data(), &value, sizeof value);
  return bytes;
}

TEST(SpecializationTest, EachSpecIdWithTheSizeOfItsValue) {
  Expected<std::map<uint32_t, uint32_t>> sizes = specializationConstants(specConstantsModule());
  ASSERT_TRUE(sizes.ok()) << sizes.error().message();
  EXPECT_EQ(*sizes, (std::map<uint32_t, uint32_t>{{0, 4}, {1, 8}, {2, 4}, {3, 1}, {4, 1}, {7, 2}}));
}

TEST(SpecializationTest, ValuesBecomeTheDefaultsAndTheTranslationFreezesThem) {
  Expected<std::vector<uint32_t>> specialized =
      specialize(specConstantsModule(), {{0, bytesOf<uint32_t>(0xabcdef)},
                                         {1, bytesOf<uint64_t>(0x1122334455667788ull)},
                                         {3, bytesOf<uint8_t>(200)},
                                         {4, bytesOf<uint8_t>(0)},
                                         {7, bytesOf<uint16_t>(0xbeef)}});
  ASSERT_TRUE(specialized.ok()) << specialized.error().message();
  Expected<std::string> text = disassemble(*specialized);
  ASSERT_TRUE(text.ok()) << text.error().message();
  EXPECT_NE(text->find("%c_uint = OpSpecConstant %uint 11259375"), std::string::npos) << *text;
  EXPECT_NE(text->find("%c_ulong = OpSpecConstant %ulong 1234605616436508552"), std::string::npos) << *text;
  EXPECT_NE(text->find("%c_uchar = OpSpecConstant %uchar 200"), std::string::npos) << *text;
  EXPECT_NE(text->find("%c_bool = OpSpecConstantFalse %bool"), std::string::npos) << *text;
  EXPECT_NE(text->find("%c_ushort = OpSpecConstant %ushort 48879"), std::string::npos) << *text;

  Expected<Translation> translation = translate(*specialized, Target{});
  ASSERT_TRUE(translation.ok()) << translation.error().message();
  Expected<std::string> vulkan = disassemble(translation->spirv);
  ASSERT_TRUE(vulkan.ok());
  EXPECT_NE(vulkan->find("OpConstant %uint 11259375"), std::string::npos) << *vulkan;
  // The translation's own SpecIds, and only those: the work-group size (0-2), the enqueued size
  // (3-5) and the __local argument's length (7).
  EXPECT_EQ(occurrences(*vulkan, "SpecId"), 7u) << *vulkan;
}

TEST(SpecializationTest, UnknownIdsAndWrongSizesAreErrors) {
  Expected<std::vector<uint32_t>> unknown = specialize(specConstantsModule(), {{5, bytesOf<uint32_t>(1)}});
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.error().message(), "the module has no specialization constant 5");
  Expected<std::vector<uint32_t>> wrongSize = specialize(specConstantsModule(), {{1, bytesOf<uint32_t>(1)}});
  ASSERT_FALSE(wrongSize.ok());
  EXPECT_EQ(wrongSize.error().message(), "specialization constant 1 holds 8 bytes, not 4");
}

}  // namespace
}  // namespace cl2vk
