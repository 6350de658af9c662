// Specialization constants of an IL program through clSetProgramSpecializationConstant
// (spirv/generators/spec_constants.spvasm), run and compared with what the values say. The call
// used to return CL_INVALID_OPERATION (the CTS's spirv_new op_spec_constant_* tests), and a
// program's SpecId 0 or 7 was taken for the translation's own work-group size or __local length.

#include <cstring>

#include "icd/icd_test_util.h"
#include "test_util.h"

namespace cl2vk::test {
namespace {

class IcdSpecConstants : public IcdTest {
 protected:
  void SetUp() override {
    IcdTest::SetUp();
    il_ = corpusModule("generators/spec_constants.spv");
  }

  Program created() {
    cl_int error = CL_SUCCESS;
    Program program(clCreateProgramWithIL(context_, il_.data(), il_.size(), &error));
    EXPECT_CL_SUCCESS(error);
    return program;
  }

  template <typename T>
  void set(cl_program program, cl_uint id, T value) {
    EXPECT_CL_SUCCESS(clSetProgramSpecializationConstant(program, id, sizeof value, &value)) << "SpecId " << id;
  }

  // The nine values of every work-item (the module's header lists them), all equal across them.
  std::vector<cl_ulong> run(cl_program program) {
    EXPECT_CL_SUCCESS(clBuildProgram(program, 1, &device_, "", nullptr, nullptr)) << programBuildLog(program, device_);
    Kernel kernel = createKernel(program, "spec_constants");
    constexpr size_t n = 24, local = 8;  // 8: not the default of SpecId 0
    Buffer out = bufferOf(std::vector<cl_ulong>(9 * n, ~cl_ulong{0}));
    setArg(kernel, 0, out);
    EXPECT_CL_SUCCESS(clSetKernelArg(kernel, 1, local * sizeof(cl_ushort), nullptr));
    run1d(kernel, n, local);
    std::vector<cl_ulong> got = read<cl_ulong>(out, 9 * n);
    for (size_t i = 1; i < n; ++i) {
      for (size_t k = 0; k < 9; ++k) EXPECT_EQ(got[9 * i + k], got[k]) << "work-item " << i << ", value " << k;
    }
    return std::vector<cl_ulong>(got.begin(), got.begin() + 9);
  }

  static cl_ulong bitsOf(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
  }

  std::vector<uint8_t> il_;
};

TEST_F(IcdSpecConstants, DefaultsHoldWhenNothingIsSet) {
  Program program = created();
  EXPECT_EQ(run(program), (std::vector<cl_ulong>{7, cl_ulong{1} << 40, bitsOf(1.5f), 9, 1, 300, 300, 107, 12}));
}

TEST_F(IcdSpecConstants, SetValuesReachTheKernel) {
  Program program = created();
  set<cl_uint>(program, 0, 123456);
  set<cl_ulong>(program, 1, 0xfedcba9876543210ull);
  set<cl_float>(program, 2, -2.75f);
  set<cl_uchar>(program, 3, 250);
  set<cl_uchar>(program, 4, 0);  // a bool as a cl_uchar
  set<cl_ushort>(program, 7, 65535);
  EXPECT_EQ(run(program), (std::vector<cl_ulong>{123456, 0xfedcba9876543210ull, bitsOf(-2.75f), 250, 0, 65535, 65535,
                                                 123556, 123461}));
  // A later build takes the values set since.
  set<cl_uchar>(program, 4, 17);
  set<cl_uint>(program, 0, 1);
  EXPECT_EQ(run(program),
            (std::vector<cl_ulong>{1, 0xfedcba9876543210ull, bitsOf(-2.75f), 250, 1, 65535, 65535, 101, 6}));
}

TEST_F(IcdSpecConstants, UnknownIdsWrongSizesAndNonILProgramsAreRefused) {
  Program program = created();
  cl_uint value = 1;
  EXPECT_CL_ERROR(CL_INVALID_SPEC_ID, clSetProgramSpecializationConstant(program, 5, sizeof value, &value));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetProgramSpecializationConstant(program, 1, sizeof value, &value));
  EXPECT_CL_ERROR(CL_INVALID_VALUE, clSetProgramSpecializationConstant(program, 0, sizeof value, nullptr));
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM, clSetProgramSpecializationConstant(nullptr, 0, sizeof value, &value));
  const char* source = "kernel void k(global int* out) { *out = 1; }";
  cl_int error = CL_SUCCESS;
  Program fromSource(clCreateProgramWithSource(context_, 1, &source, nullptr, &error));
  ASSERT_CL_SUCCESS(error);
  EXPECT_CL_ERROR(CL_INVALID_PROGRAM, clSetProgramSpecializationConstant(fromSource, 0, sizeof value, &value));
}

}  // namespace
}  // namespace cl2vk::test
