// Runs the translator's fuzz target once on each input named on the command line, as libFuzzer
// does when it is given files instead of a corpus to grow. Every build uses it to replay
// tests/fuzz/regressions/ and the seed corpus, so an input that once found a bug runs in every CI
// build, with or without libFuzzer.
//
//   translate_fuzzer_replay [--list=FILE]... [--mutants=N --seed=S --artifact=FILE]
//                           [FILE | DIRECTORY]...
//
// A directory contributes every regular file under it; --list=FILE every path FILE lists, one a
// line (the corpus's corpus.txt). A failure aborts, naming the input first.
//
// --mutants=N also runs N mutants of each input, made by the structure-aware mutator
// (spirv_mutator.h) from a generator seeded with S and the input's position: one to three
// mutations each, the target selector bytes included. Unlike a libFuzzer run, whose path follows
// the coverage it meets, the inputs depend on the seed and the inputs alone, so CI and a developer
// try the same ones (tools/fuzz/run-fuzz.sh --ci). Each mutant is written to the artifact file
// before it runs, so that a failing one is left there.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

#include "spirv_mutator.h"

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

struct MutationOptions {
  unsigned mutants = 0;
  unsigned seed = 1;
  std::string artifact = "translate_fuzzer_mutant.bin";
};

bool writeFile(const std::string& path, const std::vector<uint8_t>& bytes) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return static_cast<bool>(file.flush());
}

// The mutants of input number `index`; false when the artifact cannot be written.
bool runMutants(const std::vector<uint8_t>& input, size_t index, const MutationOptions& options) {
  constexpr size_t kMaxSize = 1 << 16;  // as the libFuzzer runs' -max_len
  std::minstd_rand rng(options.seed * 1000003u + static_cast<unsigned>(index));
  for (unsigned m = 0; m < options.mutants; ++m) {
    std::vector<uint8_t> mutant = input;
    unsigned steps = 1 + static_cast<unsigned>(rng() % 3);
    for (unsigned step = 0; step < steps; ++step) {
      if (auto next = cl2vk::fuzz::mutateSpirv(mutant, kMaxSize, rng)) mutant = std::move(*next);
    }
    if (!writeFile(options.artifact, mutant)) {
      std::fprintf(stderr, "translate_fuzzer_replay: cannot write %s\n", options.artifact.c_str());
      return false;
    }
    LLVMFuzzerTestOneInput(mutant.data(), mutant.size());
  }
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  std::vector<fs::path> inputs;
  MutationOptions mutation;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.starts_with("--mutants=")) {
      mutation.mutants = static_cast<unsigned>(std::strtoul(arg.c_str() + 10, nullptr, 10));
    } else if (arg.starts_with("--seed=")) {
      mutation.seed = static_cast<unsigned>(std::strtoul(arg.c_str() + 7, nullptr, 10));
    } else if (arg.starts_with("--artifact=")) {
      mutation.artifact = arg.substr(11);
    } else if (!collectInputs(arg, inputs)) {
      return 2;
    }
  }
  if (inputs.empty()) {
    std::fprintf(stderr,
                 "usage: translate_fuzzer_replay [--list=FILE]... [--mutants=N --seed=S --artifact=FILE] "
                 "[FILE | DIRECTORY]...\n");
    return 2;
  }
  for (const fs::path& path : inputs) {
    std::ifstream file(path, std::ios::binary);
    if (!file) {
      std::fprintf(stderr, "translate_fuzzer_replay: cannot read %s\n", path.c_str());
      return 2;
    }
    std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
    std::fprintf(stderr, "replaying %s (%zu bytes)%s\n", path.c_str(), bytes.size(),
                 mutation.mutants ? " and its mutants" : "");
    LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
    if (!runMutants(bytes, static_cast<size_t>(&path - inputs.data()), mutation)) return 2;
  }
  std::fprintf(stderr, "translate_fuzzer_replay: %zu inputs and %zu mutants, none failed\n", inputs.size(),
               inputs.size() * mutation.mutants);
  return 0;
}
