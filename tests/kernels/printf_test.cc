// printf through the translator and the launcher: the records a kernel leaves are formatted on the
// host and written to stdout once the kernel is done; the tests capture stdout and compare the text.

#include <algorithm>
#include <sstream>

#include "kernel_test_util.h"
#include "launch/printf_output.h"

namespace cl2vk::test {
namespace {

using launch::KernelArg;

class Printf : public KernelTest {
 protected:
  // Runs the kernel and returns what it printed.
  std::string printed(launch::LaunchableKernel& kernel, const launch::NDRange& range,
                      const std::vector<KernelArg>& args) {
    testing::internal::CaptureStdout();
    run(kernel, range, args);
    return testing::internal::GetCapturedStdout();
  }
};

std::vector<std::string> sortedLines(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  std::sort(lines.begin(), lines.end());
  return lines;
}

TEST_P(Printf, ScalarsStringsCharactersWidthsAndPrecisions) {
  auto k = kernel("printf", "scalars");
  ASSERT_TRUE(k);
  std::vector<int> ints = {-42, 7, static_cast<int>(3000000000u), 0xBEEF, 8, 42, -1234, 200, 'K'};
  std::vector<float> floats = {3.14159f, 2.71828f, 12345.678f, 0.1f, -1.5f};
  std::vector<int64_t> longs = {-5000000000, static_cast<int64_t>(18000000000000000000u), 0xdeadbeefcafe};
  auto di = buffer(ints), df = buffer(floats), dl = buffer(longs), result = buffer(std::vector<int>(4, 7));
  std::string text = printed(
      *k, range1d(1), {KernelArg::buffer(di), KernelArg::buffer(df), KernelArg::buffer(dl), KernelArg::buffer(result)});
  EXPECT_EQ(text,
            "-42 7 3000000000 beef BEEF 10|   42|42   |00042|+42\n"
            "3.141590 2.72|     2.718|1.234568e+04 0.1 -0x1.8p+0 -0X1.8P+0\n"
            "-5000000000 18000000000000000000 deadbeefcafe -1234 200\n"
            "oK str|     right|left  |tr % done\n");
  EXPECT_EQ(read<int>(result, 4), std::vector<int>(4, 0));
}

TEST_P(Printf, VectorsPrintTheirComponentsSeparatedByCommas) {
  auto k = kernel("printf", "vectors");
  ASSERT_TRUE(k);
  auto iv = buffer(std::vector<int>{1, -2, 3, -4});
  auto fv = buffer(std::vector<float>{1.5f, -2.25f, 0.0f, 100.0f});
  auto sv = buffer(std::vector<int16_t>{-1, 2});
  auto cv = buffer(std::vector<uint8_t>{0, 1, 2, 127, 128, 200, 254, 255});
  auto lv = buffer(std::vector<int64_t>{-1, int64_t{1} << 40});
  auto result = buffer(std::vector<int>(2, 7));
  std::string text = printed(*k, range1d(1),
                             {KernelArg::buffer(iv), KernelArg::buffer(fv), KernelArg::buffer(sv),
                              KernelArg::buffer(cv), KernelArg::buffer(lv), KernelArg::buffer(result)});
  EXPECT_EQ(text,
            "1,-2,3,-4|1.500000,-2.250000,0.000000,100.000000|ffff,2|0,1,2,127,128,200,254,255|-1,1099511627776\n"
            "1.500000,-2.250000,0.000000,100.000000|1.5,-2.2,0.0,100.0|   -1,    2\n");
  EXPECT_EQ(read<int>(result, 2), std::vector<int>(2, 0));
}

TEST_P(Printf, PointersPrintTheirDeviceAddress) {
  auto k = kernel("printf", "pointer");
  ASSERT_TRUE(k);
  auto out = buffer(std::vector<int>(2, 7));
  std::string text = printed(*k, range1d(1), {KernelArg::buffer(out)});
  char expected[64];
  std::snprintf(expected, sizeof expected, "%p yz\n", reinterpret_cast<void*>(out.deviceAddress() + 4));
  EXPECT_EQ(text, expected);
  EXPECT_EQ(read<int>(out, 2)[1], 0);
}

// The specification leaves the order of different work-items' output open: every line is there once.
TEST_P(Printf, EveryWorkItemPrintsItsLine) {
  auto k = kernel("printf", "prints");
  ASSERT_TRUE(k);
  const size_t n = 1000;
  auto out = buffer(std::vector<int>(n, 7));
  std::vector<std::string> lines = sortedLines(printed(*k, range1d(n, 64), {KernelArg::buffer(out)}));
  std::vector<std::string> expected;
  for (size_t i = 0; i < n; ++i) expected.push_back("item " + std::to_string(i));
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(lines, expected);
  EXPECT_EQ(read<int>(out, n), std::vector<int>(n, 0));
}

// Each record of "item %d\n" takes two words; once the buffer is full, printf returns -1 and the
// record is dropped, and the next launch starts with an empty buffer.
TEST_P(Printf, AFullBufferDropsTheRecordAndReturnsMinusOne) {
  auto k = kernel("printf", "prints");
  ASSERT_TRUE(k);
  const size_t fit = launch::kPrintfRecordWords / 2;
  const size_t n = fit + 5000;
  auto out = buffer(std::vector<int>(n, 7));
  std::vector<std::string> lines = sortedLines(printed(*k, range1d(n, 64), {KernelArg::buffer(out)}));
  std::vector<int> results = read<int>(out, n);
  std::vector<std::string> expected;
  for (size_t i = 0; i < n; ++i) {
    ASSERT_TRUE(results[i] == 0 || results[i] == -1) << i << ": " << results[i];
    if (results[i] == 0) expected.push_back("item " + std::to_string(i));
  }
  EXPECT_EQ(expected.size(), fit);
  std::sort(expected.begin(), expected.end());
  EXPECT_EQ(lines, expected);

  std::string again = printed(*k, range1d(1), {KernelArg::buffer(out)});
  EXPECT_EQ(again, "item 0\n");
}

CL2VK_KERNEL_TEST_SUITE(Printf, "O0", "O2", "CL12", "CL30");

// The host's formatting alone, for what the kernels above do not reach.
TEST(PrintfFormatting, VectorsWithoutALengthModifierAndMismatchedConversions) {
  PrintfArgument float4{PrintfArgument::Kind::kFloat, 4, 32, ""};
  PrintfFormat format{"%v4f %d%%", {float4}};
  std::vector<uint32_t> words = {0x3f800000, 0x40000000, 0xbf000000, 0};
  EXPECT_EQ(launch::formatPrintf(format, words), "1.000000,2.000000,-0.500000,0.000000 %d%");
}

TEST(PrintfFormatting, HalfComponentsTravelAsFloatsAndLongsAsTwoWords) {
  PrintfArgument half2{PrintfArgument::Kind::kFloat, 2, 16, ""};
  PrintfArgument ulong{PrintfArgument::Kind::kInt, 1, 64, ""};
  PrintfFormat format{"%v2hf %lu %s", {half2, ulong, PrintfArgument{PrintfArgument::Kind::kString, 1, 32, "s"}}};
  std::vector<uint32_t> words = {0x3fc00000, 0xc0200000, 0xffffffff, 0xffffffff};
  EXPECT_EQ(launch::formatPrintf(format, words), "1.500000,-2.500000 18446744073709551615 s");
}

// Undefined in OpenCL C, but never undefined on the host: a float to %d prints its truncation, a
// NaN 0, and a conversion without an argument left prints as written.
TEST(PrintfFormatting, MismatchedConversionsStayDefinedOnTheHost) {
  PrintfArgument scalar{PrintfArgument::Kind::kFloat, 1, 32, ""};
  PrintfFormat format{"%d %d %d", {scalar, scalar}};
  std::vector<uint32_t> words = {0xc0200000, 0x7fc00000};  // -2.5, NaN
  EXPECT_EQ(launch::formatPrintf(format, words), "-2 0 %d");
}

TEST(PrintfFormatting, RecordsWithAnUnknownFormatEndTheWalk) {
  std::vector<PrintfFormat> formats = {{"a%d\n", {PrintfArgument{}}}};
  std::vector<uint32_t> records = {0, 5, 0, 6, 9, 1, 2};
  EXPECT_EQ(launch::formatPrintfRecords(formats, records), "a5\na6\n");
}

}  // namespace
}  // namespace cl2vk::test
