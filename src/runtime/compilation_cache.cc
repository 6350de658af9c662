#include "runtime/compilation_cache.h"

#include <dlfcn.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <system_error>
#include <tuple>

#include "runtime/compilation_files.h"
#include "support/settings.h"

namespace cl2vk::runtime {
namespace {

constexpr std::string_view kMagic = "CL2VKCC1";

uint64_t fnv1a(std::string_view bytes) {
  uint64_t hash = 0xcbf29ce484222325ull;
  for (unsigned char c : bytes) hash = (hash ^ c) * 0x100000001b3ull;
  return hash;
}

// An entry's fields, written one after the other: integers in the host's byte order (the cache
// belongs to one machine), strings and word arrays after their length.
class EntryWriter {
 public:
  void integer(uint64_t value) { bytes_.append(reinterpret_cast<const char*>(&value), sizeof value); }
  void text(std::string_view value) {
    integer(value.size());
    bytes_.append(value);
  }
  void words(const std::vector<uint32_t>& value) {
    integer(value.size());
    bytes_.append(reinterpret_cast<const char*>(value.data()), value.size() * sizeof(uint32_t));
  }
  std::string take() { return std::move(bytes_); }

 private:
  std::string bytes_{kMagic};
};

// Reads what EntryWriter wrote; any field that runs past the end makes the entry unreadable.
class EntryReader {
 public:
  explicit EntryReader(std::string_view bytes) : bytes_(bytes) {
    ok_ = bytes_.starts_with(kMagic);
    at_ = kMagic.size();
  }
  // Whether every field so far was whole, and whether the entry was read to its end.
  bool good() const { return ok_; }
  bool complete() const { return ok_ && at_ == bytes_.size(); }
  uint64_t integer() {
    uint64_t value = 0;
    if (!take(sizeof value)) return 0;
    std::memcpy(&value, bytes_.data() + at_ - sizeof value, sizeof value);
    return value;
  }
  std::string text() {
    uint64_t size = integer();
    if (!take(size)) return {};
    return std::string(bytes_.substr(at_ - size, size));
  }
  std::vector<uint32_t> words() {
    uint64_t count = integer();
    if (count > bytes_.size() / sizeof(uint32_t) || !take(count * sizeof(uint32_t))) return {};
    std::vector<uint32_t> value(count);
    std::memcpy(value.data(), bytes_.data() + at_ - count * sizeof(uint32_t), count * sizeof(uint32_t));
    return value;
  }

 private:
  bool take(uint64_t size) {
    if (!ok_ || size > bytes_.size() - at_) return ok_ = false;
    at_ += size;
    return true;
  }

  std::string_view bytes_;
  size_t at_ = 0;
  bool ok_ = false;
};

}  // namespace

void trimCache(const fs::path& directory, uint64_t limit) {
  std::error_code error;
  std::vector<std::tuple<fs::file_time_type, uint64_t, fs::path>> entries;
  uint64_t total = 0;
  for (fs::recursive_directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    if (!it->is_regular_file(error)) continue;
    uint64_t size = it->file_size(error);
    fs::file_time_type time = it->last_write_time(error);
    if (error) {
      error.clear();
      continue;
    }
    entries.emplace_back(time, size, it->path());
    total += size;
  }
  if (total <= limit) return;
  std::sort(entries.begin(), entries.end());
  for (const auto& [time, size, path] : entries) {
    if (total <= limit / 4 * 3) break;
    if (fs::remove(path, error)) total -= size;
  }
}

fs::path libraryPath() {
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&libraryPath), &info) == 0 || info.dli_fname == nullptr) return {};
  std::error_code error;
  fs::path path = fs::canonical(info.dli_fname, error);
  return error ? fs::path(info.dli_fname) : path;
}

std::string fileIdentity(const fs::path& path) {
  std::error_code error;
  uint64_t size = fs::file_size(path, error);
  if (error) return "";
  auto time = fs::last_write_time(path, error);
  if (error) return "";
  return path.string() + '\0' + std::to_string(size) + '\0' + std::to_string(time.time_since_epoch().count());
}

std::vector<fs::path> dependenciesFrom(const std::string& makeRule, const fs::path& base, const fs::path& excluded) {
  // "target: a b \<newline> c", with spaces in names escaped by a backslash.
  std::vector<std::string> words;
  std::string word;
  bool afterColon = false;
  for (size_t i = 0; i < makeRule.size(); ++i) {
    char c = makeRule[i];
    if (c == '\\' && i + 1 < makeRule.size()) {
      char next = makeRule[++i];
      if (next == '\n') continue;
      if (next != ' ' && next != '#') word += '\\';
      word += next;
    } else if (c == ' ' || c == '\n' || c == '\t') {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else if (c == ':' && !afterColon &&
               (i + 1 == makeRule.size() || makeRule[i + 1] == ' ' || makeRule[i + 1] == '\n')) {
      afterColon = true;
      word.clear();
    } else {
      word += c;
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  // The excluded directory as written and as the file system resolves it (a TMPDIR through a
  // symbolic link), whichever form clang wrote.
  std::error_code error;
  const fs::path excludedForms[] = {excluded.lexically_normal(), fs::weakly_canonical(excluded, error)};
  auto isInside = [&](const fs::path& path) {
    for (const fs::path& inside : excludedForms) {
      if (inside.empty()) continue;
      auto [end, unused] = std::mismatch(inside.begin(), inside.end(), path.begin(), path.end());
      if (end == inside.end()) return true;
    }
    return false;
  };
  std::vector<fs::path> dependencies;
  for (const std::string& name : words) {
    fs::path path = (base / name).lexically_normal();
    if (!isInside(path)) dependencies.push_back(path);
  }
  std::sort(dependencies.begin(), dependencies.end());
  dependencies.erase(std::unique(dependencies.begin(), dependencies.end()), dependencies.end());
  return dependencies;
}

std::optional<CompilationCache> CompilationCache::open() {
  std::optional<std::string> setting = settings::read(settings::Setting::kCache);
  if (setting == "off") return std::nullopt;
  if (setting) return CompilationCache(fs::path(*setting));
  if (const char* xdg = std::getenv("XDG_CACHE_HOME"); xdg && *xdg == '/') {
    return CompilationCache(fs::path(xdg) / "cl2vk");
  }
  if (const char* home = std::getenv("HOME"); home && *home == '/') {
    return CompilationCache(fs::path(home) / ".cache" / "cl2vk");
  }
  return std::nullopt;
}

fs::path CompilationCache::entryPath(const std::string& key) const {
  char name[17];
  std::snprintf(name, sizeof name, "%016llx", static_cast<unsigned long long>(fnv1a(key)));
  return directory_ / std::string(name, 2) / name;
}

std::optional<CachedCompilation> CompilationCache::find(const std::string& key) const {
  fs::path path = entryPath(key);
  Expected<std::string> bytes = readWholeFile(path);
  if (!bytes) return std::nullopt;
  EntryReader reader(*bytes);
  if (reader.text() != key) return std::nullopt;  // another key with the same hash, or damaged
  uint64_t dependencies = reader.integer();
  for (uint64_t i = 0; i < dependencies && reader.good(); ++i) {
    std::string path = reader.text();
    if (fileIdentity(path) != reader.text()) return std::nullopt;
  }
  CachedCompilation compilation;
  compilation.log = reader.text();
  compilation.spirv = reader.words();
  if (!reader.complete() || compilation.spirv.empty()) return std::nullopt;
  std::error_code error;
  fs::last_write_time(path, fs::file_time_type::clock::now(), error);  // used: the last to go
  return compilation;
}

void CompilationCache::store(const std::string& key, const std::vector<fs::path>& dependencies,
                             const CachedCompilation& compilation) const {
  EntryWriter writer;
  writer.text(key);
  writer.integer(dependencies.size());
  for (const fs::path& dependency : dependencies) {
    std::string identity = fileIdentity(dependency);
    if (identity.empty()) return;  // a file that cannot be checked: the entry could not be trusted
    writer.text(dependency.string());
    writer.text(identity);
  }
  writer.text(compilation.log);
  writer.words(compilation.spirv);

  static std::once_flag trimmed;
  std::call_once(trimmed, [this] { trimCache(directory_, kCacheBytes); });
  fs::path path = entryPath(key);
  std::error_code error;
  fs::create_directories(path.parent_path(), error);
  if (error) return;
  static std::atomic<uint64_t> serial{0};
  fs::path temporary = path;
  temporary += ".tmp." + std::to_string(getpid()) + "." + std::to_string(serial++);
  if (!writeWholeFile(temporary, writer.take())) {
    fs::remove(temporary, error);
    return;
  }
  fs::rename(temporary, path, error);
  if (error) fs::remove(temporary, error);
}

}  // namespace cl2vk::runtime
