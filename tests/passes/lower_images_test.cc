// lower-images: images become their records and samplers their bits (docs/images.md), texel reads
// and writes call the builtin library, queries read the record, and what OpenCL images here do
// not have (depth, mipmaps) is refused by name. lower-kernel-interface then reports the records as
// image and sampler arguments.
#include <gtest/gtest.h>

#include "pass_test_util.h"

namespace cl2vk {
namespace {

using test::count;
using test::runPass;

// The capabilities, memory model and entry point of the kernels here, as llvm-spirv writes them.
const std::string kKernelHeader = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpCapability ImageBasic
               OpCapability LiteralSampler
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
)";

// kernel void k(read_only image2d_t a, sampler_t s, write_only image3d_t b, global float4* o,
//               global uint* q), in the shape llvm-spirv writes: `body` between the entry label
// and the return.
std::string kernelWith(const std::string& body, const std::string& globals = "") {
  return kKernelHeader + R"(
               OpName %a "a"
               OpName %s "s"
               OpName %b "b"
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %void = OpTypeVoid
      %float = OpTypeFloat 32
    %v2float = OpTypeVector %float 2
    %v4float = OpTypeVector %float 4
     %v2uint = OpTypeVector %uint 2
     %v4uint = OpTypeVector %uint 4
     %uint_0 = OpConstant %uint 0
     %uint_4304 = OpConstant %uint 4304
    %float_0 = OpConstant %float 0
    %float_1 = OpConstant %float 1
     %coord2 = OpConstantComposite %v2uint %uint_0 %uint_0
    %fcoord2 = OpConstantComposite %v2float %float_1 %float_1
     %coord4 = OpConstantComposite %v4uint %uint_0 %uint_0 %uint_0 %uint_0
      %value = OpConstantComposite %v4float %float_1 %float_1 %float_1 %float_1
      %ro_2d = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
      %wo_3d = OpTypeImage %void 3D 0 0 0 0 Unknown WriteOnly
    %sampler = OpTypeSampler
    %sampled = OpTypeSampledImage %ro_2d
%_ptr_CrossWorkgroup_v4float = OpTypePointer CrossWorkgroup %v4float
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
)" + globals +
         R"(
         %fn = OpTypeFunction %void %ro_2d %sampler %wo_3d %_ptr_CrossWorkgroup_v4float %_ptr_CrossWorkgroup_uint
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ro_2d
          %s = OpFunctionParameter %sampler
          %b = OpFunctionParameter %wo_3d
          %o = OpFunctionParameter %_ptr_CrossWorkgroup_v4float
          %q = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
)" + body +
         R"(
               OpReturn
               OpFunctionEnd
)";
}

// The whole pass on a query, which reads the record and calls nothing: the image type becomes the
// named record struct (its members declared before it), the parameter takes it, and
// get_image_channel_order is the record's order less the 0x10B0 llvm-spirv adds back.
TEST(LowerImages, AnOrderQueryReadsTheRecordsLayout) {
  test::expectPassOutput("lower-images", kKernelHeader + R"(
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
  %uint_4272 = OpConstant %uint 4272
      %ro_2d = OpTypeImage %void 2D 0 0 0 0 Unknown ReadOnly
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %ro_2d %_ptr_CrossWorkgroup_uint
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %ro_2d
          %q = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
      %order = OpImageQueryOrder %uint %a
    %clorder = OpIAdd %uint %order %uint_4272
               OpStore %q %clorder
               OpReturn
               OpFunctionEnd
)",
                         kKernelHeader + R"(
               OpName %record "cl2vk.image2d_t.read_only"
       %uint = OpTypeInt 32 0
       %void = OpTypeVoid
  %uint_4272 = OpConstant %uint 4272
      %ulong = OpTypeInt 64 0
     %v4uint = OpTypeVector %uint 4
     %record = OpTypeStruct %ulong %ulong %v4uint %v4uint
%_ptr_CrossWorkgroup_uint = OpTypePointer CrossWorkgroup %uint
         %fn = OpTypeFunction %void %record %_ptr_CrossWorkgroup_uint
          %k = OpFunction %void None %fn
          %a = OpFunctionParameter %record
          %q = OpFunctionParameter %_ptr_CrossWorkgroup_uint
      %entry = OpLabel
     %layout = OpCompositeExtract %v4uint %a 3
   %recorded = OpCompositeExtract %uint %layout 1
      %order = OpISub %uint %recorded %uint_4272
    %clorder = OpIAdd %uint %order %uint_4272
               OpStore %q %clorder
               OpReturn
               OpFunctionEnd
)");
}

TEST(LowerImages, ImagesBecomeNamedRecordsAndReadsCallTheLibrary) {
  test::PassRun run = runPass("lower-images", kernelWith(R"(
          %t = OpImageRead %v4float %a %coord2
               OpStore %o %t
               OpImageWrite %b %coord4 %value
)"));
  ASSERT_TRUE(run.module) << run.error;
  std::string text = run.text();
  EXPECT_EQ(count(text, "OpTypeImage"), 0u) << text;
  EXPECT_EQ(count(text, "OpTypeSampler"), 0u) << text;
  EXPECT_EQ(count(text, "OpImageRead"), 0u) << text;
  EXPECT_EQ(count(text, "OpImageWrite"), 0u) << text;
  EXPECT_EQ(count(text, "\"cl2vk.image2d_t.read_only\""), 1u) << text;
  EXPECT_EQ(count(text, "\"cl2vk.image3d_t.write_only\""), 1u) << text;
  EXPECT_EQ(count(text, "\"cl2vk.sampler_t\""), 1u) << text;
  // The record: data address, slice pitch, size, layout.
  EXPECT_EQ(count(text, "OpTypeStruct %ulong %ulong %v4uint %v4uint"), 2u) << text;
  EXPECT_EQ(count(text, "OpTypeStruct %uint"), 1u) << text;
  // The library's functions, imported and called.
  EXPECT_EQ(count(text, "\"__cl2vk_image_read_f_2d\""), 1u) << text;
  EXPECT_EQ(count(text, "\"__cl2vk_image_write_f_3d\""), 1u) << text;
}

TEST(LowerImages, SamplingCallsTheSampleFunctionWithTheSamplersBits) {
  test::PassRun run = runPass("lower-images", kernelWith(R"(
         %si = OpSampledImage %sampled %a %s
          %t = OpImageSampleExplicitLod %v4float %si %fcoord2 Lod %float_0
               OpStore %o %t
        %si2 = OpSampledImage %sampled %a %literal
         %t2 = OpImageSampleExplicitLod %v4uint %si2 %coord2 Lod %float_0
         %t3 = OpCompositeExtract %uint %t2 0
               OpStore %q %t3
)",
                                                         R"(
    %literal = OpConstantSampler %sampler Repeat 1 Linear
)"));
  ASSERT_TRUE(run.module) << run.error;
  std::string text = run.text();
  EXPECT_EQ(count(text, "OpSampledImage"), 0u) << text;
  EXPECT_EQ(count(text, "OpTypeSampledImage"), 0u) << text;
  EXPECT_EQ(count(text, "\"__cl2vk_image_sample_f_2d\""), 1u) << text;
  EXPECT_EQ(count(text, "\"__cl2vk_image_sample_ii_2d\""), 1u) << text;
  // CLK_NORMALIZED_COORDS_TRUE | CLK_ADDRESS_REPEAT (6) | CLK_FILTER_LINEAR (0x20).
  EXPECT_EQ(count(text, "OpConstantComposite %cl2vk_sampler_t %uint_39"), 1u) << text;
  EXPECT_EQ(count(text, "OpConstantSampler"), 0u) << text;
}

TEST(LowerImages, QueriesReadTheRecord) {
  test::PassRun run = runPass("lower-images", kernelWith(R"(
       %size = OpImageQuerySizeLod %v2uint %a %uint_0
      %width = OpCompositeExtract %uint %size 0
     %format = OpImageQueryFormat %uint %a
    %clvalue = OpIAdd %uint %format %uint_4304
        %sum = OpIAdd %uint %width %clvalue
               OpStore %q %sum
)"));
  ASSERT_TRUE(run.module) << run.error;
  std::string text = run.text();
  EXPECT_EQ(count(text, "OpImageQuery"), 0u) << text;
  EXPECT_EQ(count(text, "OpFunctionCall"), 0u) << text;
  // The channel type less what llvm-spirv adds back.
  EXPECT_EQ(count(text, "OpISub %uint"), 1u) << text;
}

TEST(LowerImages, DepthImagesAreRefusedByName) {
  std::string module = kernelWith("", "    %depth = OpTypeImage %void 2D 1 0 0 0 Unknown ReadOnly\n");
  test::PassRun run = runPass("lower-images", module);
  EXPECT_FALSE(run.module);
  EXPECT_NE(run.error.find("depth images (cl_khr_depth_images) are not supported"), std::string::npos) << run.error;
}

TEST(LowerImages, AReadAtAnotherLevelOfDetailIsRefused) {
  test::PassRun run = runPass("lower-images", kernelWith(R"(
         %si = OpSampledImage %sampled %a %s
          %t = OpImageSampleExplicitLod %v4float %si %fcoord2 Lod %float_1
               OpStore %o %t
)"));
  EXPECT_FALSE(run.module);
  EXPECT_NE(run.error.find("level of detail other than 0"), std::string::npos) << run.error;
  EXPECT_NE(run.error.find("in function 'k'"), std::string::npos) << run.error;
}

TEST(LowerImages, AModuleWithoutImagesIsUnchanged) {
  const std::string module = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";
  test::expectPassOutput("lower-images", module, module);
}

// After lower-images, lower-kernel-interface reports the records as image and sampler arguments:
// 48 bytes 16-aligned and 4 bytes, with the image's OpenCL type and access.
TEST(LowerImages, TheKernelInterfaceReportsImageAndSamplerArguments) {
  test::PassRun images = runPass("lower-images", kernelWith(""));
  ASSERT_TRUE(images.module) << images.error;
  test::PassRun run = runPass("lower-kernel-interface", images.text());
  ASSERT_TRUE(run.module) << run.error;
  ASSERT_EQ(run.context.reflection.kernels.size(), 1u);
  const std::vector<KernelArgument>& args = run.context.reflection.kernels[0].arguments;
  ASSERT_EQ(args.size(), 5u);
  EXPECT_EQ(args[0].kind, ArgumentKind::kImage);
  EXPECT_EQ(args[0].type, "image2d_t");
  EXPECT_EQ(args[0].access, "read_only");
  EXPECT_EQ(args[0].size, 48u);
  EXPECT_EQ(args[0].offset % 16, 0u);
  EXPECT_EQ(args[1].kind, ArgumentKind::kSampler);
  EXPECT_EQ(args[1].size, 4u);
  EXPECT_EQ(args[2].kind, ArgumentKind::kImage);
  EXPECT_EQ(args[2].type, "image3d_t");
  EXPECT_EQ(args[2].access, "write_only");
  EXPECT_EQ(args[3].kind, ArgumentKind::kGlobalPointer);
  // Each image's channel order, channel type and narrow-offsets flag are specialization
  // constants, three ids per image, default 0 (the record's own), each chosen over the record by a
  // select.
  EXPECT_EQ(args[0].formatSpecId, SpecIds::kFirstImageFormat);
  EXPECT_EQ(args[2].formatSpecId, SpecIds::kFirstImageFormat + 3);
  std::string text = run.text();
  for (uint32_t id = SpecIds::kFirstImageFormat; id < SpecIds::kFirstImageFormat + 6; ++id)
    EXPECT_EQ(count(text, "SpecId " + std::to_string(id) + "\n"), 1u) << id << "\n" << text;
  EXPECT_EQ(count(text, "OpSpecConstant %uint 0"), 6u) << text;
}

}  // namespace
}  // namespace cl2vk
