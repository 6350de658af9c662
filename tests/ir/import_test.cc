// ir::FunctionImporter: a function and its callees copied from one module into another, sharing
// the types and constants the destination has, without linkage decorations.
#include "ir/import.h"

#include <gtest/gtest.h>

#include "../passes/pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

const char* kLibrary = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpCapability Int64
          %1 = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpName %twice "twice"
               OpName %outer "outer"
               OpName %wide "wide"
               OpDecorate %outer LinkageAttributes "outer" Export
               OpDecorate %wide LinkageAttributes "wide" Export
               OpDecorate %sum NoContraction
      %float = OpTypeFloat 32
      %ulong = OpTypeInt 64 0
    %float_2 = OpConstant %float 2
    %ulong_1 = OpConstant %ulong 1
         %fn = OpTypeFunction %float %float
     %fnwide = OpTypeFunction %ulong %ulong
      %twice = OpFunction %float Pure %fn
          %x = OpFunctionParameter %float
         %b0 = OpLabel
        %sum = OpFMul %float %x %float_2
               OpReturnValue %sum
               OpFunctionEnd
      %outer = OpFunction %float Pure %fn
          %y = OpFunctionParameter %float
         %b1 = OpLabel
          %t = OpFunctionCall %float %twice %y
          %a = OpExtInst %float %1 fabs %t
               OpReturnValue %a
               OpFunctionEnd
       %wide = OpFunction %ulong Pure %fnwide
          %z = OpFunctionParameter %ulong
         %b2 = OpLabel
          %w = OpIAdd %ulong %z %ulong_1
               OpReturnValue %w
               OpFunctionEnd
)";

const char* kUser = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpName %k "k"
       %void = OpTypeVoid
      %float = OpTypeFloat 32
    %float_2 = OpConstant %float 2
         %fk = OpTypeFunction %void
          %k = OpFunction %void None %fk
         %b0 = OpLabel
               OpReturn
               OpFunctionEnd
)";

TEST(FunctionImporter, CopiesTheFunctionAndItsCalleesSharingTypesAndConstants) {
  auto library = test::assemble(kLibrary);
  auto user = test::assemble(kUser);
  ASSERT_TRUE(library && user);
  ir::FunctionImporter importer(*user, *library);
  uint32_t outer = 0;
  for (const ir::Function& function : library->functions()) {
    if (library->name(function.id()) == "outer") outer = function.id();
  }
  Expected<uint32_t> imported = importer.import(outer);
  ASSERT_TRUE(imported.ok()) << imported.error().message();
  // A second request gives the same copy. Callees come before their callers.
  EXPECT_EQ(*importer.import(outer), *imported);
  EXPECT_EQ(test::canonicalAssembly(*user), test::canonicalAssembly(R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
          %1 = OpExtInstImport "OpenCL.std"
               OpMemoryModel Physical64 OpenCL
               OpName %k "k"
               OpName %twice "twice"
               OpName %outer "outer"
               OpDecorate %sum NoContraction
       %void = OpTypeVoid
      %float = OpTypeFloat 32
    %float_2 = OpConstant %float 2
         %fk = OpTypeFunction %void
         %fn = OpTypeFunction %float %float
          %k = OpFunction %void None %fk
         %b0 = OpLabel
               OpReturn
               OpFunctionEnd
      %twice = OpFunction %float Pure %fn
          %x = OpFunctionParameter %float
         %b1 = OpLabel
        %sum = OpFMul %float %x %float_2
               OpReturnValue %sum
               OpFunctionEnd
      %outer = OpFunction %float Pure %fn
          %y = OpFunctionParameter %float
         %b2 = OpLabel
          %t = OpFunctionCall %float %twice %y
          %a = OpExtInst %float %1 fabs %t
               OpReturnValue %a
               OpFunctionEnd
)"));
}

TEST(FunctionImporter, DeclaresTheCapabilityOfAWideType) {
  auto library = test::assemble(kLibrary);
  auto user = test::assemble(kUser);
  ASSERT_TRUE(library && user);
  ir::FunctionImporter importer(*user, *library);
  uint32_t wide = 0;
  for (const ir::Function& function : library->functions()) {
    if (library->name(function.id()) == "wide") wide = function.id();
  }
  ASSERT_TRUE(importer.import(wide).ok());
  EXPECT_NE(test::disassemble(*user).find("OpCapability Int64"), std::string::npos);
}

TEST(FunctionImporter, RefusesSomethingThatIsNotAFunction) {
  auto library = test::assemble(kLibrary);
  auto user = test::assemble(kUser);
  ASSERT_TRUE(library && user);
  ir::FunctionImporter importer(*user, *library);
  Expected<uint32_t> imported = importer.import(1);  // the OpenCL.std import
  ASSERT_FALSE(imported.ok());
  EXPECT_EQ(imported.error().message(), "importing a function: %1 is not a defined function");
}

}  // namespace
}  // namespace cl2vk
