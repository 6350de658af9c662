// Every construct cl2vk cannot translate is refused with an error that names the kernel, the
// instruction and the construct, at -O0 and -O2.

#include <gtest/gtest.h>

#include "test_util.h"
#include "translator/translator.h"

namespace cl2vk {
namespace {

struct Unsupported {
  const char* module;    // under build/spirv/unsupported/
  const char* expected;  // in the error message
};

class UnsupportedTest : public testing::TestWithParam<Unsupported> {};

TEST_P(UnsupportedTest, IsRefusedWithAClearError) {
  std::filesystem::path path = test::corpusDir() / "unsupported" / GetParam().module;
  Expected<Translation> translation = translate(test::readWords(path), Target{});
  ASSERT_FALSE(translation.ok()) << path << " was translated";
  EXPECT_NE(translation.error().message().find(GetParam().expected), std::string::npos)
      << "expected '" << GetParam().expected << "' in: " << translation.error().message();
}

INSTANTIATE_TEST_SUITE_P(
    Constructs, UnsupportedTest,
    testing::Values(
        Unsupported{"printf.O0.spv", "kernel 'prints': "}, Unsupported{"printf.O2.spv", "= OpExtInst in function 'prints': printf is not supported"},
        Unsupported{"image.O0.spv", "images are not supported"}, Unsupported{"image.O2.spv", "images are not supported"},
        Unsupported{"sampler.O0.spv", "samplers are not supported"}, Unsupported{"sampler.O2.spv", "samplers are not supported"},
        Unsupported{"pipe.O0.spv", "pipes are not supported"}, Unsupported{"pipe.O2.spv", "pipes are not supported"},
        Unsupported{"enqueue.O0.spv", "device-side enqueue is not supported"},
        Unsupported{"enqueue.O2.spv", "device-side enqueue is not supported"},
        Unsupported{"recursion.O0.spv", "kernel 'recursion': recursion is not supported: 'fib' calls 'fib'"},
        Unsupported{"function_pointers.spv", "kernel 'function_pointers': %"},
        Unsupported{"function_pointers.spv", "function pointers are not supported"}),
    [](const testing::TestParamInfo<Unsupported>& info) {
      std::string name = info.param.module;
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name + "_" + std::to_string(info.index);
    });

}  // namespace
}  // namespace cl2vk
