// Pipelines compiled in a child process first (vulkan/isolated_compile.h): how a child that dies
// is told from one that returns, what of its stderr comes back, that a hung child is given up on,
// and which modules on which drivers are isolated.
#include "vulkan/isolated_compile.h"

#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

namespace cl2vk::vulkan {
namespace {

using std::chrono::seconds;

TEST(IsolatedCompileTest, AChildThatReturnsIsNoFailureWhateverItReturned) {
  EXPECT_TRUE(tryInChildProcess(
                  "driver", [] { return VK_SUCCESS; }, seconds(60))
                  .ok());
  // The caller creates the pipeline itself and reports the driver's error.
  EXPECT_TRUE(tryInChildProcess(
                  "driver", [] { return VK_ERROR_OUT_OF_HOST_MEMORY; }, seconds(60))
                  .ok());
}

TEST(IsolatedCompileTest, AChildThatCallsExitFailsWithItsLastWords) {
  Status status = tryInChildProcess(
      "Some Driver",
      [] {
        std::fputs("LLVM ERROR: Local variable exceeds stack size limit\n", stderr);
        std::exit(1);
        return VK_SUCCESS;
      },
      seconds(60));
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.error().message().rfind("Some Driver ended the process compiling this pipeline (it called exit(); "
                                           "its last words: \"LLVM ERROR: Local variable exceeds stack size limit\")",
                                           0),
            0u)
      << status.error().message();
}

TEST(IsolatedCompileTest, AChildKilledByASignalFailsNamingTheSignal) {
  Status status = tryInChildProcess(
      "driver",
      [] {
        signal(SIGSEGV, SIG_DFL);
        raise(SIGSEGV);
        return VK_SUCCESS;
      },
      seconds(60));
  ASSERT_FALSE(status.ok());
  EXPECT_NE(status.error().message().find("was killed by signal 11"), std::string::npos) << status.error().message();
  EXPECT_NE(status.error().message().find("it wrote nothing on stderr"), std::string::npos) << status.error().message();
}

// A child that never ends is killed at the limit, and the caller goes on (nothing is known).
TEST(IsolatedCompileTest, AChildPastTheLimitIsKilledAndNothingIsConcluded) {
  auto start = std::chrono::steady_clock::now();
  Status status = tryInChildProcess(
      "driver",
      [] {
        for (;;) pause();
        return VK_SUCCESS;
      },
      seconds(1));
  EXPECT_TRUE(status.ok());
  EXPECT_LT(std::chrono::steady_clock::now() - start, seconds(30));
}

// Only the driver that is known to end the process, and only for large modules, unless the
// setting says otherwise.
TEST(IsolatedCompileTest, SwiftShadersLargeModulesAreIsolated) {
  unsetenv("CL2VK_ISOLATED_COMPILES");
  constexpr uint32_t kLoad = 4u << 16 | 61u;  // OpLoad %type %result %pointer
  std::vector<uint32_t> small = {0x07230203, 0x10000, 0, 100, 0};
  std::vector<uint32_t> large = small;
  for (uint32_t i = 0; i <= kIsolatedMemoryAccesses; ++i) large.insert(large.end(), {kLoad, 1, 2 + i, 1});
  for (uint32_t i = 0; i < 10; ++i) small.insert(small.end(), {kLoad, 1, 2 + i, 1});
  DeviceInfo swiftshader;
  swiftshader.driverId = VK_DRIVER_ID_GOOGLE_SWIFTSHADER;
  DeviceInfo lavapipe;
  lavapipe.driverId = VK_DRIVER_ID_MESA_LLVMPIPE;
  EXPECT_TRUE(compilesInChildFirst(swiftshader, large));
  EXPECT_FALSE(compilesInChildFirst(swiftshader, small));
  EXPECT_FALSE(compilesInChildFirst(lavapipe, large));
  setenv("CL2VK_ISOLATED_COMPILES", "always", 1);
  EXPECT_TRUE(compilesInChildFirst(lavapipe, small));
  setenv("CL2VK_ISOLATED_COMPILES", "never", 1);
  EXPECT_FALSE(compilesInChildFirst(swiftshader, large));
  unsetenv("CL2VK_ISOLATED_COMPILES");
}

}  // namespace
}  // namespace cl2vk::vulkan
