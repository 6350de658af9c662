// Integers of odd widths through the ICD. clang-15 -O2 narrows a switch on `x & 3` to an i2, on
// `len / 4` to an i30 and on `(x >> 4) & 0xf` to an i4: hashcat 6.2.6 stopped at its first kernel
// and the OpenCL-CTS sub-group `ifp` kernel failed to build ("InvalidBitWidth: Invalid bit width
// in input"). The reduced kernel builds from source and switches as the CPU does; a module with
// OpTypeInt 4, 24 and 2 (_BitInt, spirv/frontend/odd_integers.cl) is taken by
// clCreateProgramWithIL and computes with N-bit semantics.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "icd_test_util.h"
#include "test_util.h"

namespace cl2vk::test {
namespace {

constexpr const char* kNarrowedSwitches = R"(
kernel void narrowed_switches(global const uint* in, global int* out) {
  uint i = get_global_id(0);
  uint length = in[2 * i], word = in[2 * i + 1];
  uint appended = word;
  switch (length & 3) {  // an i2: case 2 is -2, case 3 -1
    case 0: appended |= 0x80u; break;
    case 1: appended |= 0x8000u; break;
    case 2: appended |= 0x800000u; break;
    case 3: appended |= 0x80000000u; break;
  }
  int slot;
  switch (length / 4) {  // an i30
    case 0: slot = 11; break;
    case 1: slot = 22; break;
    case 2: slot = 33; break;
    case 3: slot = 44; break;
    case 4: slot = 55; break;
    case 5: slot = 66; break;
    default: slot = -1; break;
  }
  int op;
  switch ((word >> 4) & 0xf) {  // an i4
    case 0: op = -5; break;
    case 1: op = 100; break;
    case 2: op = 200; break;
    case 3: op = 300; break;
    case 15: op = 1500; break;
    default: op = 7; break;
  }
  out[3 * i] = (int)appended;
  out[3 * i + 1] = slot;
  out[3 * i + 2] = op;
}
)";

class IcdOddWidthIntegers : public IcdTest, public testing::WithParamInterface<const char*> {};

TEST_P(IcdOddWidthIntegers, NarrowedSwitchesBuildAndSwitchAsTheCpu) {
  Program program = buildSource(kNarrowedSwitches, GetParam());
  ASSERT_TRUE(program);
  Kernel kernel = createKernel(program, "narrowed_switches");
  ASSERT_TRUE(kernel);
  constexpr size_t n = 512;
  std::vector<cl_uint> in(2 * n);
  for (size_t i = 0; i < n; ++i) {
    in[2 * i] = i < 32 ? static_cast<cl_uint>(i) : static_cast<cl_uint>(i * 2654435761u);    // every length up to 31
    in[2 * i + 1] = static_cast<cl_uint>(i * 40503u) ^ (static_cast<cl_uint>(i % 16) << 4);  // every op
  }
  Buffer din = bufferOf(in), dout = bufferOf(std::vector<cl_int>(3 * n, 0));
  setArgs(kernel, din, dout);
  size_t global = n, local = 64;
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, &local, 0, nullptr, nullptr));
  std::vector<cl_int> out = read<cl_int>(dout, 3 * n);
  for (size_t i = 0; i < n; ++i) {
    cl_uint length = in[2 * i], word = in[2 * i + 1];
    cl_uint appended = word | (0x80u << (8 * (length & 3)));
    cl_int slot = length / 4 <= 5 ? static_cast<cl_int>(11 * (length / 4 + 1)) : -1;
    cl_uint field = (word >> 4) & 0xf;
    cl_int op = field == 0 ? -5 : field <= 3 ? static_cast<cl_int>(100 * field) : field == 15 ? 1500 : 7;
    ASSERT_EQ(out[3 * i], static_cast<cl_int>(appended)) << i;
    ASSERT_EQ(out[3 * i + 1], slot) << i << ": length " << length;
    ASSERT_EQ(out[3 * i + 2], op) << i << ": field " << field;
  }
}

INSTANTIATE_TEST_SUITE_P(Options, IcdOddWidthIntegers, testing::Values("", "-cl-opt-disable", "-cl-std=CL2.0"),
                         [](const testing::TestParamInfo<const char*>& info) {
                           std::string name = info.param;
                           if (name.empty()) return std::string("Default");
                           return name == "-cl-opt-disable" ? std::string("OptDisable") : std::string("CL2_0");
                         });

// SPIR-V that declares 4-, 24- and 2-bit integers (what llvm-spirv-15 writes for _BitInt under
// SPV_INTEL_arbitrary_precision_integers) through clCreateProgramWithIL: the 4-bit sum of 7 and
// 9 wraps to 0 and a 4-bit 0xF is -1 when sign-extended.
TEST_F(IcdTest, OddWidthIntegerModuleFromIlComputesWithNBitSemantics) {
  Program program = buildCorpusModule("frontend/odd_integers.O2.spv");
  ASSERT_TRUE(program);
  Kernel kernel = createKernel(program, "odd_integers");
  ASSERT_TRUE(kernel);
  std::vector<cl_int> in = {7, 9, 15, 1, -8, -1, 0x123456, 0x7fffff};
  constexpr size_t n = 4;
  Buffer din = bufferOf(in), dout = bufferOf(std::vector<cl_int>(8 * n, 0));
  Buffer dbytes = bufferOf(std::vector<cl_uchar>(4 * n, 0xab));
  setArgs(kernel, din, dout, dbytes);
  size_t global = n;
  ASSERT_CL_SUCCESS(clEnqueueNDRangeKernel(queue_, kernel, 1, nullptr, &global, nullptr, 0, nullptr, nullptr));
  std::vector<cl_int> out = read<cl_int>(dout, 8 * n);
  EXPECT_EQ(out[0], 0);        // (i4)(7 + 9)
  EXPECT_EQ(out[1], -1);       // 7 / (i4)9, which is -7
  EXPECT_EQ(out[8 + 0], 0);    // (i4)(15 + 1)
  EXPECT_EQ(out[8 + 1], -1);   // (i4)15, which is -1, / 1
  EXPECT_EQ(out[16 + 1], 99);  // -8 / -1 overflows 4 bits: the kernel leaves it out
  EXPECT_EQ(out[24 + 4], static_cast<cl_int>((int64_t{0x7fffff} * 12345) & 0xffffff));  // wraps at 24 bits
  std::vector<cl_uchar> bytes = read<cl_uchar>(dbytes, 4 * n);
  for (size_t i = 0; i < n; ++i) EXPECT_EQ(bytes[4 * i + 3], 0xab) << i;
}

}  // namespace
}  // namespace cl2vk::test
