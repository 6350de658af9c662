// Every field of cl2vk::Target has a cl2vk-opt flag, and the flags of a Target make it again: what
// the runtime relies on to write the command that repeats one of its translations (CL2VK_DUMP).

#include <gtest/gtest.h>

#include <string>

#include "cl2vk/target.h"

namespace cl2vk {
namespace {

// Target's fields, as many as everyFieldChanged names.
constexpr size_t kTargetFields = 39;

// A Target with every field away from its default. The structured binding counts the fields: a
// field added to Target fails to compile here until it is set below and has a flag.
Target everyFieldChanged() {
  Target target;
  auto& [env, minSubgroup, maxSubgroup, arithmetic, extendedTypes, vote, ballot, shuffle, shuffleRelative, clustered,
         byRow, requiredSize, shuffleScans, int8, int16, int64, float16, float64, denormPreserve, relaxedMath,
         emulateFlush, storage8, storage16, pushConstants, workGroup, loopLimit, privateBudget, loopUnroll,
         loopExitPhis, pointerPhis, float64Rounding, broadcastFirst, fusedFma, fusedLibraryForms, splitRotates,
         vulkanMemoryModel, memoryBarriers, exactUnsignedToFloat, freeWorkGroups] = target;
  env = SPV_ENV_VULKAN_1_3;
  minSubgroup = 4;
  maxSubgroup = 64;
  workGroup = 256;
  pushConstants = 256;
  loopLimit = 65536;
  privateBudget = 4096;
  loopUnroll = 3;
  for (bool* flag : {&arithmetic,
                     &extendedTypes,
                     &vote,
                     &ballot,
                     &shuffle,
                     &shuffleRelative,
                     &clustered,
                     &byRow,
                     &requiredSize,
                     &shuffleScans,
                     &int8,
                     &int16,
                     &int64,
                     &float16,
                     &float64,
                     &denormPreserve,
                     &relaxedMath,
                     &emulateFlush,
                     &storage8,
                     &storage16,
                     &loopExitPhis,
                     &pointerPhis,
                     &float64Rounding,
                     &broadcastFirst,
                     &fusedFma,
                     &fusedLibraryForms,
                     &splitRotates,
                     &vulkanMemoryModel,
                     &memoryBarriers,
                     &exactUnsignedToFloat,
                     &freeWorkGroups})
    *flag = !*flag;
  return target;
}

Target parse(const std::vector<std::string>& flags) {
  Target target;
  for (const std::string& flag : flags) {
    Expected<bool> applied = applyTargetFlag(flag, target);
    EXPECT_TRUE(applied.ok() && *applied) << flag << (applied ? "" : ": " + applied.error().message());
  }
  return target;
}

TEST(TargetFlagsTest, ADefaultTargetNeedsNoFlag) { EXPECT_TRUE(targetFlags(Target{}).empty()); }

TEST(TargetFlagsTest, TheFlagsOfATargetMakeItAgain) {
  const Target changed = everyFieldChanged();
  const std::vector<std::string> flags = targetFlags(changed);
  EXPECT_EQ(flags.size(), kTargetFields);  // one per field
  EXPECT_TRUE(parse(flags) == changed);
  EXPECT_FALSE(parse(flags) == Target{});
}

TEST(TargetFlagsTest, EachFieldAloneGivesOneFlagThatSetsOnlyIt) {
  const Target changed = everyFieldChanged();
  for (const std::string& flag : targetFlags(changed)) {
    const Target one = parse({flag});
    ASSERT_EQ(targetFlags(one), std::vector<std::string>{flag});
  }
}

TEST(TargetFlagsTest, OtherArgumentsAreNotTargetFlags) {
  Target target;
  for (const char* other : {"--stats", "--lower-int64", "x.spv", "-o", "--validate", "--relaxed"}) {
    Expected<bool> applied = applyTargetFlag(other, target);
    ASSERT_TRUE(applied.ok()) << other;
    EXPECT_FALSE(*applied) << other;
  }
  EXPECT_TRUE(target == Target{});
}

TEST(TargetFlagsTest, BadValuesAreErrorsNamingTheFlag) {
  Target target;
  const std::pair<const char*, const char*> cases[] = {
      {"--loop-unroll=0", "--loop-unroll needs a number from 1 to 16, not '0'"},
      {"--loop-unroll=17", "--loop-unroll needs a number from 1 to 16, not '17'"},
      {"--loop-unroll=x", "--loop-unroll needs a number from 1 to 16, not 'x'"},
      {"--loop-unroll=", "--loop-unroll needs a number from 1 to 16, not ''"},
      {"--loop-unroll", "--loop-unroll=<n> needs a value"},
      {"--loop-iteration-limit=99999999999", "--loop-iteration-limit needs a number from 0 to 999999999"},
      {"--max-push-constants-size=64", "--max-push-constants-size needs a number from 128"},
      {"--subgroup-scans=shuffle", "--subgroup-scans must be native or shuffle-up, not 'shuffle'"},
      {"--no-int64=1", "--no-int64 takes no value"},
      {"--target-env=vulkan9", "unknown target environment 'vulkan9'"},
  };
  for (const auto& [flag, message] : cases) {
    Expected<bool> applied = applyTargetFlag(flag, target);
    ASSERT_FALSE(applied.ok()) << flag;
    EXPECT_NE(applied.error().message().find(message), std::string::npos) << applied.error().message();
  }
  EXPECT_TRUE(target == Target{});
}

TEST(TargetFlagsTest, HelpListsEveryFlagOnce) {
  const std::vector<TargetFlagHelp> help = targetFlagHelp();
  EXPECT_EQ(help.size(), kTargetFields);
  for (const std::string& flag : targetFlags(everyFieldChanged())) {
    const std::string name = flag.substr(0, flag.find('='));
    int listed = 0;
    for (const TargetFlagHelp& entry : help) listed += entry.usage.substr(0, entry.usage.find('=')) == name;
    EXPECT_EQ(listed, 1) << name;
  }
}

}  // namespace
}  // namespace cl2vk
