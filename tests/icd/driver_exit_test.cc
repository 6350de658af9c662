// A kernel the driver cannot compile without ending the process fails as a command, never takes
// the application with it: SwiftShader's Subzero calls exit(1) on a shader with a few thousand
// memory accesses, so the runtime compiles such a pipeline in a child process first
// (vulkan/isolated_compile.h). On SwiftShader the launch ends with CL_OUT_OF_RESOURCES and the
// driver's words, and the queue runs on. With CL2VK_ISOLATED_COMPILES=always every pipeline goes
// through a child first, on any driver, and the results are the CPU's.

#include <sstream>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

constexpr int kSourceInts = 96;

// Statement i gathers sixteen ints from five places that move with i, so no two statements load
// the same elements and a compiler cannot fold them.
struct Places {
  int eight, four, two, one, other;
};
Places placesOf(int i) {
  return {i * 7 % 64, (i * 5 + 1) % 64, (i * 3 + 2) % 64, (i * 11 + 3) % 64, (i * 13 + 4) % 64};
}

std::string longKernel(int statements) {
  std::ostringstream source;
  source << "kernel void long_kernel(global const int* s, global int16* r) {\n";
  for (int i = 0; i < statements; ++i) {
    Places p = placesOf(i);
    source << "  r[" << i << "] = (int16)(vload8(0, s + " << p.eight << "), vload4(0, s + " << p.four
           << "), vload2(0, s + " << p.two << "), s[" << p.one << "], s[" << p.other << "]);\n";
  }
  source << "}\n"
         << "kernel void triple(global int* out) { out[get_global_id(0)] = 3 * (int)get_global_id(0); }\n";
  return source.str();
}

std::vector<int32_t> expectedLongKernel(const std::vector<int32_t>& s, int statements) {
  std::vector<int32_t> r;
  for (int i = 0; i < statements; ++i) {
    Places p = placesOf(i);
    for (int k = 0; k < 8; ++k) r.push_back(s[p.eight + k]);
    for (int k = 0; k < 4; ++k) r.push_back(s[p.four + k]);
    for (int k = 0; k < 2; ++k) r.push_back(s[p.two + k]);
    r.push_back(s[p.one]);
    r.push_back(s[p.other]);
  }
  return r;
}

class IcdDriverExit : public IcdTestWithMessages {
 protected:
  void TearDown() override { unsetenv("CL2VK_ISOLATED_COMPILES"); }

  // Runs long_kernel of `statements` statements; returns its event's status and checks the
  // result where it ran.
  cl_int runLongKernel(int statements) {
    program_ = buildSource(longKernel(statements));
    if (!program_) return CL_BUILD_PROGRAM_FAILURE;
    Kernel kernel = createKernel(program_, "long_kernel");
    std::vector<int32_t> source(kSourceInts);
    for (int i = 0; i < kSourceInts; ++i) source[i] = i * 1000003 ^ 0x5a5a;
    Buffer in = bufferOf(source);
    Buffer out = bufferOf(std::vector<int32_t>(statements * 16, -1));
    setArgs(kernel, in, out);
    cl_int status = runToTheEnd(kernel, 1);
    if (status == CL_COMPLETE) {
      EXPECT_EQ(read<int32_t>(out, statements * 16), expectedLongKernel(source, statements));
    }
    return status;
  }

  // The queue and the context run on.
  void expectTheQueueRunsOn() {
    Kernel triple = createKernel(program_, "triple");
    Buffer tripled = bufferOf(std::vector<int32_t>(64, 0));
    setArgs(triple, tripled);
    EXPECT_EQ(runToTheEnd(triple, 64), CL_COMPLETE);
    std::vector<int32_t> expected(64);
    for (int i = 0; i < 64; ++i) expected[i] = 3 * i;
    EXPECT_EQ(read<int32_t>(tripled, 64), expected);
  }

  Program program_;
};

// 300 statements (SwiftShader ended the process from 225): on SwiftShader the command fails, on a
// GPU the kernel runs. Not on lavapipe, which takes 45 s to compile it.
TEST_F(IcdDriverExit, AKernelSwiftShaderCannotCompileFailsItsCommandNotTheProcess) {
  const std::string name = deviceString(device_, CL_DEVICE_NAME);
  if (name.find("llvmpipe") != std::string::npos)
    GTEST_SKIP() << "lavapipe compiles the kernel in 45 s; IsolatedCompilesRunAsBefore runs a smaller one there";
  const int statements = 300;
  if (name.find("SwiftShader") == std::string::npos) {
    EXPECT_EQ(runLongKernel(statements), CL_COMPLETE) << (messages_.empty() ? std::string() : messages_[0]);
    return;
  }
  EXPECT_EQ(runLongKernel(statements), CL_OUT_OF_RESOURCES)
      << "SwiftShader compiled " << statements << " statements: has its stack limit gone? (docs/RELIABILITY.md)";
  ASSERT_EQ(messages_.size(), 1u);
  EXPECT_NE(messages_[0].find("kernel 'long_kernel': SwiftShader"), std::string::npos) << messages_[0];
  EXPECT_NE(messages_[0].find("ended the process compiling this pipeline"), std::string::npos) << messages_[0];
  expectTheQueueRunsOn();
}

// Every pipeline compiled in a child process first, on whatever driver this is: the same results.
TEST_F(IcdDriverExit, IsolatedCompilesRunAsBefore) {
  setenv("CL2VK_ISOLATED_COMPILES", "always", 1);
  EXPECT_EQ(runLongKernel(24), CL_COMPLETE) << (messages_.empty() ? std::string() : messages_[0]);
  expectTheQueueRunsOn();
  EXPECT_TRUE(messages_.empty());
}

}  // namespace
}  // namespace cl2vk::test
