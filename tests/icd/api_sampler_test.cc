// Samplers through the OpenCL API: sampled reads of 2D images for every combination of normalized
// coordinates, addressing mode and filter, with the sampler made by clCreateSampler or
// clCreateSamplerWithProperties and passed as an argument, or declared in the program (at program
// scope, or a literal in the kernel); border colours of every channel order; integer coordinates
// and integer formats with a sampler; clGetSamplerInfo and the errors of creation and arguments.
// Results are compared with the CPU reference of image_reference.h ("Image Addressing and
// Filtering" of the OpenCL environment specification).

#include "icd/image_test_util.h"

namespace cl2vk::test {
namespace {

using imageref::ReadKind;

const char* kSampleKernels = R"CLC(
kernel void sample_float(read_only image2d_t image, sampler_t sampler, global const float2* coords,
                         global float4* out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, sampler, coords[i]);
}
kernel void sample_int(read_only image2d_t image, sampler_t sampler, global const float2* coords, global int4* out) {
  size_t i = get_global_id(0);
  out[i] = read_imagei(image, sampler, coords[i]);
}
kernel void sample_uint(read_only image2d_t image, sampler_t sampler, global const float2* coords, global uint4* out) {
  size_t i = get_global_id(0);
  out[i] = read_imageui(image, sampler, coords[i]);
}
kernel void sample_float_at_int(read_only image2d_t image, sampler_t sampler, global const int2* coords,
                                global float4* out) {
  size_t i = get_global_id(0);
  out[i] = read_imagef(image, sampler, coords[i]);
}
kernel void sample_uint_at_int(read_only image2d_t image, sampler_t sampler, global const int2* coords,
                               global uint4* out) {
  size_t i = get_global_id(0);
  out[i] = read_imageui(image, sampler, coords[i]);
}
kernel void take_buffer(global float4* out) { out[0] = (float4)(1.0f); }
)CLC";

// How a test gives the kernel its sampler.
enum class SamplerSource { kCreateSampler, kCreateSamplerWithProperties, kProgramScope, kKernelLiteral };

// Every sampler OpenCL defines: the repeats take normalized coordinates only.
std::vector<SamplerState> everySampler() {
  std::vector<SamplerState> samplers;
  for (bool normalized : {false, true}) {
    for (cl_addressing_mode addressing :
         {CL_ADDRESS_NONE, CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP, CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT}) {
      if (!normalized && (addressing == CL_ADDRESS_REPEAT || addressing == CL_ADDRESS_MIRRORED_REPEAT)) continue;
      for (cl_filter_mode filter : {CL_FILTER_NEAREST, CL_FILTER_LINEAR})
        samplers.push_back({normalized, addressing, filter});
    }
  }
  return samplers;
}

// One kernel sample_<i> per sampler of everySampler(), its sampler declared at program scope or
// as a literal in the kernel.
std::string samplerDeclaringSource(SamplerSource source) {
  std::string text;
  const std::vector<SamplerState> samplers = everySampler();
  for (size_t i = 0; i < samplers.size(); ++i) {
    const std::string index = std::to_string(i), literal = imageref::samplerLiteral(samplers[i]);
    if (source == SamplerSource::kProgramScope) text += "constant sampler_t sampler_" + index + " = " + literal + ";\n";
    text += "kernel void sample_" + index +
            "(read_only image2d_t image, global const float2* coords, global float4* out) {\n";
    if (source == SamplerSource::kKernelLiteral) text += "  const sampler_t sampler_" + index + " = " + literal + ";\n";
    text += "  size_t i = get_global_id(0);\n  out[i] = read_imagef(image, sampler_" + index + ", coords[i]);\n}\n";
  }
  return text;
}

class IcdSampler : public IcdImageTest {
 protected:
  Kernel sampleKernel(const std::string& name) {
    if (!program_) program_ = buildSource(kSampleKernels);
    return program_ ? createKernel(program_, name) : Kernel();
  }

  Sampler createSamplerWithProperties(const SamplerState& state) {
    const cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS,
                                                cl_sampler_properties{state.normalized},
                                                CL_SAMPLER_ADDRESSING_MODE,
                                                state.addressing,
                                                CL_SAMPLER_FILTER_MODE,
                                                state.filter,
                                                0};
    cl_int status = CL_SUCCESS;
    Sampler sampler(clCreateSamplerWithProperties(context_, properties, &status));
    EXPECT_CL_SUCCESS(status) << "clCreateSamplerWithProperties " << imageref::samplerName(state);
    return sampler;
  }

  // Every coordinate pair of axisCoordinates along x and y, normalized if the sampler is.
  static std::vector<cl_float2> coordinates(const SamplerState& state, const HostImage& image) {
    std::vector<cl_float2> coords;
    const std::vector<float> xs = axisCoordinates(state, image.size[0]), ys = axisCoordinates(state, image.size[1]);
    for (float y : ys) {
      for (float x : xs) {
        if (state.normalized) {
          coords.push_back({{static_cast<float>(x / static_cast<double>(image.size[0])),
                             static_cast<float>(y / static_cast<double>(image.size[1]))}});
        } else {
          coords.push_back({{x, y}});
        }
      }
    }
    return coords;
  }

  // Samples a 5x3 CL_RGBA image of CL_FLOAT texels in [-1, 1], then one of CL_UNORM_INT8, with
  // every sampler at the coordinates of `coordinates`; compares with the reference.
  void checkEverySampler(SamplerSource source) {
    Program declaring;
    if (source == SamplerSource::kProgramScope || source == SamplerSource::kKernelLiteral) {
      declaring = buildSource(samplerDeclaringSource(source));
      ASSERT_TRUE(declaring.get());
    }
    const std::vector<SamplerState> samplers = everySampler();
    const ImageShape shape{CL_MEM_OBJECT_IMAGE2D, 5, 3};
    for (const cl_image_format& format :
         {cl_image_format{CL_RGBA, CL_FLOAT}, cl_image_format{CL_RGBA, CL_UNORM_INT8}}) {
      SCOPED_TRACE(formatName(format));
      HostImage texels(format, shape.region());
      if (format.image_channel_data_type == CL_FLOAT) {
        fillFloatTexels(texels, 43);
      } else {
        fillTexels(texels, 47);
      }
      Image image = createImage(format, shape);
      ASSERT_TRUE(image.get());
      writeImage(image, texels);
      for (size_t s = 0; s < samplers.size(); ++s) {
        const SamplerState& state = samplers[s];
        SCOPED_TRACE(imageref::samplerName(state));
        const std::vector<cl_float2> coords = coordinates(state, texels);
        Buffer coordBuffer = bufferOf(coords), out = createBuffer(coords.size() * sizeof(cl_float4));
        Kernel kernel;
        Sampler sampler;
        switch (source) {
          case SamplerSource::kCreateSampler: sampler = createSampler(state); break;
          case SamplerSource::kCreateSamplerWithProperties: sampler = createSamplerWithProperties(state); break;
          default: kernel = createKernel(declaring, "sample_" + std::to_string(s)); break;
        }
        if (sampler) {
          kernel = sampleKernel("sample_float");
          ASSERT_TRUE(kernel.get());
          setArgs(kernel, image, sampler, coordBuffer, out);
        } else {
          ASSERT_TRUE(kernel.get());
          setArgs(kernel, image, coordBuffer, out);
        }
        runRange(kernel, {coords.size(), 1, 1});
        const std::vector<cl_float4> got = read<cl_float4>(out, coords.size());
        Mismatches mismatches(imageref::samplerName(state));
        for (size_t i = 0; i < coords.size(); ++i) {
          const std::array<float, 4> at{coords[i].s[0], coords[i].s[1], 0, 0};
          const Float4 expected = imageref::sampleFloat(texels, 2, state, at);
          for (int c = 0; c < 4; ++c) {
            if (!sampledReadMatches(format, state, c, expected[c], got[i].s[c])) {
              mismatches.add("at (" + std::to_string(at[0]) + ", " + std::to_string(at[1]) + "): expected " +
                             colorString(expected) + ", got " +
                             colorString(std::array<float, 4>{got[i].s[0], got[i].s[1], got[i].s[2], got[i].s[3]}));
              break;
            }
          }
        }
        EXPECT_TRUE(mismatches.result());
      }
    }
  }

  Program program_;
};

TEST_F(IcdSampler, EverySamplerFromClCreateSamplerFiltersAndAddressesAsSpecified) {
  checkEverySampler(SamplerSource::kCreateSampler);
}

TEST_F(IcdSampler, EverySamplerFromClCreateSamplerWithPropertiesFiltersAndAddressesAsSpecified) {
  checkEverySampler(SamplerSource::kCreateSamplerWithProperties);
}

TEST_F(IcdSampler, EverySamplerDeclaredAtProgramScopeFiltersAndAddressesAsSpecified) {
  checkEverySampler(SamplerSource::kProgramScope);
}

TEST_F(IcdSampler, EverySamplerLiteralInAKernelFiltersAndAddressesAsSpecified) {
  checkEverySampler(SamplerSource::kKernelLiteral);
}

// CL_ADDRESS_CLAMP outside the image returns (0, 0, 0, 0) for the orders with alpha (and the padded
// CL_Rx, CL_RGx, CL_RGBx), (0, 0, 0, 1) for the others: through read_imagef, read_imagei and
// read_imageui, for every format the device lists. One read inside the image checks the texel.
TEST_F(IcdSampler, ClampReturnsTheBorderColorOfTheChannelOrderForEveryFormat) {
  const SamplerState state{false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST};
  Sampler sampler = createSampler(state);
  ASSERT_TRUE(sampler.get());
  const std::vector<cl_float2> coords = {{{1.5f, 0.5f}}, {{-1.5f, 0.5f}},    {{3.5f, 1.5f}}, {{1.5f, -2.0f}},
                                         {{1.5f, 2.5f}}, {{-0.01f, -0.01f}}, {{40, 40}}};
  Buffer coordBuffer = bufferOf(coords);
  const ImageShape shape{CL_MEM_OBJECT_IMAGE2D, 3, 2};
  for (const cl_image_format& format : supportedFormats(CL_MEM_READ_ONLY, CL_MEM_OBJECT_IMAGE2D)) {
    if (!imageref::isKnown(format)) {
      std::cout << "[ SKIPPED ] " << formatName(format) << ": the reference does not know this format\n";
      continue;
    }
    SCOPED_TRACE(formatName(format));
    HostImage texels(format, shape.region());
    fillTexels(texels, 53);
    Image image = createImage(format, shape, CL_MEM_READ_ONLY);
    if (!image) continue;
    writeImage(image, texels);
    const ReadKind kind = imageref::readKind(format.image_channel_data_type);
    Kernel kernel = sampleKernel(kind == ReadKind::kFloat ? "sample_float"
                                 : kind == ReadKind::kInt ? "sample_int"
                                                          : "sample_uint");
    ASSERT_TRUE(kernel.get());
    Buffer out = createBuffer(coords.size() * sizeof(cl_float4));
    setArgs(kernel, image, sampler, coordBuffer, out);
    runRange(kernel, {coords.size(), 1, 1});
    Mismatches mismatches("CL_ADDRESS_CLAMP reads of " + formatName(format));
    for (size_t i = 0; i < coords.size(); ++i) {
      const std::array<float, 4> at{coords[i].s[0], coords[i].s[1], 0, 0};
      const std::string where = "at (" + std::to_string(at[0]) + ", " + std::to_string(at[1]) + "): expected ";
      if (kind == ReadKind::kFloat) {
        const cl_float4 got = read<cl_float4>(out, 1, i)[0];
        const Float4 expected = imageref::sampleFloat(texels, 2, state, at);
        for (int c = 0; c < 4; ++c) {
          if (texelReadMatches(format, c, expected[c], got.s[c])) continue;
          mismatches.add(where + colorString(expected) + ", got " +
                         colorString(std::array<float, 4>{got.s[0], got.s[1], got.s[2], got.s[3]}));
          break;
        }
      } else {
        const Int4 got = read<Int4>(out, 1, i)[0], expected = imageref::sampleInteger(texels, 2, state, at);
        if (got != expected) {
          mismatches.add(where + colorString(expected, kind == ReadKind::kInt) + ", got " +
                         colorString(got, kind == ReadKind::kInt));
        }
      }
    }
    EXPECT_TRUE(mismatches.result());
  }
}

// Integer coordinates with an unnormalized nearest sampler address texels as their float
// equivalents at the texel's corner would: clamped to the edge, or the border outside.
TEST_F(IcdSampler, IntegerCoordinatesWithASamplerReadTheAddressedTexel) {
  const ImageShape shape{CL_MEM_OBJECT_IMAGE2D, 4, 3};
  std::vector<cl_int2> coords;
  for (int y = -2; y <= 4; ++y) {
    for (int x = -2; x <= 5; ++x) coords.push_back({{x, y}});
  }
  Buffer coordBuffer = bufferOf(coords);
  struct Case {
    cl_image_format format;
    const char* kernel;
  };
  for (const Case& test :
       {Case{{CL_RGBA, CL_FLOAT}, "sample_float_at_int"}, Case{{CL_RGBA, CL_UNSIGNED_INT16}, "sample_uint_at_int"}}) {
    SCOPED_TRACE(formatName(test.format));
    HostImage texels(test.format, shape.region());
    fillTexels(texels, 59);
    Image image = createImage(test.format, shape);
    ASSERT_TRUE(image.get());
    writeImage(image, texels);
    Kernel kernel = sampleKernel(test.kernel);
    ASSERT_TRUE(kernel.get());
    for (cl_addressing_mode addressing : {CL_ADDRESS_CLAMP_TO_EDGE, CL_ADDRESS_CLAMP}) {
      const SamplerState state{false, addressing, CL_FILTER_NEAREST};
      SCOPED_TRACE(imageref::samplerName(state));
      Sampler sampler = createSampler(state);
      ASSERT_TRUE(sampler.get());
      Buffer out = createBuffer(coords.size() * sizeof(cl_float4));
      setArgs(kernel, image, sampler, coordBuffer, out);
      runRange(kernel, {coords.size(), 1, 1});
      for (size_t i = 0; i < coords.size(); ++i) {
        const std::array<float, 4> at{static_cast<float>(coords[i].s[0]), static_cast<float>(coords[i].s[1]), 0, 0};
        if (test.format.image_channel_data_type == CL_FLOAT) {
          const cl_float4 got = read<cl_float4>(out, 1, i)[0];
          const Float4 expected = imageref::sampleFloat(texels, 2, state, at);
          EXPECT_EQ(Float4({got.s[0], got.s[1], got.s[2], got.s[3]}), expected) << "at " << at[0] << ", " << at[1];
        } else {
          EXPECT_EQ(read<Int4>(out, 1, i)[0], imageref::sampleInteger(texels, 2, state, at))
              << "at " << at[0] << ", " << at[1];
        }
      }
    }
  }
}

// read_imagei/read_imageui with a sampler read integer formats with nearest filtering, with
// normalized coordinates and the repeats too.
TEST_F(IcdSampler, IntegerFormatsAreSampledWithEveryNearestSampler) {
  const ImageShape shape{CL_MEM_OBJECT_IMAGE2D, 5, 3};
  for (const cl_image_format& format :
       {cl_image_format{CL_RGBA, CL_SIGNED_INT16}, cl_image_format{CL_RGBA, CL_UNSIGNED_INT32}}) {
    SCOPED_TRACE(formatName(format));
    HostImage texels(format, shape.region());
    fillTexels(texels, 61);
    Image image = createImage(format, shape);
    ASSERT_TRUE(image.get());
    writeImage(image, texels);
    Kernel kernel = sampleKernel(format.image_channel_data_type == CL_SIGNED_INT16 ? "sample_int" : "sample_uint");
    ASSERT_TRUE(kernel.get());
    for (const SamplerState& state : everySampler()) {
      if (state.filter != CL_FILTER_NEAREST) continue;
      SCOPED_TRACE(imageref::samplerName(state));
      Sampler sampler = createSampler(state);
      ASSERT_TRUE(sampler.get());
      const std::vector<cl_float2> coords = coordinates(state, texels);
      Buffer coordBuffer = bufferOf(coords), out = createBuffer(coords.size() * sizeof(cl_uint4));
      setArgs(kernel, image, sampler, coordBuffer, out);
      runRange(kernel, {coords.size(), 1, 1});
      const std::vector<Int4> got = read<Int4>(out, coords.size());
      Mismatches mismatches(imageref::samplerName(state));
      for (size_t i = 0; i < coords.size(); ++i) {
        const std::array<float, 4> at{coords[i].s[0], coords[i].s[1], 0, 0};
        const Int4 expected = imageref::sampleInteger(texels, 2, state, at);
        if (got[i] != expected) {
          const bool isSigned = format.image_channel_data_type == CL_SIGNED_INT16;
          mismatches.add("at (" + std::to_string(at[0]) + ", " + std::to_string(at[1]) + "): expected " +
                         colorString(expected, isSigned) + ", got " + colorString(got[i], isSigned));
        }
      }
      EXPECT_TRUE(mismatches.result());
    }
  }
}

template <typename T>
T samplerInfo(cl_sampler sampler, cl_sampler_info name) {
  T value{};
  EXPECT_CL_SUCCESS(clGetSamplerInfo(sampler, name, sizeof(T), &value, nullptr))
      << "sampler info 0x" << std::hex << name;
  return value;
}

TEST_F(IcdSampler, InfoReturnsWhatTheSamplerWasCreatedWith) {
  for (const SamplerState& state : everySampler()) {
    SCOPED_TRACE(imageref::samplerName(state));
    Sampler sampler = createSampler(state);
    ASSERT_TRUE(sampler.get());
    EXPECT_EQ(samplerInfo<cl_bool>(sampler, CL_SAMPLER_NORMALIZED_COORDS), state.normalized ? CL_TRUE : CL_FALSE);
    EXPECT_EQ(samplerInfo<cl_addressing_mode>(sampler, CL_SAMPLER_ADDRESSING_MODE), state.addressing);
    EXPECT_EQ(samplerInfo<cl_filter_mode>(sampler, CL_SAMPLER_FILTER_MODE), state.filter);
    EXPECT_EQ(samplerInfo<cl_context>(sampler, CL_SAMPLER_CONTEXT), context_.get());
    EXPECT_EQ(samplerInfo<cl_uint>(sampler, CL_SAMPLER_REFERENCE_COUNT), 1u);
    // Made without properties: CL_SAMPLER_PROPERTIES is empty.
    size_t size = 1;
    EXPECT_CL_SUCCESS(clGetSamplerInfo(sampler, CL_SAMPLER_PROPERTIES, 0, nullptr, &size));
    EXPECT_EQ(size, 0u);

    Sampler withProperties = createSamplerWithProperties(state);
    ASSERT_TRUE(withProperties.get());
    EXPECT_EQ(samplerInfo<cl_addressing_mode>(withProperties, CL_SAMPLER_ADDRESSING_MODE), state.addressing);
    EXPECT_EQ(samplerInfo<cl_filter_mode>(withProperties, CL_SAMPLER_FILTER_MODE), state.filter);
    EXPECT_EQ(samplerInfo<cl_bool>(withProperties, CL_SAMPLER_NORMALIZED_COORDS),
              state.normalized ? CL_TRUE : CL_FALSE);
    std::vector<cl_sampler_properties> properties(7);
    EXPECT_CL_SUCCESS(clGetSamplerInfo(withProperties, CL_SAMPLER_PROPERTIES,
                                       properties.size() * sizeof(cl_sampler_properties), properties.data(), &size));
    EXPECT_EQ(size, properties.size() * sizeof(cl_sampler_properties));
    EXPECT_EQ(properties, (std::vector<cl_sampler_properties>{
                              CL_SAMPLER_NORMALIZED_COORDS, cl_sampler_properties{state.normalized},
                              CL_SAMPLER_ADDRESSING_MODE, state.addressing, CL_SAMPLER_FILTER_MODE, state.filter, 0}));
  }
  // Retains count; an answer larger than the space given is refused.
  Sampler sampler = createSampler({true, CL_ADDRESS_REPEAT, CL_FILTER_LINEAR});
  ASSERT_TRUE(sampler.get());
  ASSERT_CL_SUCCESS(clRetainSampler(sampler));
  EXPECT_EQ(samplerInfo<cl_uint>(sampler, CL_SAMPLER_REFERENCE_COUNT), 2u);
  ASSERT_CL_SUCCESS(clReleaseSampler(sampler));
  cl_uchar tooSmall = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE,
                  clGetSamplerInfo(sampler, CL_SAMPLER_ADDRESSING_MODE, sizeof(tooSmall), &tooSmall, nullptr));
  cl_uint value = 0;
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clGetSamplerInfo(sampler, 0x7777, sizeof(value), &value, nullptr));
}

// Properties left out take their defaults: normalized coordinates, CL_ADDRESS_CLAMP, nearest.
TEST_F(IcdSampler, WithPropertiesDefaultsToNormalizedClampNearest) {
  cl_int status = CL_SUCCESS;
  Sampler sampler(clCreateSamplerWithProperties(context_, nullptr, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_EQ(samplerInfo<cl_bool>(sampler, CL_SAMPLER_NORMALIZED_COORDS), static_cast<cl_bool>(CL_TRUE));
  EXPECT_EQ(samplerInfo<cl_addressing_mode>(sampler, CL_SAMPLER_ADDRESSING_MODE),
            static_cast<cl_addressing_mode>(CL_ADDRESS_CLAMP));
  EXPECT_EQ(samplerInfo<cl_filter_mode>(sampler, CL_SAMPLER_FILTER_MODE),
            static_cast<cl_filter_mode>(CL_FILTER_NEAREST));
  const cl_sampler_properties onlyLinear[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, 0};
  Sampler linear(clCreateSamplerWithProperties(context_, onlyLinear, &status));
  ASSERT_CL_SUCCESS(status);
  EXPECT_EQ(samplerInfo<cl_filter_mode>(linear, CL_SAMPLER_FILTER_MODE), static_cast<cl_filter_mode>(CL_FILTER_LINEAR));
  EXPECT_EQ(samplerInfo<cl_addressing_mode>(linear, CL_SAMPLER_ADDRESSING_MODE),
            static_cast<cl_addressing_mode>(CL_ADDRESS_CLAMP));
}

// The repeats need normalized coordinates (OpenCL C: "can only be used with normalized
// coordinates"), which clCreateSampler refuses as an invalid combination; unknown modes, properties
// given twice and unknown properties are refused too.
TEST_F(IcdSampler, InvalidSamplersAreRefused) {
  cl_int status = CL_SUCCESS;
  for (cl_addressing_mode repeat : {CL_ADDRESS_REPEAT, CL_ADDRESS_MIRRORED_REPEAT}) {
    Sampler sampler(createSamplerObject(context_, CL_FALSE, repeat, CL_FILTER_NEAREST, &status));
    EXPECT_EQ(sampler.get(), nullptr);
    EXPECT_CL_ERROR(CL_INVALID_VALUE, status) << imageref::addressingName(repeat);
    const cl_sampler_properties properties[] = {CL_SAMPLER_NORMALIZED_COORDS, CL_FALSE, CL_SAMPLER_ADDRESSING_MODE,
                                                repeat, 0};
    Sampler withProperties(clCreateSamplerWithProperties(context_, properties, &status));
    EXPECT_EQ(withProperties.get(), nullptr);
    EXPECT_CL_ERROR(CL_INVALID_VALUE, status) << imageref::addressingName(repeat);
  }
  Sampler badAddressing(createSamplerObject(context_, CL_TRUE, 0x7777, CL_FILTER_NEAREST, &status));
  EXPECT_EQ(badAddressing.get(), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  Sampler badFilter(createSamplerObject(context_, CL_TRUE, CL_ADDRESS_CLAMP, 0x7777, &status));
  EXPECT_EQ(badFilter.get(), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  const cl_sampler_properties twice[] = {CL_SAMPLER_FILTER_MODE, CL_FILTER_LINEAR, CL_SAMPLER_FILTER_MODE,
                                         CL_FILTER_NEAREST, 0};
  Sampler duplicated(clCreateSamplerWithProperties(context_, twice, &status));
  EXPECT_EQ(duplicated.get(), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  const cl_sampler_properties unknown[] = {0x7777, 1, 0};
  Sampler unknownProperty(clCreateSamplerWithProperties(context_, unknown, &status));
  EXPECT_EQ(unknownProperty.get(), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  const cl_sampler_properties badValue[] = {CL_SAMPLER_FILTER_MODE, 0x7777, 0};
  Sampler badPropertyValue(clCreateSamplerWithProperties(context_, badValue, &status));
  EXPECT_EQ(badPropertyValue.get(), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
}

// A sampler argument takes a sampler of sizeof(cl_sampler), nothing else; a buffer argument takes
// no sampler.
TEST_F(IcdSampler, SamplerArgumentsTakeOnlySamplers) {
  Kernel kernel = sampleKernel("sample_float");
  ASSERT_TRUE(kernel.get());
  Sampler sampler = createSampler({false, CL_ADDRESS_CLAMP, CL_FILTER_NEAREST});
  ASSERT_TRUE(sampler.get());
  EXPECT_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof(cl_sampler), sampler.address()));
  Buffer buffer = createBuffer(64);
  EXPECT_CL_ERROR(CL_INVALID_SAMPLER, clSetKernelArg(kernel, 1, sizeof(cl_mem), buffer.address()));
  cl_sampler none = nullptr;
  EXPECT_CL_ERROR(CL_INVALID_SAMPLER, clSetKernelArg(kernel, 1, sizeof(cl_sampler), &none));
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 1, sizeof(cl_sampler) / 2, sampler.address()));
  Kernel takeBuffer = sampleKernel("take_buffer");
  ASSERT_TRUE(takeBuffer.get());
  EXPECT_CL_ERROR(CL_INVALID_MEM_OBJECT, clSetKernelArg(takeBuffer, 0, sizeof(cl_sampler), sampler.address()));
}

}  // namespace
}  // namespace cl2vk::test
