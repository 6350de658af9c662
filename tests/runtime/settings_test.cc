// The CL2VK_* settings the code reads (src/support/settings.cc) are exactly those docs/runtime.md's
// "Environment" table lists, and each reads as the variable says.

#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "support/settings.h"

namespace cl2vk::settings {
namespace {

// The CL2VK_* names in the first column of the table under "## Environment".
std::set<std::string> documentedVariables() {
  std::ifstream doc(std::string(CL2VK_SOURCE_DIR) + "/docs/runtime.md");
  std::set<std::string> names;
  std::string line;
  bool inSection = false;
  const std::regex name("CL2VK_[A-Z0-9_]+");
  while (std::getline(doc, line)) {
    if (line.starts_with("## ")) inSection = line == "## Environment";
    if (!inSection || !line.starts_with("| `")) continue;
    const std::string firstColumn = line.substr(0, line.find('|', 1));
    for (std::sregex_iterator it(firstColumn.begin(), firstColumn.end(), name), end; it != end; ++it)
      names.insert(it->str());
  }
  return names;
}

TEST(SettingsTest, TheDocumentedTableListsEverySettingAndNoOther) {
  std::set<std::string> read;
  for (const Description& description : all()) {
    EXPECT_TRUE(read.insert(std::string(description.variable)).second) << description.variable << " twice";
    EXPECT_EQ(variableOf(description.setting), description.variable);
    EXPECT_FALSE(description.summary.empty()) << description.variable;
  }
  EXPECT_EQ(documentedVariables(), read) << "docs/runtime.md, \"Environment\", and src/support/settings.cc differ";
}

TEST(SettingsTest, UnsetAndEmptyReadAsUnsetAndOnlyOneIsOn) {
  unsetenv("CL2VK_LOG");
  EXPECT_EQ(read(Setting::kLog), std::nullopt);
  EXPECT_FALSE(isOn(Setting::kLog));
  setenv("CL2VK_LOG", "", 1);
  EXPECT_EQ(read(Setting::kLog), std::nullopt);
  setenv("CL2VK_LOG", "yes", 1);
  EXPECT_EQ(read(Setting::kLog), "yes");
  EXPECT_FALSE(isOn(Setting::kLog));
  setenv("CL2VK_LOG", "1", 1);
  EXPECT_TRUE(isOn(Setting::kLog));
  unsetenv("CL2VK_LOG");
}

}  // namespace
}  // namespace cl2vk::settings
