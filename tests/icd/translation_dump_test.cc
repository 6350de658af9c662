// CL2VK_DUMP: the runtime writes each translation it makes with the cl2vk-opt command that repeats
// it, and running that command gives the same Vulkan SPIR-V, bit for bit, for whatever device the
// tests run on (lavapipe's loop limit, by-row subgroups and unfused fma; SwiftShader's missing
// integer widths; a GPU's subgroup sizes).

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "icd/icd_test_util.h"
#include "test_util.h"

namespace cl2vk::test {
namespace {

namespace fs = std::filesystem;

class IcdTranslationDump : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    setenv("CL2VK_DUMP", (dir_.path("dump")).c_str(), 1);
  }
  void TearDown() override { unsetenv("CL2VK_DUMP"); }

  std::vector<fs::path> filesEndingIn(const std::string& suffix) {
    std::vector<fs::path> found;
    if (!fs::exists(dir_.path("dump"))) return found;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir_.path("dump"))) {
      if (entry.path().string().ends_with(suffix)) found.push_back(entry.path());
    }
    return found;
  }

  // The command: the build's, or the one CL2VK_TEST_OPT names (tools/device/run-gpu-tests.sh,
  // where the build tree is not).
  static std::string tool() {
    const char* carried = std::getenv("CL2VK_TEST_OPT");
    return carried && *carried ? carried : CL2VK_OPT_PATH;
  }

  TempDir dir_;
};

constexpr const char* kSource = R"(
kernel void sums(global const int* in, global int* out, global long* big) {
  size_t i = get_global_id(0);
  int x = in[i];
  out[i] = work_group_reduce_add(x) + work_group_scan_inclusive_max(x) + sub_group_reduce_min(x);
  big[i] = (long)x * 3000000000L + (long)fma((float)x, 0.5f, 1.0f);
  for (int k = 0; k < x; ++k) big[i] += k;
}
)";

TEST_F(IcdTranslationDump, TheDumpedCommandRepeatsTheTranslation) {
  Program program = buildSource(kSource, "-cl-std=CL2.0");
  ASSERT_TRUE(program);
  const std::vector<fs::path> commands = filesEndingIn(".cmd");
  ASSERT_EQ(commands.size(), 1u) << "one translation, one command";
  std::ifstream file(commands[0]);
  std::string command;
  std::getline(file, command);
  ASSERT_TRUE(command.starts_with("cl2vk-opt ")) << command;

  const std::string base = commands[0].string().substr(0, commands[0].string().size() - 4);
  const std::vector<uint8_t> runtimeOutput = readFile(base + ".vk.spv");
  ASSERT_FALSE(runtimeOutput.empty());
  ASSERT_FALSE(readFile(base + ".cl.spv").empty());
  fs::remove(base + ".vk.spv");

  CommandResult repeated = runCommand(tool() + command.substr(std::string("cl2vk-opt").size()));
  ASSERT_EQ(repeated.exitCode, 0) << command << "\n" << repeated.err;
  EXPECT_EQ(readFile(base + ".vk.spv"), runtimeOutput) << "cl2vk-opt translated differently: " << command;
}

TEST_F(IcdTranslationDump, ARefusedTranslationIsDumpedWithoutAnOutput) {
  // Recursion is refused by the translator (OpenCL C forbids it; clang compiles it).
  const std::string source =
      "int f(int n) { return n ? f(n - 1) + 1 : 0; }\n"
      "kernel void k(global int* p) { p[0] = f(p[1]); }\n";
  cl_int error = CL_SUCCESS;
  const char* text = source.c_str();
  Program program(clCreateProgramWithSource(context_, 1, &text, nullptr, &error));
  ASSERT_CL_SUCCESS(error);
  EXPECT_EQ(clBuildProgram(program, 1, &device_, "-cl-opt-disable", nullptr, nullptr), CL_BUILD_PROGRAM_FAILURE);
  const std::vector<fs::path> commands = filesEndingIn(".cmd");
  ASSERT_EQ(commands.size(), 1u);
  const std::string base = commands[0].string().substr(0, commands[0].string().size() - 4);
  EXPECT_FALSE(fs::exists(base + ".vk.spv"));
  std::ifstream file(commands[0]);
  std::string command;
  std::getline(file, command);
  CommandResult repeated = runCommand(tool() + command.substr(std::string("cl2vk-opt").size()));
  EXPECT_EQ(repeated.exitCode, 1) << repeated.err;
  EXPECT_NE(programBuildLog(program, device_).find("recurs"), std::string::npos) << programBuildLog(program, device_);
  EXPECT_NE(repeated.err.find("recurs"), std::string::npos) << repeated.err;
}

TEST_F(IcdTranslationDump, NothingIsWrittenWithoutTheVariable) {
  unsetenv("CL2VK_DUMP");
  Program program = buildSource("kernel void k(global int* p) { p[get_global_id(0)] = 1; }");
  ASSERT_TRUE(program);
  EXPECT_FALSE(fs::exists(dir_.path("dump")));
}

}  // namespace
}  // namespace cl2vk::test
