// Runs the translator's fuzz target once on each input named on the command line, as libFuzzer
// does when it is given files instead of a corpus to grow. Every build uses it to replay
// tests/fuzz/regressions/ and the seed corpus, so an input that once found a bug runs in every CI
// build, with or without libFuzzer.
//
//   translate_fuzzer_replay [--list=FILE]... [FILE | DIRECTORY]...
//
// A directory contributes every regular file under it; --list=FILE every path FILE lists, one a
// line (the corpus's corpus.txt). A failure aborts, naming the input first.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

namespace fs = std::filesystem;

bool collectInputs(const std::string& arg, std::vector<fs::path>& inputs) {
  if (arg.starts_with("--list=")) {
    std::ifstream list(arg.substr(7));
    if (!list) {
      std::fprintf(stderr, "translate_fuzzer_replay: cannot read the list %s\n", arg.c_str() + 7);
      return false;
    }
    for (std::string line; std::getline(list, line);) {
      if (!line.empty()) inputs.emplace_back(line);
    }
    return true;
  }
  std::error_code error;
  if (fs::is_directory(arg, error)) {
    std::vector<fs::path> found;
    for (const fs::directory_entry& entry : fs::recursive_directory_iterator(arg)) {
      // Hidden files (.gitkeep) are not inputs.
      if (entry.is_regular_file() && !entry.path().filename().string().starts_with(".")) found.push_back(entry.path());
    }
    std::sort(found.begin(), found.end());
    inputs.insert(inputs.end(), found.begin(), found.end());
    return true;
  }
  if (!fs::is_regular_file(arg, error)) {
    std::fprintf(stderr, "translate_fuzzer_replay: %s is neither a file nor a directory\n", arg.c_str());
    return false;
  }
  inputs.emplace_back(arg);
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  for (int i = 1; i < argc; ++i) {
    if (!collectInputs(argv[i], inputs)) return 2;
  }
  if (inputs.empty()) {
    std::fprintf(stderr, "usage: translate_fuzzer_replay [--list=FILE]... [FILE | DIRECTORY]...\n");
    return 2;
  }
  for (const fs::path& path : inputs) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "translate_fuzzer_replay: cannot read %s\n", path.c_str());
      return 2;
    }
    std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    std::fprintf(stderr, "replaying %s (%zu bytes)\n", path.c_str(), bytes.size());
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  }
  std::fprintf(stderr, "translate_fuzzer_replay: %zu inputs, none failed\n", inputs.size());
  return 0;
}
