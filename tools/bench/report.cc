#include "report.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <sstream>

#include <tuple>
#include "support/json.h"

namespace cl2vk::bench {
namespace {

std::string quoted(const std::string& text) { return jsonQuoted(text); }

std::string number(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// A reader for the flat objects of the schema: string, number and boolean members only.
class FlatObjectReader {
 public:
  explicit FlatObjectReader(const std::string& text) : text_(text) {}

  Expected<std::map<std::string, std::string>> read() {
    std::map<std::string, std::string> members;
    skipSpace();
    if (!consume('{')) return fail("expected '{'");
    skipSpace();
    if (consume('}')) return members;
    while (true) {
      skipSpace();
      auto key = readString();
      if (!key) return key.error();
      skipSpace();
      if (!consume(':')) return fail("expected ':'");
      skipSpace();
      std::string value;
      if (peek() == '"') {
        auto text = readString();
        if (!text) return text.error();
        value = *text;
      } else {
        while (pos_ < text_.size() && text_[pos_] != ',' && text_[pos_] != '}' &&
               !std::isspace(static_cast<unsigned char>(text_[pos_]))) {
          value += text_[pos_++];
        }
      }
      members[*key] = value;
      skipSpace();
      if (consume('}')) return members;
      if (!consume(',')) return fail("expected ',' or '}'");
    }
  }

 private:
  char peek() const { return pos_ < text_.size() ? text_[pos_] : '\0'; }
  bool consume(char c) {
    if (peek() != c) return false;
    ++pos_;
    return true;
  }
  void skipSpace() {
    while (pos_ < text_.size() && std::isspace(static_cast<unsigned char>(text_[pos_]))) ++pos_;
  }
  Error fail(const std::string& what) const { return Error(what + " at column " + std::to_string(pos_ + 1)); }
  Expected<std::string> readString() {
    if (!consume('"')) return fail("expected a string");
    std::string out;
    while (pos_ < text_.size() && text_[pos_] != '"') {
      char c = text_[pos_++];
      if (c == '\\' && pos_ < text_.size()) {
        char escaped = text_[pos_++];
        if (escaped == 'n')
          out += '\n';
        else if (escaped == 't')
          out += '\t';
        else if (escaped == 'u')
          pos_ += 4;  // Names in the schema are ASCII.
        else
          out += escaped;
        continue;
      }
      out += c;
    }
    if (!consume('"')) return fail("unterminated string");
    return out;
  }

  const std::string& text_;
  size_t pos_ = 0;
};

Expected<Measurement> fromMembers(const std::map<std::string, std::string>& members) {
  for (const char* required :
       {"device", "implementation", "benchmark", "type", "work_group", "n", "bytes", "median_ns", "gbps", "verified"}) {
    if (!members.count(required)) return Error(std::string("no \"") + required + "\" member");
  }
  Measurement m;
  m.device = members.at("device");
  m.implementation = members.at("implementation");
  m.benchmark = members.at("benchmark");
  m.type = members.at("type");
  try {
    m.workGroup = static_cast<uint32_t>(std::stoul(members.at("work_group")));
    m.n = std::stoull(members.at("n"));
    m.bytes = std::stoull(members.at("bytes"));
    m.medianNs = std::stod(members.at("median_ns"));
    m.gbps = std::stod(members.at("gbps"));
  } catch (const std::exception&) {
    return Error("a numeric member is not a number");
  }
  m.verified = members.at("verified") == "true";
  return m;
}

bool isTableRow(const Measurement& m) {
  return m.benchmark != kLaunchOverheadBenchmark && m.benchmark != kCorpusBenchmark;
}

using RowKey = std::tuple<std::string, std::string, uint32_t>;  // benchmark, type, work-group size

// One column pair: an implementation's GB/s and cl2vk's ratio to it.
struct Comparison {
  std::string implementation;
  std::string heading;
};

std::string deviceTable(const std::string& device, const std::vector<const Measurement*>& rows) {
  std::vector<RowKey> order;
  std::map<RowKey, std::map<std::string, const Measurement*>> cells;
  std::set<std::string> implementations;
  for (const Measurement* m : rows) {
    RowKey key{m->benchmark, m->type, m->workGroup};
    if (!cells.count(key)) order.push_back(key);
    cells[key][m->implementation] = m;
    implementations.insert(m->implementation);
  }
  // The device's copy bandwidth: the best verified 16-byte copy, GLSL's if there is one.
  double copyCeiling = 0;
  for (const char* implementation : {"glsl", "cl2vk"}) {
    for (const Measurement* m : rows) {
      if (m->implementation == implementation && m->benchmark == "copy" && m->type == "uint4" && m->verified) {
        copyCeiling = std::max(copyCeiling, m->gbps);
      }
    }
    if (copyCeiling > 0) break;
  }

  std::vector<Comparison> comparisons;
  for (const Comparison& c :
       {Comparison{"glsl", "GLSL"}, Comparison{"native-opencl", "native OpenCL"},
        Comparison{"local-tree", "local-tree"}, Comparison{"local-tree-words", "local-tree (reinterpreted)"},
        Comparison{"cl2vk-native", "cl2vk native_"}, Comparison{"cub", "CUB"}}) {
    if (implementations.count(c.implementation)) comparisons.push_back(c);
  }

  auto gbps = [](const Measurement* m) -> std::string {
    if (!m) return "—";
    if (!m->verified) return "WRONG";
    return number(m->gbps, m->gbps < 10 ? 2 : 1);
  };
  std::ostringstream out;
  out << "### " << device << "\n\n| benchmark | type | wg | cl2vk GB/s | of copy |";
  for (const Comparison& c : comparisons) out << " " << c.heading << " GB/s | cl2vk/" << c.heading << " |";
  out << "\n|---|---|--:|--:|--:|";
  for (size_t i = 0; i < comparisons.size(); ++i) out << "--:|--:|";
  out << "\n";
  for (const RowKey& key : order) {
    const auto& cell = cells[key];
    auto find = [&](const std::string& implementation) -> const Measurement* {
      auto found = cell.find(implementation);
      return found == cell.end() ? nullptr : found->second;
    };
    const Measurement* cl2vk = find("cl2vk");
    bool cl2vkOk = cl2vk && cl2vk->verified && cl2vk->gbps > 0;
    out << "| " << std::get<0>(key) << " | " << std::get<1>(key) << " | " << std::get<2>(key) << " | " << gbps(cl2vk)
        << " | " << (cl2vkOk && copyCeiling > 0 ? number(cl2vk->gbps / copyCeiling, 2) : "—") << " |";
    for (const Comparison& c : comparisons) {
      const Measurement* other = find(c.implementation);
      bool otherOk = other && other->verified && other->gbps > 0;
      out << " " << gbps(other) << " | " << (cl2vkOk && otherOk ? number(cl2vk->gbps / other->gbps, 2) : "—") << " |";
    }
    out << "\n";
  }
  if (copyCeiling > 0)
    out << "\n\"of copy\": cl2vk's GB/s over the best 16-byte copy, " << number(copyCeiling, 1) << " GB/s.\n";
  return out.str();
}

}  // namespace

std::string toJson(const Measurement& m) {
  return "{\"device\":" + quoted(m.device) + ",\"implementation\":" + quoted(m.implementation) +
         ",\"benchmark\":" + quoted(m.benchmark) + ",\"type\":" + quoted(m.type) +
         ",\"work_group\":" + std::to_string(m.workGroup) + ",\"n\":" + std::to_string(m.n) +
         ",\"bytes\":" + std::to_string(m.bytes) + ",\"median_ns\":" + number(m.medianNs, 1) +
         ",\"gbps\":" + number(m.gbps, 3) + ",\"verified\":" + (m.verified ? "true" : "false") + "}";
}

Status writeJson(const std::string& path, const std::vector<Measurement>& measurements) {
  std::ofstream file(path);
  if (!file) return Error("cannot write " + path);
  file << "[\n";
  for (size_t i = 0; i < measurements.size(); ++i) {
    file << toJson(measurements[i]) << (i + 1 < measurements.size() ? ",\n" : "\n");
  }
  file << "]\n";
  if (!file) return Error("cannot write " + path);
  return okStatus();
}

Expected<std::vector<Measurement>> readJsonLines(const std::string& path) {
  std::ifstream file(path);
  if (!file) return Error("cannot read " + path);
  std::vector<Measurement> measurements;
  std::string line;
  for (int lineNumber = 1; std::getline(file, line); ++lineNumber) {
    // The array brackets and separators of writeJson's format.
    while (!line.empty() && (std::isspace(static_cast<unsigned char>(line.back())) || line.back() == ','))
      line.pop_back();
    size_t start = line.find_first_not_of(" \t[");
    if (start == std::string::npos || line[start] == ']') continue;
    line = line.substr(start);
    auto members = FlatObjectReader(line).read();
    if (!members) return members.error().withContext(path + ":" + std::to_string(lineNumber));
    auto measurement = fromMembers(*members);
    if (!measurement) return measurement.error().withContext(path + ":" + std::to_string(lineNumber));
    measurements.push_back(std::move(*measurement));
  }
  return measurements;
}

std::string markdownTables(const std::vector<Measurement>& measurements) {
  std::vector<std::string> devices;
  std::map<std::string, std::vector<const Measurement*>> byDevice;
  for (const Measurement& m : measurements) {
    if (!isTableRow(m)) continue;
    if (!byDevice.count(m.device)) devices.push_back(m.device);
    byDevice[m.device].push_back(&m);
  }
  std::string out;
  for (const std::string& device : devices) out += deviceTable(device, byDevice[device]) + "\n";
  return out;
}

}  // namespace cl2vk::bench
