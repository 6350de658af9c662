// cl2vk-opt as a user runs it: options, exit codes, messages, and input and output forms.

#include <gtest/gtest.h>

#include "test_util.h"

namespace cl2vk {
namespace {

using test::CommandResult;
using test::runCommand;

const std::string kTool = CL2VK_OPT_PATH;

const char* kValidKernel = R"(; SPIR-V
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
               OpName %k "k"
               OpName %fn "fn"
               OpName %entry "entry"
       %void = OpTypeVoid
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
               OpReturn
               OpFunctionEnd
)";

// Well formed, but invalid: an integer add of a float.
const char* kInvalidKernel = R"(; SPIR-V
; Version: 1.2
               OpCapability Addresses
               OpCapability Kernel
               OpMemoryModel Physical64 OpenCL
               OpEntryPoint Kernel %k "k"
       %void = OpTypeVoid
       %uint = OpTypeInt 32 0
      %float = OpTypeFloat 32
    %float_1 = OpConstant %float 1
         %fn = OpTypeFunction %void
          %k = OpFunction %void None %fn
      %entry = OpLabel
          %x = OpIAdd %uint %float_1 %float_1
               OpReturn
               OpFunctionEnd
)";

std::filesystem::path firstCorpusModule() {
  auto modules = test::corpusModules();
  EXPECT_FALSE(modules.empty());
  return modules.empty() ? std::filesystem::path() : modules.front();
}

void expectUsageError(const std::string& args, const std::string& message) {
  CommandResult r = runCommand(kTool + " " + args);
  EXPECT_EQ(r.exitCode, 2) << args;
  EXPECT_NE(r.err.find(message), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(Cl2vkOptTest, HelpListsTheOptions) {
  CommandResult r = runCommand(kTool + " --help");
  EXPECT_EQ(r.exitCode, 0);
  for (const char* option : {"Usage: cl2vk-opt", "--emit=binary|text", "--target-env", "--validate", "--stats",
                             "--flush-float-denormals", "--no-int8", "--no-storage16", "-o <file>"})
    EXPECT_NE(r.out.find(option), std::string::npos) << option;
}

TEST(Cl2vkOptTest, VersionNamesTheToolAndSpirvTools) {
  CommandResult r = runCommand(kTool + " --version");
  EXPECT_EQ(r.exitCode, 0);
  EXPECT_EQ(r.out.rfind("cl2vk-opt ", 0), 0u) << r.out;
  EXPECT_NE(r.out.find("SPIRV-Tools"), std::string::npos) << r.out;
}

TEST(Cl2vkOptTest, UsageErrorsExitWithTwoAndSayWhy) {
  expectUsageError("", "cl2vk-opt: no input file (try --help)");
  expectUsageError("--bogus x.spv", "unknown option '--bogus'");
  expectUsageError("-q x.spv", "unknown option '-q'");
  expectUsageError("--emit=hex x.spv", "--emit must be binary or text, not 'hex'");
  expectUsageError("--target-env=vulkan9 x.spv", "unknown target environment 'vulkan9'");
  expectUsageError("a.spv b.spv", "more than one input file ('a.spv' and 'b.spv')");
  expectUsageError("x.spv -o", "-o needs a file name");
}

TEST(Cl2vkOptTest, UnreadableInputExitsWithOne) {
  CommandResult r = runCommand(kTool + " /nonexistent/in.spv -o /dev/null");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("cl2vk-opt: /nonexistent/in.spv: cannot open '/nonexistent/in.spv'"), std::string::npos)
      << r.err;
}

TEST(Cl2vkOptTest, GarbageAndTruncatedInputExitWithOneAndAReason) {
  test::TempDir dir;
  std::vector<uint8_t> garbage = {0x00, 0x01, 0x02, 0x03, 0xff, 0xfe, 0xfd, 0xfc};
  test::writeFile(dir.path("garbage.spv"), garbage.data(), garbage.size());
  CommandResult r = runCommand(kTool + " " + dir.path("garbage.spv").string() + " -o /dev/null");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("not a SPIR-V binary: wrong magic number"), std::string::npos) << r.err;

  std::vector<uint8_t> module = test::readFile(firstCorpusModule());
  module.resize(module.size() - 8);
  test::writeFile(dir.path("truncated.spv"), module.data(), module.size());
  r = runCommand(kTool + " " + dir.path("truncated.spv").string() + " -o /dev/null");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("truncated.spv: "), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << "one line: " << r.err;

  r = runCommand(kTool + " -", "");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("<stdin>: the input is empty"), std::string::npos) << r.err;

  r = runCommand(kTool + " - --emit=text", "this is not SPIR-V\n");
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("cannot assemble the SPIR-V text"), std::string::npos) << r.err;
}

// The translation (no flags) refuses each class of bad input with exit code 1 and one line naming
// the file and the reason; tests/bad_input_test.cc holds the translator's exact messages.
TEST(Cl2vkOptTest, EachClassOfBadInputExitsWithOneAndItsReason) {
  test::TempDir dir;
  auto refuse = [&](const std::string& name, const std::vector<uint8_t>& bytes, const std::string& reason) {
    test::writeFile(dir.path(name), bytes.data(), bytes.size());
    CommandResult r = runCommand(kTool + " " + dir.path(name).string() + " -o /dev/null");
    EXPECT_EQ(r.exitCode, 1) << name;
    EXPECT_NE(r.err.find(name + ": " + reason), std::string::npos) << r.err;
  };
  CommandResult binary = runCommand(kTool + " --round-trip -", kValidKernel);
  ASSERT_EQ(binary.exitCode, 0) << binary.err;
  const std::vector<uint8_t> valid(binary.out.begin(), binary.out.end());

  std::vector<uint8_t> version = valid;
  version[6] = 9;  // the version word's major byte: 9.2
  refuse("version.spv", version, "unsupported SPIR-V version 9.2 (cl2vk reads 1.0 to 1.6)");
  std::vector<uint8_t> bound = valid;
  bound[12] = 2, bound[13] = bound[14] = bound[15] = 0;  // the id bound: only %1 is allowed
  refuse("bound.spv", bound, "instruction 6: OpName uses %2, which is not below the header's id bound 2");
  std::vector<uint8_t> garbage(valid.begin(), valid.begin() + 20);
  for (uint8_t byte : {0x78, 0x56, 0x34, 0x12, 0xff, 0xff, 0xff, 0xff}) garbage.push_back(byte);
  refuse("garbage.spv", garbage, "invalid SPIR-V at instruction 1: Invalid opcode: 22136");

  CommandResult mismatch = runCommand(kTool + " - -o /dev/null", kInvalidKernel);
  EXPECT_EQ(mismatch.exitCode, 1);
  EXPECT_NE(mismatch.err.find("<stdin>: the input is not valid SPIR-V: SPIRV-Tools validation (spv1.2) failed: "),
            std::string::npos)
      << mismatch.err;
  EXPECT_NE(mismatch.err.find("OpIAdd"), std::string::npos) << mismatch.err;

  std::string shader = kValidKernel;
  shader.replace(shader.find("OpCapability Kernel"), 19, "OpCapability Shader");
  CommandResult notKernel = runCommand(kTool + " - -o /dev/null", shader);
  EXPECT_EQ(notKernel.exitCode, 1);
  EXPECT_NE(notKernel.err.find("<stdin>: not an OpenCL module: it does not declare the Kernel capability"),
            std::string::npos)
      << notKernel.err;

  std::string recursion = (test::corpusDir() / "unsupported" / "recursion.O0.spv").string();
  CommandResult unsupported = runCommand(kTool + " " + recursion + " -o /dev/null");
  EXPECT_EQ(unsupported.exitCode, 1);
  EXPECT_NE(unsupported.err.find("recursion is not supported: 'fib' calls 'fib'"), std::string::npos)
      << unsupported.err;
}

TEST(Cl2vkOptTest, RoundTripsABinaryFileToAFile) {
  test::TempDir dir;
  std::filesystem::path input = firstCorpusModule();
  CommandResult r =
      runCommand(kTool + " --round-trip --validate " + input.string() + " -o " + dir.path("out.spv").string());
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_EQ(test::readFile(dir.path("out.spv")), test::readFile(input));
}

TEST(Cl2vkOptTest, ValidatesAndRoundTripsEveryCorpusModule) {
  test::TempDir dir;
  for (const std::filesystem::path& input : test::supportedCorpusModules()) {
    // SPIRV-Tools' OpenCL profiles reject the capability cl_khr_int64_base_atomics adds.
    if (input.filename().string().starts_with("atomics64")) continue;
    CommandResult r =
        runCommand(kTool + " --round-trip --validate " + input.string() + " -o " + dir.path("out.spv").string());
    EXPECT_EQ(r.exitCode, 0) << input << ": " << r.err;
    EXPECT_EQ(test::readFile(dir.path("out.spv")), test::readFile(input)) << input;
  }
}

TEST(Cl2vkOptTest, ReadsStdinAndWritesStdout) {
  std::vector<uint8_t> bytes = test::readFile(firstCorpusModule());
  CommandResult r = runCommand(kTool + " --round-trip - -o -", std::string(bytes.begin(), bytes.end()));
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out, std::string(bytes.begin(), bytes.end()));
}

TEST(Cl2vkOptTest, AssemblesTextAndEmitsText) {
  CommandResult binary = runCommand(kTool + " --round-trip -", kValidKernel);
  EXPECT_EQ(binary.exitCode, 0) << binary.err;
  ASSERT_GE(binary.out.size(), 20u);
  EXPECT_EQ(static_cast<uint8_t>(binary.out[0]), 0x03);  // the magic number, little-endian

  CommandResult text = runCommand(kTool + " --round-trip - --emit=text", binary.out);
  EXPECT_EQ(text.exitCode, 0) << text.err;
  EXPECT_EQ(test::canonical(text.out), test::canonical(kValidKernel));
}

TEST(Cl2vkOptTest, ValidateChecksKernelModulesAsOpenCL) {
  CommandResult ok = runCommand(kTool + " --round-trip --validate --stats - -o /dev/null", kValidKernel);
  EXPECT_EQ(ok.exitCode, 0) << ok.err;
  EXPECT_NE(ok.err.find("valid for opencl2.2"), std::string::npos) << ok.err;

  CommandResult bad = runCommand(kTool + " --round-trip --validate - -o /dev/null", kInvalidKernel);
  EXPECT_EQ(bad.exitCode, 1);
  EXPECT_NE(bad.err.find("<stdin>: SPIRV-Tools validation (opencl2.2) failed: "), std::string::npos) << bad.err;
  EXPECT_NE(bad.err.find("OpIAdd"), std::string::npos) << bad.err;

  // Without --validate the same module passes through unchanged.
  CommandResult unchecked = runCommand(kTool + " --round-trip - -o /dev/null", kInvalidKernel);
  EXPECT_EQ(unchecked.exitCode, 0) << unchecked.err;
}

TEST(Cl2vkOptTest, AcceptsEveryVulkanTargetEnvironment) {
  for (const char* env : {"vulkan1.1", "vulkan1.2", "vulkan1.3"}) {
    CommandResult r = runCommand(kTool + " --target-env=" + env + " - -o /dev/null", kValidKernel);
    EXPECT_EQ(r.exitCode, 0) << env << ": " << r.err;
  }
}

TEST(Cl2vkOptTest, TranslatesAKernelIntoValidVulkanForEachEnvironment) {
  for (const char* env : {"vulkan1.1", "vulkan1.2", "vulkan1.3"}) {
    CommandResult r = runCommand(kTool + " --validate --stats --target-env=" + env + " - -o /dev/null", kValidKernel);
    EXPECT_EQ(r.exitCode, 0) << env << ": " << r.err;
    EXPECT_NE(r.err.find(std::string("valid for ") + env), std::string::npos) << r.err;
  }
  CommandResult text = runCommand(kTool + " --emit=text -", kValidKernel);
  EXPECT_EQ(text.exitCode, 0) << text.err;
  EXPECT_NE(text.out.find("OpEntryPoint GLCompute %k \"k\""), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("OpCapability Shader"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("OpCapability Kernel"), std::string::npos) << text.out;
}

TEST(Cl2vkOptTest, ReflectWritesTheKernelInterfaceAsJson) {
  test::TempDir dir;
  std::filesystem::path input = test::corpusDir() / "kernels" / "tiled_matmul.O2.spv";
  CommandResult r = runCommand(kTool + " " + input.string() + " -o /dev/null --reflect=" + dir.path("r.json").string());
  ASSERT_EQ(r.exitCode, 0) << r.err;
  std::vector<uint8_t> bytes = test::readFile(dir.path("r.json"));
  std::string json(bytes.begin(), bytes.end());
  for (const char* expected :
       {"\"name\": \"tiled_matmul\"",
        "{\"name\": \"A\", \"kind\": \"global_pointer\", \"type\": \"i32\", \"address_space\": \"global\"",
        "\"name\": \"tileB\", \"kind\": \"local_pointer\", \"type\": \"i32\", \"address_space\": \"local\", "
        "\"offset\": 0, \"size\": 0",
        "\"spec_id\": 7, \"element_size\": 4", "\"spec_id\": 8", "\"kind\": \"value\"",
        "\"work_group_size_spec_ids\": [0, 1, 2]", "\"uses_dispatch_info\": true", "\"int64\": true",
        "\"PhysicalStorageBufferAddresses\""})
    EXPECT_NE(json.find(expected), std::string::npos) << expected << " in\n" << json;
  EXPECT_EQ(std::count(json.begin(), json.end(), '{'), std::count(json.begin(), json.end(), '}'));
  EXPECT_EQ(std::count(json.begin(), json.end(), '['), std::count(json.begin(), json.end(), ']'));
}

TEST(Cl2vkOptTest, RoundTripTakesNoPassFlags) {
  CommandResult r = runCommand(kTool + " --round-trip --inline-functions - -o /dev/null", kValidKernel);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--round-trip runs no pass"), std::string::npos) << r.err;
}

TEST(Cl2vkOptTest, APassFlagRunsThatPassAlone) {
  CommandResult r = runCommand(kTool + " --inline-functions --emit=text -", kValidKernel);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("OpEntryPoint Kernel"), std::string::npos) << "only inlining ran:\n" << r.out;
}

TEST(Cl2vkOptTest, StatsDescribeTheModule) {
  CommandResult r = runCommand(kTool + " --round-trip --stats " + firstCorpusModule().string() + " -o /dev/null");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("SPIR-V 1."), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" kernel"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("collective"), std::string::npos) << r.err;
}

TEST(Cl2vkOptTest, StatsCountTheCollectivesOfEachKernel) {
  std::string module = (test::corpusDir() / "work_group_add_min_max.O2.spv").string();
  CommandResult r = runCommand(kTool + " --stats " + module + " -o /dev/null");
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.err.find("\n  kernel "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(": 1 collectives rewritten, 5 work-group barriers added, "), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(" bytes of scratch\n"), std::string::npos) << r.err;
}

TEST(Cl2vkOptTest, WithoutSubgroupArithmeticTheCollectivesRunInMemory) {
  std::string module = (test::corpusDir() / "work_group_add_min_max.O2.spv").string();
  CommandResult r = runCommand(kTool + " --no-subgroup-arithmetic --validate --emit=text " + module);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.find("OpGroupNonUniformIAdd"), std::string::npos) << "no subgroup arithmetic";
  EXPECT_NE(r.out.find("OpControlBarrier"), std::string::npos) << r.out;
}

TEST(Cl2vkOptTest, SubgroupScansInShuffleUpSteps) {
  std::string module = (test::corpusDir() / "work_group_add_min_max.O2.spv").string();
  CommandResult r = runCommand(kTool + " --subgroup-scans=shuffle-up --validate --emit=text " + module);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_NE(r.out.find("OpGroupNonUniformShuffleUp"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("InclusiveScan"), std::string::npos) << r.out;
  r = runCommand(kTool + " --subgroup-scans=native --validate --emit=text " + module);
  EXPECT_EQ(r.exitCode, 0) << r.err;
  EXPECT_EQ(r.out.find("OpGroupNonUniformShuffleUp"), std::string::npos) << r.out;
  r = runCommand(kTool + " --subgroup-scans=shuffle " + module);
  EXPECT_EQ(r.exitCode, 2);
  EXPECT_NE(r.err.find("--subgroup-scans must be native or shuffle-up, not 'shuffle'"), std::string::npos) << r.err;
}

// Test-only: float arithmetic as a device that flushes denormals computes it, by a select around
// each float operation (emulate-denormal-flush); the result is still valid Vulkan SPIR-V.
TEST(Cl2vkOptTest, FlushFloatDenormalsAddsASelectPerFloatOperation) {
  std::string module = (test::corpusDir() / "kernels" / "math_builtins.O2.spv").string();
  auto selects = [](const std::string& text) {
    size_t count = 0;
    for (size_t at = text.find("OpSelect"); at != std::string::npos; at = text.find("OpSelect", at + 1)) ++count;
    return count;
  };
  CommandResult keeping = runCommand(kTool + " --validate --emit=text " + module);
  ASSERT_EQ(keeping.exitCode, 0) << keeping.err;
  CommandResult flushing = runCommand(kTool + " --flush-float-denormals --validate --emit=text " + module);
  ASSERT_EQ(flushing.exitCode, 0) << flushing.err;
  EXPECT_GT(selects(flushing.out), selects(keeping.out) + 100);
}

// --no-int8 --no-int16 --no-storage8 --no-storage16: char and short computed in 32 bits and reached
// through words (lower-narrow-integers); the result declares neither width and still validates.
TEST(Cl2vkOptTest, NoEightOrSixteenBitTypesTranslatesCharAndShortWithout) {
  std::string module = (test::corpusDir() / "kernels" / "integer_types.O2.spv").string();
  CommandResult native = runCommand(kTool + " --validate --emit=text " + module);
  ASSERT_EQ(native.exitCode, 0) << native.err;
  EXPECT_NE(native.out.find("OpCapability Int8"), std::string::npos);
  CommandResult emulated =
      runCommand(kTool + " --no-int8 --no-int16 --no-storage8 --no-storage16 --validate --emit=text " + module);
  ASSERT_EQ(emulated.exitCode, 0) << emulated.err;
  for (const char* absent : {"OpCapability Int8", "OpCapability Int16", "StorageBuffer8BitAccess",
                             "StorageBuffer16BitAccess", "OpTypeInt 8", "OpTypeInt 16"})
    EXPECT_EQ(emulated.out.find(absent), std::string::npos) << absent;
  EXPECT_NE(emulated.out.find("OpAtomicOr"), std::string::npos) << "byte stores set their bits atomically";
}

TEST(Cl2vkOptTest, UnwritableOutputExitsWithOne) {
  CommandResult r = runCommand(kTool + " - -o /nonexistent/dir/out.spv", kValidKernel);
  EXPECT_EQ(r.exitCode, 1);
  EXPECT_NE(r.err.find("cannot open '/nonexistent/dir/out.spv' for writing"), std::string::npos) << r.err;
}

}  // namespace
}  // namespace cl2vk
