// Bad programs through the OpenCL API, one class at a time. IL that is not a well-formed SPIR-V
// module is refused when the program is created (CL_INVALID_VALUE; CL_INVALID_BINARY for
// clCreateProgramWithBinary), with the reason given to the context's callback. A well-formed
// module that is invalid, or uses what cl2vk does not support, fails clBuildProgram
// (CL_BUILD_PROGRAM_FAILURE) with a build log that names the kernel, the instruction and the reason.
// After each, the context builds and runs a good program.

#include <numeric>

#include "bad_modules.h"
#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

std::span<const uint8_t> bytesOf(const std::vector<uint32_t>& words) {
  return {reinterpret_cast<const uint8_t*>(words.data()), words.size() * sizeof(uint32_t)};
}

class IcdBadInput : public IcdTestWithMessages {
 protected:
  // clCreateProgramWithIL refuses `il` with CL_INVALID_VALUE, telling the context `reason`.
  void expectRefusedIL(std::span<const uint8_t> il, const std::string& reason) {
    messages_.clear();
    cl_int status = CL_SUCCESS;
    Program program(clCreateProgramWithIL(context_, il.data(), il.size(), &status));
    EXPECT_EQ(program.get(), nullptr);
    EXPECT_CL_ERROR(CL_INVALID_VALUE, status) << reason;
    ASSERT_EQ(messages_.size(), 1u) << reason;
    EXPECT_EQ(messages_[0], "clCreateProgramWithIL: the IL is not a SPIR-V module: " + reason);
  }

  // clBuildProgram fails `il` with CL_BUILD_PROGRAM_FAILURE and a log that says so, holding every
  // one of `reasons`.
  void expectBuildFailure(std::span<const uint8_t> il, const std::vector<std::string>& reasons) {
    cl_int status = CL_SUCCESS;
    Program program(clCreateProgramWithIL(context_, il.data(), il.size(), &status));
    ASSERT_CL_SUCCESS(status) << reasons.front();
    EXPECT_CL_ERROR(CL_BUILD_PROGRAM_FAILURE, clBuildProgram(program, 1, &device_, "", nullptr, nullptr))
        << reasons.front();
    cl_build_status build = CL_BUILD_NONE;
    EXPECT_CL_SUCCESS(clGetProgramBuildInfo(program, device_, CL_PROGRAM_BUILD_STATUS, sizeof(build), &build, nullptr));
    EXPECT_EQ(build, CL_BUILD_ERROR);
    std::string log = programBuildLog(program, device_);
    std::string device = deviceString(device_, CL_DEVICE_NAME);
    EXPECT_EQ(log.rfind("cl2vk: cannot translate the program for " + device + ": ", 0), 0u) << "build log:\n" << log;
    for (const std::string& part : reasons) EXPECT_NE(log.find(part), std::string::npos) << part << " in:\n" << log;
    EXPECT_EQ(clCreateKernel(program, "store_one", &status), nullptr);
    EXPECT_CL_ERROR(CL_INVALID_PROGRAM_EXECUTABLE, status);
  }

  // The context still builds and runs the good kernel.
  void expectTheGoodKernelRuns() {
    std::vector<uint32_t> il = assembleWords(kStoreOneKernel);
    Program program = buildIL(bytesOf(il));
    ASSERT_TRUE(program.get());
    Kernel kernel = createKernel(program, "store_one");
    Buffer out = bufferOf(std::vector<uint32_t>(64, 0));
    setArgs(kernel.get(), out);
    run1d(kernel, 64);
    EXPECT_EQ(read<uint32_t>(out, 64), std::vector<uint32_t>(64, 1));
  }
};

TEST_F(IcdBadInput, MalformedILIsInvalidValueWithTheReason) {
  const std::vector<uint32_t> valid = assembleWords(kStoreOneKernel);
  ASSERT_FALSE(valid.empty());

  std::vector<uint32_t> magic = valid;
  magic[0] = 0xdeadbeef;
  expectRefusedIL(bytesOf(magic), "not a SPIR-V binary: wrong magic number");

  std::vector<uint32_t> header(valid.begin(), valid.begin() + 3);
  expectRefusedIL(bytesOf(header), "the SPIR-V header is truncated (3 of 5 words)");

  std::span<const uint8_t> unaligned = bytesOf(valid).first(valid.size() * 4 - 2);
  expectRefusedIL(unaligned,
                  "the input is " + std::to_string(unaligned.size()) + " bytes, not a whole number of 32-bit words");

  std::vector<uint32_t> cut(valid.begin(), valid.end() - 3);
  expectRefusedIL(bytesOf(cut),
                  "invalid SPIR-V at instruction 25: End of input reached while decoding OpStore starting at "
                  "word 103: missing literal number operand at word offset 4.");

  std::vector<uint32_t> version = valid;
  version[1] = 0x00020000;
  expectRefusedIL(bytesOf(version), "unsupported SPIR-V version 2.0 (cl2vk reads 1.0 to 1.6)");

  std::vector<uint32_t> garbage(valid.begin(), valid.begin() + 5);
  garbage.insert(garbage.end(), {0x12345678, 0xffffffff, 0, 0xabcdef01});
  expectRefusedIL(bytesOf(garbage), "invalid SPIR-V at instruction 1: Invalid opcode: 22136");

  std::vector<uint32_t> bound = valid;
  bound[3] = 2;
  expectRefusedIL(bytesOf(bound), "instruction 6: OpEntryPoint uses %2, which is not below the header's id bound 2");

  cl_int status = CL_SUCCESS;
  EXPECT_EQ(clCreateProgramWithIL(context_, nullptr, 64, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  EXPECT_EQ(clCreateProgramWithIL(context_, valid.data(), 0, &status), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_VALUE, status);
  expectTheGoodKernelRuns();
}

TEST_F(IcdBadInput, GarbageBinaryIsInvalidBinaryWithItsStatus) {
  const std::vector<uint32_t> valid = assembleWords(kStoreOneKernel);
  std::vector<uint32_t> cut(valid.begin(), valid.end() - 3);
  std::span<const uint8_t> bytes = bytesOf(cut);
  const unsigned char* binary = bytes.data();
  size_t length = bytes.size();
  cl_int binaryStatus = CL_SUCCESS, status = CL_SUCCESS;
  messages_.clear();
  Program program(clCreateProgramWithBinary(context_, 1, &device_, &length, &binary, &binaryStatus, &status));
  EXPECT_EQ(program.get(), nullptr);
  EXPECT_CL_ERROR(CL_INVALID_BINARY, status);
  EXPECT_CL_ERROR(CL_INVALID_BINARY, binaryStatus);
  ASSERT_EQ(messages_.size(), 1u);
  EXPECT_NE(messages_[0].find("clCreateProgramWithBinary: binary 0 is not a cl2vk program binary (a SPIR-V module): "
                              "invalid SPIR-V at instruction 25"),
            std::string::npos)
      << messages_[0];
  expectTheGoodKernelRuns();
}

TEST_F(IcdBadInput, InvalidModuleFailsTheBuildNamingTheInstruction) {
  std::string text =
      replaced(kStoreOneKernel, "%x = OpCompositeExtract %ulong %ids 0", "%x = OpCompositeExtract %uint %ids 0");
  expectBuildFailure(bytesOf(assembleWords(text)),
                     {"the input is not valid SPIR-V: SPIRV-Tools validation (spv1.6) failed: Result type (OpTypeInt) "
                      "does not match the type that results from indexing into the composite",
                      "= OpCompositeExtract %uint %"});
  expectTheGoodKernelRuns();
}

TEST_F(IcdBadInput, ShaderModuleFailsTheBuild) {
  std::string text = replaced(replaced(kStoreOneKernel, "OpCapability Kernel", "OpCapability Shader"),
                              "OpMemoryModel Physical64 OpenCL", "OpMemoryModel Logical GLSL450");
  expectBuildFailure(bytesOf(assembleWords(text)), {"not an OpenCL module: it does not declare the Kernel capability"});
  expectTheGoodKernelRuns();
}

TEST_F(IcdBadInput, UnsupportedConstructFailsTheBuildNamingTheKernel) {
  expectBuildFailure(corpusModule("unsupported/recursion.O0.spv"),
                     {"kernel 'recursion': recursion is not supported: 'fib' calls 'fib'"});
  expectBuildFailure(corpusModule("unsupported/function_pointers.spv"),
                     {"kernel 'function_pointers': %", "function pointers are not supported by cl2vk"});
  expectTheGoodKernelRuns();
}

}  // namespace
}  // namespace cl2vk::test
