// The source compiler: clBuildProgram's options parsed and checked, and OpenCL C compiled with the
// real clang-15 and llvm-spirv-15 into SPIR-V that cl2vk's translator takes.

#include "runtime/source_compiler.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "cl2vk/spirv.h"
#include "cl2vk/translator.h"
#include "test_util.h"

namespace cl2vk::runtime {
namespace {

namespace fs = std::filesystem;

using Strings = std::vector<std::string>;

// Whether `text` contains `part`, showing `text` when it does not.
testing::AssertionResult contains(const std::string& text, const std::string& part) {
  if (text.find(part) != std::string::npos) return testing::AssertionSuccess();
  return testing::AssertionFailure() << "'" << part << "' is not in:\n" << text;
}

// ---------------------------------------------------------------------------------------------
// parseBuildOptions

BuildOptions parseOrFail(std::string_view options) {
  Expected<BuildOptions> parsed = parseBuildOptions(options);
  if (!parsed) {
    ADD_FAILURE() << "'" << options << "': " << parsed.error().message();
    return {};
  }
  return *parsed;
}

std::string parseError(std::string_view options) {
  Expected<BuildOptions> parsed = parseBuildOptions(options);
  if (parsed) {
    ADD_FAILURE() << "'" << options << "' was accepted";
    return {};
  }
  return parsed.error().message();
}

TEST(SourceCompilerOptionsTest, NoOptionsMeanOpenCLC12Optimized) {
  BuildOptions options = parseOrFail("  ");
  EXPECT_TRUE(options.clangArguments.empty());
  EXPECT_EQ(options.languageVersion, "CL1.2");
  EXPECT_TRUE(options.optimize);
  EXPECT_FALSE(options.kernelArgInfo);
}

TEST(SourceCompilerOptionsTest, SplitsLikeAShell) {
  // Blanks include tabs; inside double quotes a backslash escapes only " \ $ and `.
  BuildOptions options = parseOrFail(std::string(R"(-D "MSG=hello world")") + "\t" +
                                     R"(-D'Q=a b' -DX=\"y\" -I dir\ with\ space -DE="\$\\\n" -DS='\n')");
  EXPECT_EQ(options.clangArguments,
            (Strings{"-DMSG=hello world", "-DQ=a b", "-DX=\"y\"", "-Idir with space", "-DE=$\\\\n", "-DS=\\n"}));
}

TEST(SourceCompilerOptionsTest, DefinesTakeEveryForm) {
  BuildOptions options = parseOrFail("-D A -DB -D C=1 -DD=2 -D E= -D \"\"F");
  EXPECT_EQ(options.clangArguments, (Strings{"-DA", "-DB", "-DC=1", "-DD=2", "-DE=", "-DF"}));
}

TEST(SourceCompilerOptionsTest, IncludeDirectoriesTakeBothForms) {
  BuildOptions options = parseOrFail("-I /a -I/b -I c");
  EXPECT_EQ(options.clangArguments, (Strings{"-I/a", "-I/b", "-Ic"}));
}

TEST(SourceCompilerOptionsTest, DefineOrIncludeWithoutValueIsNamed) {
  EXPECT_EQ(parseError("-cl-mad-enable -D"), "build option '-D' needs a macro name");
  EXPECT_EQ(parseError("-D ''"), "build option '-D' needs a macro name");
  EXPECT_EQ(parseError("-I"), "build option '-I' needs a directory");
}

TEST(SourceCompilerOptionsTest, UnknownOptionIsNamed) {
  EXPECT_EQ(parseError("-cl-fast-relaxed-math -foo"), "unknown build option '-foo'");
  EXPECT_EQ(parseError("kernel.cl"), "unknown build option 'kernel.cl'");
  EXPECT_EQ(parseError("-cl-std"), "unknown build option '-cl-std'");
  EXPECT_EQ(parseError("-O3"), "unknown build option '-O3'");
}

TEST(SourceCompilerOptionsTest, UnterminatedQuoteIsAnError) {
  EXPECT_EQ(parseError("-D 'A=1"), "unterminated ' in the build options");
  EXPECT_EQ(parseError("-D \"A=1"), "unterminated \" in the build options");
}

TEST(SourceCompilerOptionsTest, LanguageVersionIsRecordedNotPassedOn) {
  for (std::string version : {"CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"}) {
    BuildOptions options = parseOrFail("-cl-std=" + version);
    EXPECT_EQ(options.languageVersion, version);
    EXPECT_TRUE(options.clangArguments.empty()) << version;
  }
  EXPECT_EQ(parseOrFail("-cl-std=CL2.0 -cl-std=CL3.0").languageVersion, "CL3.0");
}

TEST(SourceCompilerOptionsTest, OtherLanguageVersionsAreErrors) {
  for (std::string version : {"CL2.1", "CL2.2", "CL", "CLC++", "clc++2021", "cl1.2", ""}) {
    EXPECT_EQ(parseError("-cl-std=" + version),
              "invalid build option '-cl-std=" + version +
                  "': the OpenCL C version must be CL1.0, CL1.1, CL1.2, CL2.0 or CL3.0");
  }
}

TEST(SourceCompilerOptionsTest, OptDisableTurnsOffOptimization) {
  BuildOptions options = parseOrFail("-cl-opt-disable");
  EXPECT_FALSE(options.optimize);
  EXPECT_TRUE(options.clangArguments.empty());
}

TEST(SourceCompilerOptionsTest, KernelArgInfoIsRecorded) {
  BuildOptions options = parseOrFail("-cl-kernel-arg-info");
  EXPECT_TRUE(options.kernelArgInfo);
  EXPECT_TRUE(options.clangArguments.empty());  // compileSource passes it always
}

TEST(SourceCompilerOptionsTest, MathAndWarningOptionsGoToClangInOrder) {
  BuildOptions options = parseOrFail(
      "-cl-mad-enable -cl-no-signed-zeros -cl-unsafe-math-optimizations -cl-finite-math-only "
      "-cl-fast-relaxed-math -cl-single-precision-constant -cl-fp32-correctly-rounded-divide-sqrt "
      "-cl-uniform-work-group-size -w -Werror -DN=1");
  EXPECT_EQ(options.clangArguments,
            (Strings{"-cl-mad-enable", "-cl-no-signed-zeros", "-cl-unsafe-math-optimizations", "-cl-finite-math-only",
                     "-cl-fast-relaxed-math", "-cl-single-precision-constant", "-cl-fp32-correctly-rounded-divide-sqrt",
                     "-cl-uniform-work-group-size", "-w", "-Werror", "-DN=1"}));
}

TEST(SourceCompilerOptionsTest, PermissionsAndDebugOptionsAreAcceptedAndDropped) {
  BuildOptions options = parseOrFail("-cl-denorms-are-zero -cl-no-subgroup-ifp -g -cl-strict-aliasing");
  EXPECT_TRUE(options.clangArguments.empty());
  EXPECT_TRUE(options.denormsAreZero);
  EXPECT_FALSE(options.relaxedMath);
}

// The options that let the translator use the fast math instructions (Target::relaxedMath).
TEST(SourceCompilerOptionsTest, RelaxedMathOptionsReachTheTranslator) {
  EXPECT_TRUE(parseOrFail("-cl-fast-relaxed-math").relaxedMath);
  EXPECT_TRUE(parseOrFail("-cl-unsafe-math-optimizations").relaxedMath);
  BuildOptions strict = parseOrFail("-cl-mad-enable -cl-finite-math-only -cl-no-signed-zeros");
  EXPECT_FALSE(strict.relaxedMath);
  EXPECT_FALSE(strict.denormsAreZero);
}

// ---------------------------------------------------------------------------------------------
// compileSource

struct Compiled {
  CompileResult result;
  std::optional<Translation> translation;  // when the compile succeeded and the translator took it
};

CompileRequest request(std::string source, std::string_view options = "", std::vector<SourceHeader> headers = {},
                       std::vector<std::string> disabledExtensions = {}) {
  return CompileRequest{
      std::move(source), parseOrFail(options), std::move(headers), std::move(disabledExtensions), {}, {}};
}

// Compiles, and translates what compiled; a translation failure fails the test.
Compiled compileAndTranslate(const CompileRequest& compileRequest) {
  Compiled compiled{compileSource(compileRequest), std::nullopt};
  if (!compiled.result.success) return compiled;
  Expected<Translation> translation = translate(compiled.result.spirv, Target{});
  if (!translation) {
    ADD_FAILURE() << "the translator refused the compiled SPIR-V: " << translation.error().message();
    return compiled;
  }
  compiled.translation = std::move(*translation);
  return compiled;
}

std::vector<std::string> kernelNames(const Translation& translation) {
  std::vector<std::string> names;
  for (const KernelReflection& kernel : translation.reflection.kernels) names.push_back(kernel.name);
  return names;
}

using test::ScopedEnvironment;

// A stand-in tool: a shell script with `body`.
fs::path writeScript(const test::TempDir& dir, const std::string& name, const std::string& body) {
  fs::path path = dir.path(name);
  std::string text = "#!/bin/sh\n" + body + "\n";
  test::writeFile(path, text.data(), text.size());
  fs::permissions(path, fs::perms::owner_all);
  return path;
}

constexpr const char* kScaleKernel = R"(
kernel void scale(global float* data, float factor) {
  size_t i = get_global_id(0);
  data[i] = data[i] * factor;
}
)";

TEST(SourceCompilerTest, CompiledKernelTranslatesWithItsArgumentNames) {
  Compiled compiled = compileAndTranslate(request(kScaleKernel));
  ASSERT_TRUE(compiled.result.success) << compiled.result.log;
  ASSERT_TRUE(compiled.translation);
  ASSERT_EQ(compiled.translation->reflection.kernels.size(), 1u);
  const KernelReflection& kernel = compiled.translation->reflection.kernels[0];
  EXPECT_EQ(kernel.name, "scale");
  ASSERT_EQ(kernel.arguments.size(), 2u);
  EXPECT_EQ(kernel.arguments[0].name, "data");
  EXPECT_EQ(kernel.arguments[0].kind, ArgumentKind::kGlobalPointer);
  EXPECT_EQ(kernel.arguments[1].name, "factor");
  EXPECT_EQ(kernel.arguments[1].kind, ArgumentKind::kValue);
}

TEST(SourceCompilerTest, OptDisableCompilesUnoptimizedCode) {
  Compiled compiled = compileAndTranslate(request(kScaleKernel, "-cl-opt-disable"));
  ASSERT_TRUE(compiled.result.success) << compiled.result.log;
  ASSERT_TRUE(compiled.translation);
  EXPECT_EQ(kernelNames(*compiled.translation), (Strings{"scale"}));
}

class SourceCompilerLanguageVersionTest : public testing::TestWithParam<const char*> {};

TEST_P(SourceCompilerLanguageVersionTest, CompilesWithTheCollectivesHeader) {
  Compiled compiled = compileAndTranslate(request(kScaleKernel, std::string("-cl-std=") + GetParam()));
  ASSERT_TRUE(compiled.result.success) << compiled.result.log;
  ASSERT_TRUE(compiled.translation);
  EXPECT_EQ(kernelNames(*compiled.translation), (Strings{"scale"}));
}

INSTANTIATE_TEST_SUITE_P(Versions, SourceCompilerLanguageVersionTest,
                         testing::Values("CL1.0", "CL1.1", "CL1.2", "CL2.0", "CL3.0"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '.', '_');
                           return name;
                         });

TEST(SourceCompilerTest, SyntaxErrorFailsWithClangsDiagnostic) {
  CompileResult result =
      compileSource(request("kernel void broken(global int* data) {\n"
                            "  data[0] = 1\n"
                            "}\n"));
  EXPECT_FALSE(result.success);
  EXPECT_TRUE(result.spirv.empty());
  EXPECT_TRUE(contains(result.log, "program.cl:2:14: error: expected ';' after expression"));
  EXPECT_TRUE(contains(result.log, "exited with status 1"));
  EXPECT_TRUE(contains(result.log, "cl2vk: cannot compile OpenCL C: "));
}

TEST(SourceCompilerTest, WarningsReachTheLogAndFollowWAndWerror) {
  std::string source = "kernel void warns(global int* data) {\n  data[0] = 1.5f;\n}\n";
  const char* warning = "program.cl:2:13: warning: implicit conversion from 'float' to 'int'";

  CompileResult plain = compileSource(request(source));
  EXPECT_TRUE(plain.success) << plain.log;
  EXPECT_TRUE(contains(plain.log, warning));

  CompileResult silenced = compileSource(request(source, "-w"));
  EXPECT_TRUE(silenced.success) << silenced.log;
  EXPECT_FALSE(contains(silenced.log, "warning"));

  CompileResult strict = compileSource(request(source, "-Werror"));
  EXPECT_FALSE(strict.success);
  EXPECT_TRUE(contains(strict.log, "program.cl:2:13: error: implicit conversion from 'float' to 'int'"));
}

TEST(SourceCompilerTest, DefinedMacrosTakeEffect) {
  std::string source = R"(
#ifndef SCALE
#error SCALE is not defined
#endif
kernel void SCALE_KERNEL_NAME(global int* data) { data[0] = SCALE; }
)";
  Compiled compiled = compileAndTranslate(request(source, "-D SCALE=3 -DSCALE_KERNEL_NAME=times_three"));
  ASSERT_TRUE(compiled.result.success) << compiled.result.log;
  ASSERT_TRUE(compiled.translation);
  EXPECT_EQ(kernelNames(*compiled.translation), (Strings{"times_three"}));

  CompileResult undefined = compileSource(request(source));
  EXPECT_FALSE(undefined.success);
  EXPECT_TRUE(contains(undefined.log, "program.cl:3:2: error: SCALE is not defined"));
}

constexpr const char* kIncludingKernel = R"(
#include <scale_constants.h>
kernel void scaled(global int* data) { data[0] = SCALE; }
)";

TEST(SourceCompilerTest, IncludeDirectoryIsSearched) {
  test::TempDir dir;
  fs::create_directory(dir.path("with space"));
  std::string header = "#define SCALE 4\n";
  test::writeFile(dir.path("with space") / "scale_constants.h", header.data(), header.size());

  Compiled compiled = compileAndTranslate(request(kIncludingKernel, "-I '" + dir.path("with space").string() + "'"));
  ASSERT_TRUE(compiled.result.success) << compiled.result.log;
  EXPECT_TRUE(compiled.translation);

  CompileResult withoutDirectory = compileSource(request(kIncludingKernel));
  EXPECT_FALSE(withoutDirectory.success);
  EXPECT_TRUE(contains(withoutDirectory.log, "'scale_constants.h' file not found"));
}

// The tools run elsewhere, so a relative -I must still mean the application's directory.
TEST(SourceCompilerTest, RelativeIncludeDirectoryIsFromTheCurrentDirectory) {
  test::TempDir dir;
  fs::create_directory(dir.path("include"));
  std::string header = "#define SCALE 5\n";
  test::writeFile(dir.path("include") / "scale_constants.h", header.data(), header.size());
  fs::path previous = fs::current_path();
  fs::current_path(dir.path(""));
  CompileResult result = compileSource(request(kIncludingKernel, "-Iinclude"));
  fs::current_path(previous);
  EXPECT_TRUE(result.success) << result.log;
}

// A compilation kept in the cache (compilation_cache.h) comes back the same, its warning with it;
// an included file that changed is compiled afresh; a failure is not kept.
TEST(SourceCompilerTest, TheCacheGivesBackACompilationUntilAnIncludedFileChanges) {
  test::TempDir dir;
  ScopedEnvironment cacheHere("CL2VK_CACHE", dir.path("cache").string());
  fs::create_directory(dir.path("include"));
  auto writeHeader = [&](const std::string& text) {
    test::writeFile(dir.path("include") / "scale_constants.h", text.data(), text.size());
  };
  const std::string source = std::string(kIncludingKernel) + "kernel void warns(global int* p) { p[0] = 1.5f; }\n";
  const std::string options = "-I" + dir.path("include").string();
  const char* warning = "warning: implicit conversion from 'float' to 'int'";
  auto entries = [&] {
    size_t count = 0;
    for (const auto& entry : fs::recursive_directory_iterator(dir.path("cache"))) count += entry.is_regular_file();
    return count;
  };

  writeHeader("#define SCALE 4\n");
  CompileResult first = compileSource(request(source, options));
  ASSERT_TRUE(first.success) << first.log;
  EXPECT_TRUE(contains(first.log, warning));
  EXPECT_EQ(entries(), 1u);
  CompileResult again = compileSource(request(source, options));
  ASSERT_TRUE(again.success) << again.log;
  EXPECT_EQ(again.spirv, first.spirv);
  EXPECT_EQ(again.log, first.log);
  EXPECT_EQ(entries(), 1u);

  // Another option, another entry.
  CompileResult disabled = compileSource(request(source, options + " -cl-opt-disable"));
  ASSERT_TRUE(disabled.success) << disabled.log;
  EXPECT_NE(disabled.spirv, first.spirv);
  EXPECT_EQ(entries(), 2u);

  // The header changes size and time: the constant 4 becomes 12345 in the module.
  writeHeader("#define SCALE 12345\n");
  CompileResult changed = compileSource(request(source, options));
  ASSERT_TRUE(changed.success) << changed.log;
  EXPECT_NE(changed.spirv, first.spirv);
  EXPECT_NE(std::find(changed.spirv.begin(), changed.spirv.end(), 12345u), changed.spirv.end());
  EXPECT_EQ(std::find(first.spirv.begin(), first.spirv.end(), 12345u), first.spirv.end());

  // A failure is compiled, and reported, each time.
  writeHeader("#define SCALE (\n");
  for (int i = 0; i < 2; ++i) {
    CompileResult failed = compileSource(request(source, options));
    EXPECT_FALSE(failed.success);
    EXPECT_TRUE(contains(failed.log, "error:"));
  }
}

TEST(SourceCompilerTest, CompileProgramHeadersAreFound) {
  std::string source = R"(
#include "inc/a.h"
kernel void headers(global int* data) { data[0] = A + B; }
)";
  // inc/a.h finds b.h through the compilation directory's -I, not beside itself.
  std::vector<SourceHeader> headers = {{"inc/a.h", "#include \"b.h\"\n#define A 1\n"}, {"b.h", "#define B 2\n"}};
  Compiled compiled = compileAndTranslate(request(source, "", headers));
  ASSERT_TRUE(compiled.result.success) << compiled.result.log;
  EXPECT_TRUE(compiled.translation);

  headers.pop_back();
  CompileResult missing = compileSource(request(source, "", headers));
  EXPECT_FALSE(missing.success);
  EXPECT_TRUE(contains(missing.log, "inc/a.h:1:10: fatal error: 'b.h' file not found"));
}

TEST(SourceCompilerTest, HeaderNamesOutsideTheDirectoryAreRefused) {
  std::string source = "kernel void k(global int* data) { data[0] = 1; }\n";
  struct Case {
    const char* name;
    const char* expected;
  };
  for (Case refused : {Case{"../escape.h", "header name '../escape.h' leaves the program's directory"},
                       Case{"inc/../../escape.h", "header name 'inc/../../escape.h' leaves the program's directory"},
                       Case{"/tmp/absolute.h", "header name '/tmp/absolute.h' is not a relative path"},
                       Case{"", "header name '' is not a relative path"},
                       Case{"program.cl", "header name 'program.cl' is taken by a file cl2vk writes"},
                       Case{"./cl2vk/x.h", "header name './cl2vk/x.h' is taken by a file cl2vk writes"}}) {
    CompileResult result = compileSource(request(source, "", {{refused.name, "#define X 1\n"}}));
    EXPECT_FALSE(result.success) << refused.name;
    EXPECT_TRUE(contains(result.log, std::string("cl2vk: cannot compile OpenCL C: ") + refused.expected));
  }
}

class SourceCompilerCollectivesTest : public testing::TestWithParam<const char*> {};

// work_group_reduce_add is clang's; logical_xor and mul come from cl2vk's collectives header.
TEST_P(SourceCompilerCollectivesTest, WorkGroupReductionsCompileAndTranslate) {
  std::string source = R"(
kernel void reductions(global int* out, global const int* in) {
  int x = in[get_global_id(0)];
  out[0] = work_group_reduce_add(x);
  out[1] = work_group_reduce_logical_xor(x);
  out[2] = work_group_reduce_mul(x);
}
)";
  Compiled compiled = compileAndTranslate(request(source, std::string("-cl-std=") + GetParam()));
  ASSERT_TRUE(compiled.result.success) << compiled.result.log;
  ASSERT_TRUE(compiled.translation);
  ASSERT_EQ(compiled.translation->reflection.kernels.size(), 1u);
  EXPECT_EQ(compiled.translation->reflection.kernels[0].collectives.collectives, 3u);
}

INSTANTIATE_TEST_SUITE_P(Versions, SourceCompilerCollectivesTest, testing::Values("CL2.0", "CL3.0"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           std::replace(name.begin(), name.end(), '.', '_');
                           return name;
                         });

// clang-15 -O2 freezes the operands of a division and a remainder that share them (loaded values,
// which may be poison); llvm-spirv-15 cannot translate `freeze`.
TEST(SourceCompilerTest, DivisionAndRemainderOfTheSameOperandsTranslate) {
  std::string source = R"(
kernel void divrem(global int* out, global const int* in, global int4* vout, global const int4* vin) {
  int x = in[0], y = in[1];
  out[0] = x / y;
  out[1] = x % y;
  int4 a = vin[0], b = vin[1];
  vout[0] = a / b;
  vout[1] = a % b;
}
)";
  Compiled compiled = compileAndTranslate(request(source));
  ASSERT_TRUE(compiled.result.success) << compiled.result.log;
  ASSERT_TRUE(compiled.translation);
  EXPECT_EQ(kernelNames(*compiled.translation), (Strings{"divrem"}));
}

// clang-15 -O2 narrows a switch on `x & 0xf` (the OpenCL-CTS sub-group `ifp` kernel) to an i4 and
// one on `x & 3` (hashcat's kernels) to an i2, which llvm-spirv-15 refused ("InvalidBitWidth") and
// on which it aborts under SPV_INTEL_arbitrary_precision_integers; the source compiler widens the
// switches in the IR. _BitInt(N) reaches the translator as OpTypeInt N, which it widens.
TEST(SourceCompilerTest, NarrowedSwitchesAndOddWidthIntegersTranslate) {
  std::string switches = R"(
kernel void narrowed(global const int* in, global int* out) {
  int i = get_global_id(0), x = in[i], r;
  switch (x & 0xf) { case 1: r = 10; break; case 2: r = 20; break; case 3: r = 30; break; case 0: r = 40; break;
                     default: r = 50; }
  switch (x & 3) { case 0: r += 1; break; case 1: r += 2; break; case 2: r += 3; break; }
  out[i] = r;
}
)";
  std::vector<uint8_t> text = test::readFile(test::sourceDir() / "spirv" / "frontend" / "odd_integers.cl");
  for (const std::string& source : {switches, std::string(text.begin(), text.end())}) {
    for (const char* options : {"", "-cl-std=CL2.0", "-cl-std=CL3.0", "-cl-opt-disable"}) {
      SCOPED_TRACE(source.substr(0, 40) + " " + options);
      Compiled compiled = compileAndTranslate(request(source, options));
      ASSERT_TRUE(compiled.result.success) << compiled.result.log;
      EXPECT_TRUE(compiled.translation);
    }
  }
  // The switches reach the translator on 32-bit values zero-extended from the narrowed ones, which
  // the translator widens; the _BitInt(4) arithmetic as 4-bit.
  CompileResult narrowed = compileSource(request(switches));
  ASSERT_TRUE(narrowed.success) << narrowed.log;
  Expected<std::string> assembly = disassemble(narrowed.spirv);
  ASSERT_TRUE(assembly) << assembly.error().message();
  EXPECT_TRUE(contains(*assembly, "%cl2vk_switch_0 = OpUConvert %uint"));
  EXPECT_TRUE(contains(*assembly, "OpSwitch %cl2vk_switch_0"));
  CompileResult bitInts = compileSource(request(std::string(text.begin(), text.end())));
  ASSERT_TRUE(bitInts.success) << bitInts.log;
  assembly = disassemble(bitInts.spirv);
  ASSERT_TRUE(assembly) << assembly.error().message();
  EXPECT_TRUE(contains(*assembly, "OpTypeInt 4 0"));
}

// llvm-spirv-15 writes the n-body kernel's loop exit ahead of the loop at -O2, which made the
// runtime refuse clBuildProgram of it; the translator repairs the layout (repair-llvm-spirv) from
// source as from IL, in every language version and at -cl-opt-disable.
TEST(SourceCompilerTest, KernelsLlvmSpirvLaysOutWronglyTranslate) {
  auto source = [](const char* name) {
    std::vector<uint8_t> text = test::readFile(test::sourceDir() / "spirv" / "frontend" / name);
    return std::string(text.begin(), text.end());
  };
  for (const char* file : {"nbody.cl", "loop_exits.cl", "vector_select.cl"}) {
    for (const char* options : {"", "-cl-std=CL2.0", "-cl-std=CL3.0", "-cl-opt-disable"}) {
      SCOPED_TRACE(std::string(file) + " " + options);
      Compiled compiled = compileAndTranslate(request(source(file), options));
      ASSERT_TRUE(compiled.result.success) << compiled.result.log;
      EXPECT_TRUE(compiled.translation);
    }
  }
  // The reproduction: what the compiler hands the translator is invalid as written.
  CompileResult nbody = compileSource(request(source("nbody.cl")));
  ASSERT_TRUE(nbody.success) << nbody.log;
  Status valid = validate(nbody.spirv, SPV_ENV_UNIVERSAL_1_2);
  ASSERT_FALSE(valid.ok()) << "llvm-spirv-15 now lays the n-body kernel out correctly";
  EXPECT_TRUE(contains(valid.error().message(), "has not been defined"));
}

// CLBlast on NVIDIA (tests/clients/repro/inline_function_not_inlined.cl): a plain C99 `inline`
// function too large for LLVM's inliner was called as an import with no body, and at -O0 every
// plain `inline` function was. The source compiler keeps inline definitions as module-private ones.
TEST(SourceCompilerTest, InlineFunctionsTheOptimizerLeavesAsCallsAreDefined) {
  std::vector<uint8_t> text =
      test::readFile(test::sourceDir() / "tests" / "clients" / "repro" / "inline_function_not_inlined.cl");
  std::string source(text.begin(), text.end());
  for (const char* options : {"", "-cl-std=CL2.0", "-cl-std=CL3.0", "-cl-opt-disable"}) {
    SCOPED_TRACE(options);
    Compiled compiled = compileAndTranslate(request(source, options));
    ASSERT_TRUE(compiled.result.success) << compiled.result.log;
    Expected<std::string> assembly = disassemble(compiled.result.spirv);
    ASSERT_TRUE(assembly) << assembly.error().message();
    EXPECT_EQ(assembly->find("\"transposeTile\" Import"), std::string::npos) << *assembly;
    ASSERT_TRUE(compiled.translation);
    EXPECT_EQ(kernelNames(*compiled.translation), (Strings{"transpose"}));
  }
}

// C99's other forms keep their meaning: an `extern inline` definition is the external one (kept
// and exported), a `static inline` one is private to the program; a plain `inline` one, called at
// -O0, is defined privately.
TEST(SourceCompilerTest, ExternAndStaticInlineKeepTheirLinkage) {
  std::string source = R"(
extern inline float plusOne(float x) { return x + 1.0f; }
static inline float twice(float x) { return 2.0f * x; }
inline float halve(float x) { return 0.5f * x; }
kernel void apply(global float* data) { data[0] = plusOne(twice(halve(data[0]))); }
)";
  for (const char* options : {"", "-cl-opt-disable"}) {
    SCOPED_TRACE(options);
    Compiled compiled = compileAndTranslate(request(source, options));
    ASSERT_TRUE(compiled.result.success) << compiled.result.log;
    Expected<std::string> assembly = disassemble(compiled.result.spirv);
    ASSERT_TRUE(assembly) << assembly.error().message();
    EXPECT_TRUE(contains(*assembly, "LinkageAttributes \"plusOne\" Export"));
    // Neither imported (C99's meaning without a definition elsewhere) nor exported.
    EXPECT_EQ(assembly->find("LinkageAttributes \"halve\""), std::string::npos) << *assembly;
    EXPECT_TRUE(compiled.translation);
  }
}

constexpr const char* kDoubleKernel = "kernel void twice(global double* out, double x) { out[0] = 2 * x; }\n";

TEST(SourceCompilerTest, DisabledFp64RejectsDouble) {
  CompileResult withFp64 = compileSource(request(kDoubleKernel, "-cl-std=CL1.2"));
  EXPECT_TRUE(withFp64.success) << withFp64.log;

  CompileResult withoutFp64 = compileSource(request(kDoubleKernel, "-cl-std=CL1.2", {}, {"cl_khr_fp64"}));
  EXPECT_FALSE(withoutFp64.success);
  EXPECT_TRUE(contains(withoutFp64.log, "program.cl:1:26: error: use of type 'double' requires cl_khr_fp64 support"));
}

// OpenCL C 3.0 has the extension and its feature macro, which clang wants disabled together.
TEST(SourceCompilerTest, DisabledFp64FeatureRejectsDoubleInOpenCLC30) {
  CompileResult result = compileSource(request(kDoubleKernel, "-cl-std=CL3.0", {}, {"cl_khr_fp64", "__opencl_c_fp64"}));
  EXPECT_FALSE(result.success);
  EXPECT_TRUE(contains(result.log, "error: use of type 'double' requires cl_khr_fp64 and __opencl_c_fp64 support"));
}

// The cl_khr_subgroup_* extensions the device offers are defined for clang, so that OpenCL C 1.2
// sources see their functions too (clang-15's header declares them from 2.0 on); their
// OpGroupNonUniform* instructions need SPIR-V 1.3, which llvm-spirv is allowed.
TEST(SourceCompilerTest, DefinedSubgroupExtensionsDeclareTheirFunctions) {
  const char* source =
      "kernel void k(global int* out) {\n"
      "#ifndef cl_khr_subgroup_shuffle\n"
      "#error no shuffles\n"
      "#endif\n"
      "  out[0] = sub_group_shuffle_xor(out[1], 1u) + sub_group_rotate(out[2], 1);\n"
      "}\n";
  CompileRequest without = request(source, "-cl-std=CL1.2");
  EXPECT_FALSE(compileSource(without).success);
  CompileRequest with = request(source, "-cl-std=CL1.2");
  with.definedExtensions = {"cl_khr_subgroups", "cl_khr_subgroup_shuffle", "cl_khr_subgroup_rotate"};
  Compiled compiled = compileAndTranslate(with);
  EXPECT_TRUE(compiled.result.success) << compiled.result.log;
  EXPECT_TRUE(compiled.translation.has_value());
}

// clang-15 -O2 merged the sub-group calls of an if and its else into one call after the branch
// (or before it, where they were the same), and the calls of a switch over cluster sizes into one
// whose cluster size SPIR-V refuses: the CTS's non-uniform broadcasts and clustered reductions
// gave wrong values or failed to build. Each call stays in its own arm, also where a function of
// the program makes it.
TEST(SourceCompilerTest, SubgroupCallsInBranchesStayInTheirArms) {
  const char* source = R"(
static int clustered(int x, uint cluster) {
  switch (cluster) {
    case 1: return sub_group_clustered_reduce_add(x, 1);
    case 2: return sub_group_clustered_reduce_add(x, 2);
    case 4: return sub_group_clustered_reduce_add(x, 4);
  }
  return 0;
}
kernel void k(global int* out, global const int* in, uint cluster) {
  size_t i = get_global_id(0);
  int x = in[i];
  if (get_sub_group_local_id() < get_sub_group_size() / 2)
    out[i] = sub_group_broadcast_first(x);
  else
    out[i] = sub_group_broadcast_first(x);
  if (x > 0)
    out[i + 1] = clustered(x, cluster);
  else
    out[i + 1] = clustered(x, cluster);
}
)";
  CompileRequest with = request(source, "-cl-std=CL3.0");
  with.definedExtensions = {"cl_khr_subgroup_ballot", "cl_khr_subgroup_clustered_reduce"};
  Compiled compiled = compileAndTranslate(with);
  ASSERT_TRUE(compiled.result.success) << compiled.result.log;
  EXPECT_TRUE(compiled.translation.has_value());
  Expected<std::string> assembly = disassemble(compiled.result.spirv);
  ASSERT_TRUE(assembly) << assembly.error().message();
  auto count = [&](const std::string& what) {
    size_t n = 0;
    for (size_t at = assembly->find(what); at != std::string::npos; at = assembly->find(what, at + 1)) ++n;
    return n;
  };
  EXPECT_EQ(count("OpGroupNonUniformBroadcastFirst"), 2u) << *assembly;
  EXPECT_EQ(count("ClusteredReduce"), 6u) << *assembly;
}

TEST(SourceCompilerTest, MissingClangIsReported) {
  ScopedEnvironment clang("CL2VK_CLANG", "/nonexistent");
  CompileResult result = compileSource(request(kScaleKernel));
  EXPECT_FALSE(result.success);
  EXPECT_EQ(result.log,
            "cl2vk: cannot compile OpenCL C: CL2VK_CLANG is set to '/nonexistent', which is not an executable file\n");
}

TEST(SourceCompilerTest, MissingLlvmSpirvIsReported) {
  ScopedEnvironment llvmSpirv("CL2VK_LLVM_SPIRV", "/nonexistent/llvm-spirv");
  CompileResult result = compileSource(request(kScaleKernel));
  EXPECT_FALSE(result.success);
  EXPECT_TRUE(contains(result.log, "CL2VK_LLVM_SPIRV is set to '/nonexistent/llvm-spirv'"));
}

// Off PATH, the tools come from Debian's LLVM 15 directory; where that lacks one, the log says
// which and how to install it.
TEST(SourceCompilerTest, ToolsOffPathComeFromTheLlvm15DirectoryOrAreReported) {
  test::TempDir emptyDirectory;
  ScopedEnvironment path("PATH", emptyDirectory.path("").string());
  ScopedEnvironment clang("CL2VK_CLANG", std::nullopt);
  ScopedEnvironment llvmSpirv("CL2VK_LLVM_SPIRV", std::nullopt);
  CompileResult result = compileSource(request(kScaleKernel));
  if (!fs::exists("/usr/lib/llvm-15/bin/clang")) {
    EXPECT_EQ(result.log,
              "cl2vk: cannot compile OpenCL C: clang-15 was not found (install Debian's clang-15 and "
              "llvm-spirv-15 packages, or set CL2VK_CLANG)\n");
  } else if (!fs::exists("/usr/lib/llvm-15/bin/llvm-spirv")) {
    EXPECT_EQ(result.log,
              "cl2vk: cannot compile OpenCL C: llvm-spirv-15 was not found (install Debian's clang-15 "
              "and llvm-spirv-15 packages, or set CL2VK_LLVM_SPIRV)\n");
  } else {
    EXPECT_TRUE(result.success) << result.log;
  }
}

TEST(SourceCompilerTest, ToolOutputAndExitStatusReachTheLog) {
  test::TempDir dir;
  ScopedEnvironment clang(
      "CL2VK_CLANG",
      writeScript(dir, "fake-clang", "echo 'fake on stdout'\necho 'fake on stderr' >&2\nexit 3").string());
  CompileResult result = compileSource(request(kScaleKernel));
  EXPECT_FALSE(result.success);
  EXPECT_TRUE(contains(result.log, "fake on stdout\nfake on stderr\n"));
  EXPECT_TRUE(contains(result.log, "fake-clang exited with status 3"));
}

TEST(SourceCompilerTest, ToolKilledBySignalIsReported) {
  test::TempDir dir;
  ScopedEnvironment clang("CL2VK_CLANG", writeScript(dir, "crashing-clang", "kill -KILL $$").string());
  CompileResult result = compileSource(request(kScaleKernel));
  EXPECT_FALSE(result.success);
  EXPECT_TRUE(contains(result.log, "crashing-clang was killed by signal 9"));
}

// A descriptor the application left open without close-on-exec does not reach the tools.
TEST(SourceCompilerTest, ToolsInheritNoOtherDescriptors) {
  int pipeEnds[2];
  ASSERT_EQ(pipe(pipeEnds), 0);
  std::string descriptor = std::to_string(pipeEnds[1]);
  test::TempDir dir;
  ScopedEnvironment clang("CL2VK_CLANG", writeScript(dir, "descriptor-checking-clang",
                                                     "[ -e /proc/self/fd/" + descriptor + " ] && echo 'inherited " +
                                                         descriptor + "'\nexit 7")
                                             .string());
  CompileResult result = compileSource(request(kScaleKernel));
  close(pipeEnds[0]);
  close(pipeEnds[1]);
  EXPECT_TRUE(contains(result.log, "descriptor-checking-clang exited with status 7"));
  EXPECT_FALSE(contains(result.log, "inherited")) << result.log;
}

TEST(SourceCompilerTest, TemporaryDirectoriesAreRemoved) {
  test::TempDir tmpdir;
  ScopedEnvironment environment("TMPDIR", tmpdir.path("").string());
  EXPECT_TRUE(compileSource(request(kScaleKernel)).success);
  EXPECT_FALSE(compileSource(request("kernel void broken(")).success);
  EXPECT_FALSE(compileSource(request(kScaleKernel, "", {{"../x.h", ""}})).success);
  EXPECT_TRUE(fs::is_empty(tmpdir.path("")));
}

TEST(SourceCompilerTest, ConcurrentCompilesAreIndependent) {
  constexpr int kThreads = 4;
  std::string source = "kernel void NAME(global int* data) { data[0] = VALUE; }\n";
  std::vector<CompileResult> results(kThreads);
  std::vector<std::thread> threads;
  for (int i = 0; i < kThreads; ++i) {
    threads.emplace_back([&, i] {
      std::string options = "-DNAME=kernel" + std::to_string(i) + " -DVALUE=" + std::to_string(i);
      results[i] = compileSource(request(source, options));
    });
  }
  for (std::thread& thread : threads) thread.join();
  for (int i = 0; i < kThreads; ++i) {
    ASSERT_TRUE(results[i].success) << results[i].log;
    Expected<Translation> translation = translate(results[i].spirv, Target{});
    ASSERT_TRUE(translation.ok()) << translation.error().message();
    EXPECT_EQ(kernelNames(*translation), (Strings{"kernel" + std::to_string(i)}));
  }
}

}  // namespace
}  // namespace cl2vk::runtime
