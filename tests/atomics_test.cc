// OpenCL C 2.0 atomics through the whole translator (lower-synchronization and the input fixes).
#include <gtest/gtest.h>

#include <regex>

#include "cl2vk/translator.h"
#include "ir/reader.h"
#include "ir/writer.h"
#include "test_util.h"

namespace cl2vk {
namespace {

// A kernel of SPIR-V 1.4, as llvm-spirv 15 writes OpenCL C 2.0 atomics by default: a weak
// compare-exchange (which 1.4 removed), seq_cst loads and stores and atomic_flag operations, on a
// global pointer and on a private variable.
constexpr const char* kAtomics = R"(
; Version: 1.4
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %weak "weak"
               OpName %loaded "loaded"
               OpName %set "set"
               OpName %private_old "private_old"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
       %bool = OpTypeBool
        %ptr = OpTypePointer CrossWorkgroup %uint
    %ptr_fn = OpTypePointer Function %uint
         %fn = OpTypeFunction %void %ptr
     %device = OpConstant %uint 1
     %seqcst = OpConstant %uint 16
    %relaxed = OpConstant %uint 0
          %k = OpFunction %void None %fn
          %p = OpFunctionParameter %ptr
      %entry = OpLabel
       %mine = OpVariable %ptr_fn Function
       %weak = OpAtomicCompareExchangeWeak %uint %p %device %seqcst %relaxed %device %relaxed
     %loaded = OpAtomicLoad %uint %p %device %seqcst
               OpAtomicStore %p %device %seqcst %loaded
        %set = OpAtomicFlagTestAndSet %bool %p %device %seqcst
               OpAtomicFlagClear %p %device %seqcst
               OpStore %mine %weak
%private_old = OpAtomicIAdd %uint %mine %device %seqcst %loaded
               OpStore %p %private_old
               OpReturn
               OpFunctionEnd
)";

std::string translated(const std::string& text, const Target& target = {}) {
  std::unique_ptr<ir::Module> module = test::assemble(text);
  if (!module) return "";
  Expected<Translation> translation = translate(ir::writeBinary(*module), target);
  EXPECT_TRUE(translation.ok()) << translation.error().message();
  if (!translation) return "";
  auto output = ir::readBinary(translation->spirv);
  return output ? test::disassemble(**output) : "";
}

// Whether `out` has an instruction matching `pattern`, where %P stands for the pointer's id.
bool has(const std::string& out, std::string pattern) {
  pattern = std::regex_replace(pattern, std::regex("%P"), "%[A-Za-z0-9_]+");
  return std::regex_search(out, std::regex(pattern));
}

// Every instruction above is one Vulkan lacks or restricts; the translation (which the translator
// validates for Vulkan before returning it) has the Vulkan forms with OpenCL's meaning.
TEST(AtomicsTest, OpenCL20AtomicsBecomeTheirVulkanForms) {
  // The orders lower-synchronization gives, under the GLSL450 memory model (the next test has
  // Vulkan's, which these device-scope atomics take where the device has it).
  Target glsl450;
  glsl450.vulkanMemoryModel = false;
  std::string out = translated(kAtomics, glsl450);
  ASSERT_FALSE(out.empty());
  EXPECT_EQ(out.find("OpAtomicCompareExchangeWeak"), std::string::npos) << out;
  EXPECT_EQ(out.find("OpAtomicFlag"), std::string::npos) << out;
  // Orders name the memory OpenCL orders (UniformMemory 0x40 | WorkgroupMemory 0x100); a load
  // keeps Acquire (0x2), a store Release (0x4), a read-modify-write SequentiallyConsistent (0x10).
  EXPECT_TRUE(has(out, "OpAtomicCompareExchange %uint %P %uint_1 %uint_336 %uint_0")) << out;
  EXPECT_TRUE(has(out, "OpAtomicLoad %uint %P %uint_1 %uint_322")) << out;
  EXPECT_TRUE(has(out, "OpAtomicStore %P %uint_1 %uint_324 %loaded")) << out;
  // test-and-set: an exchange with 1 compared with 0; clear: a store of 0.
  EXPECT_TRUE(has(out, "OpAtomicExchange %uint %P %uint_1 %uint_336 %uint_1")) << out;
  EXPECT_TRUE(has(out, "OpAtomicStore %P %uint_1 %uint_324 %uint_0")) << out;
  // The private atomic is a load, an add and a store: no atomic on Function memory is left.
  EXPECT_EQ(out.find("OpAtomicIAdd"), std::string::npos) << out;
}

// Under Vulkan's memory model (the default Target's device has it) the same atomics, which order
// memory at device scope, make their writes available and the others' visible: a
// read-modify-write's SequentiallyConsistent is AcquireRelease (0x8) with MakeAvailable (0x2000) and
// MakeVisible (0x4000), a load's Acquire makes visible, a store's Release available.
TEST(AtomicsTest, OpenCL20AtomicsUnderVulkansMemoryModel) {
  std::string out = translated(kAtomics);
  ASSERT_FALSE(out.empty());
  EXPECT_TRUE(has(out, "OpMemoryModel PhysicalStorageBuffer64 Vulkan")) << out;
  EXPECT_TRUE(has(out, "OpAtomicCompareExchange %uint %P %uint_1 %uint_24904 %uint_0")) << out;
  EXPECT_TRUE(has(out, "OpAtomicLoad %uint %P %uint_1 %uint_16706")) << out;
  EXPECT_TRUE(has(out, "OpAtomicStore %P %uint_1 %uint_8516 %loaded")) << out;
  EXPECT_TRUE(has(out, "OpAtomicExchange %uint %P %uint_1 %uint_24904 %uint_1")) << out;
}

// OpenCL's barriers run at Workgroup or Subgroup scope and Vulkan has no other; a barrier of
// Device execution scope (found by the fuzzer: tests/fuzz/regressions/
// barrier-execution-scope-device.spv) is refused with the reason, not translated into an
// OpControlBarrier Vulkan rejects.
TEST(AtomicsTest, BarriersOfAnotherExecutionScopeAreRefused) {
  std::unique_ptr<ir::Module> module = test::assemble(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
         %fn = OpTypeFunction %void
     %device = OpConstant %uint 1
  %workgroup = OpConstant %uint 2
  %semantics = OpConstant %uint 272
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpControlBarrier %device %workgroup %semantics
               OpReturn
               OpFunctionEnd
)");
  ASSERT_NE(module, nullptr);
  Expected<Translation> translation = translate(ir::writeBinary(*module), Target{});
  ASSERT_FALSE(translation.ok());
  EXPECT_NE(translation.error().message().find(
                "OpControlBarrier in function 'k': a barrier's execution scope must be Workgroup or Subgroup, not 1"),
            std::string::npos)
      << translation.error().message();
}

}  // namespace
}  // namespace cl2vk
