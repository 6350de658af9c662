// Kernel arguments of every scalar and vector width through clSetKernelArg, with the sizes the
// OpenCL host types have (a 3-component vector takes the size of 4), read back exactly.
#include <CL/cl_platform.h>

#include "icd/icd_test_util.h"

namespace cl2vk::test {
namespace {

class IcdArgumentTypes : public IcdTest {};

TEST_F(IcdArgumentTypes, EveryWidthArrivesIntact) {
  Program program = buildSource(R"(
    kernel void args(global long* out, char c, uchar uc, short s, ushort us, int i, uint ui, long l, ulong ul,
                     float f, char2 c2, uchar4 u4, short3 s3, int3 i3, float3 f3, long2 l2, float8 f8, int16 i16) {
      out[0] = c;  out[1] = uc;  out[2] = s;  out[3] = us;  out[4] = i;  out[5] = ui;  out[6] = l;  out[7] = (long)ul;
      out[8] = (long)(f * 4.0f);
      out[9] = c2.x * 1000 + c2.y;
      out[10] = ((long)u4.x << 24) | ((long)u4.y << 16) | ((long)u4.z << 8) | u4.w;
      out[11] = s3.x * 1000000L + s3.y * 1000L + s3.z;
      out[12] = i3.x * 1000000L + i3.y * 1000L + i3.z;
      out[13] = (long)(f3.x * 4) * 1000000L + (long)(f3.y * 4) * 1000L + (long)(f3.z * 4);
      out[14] = l2.x - l2.y;
      out[15] = (long)(f8.s0 + f8.s7);
      out[16] = i16.s0 + i16.sf * 100L;
    }
  )",
                                "-cl-std=CL2.0");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "args");
  Buffer out = createBuffer(17 * sizeof(cl_long));

  cl_char2 c2 = {{-3, 7}};
  cl_uchar4 u4 = {{0xAB, 0x01, 0xFE, 0x42}};
  cl_short3 s3 = {{-12, 345, 678}};
  cl_int3 i3 = {{-9, 8, 7}};
  cl_float3 f3 = {{1.25f, -2.5f, 3.75f}};
  cl_long2 l2 = {{int64_t{1} << 40, 5}};
  cl_float8 f8 = {{1.5f, 0, 0, 0, 0, 0, 0, 2.5f}};
  cl_int16 i16{};
  i16.s[0] = 11;
  i16.s[15] = -4;
  ASSERT_EQ(sizeof(cl_float3), 16u);  // what clSetKernelArg must be given for a float3
  setArgs(kernel, out, cl_char{-100}, cl_uchar{200}, cl_short{-30000}, cl_ushort{60000}, cl_int{-2000000000},
          cl_uint{4000000000u}, cl_long{-(int64_t{1} << 50)}, cl_ulong{(uint64_t{1} << 62) + 3}, cl_float{-2.75f}, c2,
          u4, s3, i3, f3, l2, f8, i16);
  run1d(kernel, 1, 1);
  std::vector<cl_long> got = read<cl_long>(out, 17);
  std::vector<cl_long> expected = {-100,
                                   200,
                                   -30000,
                                   60000,
                                   -2000000000,
                                   4000000000,
                                   -(int64_t{1} << 50),
                                   (int64_t{1} << 62) + 3,
                                   -11,
                                   -3 * 1000 + 7,
                                   (0xABL << 24) | (0x01 << 16) | (0xFE << 8) | 0x42,
                                   -12 * 1000000L + 345 * 1000 + 678,
                                   -9 * 1000000L + 8 * 1000 + 7,
                                   5 * 1000000L - 10 * 1000 + 15,
                                   (int64_t{1} << 40) - 5,
                                   4,
                                   11 - 400};
  for (size_t i = 0; i < expected.size(); ++i) EXPECT_EQ(got[i], expected[i]) << "out[" << i << "]";
}

TEST_F(IcdArgumentTypes, WrongSizesAreRefusedForVectors) {
  Program program = buildSource("kernel void v(global float* out, float3 f) { out[0] = f.x; }", "-cl-std=CL2.0");
  ASSERT_TRUE(program.get());
  Kernel kernel = createKernel(program, "v");
  float twelve[3] = {1, 2, 3};
  EXPECT_CL_ERROR(CL_INVALID_ARG_SIZE, clSetKernelArg(kernel, 1, sizeof twelve, twelve));
  cl_float3 sixteen = {{1, 2, 3}};
  EXPECT_CL_SUCCESS(clSetKernelArg(kernel, 1, sizeof sixteen, &sixteen));
}

}  // namespace
}  // namespace cl2vk::test
