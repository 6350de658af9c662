// Every construct cl2vk cannot translate is refused with an error that names the kernel, the
// instruction and the construct, at -O0 and -O2.

#include <functional>
#include <regex>

#include <gtest/gtest.h>

#include "cl2vk/spirv.h"
#include "cl2vk/translator.h"
#include "ir/writer.h"
#include "test_util.h"

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
        Unsupported{"depth_image.O0.spv", "depth images (cl_khr_depth_images) are not supported"},
        Unsupported{"depth_image.O2.spv", "depth images (cl_khr_depth_images) are not supported"},
        Unsupported{"pipe.O0.spv", "pipes are not supported"}, Unsupported{"pipe.O2.spv", "pipes are not supported"},
        Unsupported{"enqueue.O0.spv", "device-side enqueue is not supported"},
        Unsupported{"enqueue.O2.spv", "device-side enqueue is not supported"},
        Unsupported{"recursion.O0.spv", "kernel 'recursion': recursion is not supported: 'fib' calls 'fib'"},
        Unsupported{"generic_struct_copy.spv", "kernel 'generic_struct_copy': %"},
        Unsupported{"generic_struct_copy.spv", "copies a struct or array that holds a generic pointer whole"},
        Unsupported{"function_pointers.spv", "kernel 'function_pointers': %"},
        Unsupported{"function_pointers.spv", "function pointers are not supported"}),
    [](const testing::TestParamInfo<Unsupported>& info) {
      std::string name = info.param.module;
      for (char& c : name) {
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
      }
      return name + "_" + std::to_string(info.index);
    });

// get_global_id() reads a vector of three size_t; a module that loads the builtin as a vector of
// four was lowered into an out-of-bounds OpCompositeExtract (tests/fuzz/regressions/builtin-*).
TEST(UnsupportedModuleTest, BuiltinOfTheWrongTypeIsRefused) {
  std::unique_ptr<ir::Module> module = test::assemble(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpName %gid "__spirv_BuiltInGlobalInvocationId"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
       %void = OpTypeVoid
      %ulong = OpTypeInt 64 0
    %v4ulong = OpTypeVector %ulong 4
        %ptr = OpTypePointer Input %v4ulong
        %gid = OpVariable %ptr Input
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
         %id = OpLoad %v4ulong %gid
          %w = OpCompositeExtract %ulong %id 3
               OpReturn
               OpFunctionEnd
)");
  ASSERT_NE(module, nullptr);
  Expected<Translation> translation = translate(ir::writeBinary(*module), Target{});
  ASSERT_FALSE(translation.ok()) << "a builtin loaded as v4ulong was translated";
  EXPECT_NE(translation.error().message().find("of '__spirv_BuiltInGlobalInvocationId' (BuiltIn 28): OpenCL gives this "
                                               "builtin the type size_t, uint or a vector of three of them"),
            std::string::npos)
      << translation.error().message();
}

// SPIRV-Tools 2023.1 accepts any signedness word in OpTypeInt, and signedness 1 in Kernel modules;
// the passes made a second integer type of such a type and an OpCompositeConstruct of mixed types
// (tests/fuzz/regressions/int-signedness-not-0-or-1.spv, struct-member-signed-in-kernel.spv).
TEST(UnsupportedModuleTest, KernelIntegerSignednessOtherThanZeroIsRefused) {
  struct Case {
    std::string signedness, expected;
  } cases[] = {{"7", "OpTypeInt: the signedness of an integer type must be 0 or 1, not 7"},
               {"1", "OpTypeInt: the signedness of an integer type must be 0 in a Kernel module, not 1"}};
  for (const Case& c : cases) {
    std::unique_ptr<ir::Module> module = test::assemble(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
      %weird = OpTypeInt 32 )" + c.signedness + R"(
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)");
    ASSERT_NE(module, nullptr);
    Expected<Translation> translation = translate(ir::writeBinary(*module), Target{});
    ASSERT_FALSE(translation.ok()) << "an integer type of signedness " << c.signedness << " was translated";
    EXPECT_NE(translation.error().message().find("the input is not valid SPIR-V"), std::string::npos)
        << translation.error().message();
    EXPECT_NE(translation.error().message().find(c.expected), std::string::npos) << translation.error().message();
  }
}

// SPIRV-Tools 2023.1 crashes on a vstore_half whose data is no float (it reads the data's bit width
// first); input validation refuses it before the validator sees it, for every member of the
// family and for data of pointer, structure and integer type
// (tests/fuzz/regressions/vstore-half-data-a-pointer.spv).
TEST(UnsupportedModuleTest, VstoreHalfDataThatIsNoFloatIsRefused) {
  struct Case {
    std::string instruction, data;
  } cases[] = {{"vstore_half", "%pointer"},    {"vstore_half_r", "%pointer"}, {"vstore_halfn", "%pair"},
               {"vstore_halfn_r", "%pointer"}, {"vstorea_halfn", "%pair"},    {"vstorea_halfn_r", "%uint_1"},
               {"vstore_half", "%uint_1"}};
  for (const Case& c : cases) {
    std::string rounding = c.instruction.ends_with("_r") ? " RTE" : "";
    std::unique_ptr<ir::Module> module = test::assemble(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Float16Buffer
        %std = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
      %float = OpTypeFloat 32
       %half = OpTypeFloat 16
     %struct = OpTypeStruct %float %float
 %ptr_float = OpTypePointer Function %float
 %ptr_struct = OpTypePointer Function %struct
  %ptr_half = OpTypePointer CrossWorkgroup %half
         %fn = OpTypeFunction %void %ptr_half
     %uint_1 = OpConstant %uint 1
    %ulong_0 = OpConstant %ulong 0
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_half
      %entry = OpLabel
    %pointer = OpVariable %ptr_float Function
   %variable = OpVariable %ptr_struct Function
       %pair = OpLoad %struct %variable
          %x = OpExtInst %void %std )" + c.instruction + " " +
                                                        c.data + " %ulong_0 %out" + rounding + R"(
               OpReturn
               OpFunctionEnd
)");
    ASSERT_NE(module, nullptr) << c.instruction;
    Expected<Translation> translation = translate(ir::writeBinary(*module), Target{});
    ASSERT_FALSE(translation.ok()) << c.instruction << " of " << c.data << " was translated";
    EXPECT_NE(translation.error().message().find("the input is not valid SPIR-V"), std::string::npos)
        << translation.error().message();
    EXPECT_NE(translation.error().message().find("OpExtInst"), std::string::npos) << translation.error().message();
    EXPECT_NE(translation.error().message().find("the data of a vstore_half must be a float scalar or vector"),
              std::string::npos)
        << translation.error().message();
  }
}

// Vulkan's shared and private memory have no addresses: the integer value of a __private or
// __local pointer is its byte offset in the variable's word-addressed object (word_memory.h),
// not an OpConvertPtrToU that Vulkan rejects. The translator validates what it returns.
TEST(UnsupportedModuleTest, PrivateAndLocalPointersConvertedToIntegersAreOffsets) {
  for (std::string storage : {"Function", "Workgroup"}) {
    std::string variable = storage == "Function" ? "" : "      %shared = OpVariable %ptr Workgroup\n";
    std::string local = storage == "Function" ? "      %shared = OpVariable %ptr Function\n" : "";
    std::unique_ptr<ir::Module> module = test::assemble(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
        %ptr = OpTypePointer )" + storage + R"( %uint
 %ptr_global = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %ptr_global
)" + variable + R"(
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %ptr_global
      %entry = OpLabel
)" + local + R"(
    %address = OpConvertPtrToU %ulong %shared
               OpStore %out %address
               OpReturn
               OpFunctionEnd
)");
    ASSERT_NE(module, nullptr) << storage;
    Expected<Translation> translation = translate(ir::writeBinary(*module), Target{});
    ASSERT_TRUE(translation.ok()) << storage << ": " << translation.error().message();
    Expected<std::string> disassembly = disassemble(translation->spirv);
    ASSERT_TRUE(disassembly.ok());
    const std::string& text = *disassembly;
    EXPECT_EQ(text.find("OpConvertPtrToU"), std::string::npos) << text;
    // The variable's place is known, so its offset is a 64-bit constant (fold-integer-constants
    // folds its widening), and not 0, which is NULL.
    std::smatch stored;
    ASSERT_TRUE(std::regex_search(text, stored, std::regex(R"(OpStore %\w+ (%ulong_\d+))"))) << storage << "\n" << text;
    EXPECT_NE(stored[1].str(), "%ulong_0") << storage << "\n" << text;
  }
}

// A device without 64-bit integers gets them emulated (lower-int64), and a clear refusal naming
// the kernel, the instruction and the feature for what cannot be emulated (64-bit atomics), not a
// module Vulkan would reject. Without 8/16-bit arithmetic or buffer access, lower-narrow-integers
// computes in 32 bits instead: the module needs none of them.
TEST(UnsupportedModuleTest, IntegerWidthsTheDeviceLacksAreRefusedOrEmulated) {
  std::vector<uint32_t> words = test::readWords(test::corpusDir() / "kernels" / "integer_types.O2.spv");
  Target noInt64;
  noInt64.int64 = false;
  Expected<Translation> emulated = translate(words, noInt64);
  ASSERT_TRUE(emulated.ok()) << emulated.error().message();
  EXPECT_FALSE(emulated->reflection.requirements.int64);

  std::vector<uint32_t> atomics = test::readWords(test::corpusDir() / "kernels" / "atomics64.O2.spv");
  Expected<Translation> refused = translate(atomics, noInt64);
  ASSERT_FALSE(refused.ok());
  const std::string& message = refused.error().message();
  EXPECT_NE(message.find("64-bit atomics need Vulkan's shaderInt64"), std::string::npos) << message;
  EXPECT_NE(message.find("kernel '"), std::string::npos) << message;

  std::function<void(Target&)> lacks[] = {
      [](Target& t) { t.int8 = false; },
      [](Target& t) { t.int16 = false; },
      [](Target& t) { t.storage8 = false; },
      [](Target& t) { t.storage16 = false; },
      [](Target& t) { t.int8 = t.int16 = t.storage8 = t.storage16 = false; },
  };
  for (size_t i = 0; i < std::size(lacks); ++i) {
    Target target;
    lacks[i](target);
    Expected<Translation> translation = translate(words, target);
    ASSERT_TRUE(translation.ok()) << "case " << i << ": " << translation.error().message();
    const ModuleRequirements& needs = translation->reflection.requirements;
    EXPECT_EQ(needs.int8 || needs.storageBuffer8BitAccess, target.int8 && target.storage8) << "case " << i;
    EXPECT_EQ(needs.int16 || needs.storageBuffer16BitAccess, target.int16 && target.storage16) << "case " << i;
  }
  EXPECT_TRUE(translate(words, Target{}).ok()) << "the device with every feature translates it";
}

// Without shaderFloat16, half values in buffers move as their bits (vload_half, vstore_half):
// a half* is storage, not arithmetic. Arithmetic on half is still refused by name.
TEST(UnsupportedModuleTest, HalfStorageWithoutFloat16TranslatesHalfArithmeticDoesNot) {
  Target target;
  target.float16 = false;
  std::vector<uint32_t> storage = test::readWords(test::corpusDir() / "kernels" / "narrow_integers.O2.spv");
  Expected<Translation> translation = translate(storage, target);
  ASSERT_TRUE(translation.ok()) << translation.error().message();
  EXPECT_FALSE(translation->reflection.requirements.float16);

  std::vector<uint32_t> arithmetic = test::readWords(test::corpusDir() / "kernels" / "halves.O2.spv");
  Expected<Translation> refused = translate(arithmetic, target);
  ASSERT_FALSE(refused.ok());
  EXPECT_NE(refused.error().message().find("kernel 'half_arithmetic'"), std::string::npos) << refused.error().message();
  EXPECT_NE(refused.error().message().find("shaderFloat16"), std::string::npos) << refused.error().message();
}

// printf of a float: the front end's promotion to double is never computed on the device, so a
// device without 64-bit floats (SwiftShader) runs it.
TEST(UnsupportedModuleTest, PrintfOfFloatsNeedsNo64BitFloats) {
  Target target;
  target.float64 = false;
  for (const char* build : {"printf.O0.spv", "printf.O2.spv", "printf.CL12.spv"}) {
    Expected<Translation> translation = translate(test::readWords(test::corpusDir() / "kernels" / build), target);
    ASSERT_TRUE(translation.ok()) << build << ": " << translation.error().message();
    EXPECT_FALSE(translation->reflection.requirements.float64) << build;
  }
}

}  // namespace
}  // namespace cl2vk
