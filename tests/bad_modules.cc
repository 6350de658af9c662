#include "bad_modules.h"

#include <gtest/gtest.h>

#include "ir/writer.h"
#include "test_util.h"

namespace cl2vk::test {

const char* const kStoreOneKernel = R"(
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Int64
               OpCapability Linkage
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %kernel "store_one" %gid
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
 %ptr_ids    = OpTypePointer Input %v3ulong
 %ptr_global = OpTypePointer CrossWorkgroup %uint
     %uint_1 = OpConstant %uint 1
  %fn_kernel = OpTypeFunction %void %ptr_global
        %gid = OpVariable %ptr_ids Input
     %kernel = OpFunction %void None %fn_kernel
        %out = OpFunctionParameter %ptr_global
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid Aligned 32
          %x = OpCompositeExtract %ulong %ids 0
       %slot = OpInBoundsPtrAccessChain %ptr_global %out %x
               OpStore %slot %uint_1 Aligned 4
               OpReturn
               OpFunctionEnd
)";
;

std::vector<uint32_t> assembleWords(const std::string& text) {
  std::unique_ptr<ir::Module> module = assemble(text);
  return module ? ir::writeBinary(*module) : std::vector<uint32_t>{};
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << "'" << from << "' is not in the text";
  if (at != std::string::npos) text.replace(at, from.size(), to);
  return text;
}

}  // namespace cl2vk::test
