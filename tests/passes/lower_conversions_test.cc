#include "passes/instructions/lower_conversions.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <limits>

#include "ir/validate.h"
#include "opencl_std_evaluator_test_util.h"
#include "pass_test_util.h"
#include "test_util.h"

namespace cl2vk {
namespace {

using test::canonical;
using test::EvalValue;

// One conversion `%r = <op> %<dst> %x` in a function `f`, with the decoration lines given.
std::string conversionModule(const std::string& op, const std::string& src, const std::string& dst,
                             const std::string& decorations) {
  return R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpCapability Linkage
               OpCapability Int8
               OpCapability Int16
               OpCapability Int64
               OpCapability Float16
               OpCapability Float64
               OpMemoryModel Physical64 OpenCL
               OpName %f "f"
               OpName %x "x"
               OpName %fn "fn"
               OpName %entry "entry"
)" + decorations +
         R"(
      %uchar = OpTypeInt 8 0
     %ushort = OpTypeInt 16 0
       %uint = OpTypeInt 32 0
      %ulong = OpTypeInt 64 0
       %half = OpTypeFloat 16
      %float = OpTypeFloat 32
     %double = OpTypeFloat 64
         %fn = OpTypeFunction %)" +
         dst + " %" + src + R"(
          %f = OpFunction %)" +
         dst + R"( None %fn
          %x = OpFunctionParameter %)" +
         src + R"(
      %entry = OpLabel
          %r = )" +
         op + " %" + dst + R"( %x
               OpReturnValue %r
               OpFunctionEnd
)";
}

std::unique_ptr<ir::Module> lowered(const std::string& text) {
  auto module = test::assemble(text);
  if (!module) return nullptr;
  Expected<PassResult> result = lowerConversions(*module, Target{});
  EXPECT_TRUE(result.ok()) << result.error().message();
  // The universal rules: OpenCL 2.2's would refuse the Float16 capability the half cases need.
  Status valid = ir::validate(*module, SPV_ENV_UNIVERSAL_1_2);
  EXPECT_TRUE(valid.ok()) << valid.error().message() << "\n" << test::disassemble(*module);
  std::string out = test::disassemble(*module);
  EXPECT_EQ(out.find("SaturatedConversion"), std::string::npos) << out;
  EXPECT_EQ(out.find("FPRoundingMode"), std::string::npos) << out;
  return module;
}

std::string loweredBody(const std::string& text) {
  auto module = lowered(text);
  std::string out = module ? test::disassemble(*module) : "";
  return canonical(out.substr(out.find("%f = OpFunction")));
}

// --- What the lowering writes. ---

TEST(LowerConversionsTest, SaturatingSignedToUnsignedBecomesClamps) {
  EXPECT_EQ(loweredBody(conversionModule("OpSatConvertSToU", "uint", "uchar", "")), canonical(R"(
%f = OpFunction %uchar None %fn
%x = OpFunctionParameter %uint
%entry = OpLabel
%15 = OpExtInst %uint %14 SMax %x %uint_0
%17 = OpExtInst %uint %14 UMin %15 %uint_255
%18 = OpUConvert %uchar %17
OpReturnValue %18
OpFunctionEnd
)"));
}

TEST(LowerConversionsTest, TowardZeroFloatToIntJustLosesItsDecoration) {
  EXPECT_EQ(loweredBody(conversionModule("OpConvertFToS", "float", "uint", "OpDecorate %r FPRoundingMode RTZ")),
            canonical(R"(
%f = OpFunction %uint None %fn
%x = OpFunctionParameter %float
%entry = OpLabel
%13 = OpConvertFToS %uint %x
OpReturnValue %13
OpFunctionEnd
)"));
}

TEST(LowerConversionsTest, RoundUpFloatToIntTakesTheCeiling) {
  EXPECT_EQ(loweredBody(conversionModule("OpConvertFToU", "float", "uint", "OpDecorate %r FPRoundingMode RTP")),
            canonical(R"(
%f = OpFunction %uint None %fn
%x = OpFunctionParameter %float
%entry = OpLabel
%14 = OpExtInst %float %13 Ceil %x
%15 = OpConvertFToU %uint %14
OpReturnValue %15
OpFunctionEnd
)"));
}

TEST(LowerConversionsTest, UndecoratedConversionsStayAsTheyAre) {
  std::string text = conversionModule("OpConvertFToS", "float", "uint", "");
  auto module = test::assemble(text);
  ASSERT_TRUE(module);
  Expected<PassResult> result = lowerConversions(*module, Target{});
  ASSERT_TRUE(result.ok());
  EXPECT_EQ(*result, PassResult::kUnchanged);
}

// --- Before/after: the whole module, as the pass writes it. ---

// An llvm-spirv style kernel: out[i] = %r, which `body` computes from %x = in[i], `src` to `dst`.
// `decorations` (of %r) follow the module's own, `imports` OpenCL.std's, `globals` its variable.
std::string conversionKernel(const std::string& src, const std::string& dst, const std::string& body,
                             const std::string& decorations = "", const std::string& imports = "",
                             const std::string& globals = "") {
  std::string text = R"(
; Version: 1.2
               OpCapability Addresses
               OpCapability Linkage
               OpCapability Kernel
               OpCapability Int64
               OpCapability Int8
        %std = OpExtInstImport "OpenCL.std"
)" + imports + R"(
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k" %gid
               OpName %gid "__spirv_BuiltInGlobalInvocationId"
               OpName %k "k"
               OpName %in "in"
               OpName %out "out"
               OpDecorate %gid LinkageAttributes "__spirv_BuiltInGlobalInvocationId" Import
               OpDecorate %gid Constant
               OpDecorate %gid BuiltIn GlobalInvocationId
)" + decorations + R"(
      %ulong = OpTypeInt 64 0
       %uint = OpTypeInt 32 0
      %uchar = OpTypeInt 8 0
    %v3ulong = OpTypeVector %ulong 3
%_ptr_Input_v3ulong = OpTypePointer Input %v3ulong
       %void = OpTypeVoid
      %float = OpTypeFloat 32
%_ptr_CrossWorkgroup_SRC = OpTypePointer CrossWorkgroup %SRC
%_ptr_CrossWorkgroup_DST = OpTypePointer CrossWorkgroup %DST
         %fn = OpTypeFunction %void %_ptr_CrossWorkgroup_SRC %_ptr_CrossWorkgroup_DST
        %gid = OpVariable %_ptr_Input_v3ulong Input
)" + globals + R"(
          %k = OpFunction %void None %fn
         %in = OpFunctionParameter %_ptr_CrossWorkgroup_SRC
        %out = OpFunctionParameter %_ptr_CrossWorkgroup_DST
      %entry = OpLabel
        %ids = OpLoad %v3ulong %gid Aligned 32
          %i = OpCompositeExtract %ulong %ids 0
         %pi = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_SRC %in %i
          %x = OpLoad %SRC %pi Aligned 4
)" + body + R"(
         %po = OpInBoundsPtrAccessChain %_ptr_CrossWorkgroup_DST %out %i
               OpStore %po %r Aligned STORE_ALIGNMENT
               OpReturn
               OpFunctionEnd
)";
  text.replace(text.find("STORE_ALIGNMENT"), 15, dst == "uchar" ? "1" : "4");
  for (size_t at = text.find("SRC"); at != std::string::npos; at = text.find("SRC", at)) text.replace(at, 3, src);
  for (size_t at = text.find("DST"); at != std::string::npos; at = text.find("DST", at)) text.replace(at, 3, dst);
  return text;
}

const std::string kGlslImport = R"(%glsl = OpExtInstImport "GLSL.std.450")";

// convert_uchar_sat(int): clamped to [0, 255] as a signed value from below and unsigned from
// above, then narrowed.
TEST(LowerConversionsTest, SaturatingConvertClampsBeforeConverting) {
  test::expectPassOutput("lower-conversions", conversionKernel("uint", "uchar", "%r = OpSatConvertSToU %uchar %x"),
                         conversionKernel("uint", "uchar", R"(
    %nonneg = OpExtInst %uint %glsl SMax %x %uint_0
   %clamped = OpExtInst %uint %glsl UMin %nonneg %uint_255
         %r = OpUConvert %uchar %clamped
)",
                                          "", kGlslImport, R"(
     %uint_0 = OpConstant %uint 0
   %uint_255 = OpConstant %uint 255
)"),
                         Target{}, SPV_ENV_OPENCL_2_2);
}

// convert_int_sat(float): NaN and values out of range are converted as 0, then the out-of-range
// ones replaced by INT_MIN or INT_MAX.
TEST(LowerConversionsTest, SaturatedFloatToIntConvertsInRangeValuesAndSelectsTheBoundsForTheRest) {
  test::expectPassOutput(
      "lower-conversions",
      conversionKernel("float", "uint", "%r = OpConvertFToS %uint %x", "OpDecorate %r SaturatedConversion"),
      conversionKernel("float", "uint", R"(
      %below = OpFOrdLessThan %bool %x %float_n2_14748365e_09
      %above = OpFOrdGreaterThanEqual %bool %x %float_2_14748365e_09
        %nan = OpIsNan %bool %x
    %outside = OpLogicalOr %bool %below %above
       %zero = OpLogicalOr %bool %outside %nan
       %safe = OpSelect %float %zero %float_0 %x
  %converted = OpConvertFToS %uint %safe
        %low = OpSelect %uint %below %uint_2147483648 %converted
          %r = OpSelect %uint %above %uint_2147483647 %low
)",
                       "", "", R"(
%float_n2_14748365e_09 = OpConstant %float -2147483648
       %bool = OpTypeBool
%float_2_14748365e_09 = OpConstant %float 2147483648
    %float_0 = OpConstant %float 0
%uint_2147483648 = OpConstant %uint 2147483648
%uint_2147483647 = OpConstant %uint 2147483647
)"),
      Target{}, SPV_ENV_OPENCL_2_2);
}

// convert_uint_rtn(float): rounding toward negative infinity is the floor, then the conversion
// (which truncates) is exact; the decoration goes.
TEST(LowerConversionsTest, RoundTowardNegativeFloatToUintTakesTheFloorFirst) {
  test::expectPassOutput(
      "lower-conversions",
      conversionKernel("float", "uint", "%r = OpConvertFToU %uint %x", "OpDecorate %r FPRoundingMode RTN"),
      conversionKernel("float", "uint", R"(
      %floor = OpExtInst %float %glsl Floor %x
          %r = OpConvertFToU %uint %floor
)",
                       "", kGlslImport),
      Target{}, SPV_ENV_OPENCL_2_2);
}

TEST(LowerConversionsTest, AnUndecoratedConversionComesOutUnchanged) {
  std::string before = conversionKernel("float", "uint", "%r = OpConvertFToU %uint %x");
  test::expectPassOutput("lower-conversions", before, before, Target{}, SPV_ENV_OPENCL_2_2);
}

// --- Semantics, through the evaluator, against C++ references. ---

enum Mode { kRte, kRtz, kRtp, kRtn };
const char* const kModeNames[] = {"RTE", "RTZ", "RTP", "RTN"};

std::string decorations(bool saturated, int mode) {
  std::string text = saturated ? "OpDecorate %r SaturatedConversion\n" : "";
  if (mode >= 0) text += std::string("OpDecorate %r FPRoundingMode ") + kModeNames[mode] + "\n";
  return text;
}

uint64_t runOne(test::Evaluator& evaluator, uint64_t input) {
  return evaluator.run("f", {EvalValue{{input}, {}}}).lanes.at(0);
}

double roundWith(double x, int mode) {
  switch (mode) {
    case kRte: return std::nearbyint(x);
    case kRtp: return std::ceil(x);
    case kRtn: return std::floor(x);
    default: return std::trunc(x);
  }
}

// OpenCL's convert_<int>_sat<mode>: NaN is 0, out-of-range values take the nearest bound.
uint64_t referenceFloatToInt(double x, int mode, bool isSigned, uint32_t width) {
  uint64_t maxU = width == 64 ? ~0ull : (1ull << width) - 1;
  if (std::isnan(x)) return 0;
  double r = roundWith(x, mode);
  double low = isSigned ? -std::ldexp(1.0, int(width) - 1) : 0.0;
  double high = std::ldexp(1.0, int(isSigned ? width - 1 : width));
  if (r < low) return isSigned ? ~(maxU >> 1) & maxU : 0;
  if (r >= high) return isSigned ? maxU >> 1 : maxU;
  return (isSigned ? uint64_t(int64_t(r)) : uint64_t(r)) & maxU;
}

std::vector<double> floatInputs() {
  std::vector<double> inputs = {0.0,
                                -0.0,
                                0.5,
                                -0.5,
                                1.5,
                                2.5,
                                -1.5,
                                -2.5,
                                0.49999997f,
                                1.0000001f,
                                127.5,
                                128.0,
                                -128.5,
                                -129.0,
                                255.5,
                                256.0,
                                32767.5,
                                -32768.5,
                                65535.5,
                                65536.0,
                                2147483520.0,
                                2147483648.0,
                                -2147483648.0,
                                -2147483904.0,
                                4294967040.0,
                                4294967296.0,
                                9223372036854775808.0,
                                -9223372036854775808.0,
                                18446744073709551616.0,
                                1e30,
                                -1e30,
                                1e-40,
                                -1e-40,
                                INFINITY,
                                -INFINITY,
                                std::nan("")};
  uint64_t state = 12345;
  for (int i = 0; i < 300; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    int exponent = int(state >> 58) - 2;  // -2 .. 61
    double mantissa = double((state >> 20) & 0xffffff) / double(1 << 24) + 1.0;
    double value = std::ldexp(mantissa, exponent) * ((state >> 19) & 1 ? -1 : 1);
    inputs.push_back(float(value));
  }
  return inputs;
}

TEST(LowerConversionsTest, SaturatedFloatToIntMatchesOpenCLForEveryModeAndWidth) {
  const char* intNames[] = {"uchar", "ushort", "uint", "ulong"};
  const uint32_t widths[] = {8, 16, 32, 64};
  for (const char* src : {"float", "double"}) {
    for (int w = 0; w < 4; ++w) {
      for (bool isSigned : {true, false}) {
        for (int mode = 0; mode < 4; ++mode) {
          auto module = lowered(conversionModule(isSigned ? "OpConvertFToS" : "OpConvertFToU", src, intNames[w],
                                                 decorations(true, mode)));
          ASSERT_TRUE(module);
          test::Evaluator evaluator(*module);
          for (double x : floatInputs()) {
            uint64_t bits =
                std::string(src) == "float" ? std::bit_cast<uint32_t>(float(x)) : std::bit_cast<uint64_t>(x);
            EXPECT_EQ(runOne(evaluator, bits), referenceFloatToInt(x, mode, isSigned, widths[w]))
                << src << " " << x << " to " << (isSigned ? "signed " : "unsigned ") << intNames[w] << " "
                << kModeNames[mode];
          }
        }
      }
    }
  }
}

TEST(LowerConversionsTest, SaturatedHalfToIntSendsInfinitiesToTheBounds) {
  for (bool isSigned : {true, false}) {
    auto module = lowered(
        conversionModule(isSigned ? "OpConvertFToS" : "OpConvertFToU", "half", "uint", decorations(true, kRtz)));
    ASSERT_TRUE(module);
    test::Evaluator evaluator(*module);
    EXPECT_EQ(runOne(evaluator, 0xfc00), isSigned ? 0x80000000u : 0u);  // -inf
    EXPECT_EQ(runOne(evaluator, 0x7c00), isSigned ? 0x7fffffffu : 0xffffffffu);
    EXPECT_EQ(runOne(evaluator, 0x7bff), 65504u);
    EXPECT_EQ(runOne(evaluator, 0x7e00), 0u);  // NaN
  }
}

// The correctly rounded `float` or `double` nearest `exact` in direction `mode`, from the host's
// round-to-nearest conversion and one step.
template <typename F>
F roundToType(long double exact, int mode) {
  F r = F(exact);
  if (std::isnan(exact)) return r;
  if (mode == kRtz && std::fabs((long double)r) > std::fabs(exact)) r = std::nextafter(r, F(0));
  if (mode == kRtp && (long double)r < exact) r = std::nextafter(r, std::numeric_limits<F>::infinity());
  if (mode == kRtn && (long double)r > exact) r = std::nextafter(r, -std::numeric_limits<F>::infinity());
  return r;
}

// The half bits nearest `exact` in direction `mode`, by search over every finite half.
uint64_t roundToHalf(long double exact, int mode) {
  if (std::isnan(exact)) return 0x7e00;
  bool negative = std::signbit(exact);
  long double a = std::fabs(exact);
  // Magnitudes by bit pattern; 0x7c00 (infinity) stands at 2^16 for the rounding decision.
  auto magnitude = [](uint32_t bits) { return bits == 0x7c00 ? 65536.0L : (long double)test::halfBitsToDouble(bits); };
  uint32_t result;
  if (std::isinf(a)) {
    result = 0x7c00;
  } else {
    uint32_t hi = 0;
    while (hi < 0x7c00 && magnitude(hi) < a) ++hi;
    uint32_t lo = magnitude(hi) == a ? hi : hi - 1;
    bool up = (mode == kRtp && !negative) || (mode == kRtn && negative);
    bool down = mode == kRtz || (mode == kRtp && negative) || (mode == kRtn && !negative);
    if (lo == hi)
      result = lo;
    else if (up)
      result = hi;
    else if (down)
      result = lo;
    else {
      long double middle = (magnitude(lo) + magnitude(hi)) / 2;
      result = a < middle ? lo : a > middle ? hi : (lo % 2 == 0 ? lo : hi);
    }
    if (a >= 65536.0L) result = down ? 0x7bff : 0x7c00;
  }
  return result | (negative ? 0x8000 : 0);
}

std::vector<int64_t> intInputs() {
  std::vector<int64_t> inputs = {0,
                                 1,
                                 -1,
                                 2,
                                 3,
                                 16777215,
                                 16777216,
                                 16777217,
                                 16777218,
                                 16777219,
                                 -16777217,
                                 33554435,
                                 2047,
                                 2048,
                                 2049,
                                 2051,
                                 4097,
                                 65504,
                                 65519,
                                 65520,
                                 65535,
                                 -65520,
                                 INT32_MAX,
                                 INT32_MIN,
                                 INT32_MAX - 63,
                                 INT32_MAX - 64,
                                 INT64_MAX,
                                 INT64_MIN,
                                 INT64_MAX - 1023,
                                 (1ll << 53) + 1,
                                 (1ll << 54) + 2,
                                 (1ll << 54) + 6,
                                 -(1ll << 53) - 1};
  uint64_t state = 99;
  for (int i = 0; i < 300; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    inputs.push_back(int64_t(state) >> (state & 63));
  }
  return inputs;
}

TEST(LowerConversionsTest, IntToFloatRoundsExactlyInEveryMode) {
  struct Case {
    const char* src;
    uint32_t srcWidth;
    const char* dst;
  };
  for (Case c : {Case{"uint", 32, "float"}, Case{"ulong", 64, "float"}, Case{"ulong", 64, "double"},
                 Case{"uint", 32, "half"}, Case{"ushort", 16, "half"}, Case{"ulong", 64, "half"}}) {
    for (bool isSigned : {true, false}) {
      for (int mode = 0; mode < 4; ++mode) {
        auto module = lowered(
            conversionModule(isSigned ? "OpConvertSToF" : "OpConvertUToF", c.src, c.dst, decorations(false, mode)));
        ASSERT_TRUE(module);
        test::Evaluator evaluator(*module);
        for (int64_t input : intInputs()) {
          uint64_t bits = c.srcWidth == 64 ? uint64_t(input) : uint64_t(input) & ((1ull << c.srcWidth) - 1);
          long double exact =
              isSigned
                  ? (long double)(c.srcWidth == 64 ? input : (int64_t(bits << (64 - c.srcWidth)) >> (64 - c.srcWidth)))
                  : (long double)bits;
          uint64_t expected = std::string(c.dst) == "float" ? std::bit_cast<uint32_t>(roundToType<float>(exact, mode))
                              : std::string(c.dst) == "double"
                                  ? std::bit_cast<uint64_t>(roundToType<double>(exact, mode))
                                  : roundToHalf(exact, mode);
          EXPECT_EQ(runOne(evaluator, bits), expected)
              << (isSigned ? "signed " : "unsigned ") << c.src << " " << (long double)exact << " to " << c.dst << " "
              << kModeNames[mode];
        }
      }
    }
  }
}

TEST(LowerConversionsTest, FloatNarrowingRoundsExactlyInEveryMode) {
  std::vector<double> inputs = floatInputs();
  for (double extra : {1.0 + 0x1p-24, 1.0 + 0x1p-24 + 0x1p-50,
                       1.0 + 0x1p-11, 1.0 + 0x1p-11 + 0x1p-40,
                       65504.0,       65519.99,
                       65520.0,       6.0e-8,
                       2.9e-8,        3.0e-8,
                       0x1p-25,       0x1p-24 * 1.5,
                       0x1p-149,      0x1p-150,
                       0x1.8p-150,    3.4028235677973366e38,
                       3.4028236e38,  1e300,
                       -1e300,        1e-320})
    inputs.push_back(extra);
  uint64_t state = 7;
  for (int i = 0; i < 300; ++i) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    double value =
        std::bit_cast<double>((state & 0x800fffffffffffffull) | (uint64_t(1023 - 160 + (state >> 55) % 300) << 52));
    inputs.push_back(value);
  }
  struct Case {
    const char* src;
    const char* dst;
  };
  for (Case c : {Case{"double", "float"}, Case{"double", "half"}, Case{"float", "half"}}) {
    bool fromDouble = std::string(c.src) == "double";
    for (int mode = 0; mode < 4; ++mode) {
      auto module = lowered(conversionModule("OpFConvert", c.src, c.dst, decorations(false, mode)));
      ASSERT_TRUE(module);
      test::Evaluator evaluator(*module);
      for (double input : inputs) {
        double x = fromDouble ? input : double(float(input));
        uint64_t bits = fromDouble ? std::bit_cast<uint64_t>(x) : std::bit_cast<uint32_t>(float(x));
        uint64_t expected =
            std::string(c.dst) == "float" ? std::bit_cast<uint32_t>(roundToType<float>(x, mode)) : roundToHalf(x, mode);
        uint64_t actual = runOne(evaluator, bits);
        if (std::isnan(x)) {
          EXPECT_TRUE(std::string(c.dst) == "float" ? std::isnan(std::bit_cast<float>(uint32_t(actual)))
                                                    : std::isnan(test::halfBitsToDouble(actual)));
          continue;
        }
        EXPECT_EQ(actual, expected) << c.src << " " << x << " to " << c.dst << " " << kModeNames[mode];
      }
    }
  }
}

TEST(LowerConversionsTest, SaturatedIntegerConversionsClampToTheDestination) {
  struct Case {
    const char* op;
    const char* src;
    uint32_t srcWidth;
    const char* dst;
    uint32_t dstWidth;
    bool sat;
  };
  const Case cases[] = {
      {"OpSConvert", "uint", 32, "uchar", 8, true},          {"OpUConvert", "uint", 32, "uchar", 8, true},
      {"OpSConvert", "ulong", 64, "uint", 32, true},         {"OpUConvert", "ulong", 64, "ushort", 16, true},
      {"OpSConvert", "uchar", 8, "uint", 32, true},          {"OpSatConvertSToU", "uint", 32, "uchar", 8, false},
      {"OpSatConvertSToU", "ulong", 64, "ulong", 64, false}, {"OpSatConvertSToU", "uchar", 8, "ulong", 64, false},
      {"OpSatConvertUToS", "ulong", 64, "ulong", 64, false}, {"OpSatConvertUToS", "uint", 32, "uchar", 8, false},
      {"OpSatConvertUToS", "uchar", 8, "uint", 32, false},   {"OpSatConvertUToS", "ushort", 16, "ushort", 16, false},
  };
  for (const Case& c : cases) {
    auto module = lowered(conversionModule(c.op, c.src, c.dst, decorations(c.sat, -1)));
    ASSERT_TRUE(module);
    test::Evaluator evaluator(*module);
    std::string op = c.op;
    bool sourceSigned = op == "OpSConvert" || op == "OpSatConvertSToU";
    bool destSigned = op == "OpSConvert" || op == "OpSatConvertUToS";
    for (int64_t input : intInputs()) {
      uint64_t bits = c.srcWidth == 64 ? uint64_t(input) : uint64_t(input) & ((1ull << c.srcWidth) - 1);
      test::Int128 value =
          sourceSigned
              ? test::Int128(c.srcWidth == 64 ? int64_t(bits) : int64_t(bits << (64 - c.srcWidth)) >> (64 - c.srcWidth))
              : test::Int128(bits);
      test::Int128 low = destSigned ? -(test::Int128(1) << (c.dstWidth - 1)) : 0;
      test::Int128 high = destSigned ? (test::Int128(1) << (c.dstWidth - 1)) - 1 : (test::Int128(1) << c.dstWidth) - 1;
      test::Int128 clamped = std::clamp(value, low, high);
      uint64_t expected = uint64_t(clamped) & (c.dstWidth == 64 ? ~0ull : (1ull << c.dstWidth) - 1);
      EXPECT_EQ(runOne(evaluator, bits), expected) << c.op << " " << c.src << " " << int64_t(value) << " to " << c.dst;
    }
  }
}

}  // namespace
}  // namespace cl2vk
