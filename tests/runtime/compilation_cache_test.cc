// The compilation cache (src/runtime/compilation_cache.h): entries found under their own key only,
// missed when an included file changed or the entry is damaged, the included files read from
// clang's dependency rule, where CL2VK_CACHE puts it, and the least recently used entries trimmed.

#include "runtime/compilation_cache.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

namespace cl2vk::runtime {
namespace {

// A fresh directory under the system's temporary one, removed at the end of the test.
class CompilationCacheTest : public testing::Test {
 protected:
  void SetUp() override {
    std::string pattern = (fs::temp_directory_path() / "cl2vk-cache-test-XXXXXX").string();
    ASSERT_NE(mkdtemp(pattern.data()), nullptr);
    directory_ = pattern;
  }
  void TearDown() override { fs::remove_all(directory_); }

  void write(const fs::path& path, const std::string& contents) {
    std::ofstream(path, std::ios::binary) << contents;
    ASSERT_TRUE(fs::exists(path));
  }

  std::vector<fs::path> entries() const {
    std::vector<fs::path> files;
    for (const auto& entry : fs::recursive_directory_iterator(directory_ / "cache"))
      if (entry.is_regular_file()) files.push_back(entry.path());
    return files;
  }

  fs::path directory_;
};

const CachedCompilation kCompilation{{0x07230203, 0x10000, 1, 2, 3}, "program.cl:1:2: warning: something\n"};

TEST_F(CompilationCacheTest, AStoredCompilationIsFoundUnderItsKeyOnly) {
  CompilationCache cache(directory_ / "cache");
  EXPECT_FALSE(cache.find("key one"));
  cache.store("key one", {}, kCompilation);
  std::optional<CachedCompilation> found = cache.find("key one");
  ASSERT_TRUE(found);
  EXPECT_EQ(found->spirv, kCompilation.spirv);
  EXPECT_EQ(found->log, kCompilation.log);
  EXPECT_FALSE(cache.find("key two"));
  EXPECT_FALSE(cache.find("key one "));
  EXPECT_EQ(entries().size(), 1u);  // no temporary file left behind
}

// Two keys whose entries had the same name: the entry of one is not the other's.
TEST_F(CompilationCacheTest, AnEntryIsUsedOnlyForTheKeyItHolds) {
  CompilationCache cache(directory_ / "cache");
  cache.store("key two", {}, kCompilation);
  ASSERT_EQ(entries().size(), 1u);
  fs::path twoEntry = entries()[0];
  cache.store("key one", {}, CachedCompilation{{0x07230203, 9}, ""});
  for (const fs::path& entry : entries()) {
    if (entry != twoEntry) fs::copy_file(entry, twoEntry, fs::copy_options::overwrite_existing);
  }
  EXPECT_FALSE(cache.find("key two"));
  EXPECT_TRUE(cache.find("key one"));
}

TEST_F(CompilationCacheTest, AChangedOrRemovedIncludedFileMissesTheEntry) {
  CompilationCache cache(directory_ / "cache");
  fs::path header = directory_ / "scale.h";
  write(header, "#define SCALE 3\n");
  cache.store("key", {header}, kCompilation);
  EXPECT_TRUE(cache.find("key"));
  write(header, "#define SCALE 30\n");
  EXPECT_FALSE(cache.find("key"));
  cache.store("key", {header}, kCompilation);
  EXPECT_TRUE(cache.find("key"));
  // The same size, written later: the modification time tells.
  fs::last_write_time(header, fs::last_write_time(header) + std::chrono::seconds(2));
  EXPECT_FALSE(cache.find("key"));
  cache.store("key", {header}, kCompilation);
  fs::remove(header);
  EXPECT_FALSE(cache.find("key"));
}

TEST_F(CompilationCacheTest, AnIncludedFileThatCannotBeReadIsNotStored) {
  CompilationCache cache(directory_ / "cache");
  cache.store("key", {directory_ / "missing.h"}, kCompilation);
  EXPECT_FALSE(cache.find("key"));
}

TEST_F(CompilationCacheTest, ADamagedEntryIsAMiss) {
  CompilationCache cache(directory_ / "cache");
  cache.store("key", {}, kCompilation);
  ASSERT_EQ(entries().size(), 1u);
  fs::path entry = entries()[0];
  uintmax_t size = fs::file_size(entry);
  for (uintmax_t cut : {size - 1, size - 4, size / 2, uintmax_t{3}, uintmax_t{0}}) {
    fs::resize_file(entry, cut);
    EXPECT_FALSE(cache.find("key")) << "cut to " << cut << " bytes";
    cache.store("key", {}, kCompilation);
  }
  write(entry, std::string(size, '\xff'));
  EXPECT_FALSE(cache.find("key"));
}

TEST(CompilationCacheDependenciesTest, TheIncludedFilesComeFromClangsRuleWithoutTheCompilationsOwn) {
  const std::string rule =
      "cl2vk/front-end.ll: program.cl cl2vk/device_macros.h \\\n"
      "  /usr/lib/llvm-15/lib/clang/15.0.6/include/opencl-c-base.h \\\n"
      "  /home/me/my\\ headers/scale.h ../shared/common.h \\\n"
      "  /usr/lib/llvm-15/lib/clang/15.0.6/include/opencl-c-base.h\n";
  std::vector<fs::path> files = dependenciesFrom(rule, "/tmp/cl2vk-x/work", "/tmp/cl2vk-x/work");
  EXPECT_EQ(files, (std::vector<fs::path>{"/home/me/my headers/scale.h", "/tmp/cl2vk-x/shared/common.h",
                                          "/usr/lib/llvm-15/lib/clang/15.0.6/include/opencl-c-base.h"}));
}

TEST(CompilationCacheOpenTest, TheSettingAndTheHomeDirectoryDecideWhere) {
  const char* home = std::getenv("HOME");
  std::string savedHome = home ? home : "";
  unsetenv("XDG_CACHE_HOME");
  setenv("HOME", "/home/someone", 1);
  unsetenv("CL2VK_CACHE");
  ASSERT_TRUE(CompilationCache::open());
  EXPECT_EQ(CompilationCache::open()->directory(), "/home/someone/.cache/cl2vk");
  setenv("XDG_CACHE_HOME", "/var/cache/me", 1);
  EXPECT_EQ(CompilationCache::open()->directory(), "/var/cache/me/cl2vk");
  setenv("CL2VK_CACHE", "/srv/cl", 1);
  EXPECT_EQ(CompilationCache::open()->directory(), "/srv/cl");
  setenv("CL2VK_CACHE", "off", 1);
  EXPECT_FALSE(CompilationCache::open());
  unsetenv("CL2VK_CACHE");
  unsetenv("XDG_CACHE_HOME");
  unsetenv("HOME");
  EXPECT_FALSE(CompilationCache::open());
  if (home) setenv("HOME", savedHome.c_str(), 1);
}

TEST_F(CompilationCacheTest, TrimmingRemovesTheLeastRecentlyUsedFirst) {
  fs::create_directories(directory_ / "cache" / "ab");
  auto now = fs::file_time_type::clock::now();
  for (int i = 0; i < 10; ++i) {
    fs::path file = directory_ / "cache" / "ab" / ("entry" + std::to_string(i));
    write(file, std::string(1000, 'x'));
    fs::last_write_time(file, now - std::chrono::minutes(10 - i));  // entry0 the oldest
  }
  trimCache(directory_ / "cache", 20000);  // under the limit: nothing goes
  EXPECT_EQ(entries().size(), 10u);
  trimCache(directory_ / "cache", 5000);  // down to 3750 bytes: the three newest stay
  std::vector<fs::path> left = entries();
  std::sort(left.begin(), left.end());
  EXPECT_EQ(left, (std::vector<fs::path>{directory_ / "cache/ab/entry7", directory_ / "cache/ab/entry8",
                                         directory_ / "cache/ab/entry9"}));
}

}  // namespace
}  // namespace cl2vk::runtime
