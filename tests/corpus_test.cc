// Every module of the corpus (spirv/) loads, writes back bit-identically, survives a trip through
// assembly text, and is valid OpenCL SPIR-V.

#include <gtest/gtest.h>

#include <fstream>

#include "ir/reader.h"
#include "ir/summary.h"
#include "ir/validate.h"
#include "ir/writer.h"
#include "test_util.h"

namespace cl2vk {
namespace {

class CorpusTest : public testing::TestWithParam<std::filesystem::path> {};

TEST_P(CorpusTest, WritesBackBitIdentically) {
  std::vector<uint32_t> words = test::readWords(GetParam());
  auto module = ir::readBinary(words);
  ASSERT_TRUE(module.ok()) << module.error().message();
  EXPECT_EQ(ir::writeBinary(**module), words);
}

TEST_P(CorpusTest, RoundTripsThroughAssemblyText) {
  std::vector<uint32_t> words = test::readWords(GetParam());
  auto module = ir::readBinary(words);
  ASSERT_TRUE(module.ok()) << module.error().message();
  auto text = ir::writeAssembly(**module, {.friendlyNames = false, .header = true});
  ASSERT_TRUE(text.ok()) << text.error().message();
  auto again = ir::readAssembly(*text);
  ASSERT_TRUE(again.ok()) << again.error().message();
  std::vector<uint32_t> rewritten = ir::writeBinary(**again);
  // The assembler writes its own generator word; everything else must come back unchanged.
  ASSERT_EQ(rewritten.size(), words.size());
  rewritten[2] = words[2];
  EXPECT_EQ(rewritten, words);
}

TEST_P(CorpusTest, IsValidOpenCLSpirv) {
  if (GetParam().parent_path().filename() == "unsupported")
    GTEST_SKIP() << "unsupported/ holds constructs for the translator to refuse; SPIRV-Tools cannot validate some "
                    "(SPV_INTEL_function_pointers)";
  auto module = ir::readBinary(test::readWords(GetParam()));
  ASSERT_TRUE(module.ok()) << module.error().message();
  Status core = ir::validate(**module, ir::universalEnvironment(**module));
  EXPECT_TRUE(core.ok()) << core.error().message();
  // The OpenCL profiles know no OpenCL extension's capabilities: 64-bit atomics are checked
  // against SPIR-V's core rules only.
  if (GetParam().filename().string().starts_with("atomics64")) return;
  spv_target_env env = ir::validationEnvironment(**module, SPV_ENV_VULKAN_1_2);
  // SPIRV-Tools' OpenCL environments end at SPIR-V 1.2; later versions get the universal rules.
  EXPECT_TRUE(ir::environmentName(env).starts_with("opencl") || (*module)->header().version > 0x00010200)
      << ir::environmentName(env);
  Status status = ir::validate(**module, env);
  EXPECT_TRUE(status.ok()) << status.error().message();
}

TEST_P(CorpusTest, HasKernelsAndCollectives) {
  auto module = ir::readBinary(test::readWords(GetParam()));
  ASSERT_TRUE(module.ok()) << module.error().message();
  ir::ModuleSummary summary = ir::summarize(**module);
  EXPECT_FALSE(summary.kernels.empty());
  if (GetParam().parent_path() == test::corpusDir()) {  // the collectives corpus
    EXPECT_GT(summary.collectives.size() + summary.builtinCalls.size(), 0u);
  }
}

std::string testName(const testing::TestParamInfo<std::filesystem::path>& info) {
  std::string dir = info.param.parent_path().filename().string();
  bool subfolder = dir == "kernels" || dir == "unsupported" || dir == "generators";
  std::string name = (subfolder ? dir + "_" : "") + info.param.filename().string();
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorpusTest, testing::ValuesIn(test::corpusModules()), testName);

TEST(CorpusManifestTest, ListsEverySource) {
  std::vector<std::filesystem::path> modules = test::corpusModules();
  size_t sources = 0, assembly = 0;
  for (const char* dir : {"cl", "asm", "kernels", "unsupported", "generators"}) {
    for (const auto& entry : std::filesystem::directory_iterator(test::sourceDir() / "spirv" / dir)) {
      sources += entry.path().extension() == ".cl";
      assembly += entry.path().extension() == ".spvasm";
    }
  }
  size_t standardVariants = 0;
  for (const auto& entry : std::filesystem::directory_iterator(test::sourceDir() / "spirv" / "kernels")) {
    if (entry.path().extension() != ".cl") continue;
    std::vector<uint8_t> text = test::readFile(entry.path());
    bool needs20 = std::string(text.begin(), text.end()).find("Needs OpenCL C 2.0") != std::string::npos;
    standardVariants += needs20 ? 1 : 2;
  }
  // every .cl at -O0 and -O2; the general kernels also as OpenCL C 3.0 and (most) 1.2
  EXPECT_EQ(modules.size(), 2 * sources + assembly + standardVariants);
  for (const auto& path : modules) EXPECT_TRUE(std::filesystem::exists(path)) << path;
}

// The hand-written assembly reads through cl2vk's own assembler path to the same module as the
// spirv-as build of it.
TEST(CorpusManifestTest, HandWrittenAssemblyMatchesItsBuild) {
  for (const char* dir : {"asm", "generators"}) {
    for (const auto& entry : std::filesystem::directory_iterator(test::sourceDir() / "spirv" / dir)) {
      if (entry.path().extension() != ".spvasm") continue;
      std::ifstream file(entry.path());
      std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
      auto module = ir::readAssembly(text);
      ASSERT_TRUE(module.ok()) << entry.path() << ": " << module.error().message();
      std::string folder = std::string(dir) == "asm" ? "" : std::string(dir) + "/";
      std::vector<uint32_t> built =
          test::readWords(test::corpusDir() / (folder + entry.path().stem().string() + ".spv"));
      std::vector<uint32_t> ours = ir::writeBinary(**module);
      ASSERT_EQ(ours.size(), built.size()) << entry.path();
      ours[2] = built[2];
      EXPECT_EQ(ours, built) << entry.path();
    }
  }
}

}  // namespace
}  // namespace cl2vk
