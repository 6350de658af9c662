// canonicalize-builtin-loads: before/after tests. Every read of a work-item builtin becomes a
// load of the whole Input variable, and an extract of the component read, whatever way the
// generator reached it; what cannot be read that way is refused naming the instruction.
#include <gtest/gtest.h>

#include "ir/validate.h"
#include "pass_test_util.h"

namespace cl2vk {
namespace {

// A kernel `k` writing ulongs through %out, with the builtins %gid (GlobalInvocationId) and %dim
// (WorkDim) declared in `storage`; `interface` lists the entry point's variables, `body` follows
// the kernel's label; `globals` follow the variables.
std::string module(const std::string& body, const std::string& storage = "Input",
                   const std::string& interface = " %gid %dim", const std::string& globals = "") {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k")" +
         interface + R"(
               OpName %gid "gid"
               OpName %dim "dim"
               OpName %out "out"
               OpDecorate %gid BuiltIn GlobalInvocationId
               OpDecorate %gid Constant
               OpDecorate %dim BuiltIn WorkDim
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
    %v3ulong = OpTypeVector %ulong 3
     %uint_0 = OpConstant %uint 0
     %uint_1 = OpConstant %uint 1
     %uint_2 = OpConstant %uint 2
     %uint_3 = OpConstant %uint 3
    %ulong_0 = OpConstant %ulong 0
    %ulong_1 = OpConstant %ulong 1
%_ptr_v3ulong = OpTypePointer )" +
         storage + R"( %v3ulong
%_ptr_ulong = OpTypePointer )" +
         storage + R"( %ulong
 %_ptr_uint = OpTypePointer )" +
         storage + R"( %uint
%_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
%_ptr_CrossWorkgroup_ulong = OpTypePointer CrossWorkgroup %ulong
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_ulong
        %gid = OpVariable %_ptr_v3ulong )" +
         storage + R"(
        %dim = OpVariable %_ptr_uint )" +
         storage + "\n" + globals + R"(
          %k = OpFunction %void None %fn
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_ulong
      %entry = OpLabel
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// What llvm-spirv-15 writes, a load of the whole vector and an extract, is the pass's own form.
TEST(CanonicalizeBuiltinLoadsTest, WholeLoadsStayAsTheyAre) {
  std::string body = R"(
        %ids = OpLoad %v3ulong %gid Aligned 32
          %x = OpCompositeExtract %ulong %ids 0
               OpStore %out %x Aligned 8
)";
  test::expectPassOutput("canonicalize-builtin-loads", module(body), module(body), Target{}, SPV_ENV_OPENCL_2_2);
}

// Components read through access chains: a constant index, OpInBoundsPtrAccessChain's element 0
// and then the component, and a pointer bitcast to the component type and stepped with
// OpPtrAccessChain. Each becomes a load of the whole vector and an extract.
TEST(CanonicalizeBuiltinLoadsTest, ComponentsThroughChainsAndCastsBecomeExtracts) {
  test::expectPassOutput("canonicalize-builtin-loads", module(R"(
         %px = OpInBoundsAccessChain %_ptr_ulong %gid %uint_0
          %x = OpLoad %ulong %px Aligned 8
         %py = OpInBoundsPtrAccessChain %_ptr_ulong %gid %ulong_0 %uint_1
          %y = OpLoad %ulong %py Aligned 8
      %first = OpBitcast %_ptr_ulong %gid
         %pz = OpPtrAccessChain %_ptr_ulong %first %uint_2
        %pz2 = OpCopyObject %_ptr_ulong %pz
          %z = OpLoad %ulong %pz2 Aligned 8
         %xy = OpIAdd %ulong %x %y
        %xyz = OpIAdd %ulong %xy %z
               OpStore %out %xyz Aligned 8
)"),
                         module(R"(
         %i0 = OpLoad %v3ulong %gid
          %x = OpCompositeExtract %ulong %i0 0
         %i1 = OpLoad %v3ulong %gid
          %y = OpCompositeExtract %ulong %i1 1
         %i2 = OpLoad %v3ulong %gid
          %z = OpCompositeExtract %ulong %i2 2
         %xy = OpIAdd %ulong %x %y
        %xyz = OpIAdd %ulong %xy %z
               OpStore %out %xyz Aligned 8
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// get_global_id(d) for a d known only at run time (here get_work_dim() - 1, the dimension read
// through a copy of the scalar builtin's pointer): a dynamic extract of the whole vector, read only
// below 3 (get_global_id is 0 beyond the dimensions, as OpenCL says).
TEST(CanonicalizeBuiltinLoadsTest, RunTimeIndexBecomesADynamicExtract) {
  test::expectPassOutput("canonicalize-builtin-loads", module(R"(
       %pdim = OpCopyObject %_ptr_uint %dim
          %d = OpLoad %uint %pdim Aligned 4
       %last = OpISub %uint %d %uint_1
         %pd = OpAccessChain %_ptr_ulong %gid %last
          %v = OpLoad %ulong %pd Aligned 8
               OpStore %out %v Aligned 8
)"),
                         module(R"(
          %d = OpLoad %uint %dim
       %last = OpISub %uint %d %uint_1
        %ids = OpLoad %v3ulong %gid
     %inside = OpULessThan %bool %last %uint_3
       %safe = OpSelect %uint %inside %last %uint_0
         %id = OpVectorExtractDynamic %ulong %ids %safe
          %v = OpSelect %ulong %inside %id %ulong_0
               OpStore %out %v Aligned 8
)",
                                "Input", " %gid %dim", "       %bool = OpTypeBool"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// Older llvm-spirv declares the builtins UniformConstant and lists them in no interface
// (pyopencl's add-vectors-64.spv): they become Input variables of the kernels that read them.
TEST(CanonicalizeBuiltinLoadsTest, UniformConstantBuiltinsBecomeInputVariablesOfTheirKernels) {
  test::PassRun run = test::runPass("canonicalize-builtin-loads", module(R"(
        %ids = OpLoad %v3ulong %gid
          %x = OpCompositeExtract %ulong %ids 0
               OpStore %out %x Aligned 8
)",
                                                                         "UniformConstant", ""));
  ASSERT_TRUE(run.module) << run.error;
  std::string text = run.text();
  EXPECT_NE(text.find("\"k\" %gid\n"), std::string::npos) << text;  // %dim is not read
  EXPECT_NE(text.find("%gid = OpVariable %_ptr_Input_v3ulong Input\n"), std::string::npos) << text;
  EXPECT_NE(text.find("%dim = OpVariable %_ptr_Input_uint Input\n"), std::string::npos) << text;
  EXPECT_NE(text.find("= OpLoad %v3ulong %gid\n"), std::string::npos) << text;
  Status valid = ir::validate(*run.module, ir::universalEnvironment(*run.module));
  EXPECT_TRUE(valid.ok()) << valid.error().message();
}

TEST(CanonicalizeBuiltinLoadsTest, AStoreToABuiltinIsRefusedByName) {
  test::PassRun run = test::runPass("canonicalize-builtin-loads", module(R"(
         %px = OpInBoundsAccessChain %_ptr_ulong %gid %uint_0
               OpStore %px %ulong_0 Aligned 8
)"));
  EXPECT_EQ(run.text(),
            "error: kernel 'k': OpStore in function 'k': a use of the OpenCL builtin variable 'gid', which is not "
            "supported");
}

TEST(CanonicalizeBuiltinLoadsTest, AnIndexPastTheComponentsIsRefusedByName) {
  test::PassRun run = test::runPass("canonicalize-builtin-loads", module(R"(
         %pw = OpInBoundsAccessChain %_ptr_ulong %gid %uint_3
          %w = OpLoad %ulong %pw Aligned 8
               OpStore %out %w Aligned 8
)"));
  EXPECT_NE(run.text().find("an access past the components of the OpenCL builtin variable 'gid'"), std::string::npos)
      << run.text();
}

}  // namespace
}  // namespace cl2vk
