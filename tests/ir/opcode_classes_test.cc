// The opcode classes against the names SPIRV-Headers gives every opcode: the classes are switches
// and ranges, and this checks them against the grammar's naming, so that an opcode the headers add
// to a family is not missed silently.

#include "ir/opcode_classes.h"

#include <gtest/gtest.h>

#include <string>

namespace cl2vk::ir {
namespace {

constexpr uint32_t kLargestOpcode = 0x10000;

TEST(OpcodeClassesTest, NonUniformGroupOperationsAreTheOpGroupNonUniformOpcodes) {
  int found = 0;
  for (uint32_t value = 0; value < kLargestOpcode; ++value) {
    const auto opcode = static_cast<spv::Op>(value);
    const bool named = opcodeName(opcode).starts_with("OpGroupNonUniform");
    EXPECT_EQ(isNonUniformGroupOperation(opcode), named) << opcodeName(opcode);
    found += named;
  }
  EXPECT_GE(found, 36);
}

TEST(OpcodeClassesTest, CrossInvocationOpcodesAreBarriersAndEveryGroupAndSubgroupOpcode) {
  int found = 0;
  for (uint32_t value = 0; value < kLargestOpcode; ++value) {
    const auto opcode = static_cast<spv::Op>(value);
    const std::string name = opcodeName(opcode);
    const bool decorationGroup = name == "OpGroupDecorate" || name == "OpGroupMemberDecorate";
    const bool named = name == "OpControlBarrier" || (name.starts_with("OpGroup") && !decorationGroup) ||
                       name.starts_with("OpSubgroup");
    EXPECT_EQ(isCrossInvocation(opcode), named) << name;
    found += named;
  }
  EXPECT_GE(found, 180);  // the AVC motion-estimation set alone has 104
}

}  // namespace
}  // namespace cl2vk::ir
