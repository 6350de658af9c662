#include "test_util.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <sstream>

#include "ir/reader.h"
#include "ir/writer.h"

namespace cl2vk::test {

std::unique_ptr<ir::Module> assemble(const std::string& text) {
  auto module = ir::readAssembly(text);
  EXPECT_TRUE(module.ok()) << module.error().message();
  if (!module) return nullptr;
  return std::move(*module);
}

std::string disassemble(const ir::Module& module) {
  auto text = ir::writeAssembly(module, {.friendlyNames = true, .header = false});
  EXPECT_TRUE(text.ok()) << text.error().message();
  return text.ok() ? *text : "";
}

std::string canonical(const std::string& text) {
  std::istringstream in(text);
  std::string result;
  for (std::string line; std::getline(in, line);) {
    std::istringstream words(line);
    std::string word, joined;
    while (words >> word) joined += (joined.empty() ? "" : " ") + word;
    if (joined.empty() || joined[0] == ';') continue;
    result += joined + "\n";
  }
  return result;
}

std::filesystem::path sourceDir() { return CL2VK_SOURCE_DIR; }

ScopedEnvironment::ScopedEnvironment(const char* name, std::optional<std::string> value) : name_(name) {
  if (const char* old = std::getenv(name)) old_ = old;
  set(value);
}

ScopedEnvironment::~ScopedEnvironment() { set(old_); }

void ScopedEnvironment::set(const std::optional<std::string>& value) {
  if (value) {
    setenv(name_, value->c_str(), 1);
  } else {
    unsetenv(name_);
  }
}

std::filesystem::path corpusDir() {
  const char* overridden = std::getenv("CL2VK_CORPUS_DIR");
  return overridden && *overridden ? std::filesystem::path(overridden) : std::filesystem::path(CL2VK_CORPUS_DIR);
}

std::vector<std::filesystem::path> corpusModules() {
  std::ifstream manifest(corpusDir() / "corpus.txt");
  std::vector<std::filesystem::path> paths;
  for (std::string line; std::getline(manifest, line);) {
    if (!line.empty()) paths.emplace_back(line);
  }
  return paths;
}

std::vector<std::filesystem::path> supportedCorpusModules() {
  std::vector<std::filesystem::path> paths;
  for (auto& path : corpusModules()) {
    if (path.parent_path().filename() != "unsupported") paths.push_back(path);
  }
  return paths;
}

std::vector<uint8_t> readFile(const std::filesystem::path& path) {
  std::ifstream file(path, std::ios::binary);
  EXPECT_TRUE(file.good()) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

std::vector<uint32_t> readWords(const std::filesystem::path& path) {
  std::vector<uint8_t> bytes = readFile(path);
  EXPECT_EQ(bytes.size() % 4, 0u) << path;
  std::vector<uint32_t> words(bytes.size() / 4);
  std::memcpy(words.data(), bytes.data(), words.size() * 4);
  return words;
}

void writeFile(const std::filesystem::path& path, const void* data, size_t size) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  ASSERT_TRUE(file.good()) << "cannot write " << path;
}

TempDir::TempDir() {
  std::string pattern = (std::filesystem::temp_directory_path() / "cl2vk-test-XXXXXX").string();
  char* made = mkdtemp(pattern.data());
  EXPECT_NE(made, nullptr);
  dir_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(dir_, ignored);
}

CommandResult runCommand(const std::string& command, const std::string& input) {
  TempDir dir;
  writeFile(dir.path("stdin"), input.data(), input.size());
  std::string full = command + " < '" + dir.path("stdin").string() + "' > '" + dir.path("stdout").string() + "' 2> '" +
                     dir.path("stderr").string() + "'";
  int status = std::system(full.c_str());
  CommandResult result;
  result.exitCode = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  auto slurp = [](const std::filesystem::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
  };
  result.out = slurp(dir.path("stdout"));
  result.err = slurp(dir.path("stderr"));
  return result;
}

}  // namespace cl2vk::test
