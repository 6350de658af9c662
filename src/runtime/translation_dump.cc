#include "runtime/translation_dump.h"

#include <cstdio>
#include <filesystem>
#include <fstream>

#include "support/settings.h"

namespace cl2vk::runtime {
namespace {

namespace fs = std::filesystem;

// A word for the shell: quoted unless it is made of characters the shell leaves alone.
std::string shellWord(const std::string& text) {
  if (!text.empty() &&
      text.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_=./,+:") ==
          std::string::npos)
    return text;
  std::string quoted = "'";
  for (char c : text) quoted += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return quoted + "'";
}

// FNV-1a over the input's words and the flags: the same translation gets the same name.
std::string nameOf(std::span<const uint32_t> input, const std::string& flags) {
  uint64_t hash = 0xcbf29ce484222325ull;
  auto mix = [&hash](const void* data, size_t size) {
    for (size_t i = 0; i < size; ++i) {
      hash ^= static_cast<const unsigned char*>(data)[i];
      hash *= 0x100000001b3ull;
    }
  };
  mix(input.data(), input.size_bytes());
  mix(flags.data(), flags.size());
  char name[32];
  std::snprintf(name, sizeof name, "cl2vk-%016llx", static_cast<unsigned long long>(hash));
  return name;
}

bool writeFile(const fs::path& path, const void* data, size_t size) {
  std::ofstream file(path, std::ios::binary | std::ios::trunc);
  file.write(static_cast<const char*>(data), static_cast<std::streamsize>(size));
  return static_cast<bool>(file.flush());
}

}  // namespace

void dumpTranslation(std::span<const uint32_t> input, const Target& target, const Expected<Translation>& result,
                     const std::string& deviceName) {
  const std::optional<std::string> directory = settings::read(settings::Setting::kDump);
  if (!directory) return;
  std::string flags;
  for (const std::string& flag : targetFlags(target)) flags += flag + " ";
  const fs::path base = fs::absolute(fs::path(*directory)) / nameOf(input, flags);
  const fs::path in = base.string() + ".cl.spv", out = base.string() + ".vk.spv", cmd = base.string() + ".cmd";
  const std::string command = "cl2vk-opt " + flags + shellWord(in.string()) + " -o " + shellWord(out.string());
  std::error_code error;
  fs::create_directories(base.parent_path(), error);
  bool written =
      writeFile(in, input.data(), input.size_bytes()) && writeFile(cmd, (command + "\n").data(), command.size() + 1);
  if (result) {
    written = written && writeFile(out, result->spirv.data(), result->spirv.size() * sizeof(uint32_t));
  } else {
    fs::remove(out, error);
  }
  if (!written) {
    std::fprintf(stderr, "cl2vk: CL2VK_DUMP: cannot write %s.*\n", base.c_str());
    return;
  }
  std::fprintf(stderr, "cl2vk: %s for %s: %s\n", result ? "translated" : "could not translate", deviceName.c_str(),
               command.c_str());
}

}  // namespace cl2vk::runtime
