// Helpers shared by the test suites: assembling modules from text, the built corpus, and running
// the command-line tools.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "ir/module.h"

namespace cl2vk::test {

// Assembles `text` into a module; the test fails (and the result is null) when it cannot.
std::unique_ptr<ir::Module> assemble(const std::string& text);

// The module as assembly text without the header comment, with friendly names, for comparisons.
std::string disassemble(const ir::Module& module);

// `text` with each line trimmed, runs of blanks collapsed, and blank and comment lines dropped,
// so that expected assembly can be written with any alignment.
std::string canonical(const std::string& text);

// Sets (or, with std::nullopt, unsets) an environment variable for one scope, then restores it.
class ScopedEnvironment {
 public:
  ScopedEnvironment(const char* name, std::optional<std::string> value);
  ~ScopedEnvironment();
  ScopedEnvironment(const ScopedEnvironment&) = delete;
  ScopedEnvironment& operator=(const ScopedEnvironment&) = delete;

 private:
  void set(const std::optional<std::string>& value);
  const char* name_;
  std::optional<std::string> old_;
};

// Where the built corpus is: $CL2VK_CORPUS_DIR when set (to run the tests on another machine),
// else the build's own directory.
std::filesystem::path corpusDir();

// The modules the build made from spirv/ (listed in corpus.txt, by their build paths).
std::vector<std::filesystem::path> corpusModules();
// The same without unsupported/ (constructs the translator must refuse).
std::vector<std::filesystem::path> supportedCorpusModules();
std::filesystem::path sourceDir();

std::vector<uint8_t> readFile(const std::filesystem::path& path);
std::vector<uint32_t> readWords(const std::filesystem::path& path);
void writeFile(const std::filesystem::path& path, const void* data, size_t size);

struct CommandResult {
  int exitCode = -1;
  std::string out;
  std::string err;
};
// Runs `command` through the shell, with `input` on its stdin, capturing stdout and stderr.
CommandResult runCommand(const std::string& command, const std::string& input = "");

// A fresh directory for one test's files, removed when it goes out of scope.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  std::filesystem::path path(const std::string& name) const { return dir_ / name; }

 private:
  std::filesystem::path dir_;
};

}  // namespace cl2vk::test
