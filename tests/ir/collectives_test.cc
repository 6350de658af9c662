#include "ir/collectives.h"

#include <gtest/gtest.h>

namespace cl2vk::ir {
namespace {

TEST(CollectivesTest, DemanglesTheBaseName) {
  EXPECT_EQ(demangledBaseName("_Z21work_group_reduce_andi"), "work_group_reduce_and");
  EXPECT_EQ(demangledBaseName("_Z28sub_group_scan_inclusive_xorj"), "sub_group_scan_inclusive_xor");
  EXPECT_EQ(demangledBaseName("plain"), "plain");
  EXPECT_EQ(demangledBaseName("_Z"), "_Z");
  EXPECT_EQ(demangledBaseName("_Z99short"), "_Z99short");  // length past the end
  EXPECT_EQ(demangledBaseName("_Z99999999999999999999999x"), "_Z99999999999999999999999x");
}

TEST(CollectivesTest, RecognisesCollectiveBuiltinsOnly) {
  EXPECT_TRUE(isCollectiveBuiltinName("_Z29work_group_reduce_logical_xori"));
  EXPECT_TRUE(isCollectiveBuiltinName("_Z28work_group_scan_exclusive_orl"));
  EXPECT_TRUE(isCollectiveBuiltinName("_Z14work_group_alli"));
  EXPECT_TRUE(isCollectiveBuiltinName("_Z19sub_group_broadcastij"));
  EXPECT_FALSE(isCollectiveBuiltinName("_Z18work_group_barrierj"));
  EXPECT_FALSE(isCollectiveBuiltinName("_Z13get_global_idj"));
  EXPECT_FALSE(isCollectiveBuiltinName("work_group_reduce_"));
  EXPECT_FALSE(isCollectiveBuiltinName("_Z20work_group_allocatorj"));
}

TEST(CollectivesTest, KnowsTheGroupInstructions) {
  EXPECT_TRUE(isGroupCollective(spv::Op::OpGroupIAdd));
  EXPECT_TRUE(isGroupCollective(spv::Op::OpGroupLogicalXorKHR));
  EXPECT_FALSE(isGroupCollective(spv::Op::OpGroupNonUniformIAdd));
  EXPECT_FALSE(isGroupCollective(spv::Op::OpGroupDecorate));
}

}  // namespace
}  // namespace cl2vk::ir
