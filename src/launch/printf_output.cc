#include "launch/printf_output.h"

#include <bit>
#include <cmath>
#include <cstdio>
#include <cstring>

namespace cl2vk::launch {
namespace {

// One conversion specification: %[flags][width][.precision][vector][length]conversion.
struct Conversion {
  std::string flags, width, precision;  // precision with its '.'
  uint32_t vectorSize = 0;              // 0 for a scalar conversion
  std::string length;                   // "", "hh", "h", "hl" or "l"
  char conversion = 0;
};

bool isDigit(char c) { return c >= '0' && c <= '9'; }

// Parses the conversion that starts after the '%' at `text[i]`, moving `i` past it; false when it
// is not one OpenCL C allows.
bool parseConversion(const std::string& text, size_t& i, Conversion& c) {
  auto take = [&](auto accept, std::string& into) {
    while (i < text.size() && accept(text[i])) into += text[i++];
  };
  take([](char ch) { return std::strchr("-+ #0", ch) != nullptr && ch != '\0'; }, c.flags);
  take(isDigit, c.width);
  if (i < text.size() && text[i] == '.') {
    c.precision = ".";
    ++i;
    take(isDigit, c.precision);
  }
  if (i < text.size() && text[i] == 'v') {
    std::string size;
    ++i;
    take(isDigit, size);
    if (size != "2" && size != "3" && size != "4" && size != "8" && size != "16") return false;
    c.vectorSize = static_cast<uint32_t>(std::stoul(size));
  }
  for (const char* length : {"hh", "hl", "h", "l"}) {
    if (text.compare(i, std::strlen(length), length) == 0) {
      c.length = length;
      i += c.length.size();
      break;
    }
  }
  if (i >= text.size() || std::strchr("diouxXfFeEgGaAcsp", text[i]) == nullptr || text[i] == '\0') return false;
  c.conversion = text[i++];
  return true;
}

// snprintf with a format built at run time from the kernel's conversion.
template <typename T>
std::string printed(const std::string& spec, T value) {
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
  int size = std::snprintf(nullptr, 0, spec.c_str(), value);
  if (size <= 0) return "";
  std::string text(static_cast<size_t>(size) + 1, '\0');
  std::snprintf(text.data(), text.size(), spec.c_str(), value);
#pragma GCC diagnostic pop
  text.resize(static_cast<size_t>(size));
  return text;
}

// One component of `argument`, whose bits are `raw`, as `c` asks.
std::string formatComponent(const Conversion& c, const PrintfArgument& argument, uint64_t raw) {
  std::string spec = "%" + c.flags + c.width + c.precision;
  bool wide = argument.bits == 64;
  double real = wide ? std::bit_cast<double>(raw) : std::bit_cast<float>(static_cast<uint32_t>(raw));
  if (argument.kind != PrintfArgument::Kind::kFloat)
    real = wide ? static_cast<double>(static_cast<int64_t>(raw)) : static_cast<int32_t>(raw);
  // The integer as the length modifier sizes it (no modifier: int, or long for a 64-bit value).
  int64_t integer = wide ? static_cast<int64_t>(raw) : static_cast<int32_t>(raw);
  // A float given to an integer conversion (undefined in OpenCL C) prints its truncation, or 0
  // where that has no int64_t value.
  if (argument.kind == PrintfArgument::Kind::kFloat)
    integer = std::isfinite(real) && std::fabs(real) < 9.2e18 ? static_cast<int64_t>(real) : 0;
  bool isSigned = c.conversion == 'd' || c.conversion == 'i';
  // Each branch widens on its own: a conditional of int32_t and uint32_t would be unsigned.
  auto sized = [&](auto asSigned, auto asUnsigned) -> int64_t {
    if (isSigned) return static_cast<decltype(asSigned)>(integer);
    return static_cast<decltype(asUnsigned)>(integer);
  };
  if (c.length == "hh")
    integer = sized(int8_t{}, uint8_t{});
  else if (c.length == "h")
    integer = sized(int16_t{}, uint16_t{});
  else if (c.length == "hl" || (c.length.empty() && !wide))
    integer = sized(int32_t{}, uint32_t{});
  switch (c.conversion) {
    case 'd':
    case 'i': return printed(spec + "lld", static_cast<long long>(integer));
    case 'o':
    case 'u':
    case 'x':
    case 'X': return printed(spec + "ll" + c.conversion, static_cast<unsigned long long>(integer));
    case 'c': return printed(spec + "c", static_cast<int>(static_cast<unsigned char>(integer)));
    case 'p': return printed(spec + "p", reinterpret_cast<void*>(static_cast<uintptr_t>(raw)));
    case 's': return "(not a string)";  // lower-printf lets only constant strings reach %s
    default: return printed(spec + c.conversion, real);
  }
}

}  // namespace

std::string formatPrintf(const PrintfFormat& format, std::span<const uint32_t> words) {
  const std::string& text = format.format;
  std::string out;
  size_t nextArgument = 0, nextWord = 0;
  for (size_t i = 0; i < text.size();) {
    if (text[i] != '%') {
      out += text[i++];
      continue;
    }
    size_t start = i++;
    if (i < text.size() && text[i] == '%') {
      out += '%';
      ++i;
      continue;
    }
    Conversion c;
    if (!parseConversion(text, i, c) || nextArgument >= format.arguments.size()) {
      out += text.substr(start, i - start);  // not a conversion, or no argument left: as written
      continue;
    }
    const PrintfArgument& argument = format.arguments[nextArgument++];
    if (argument.kind == PrintfArgument::Kind::kString) {
      out += c.conversion == 's' ? printed("%" + c.flags + c.width + c.precision + "s", argument.text.c_str())
                                 : text.substr(start, i - start);
      continue;
    }
    uint32_t componentWords = argument.bits == 64 ? 2 : 1;
    for (uint32_t component = 0; component < argument.components; ++component) {
      if (nextWord + componentWords > words.size()) break;
      uint64_t raw = words[nextWord];
      if (componentWords == 2) raw |= uint64_t{words[nextWord + 1]} << 32;
      nextWord += componentWords;
      if (component > 0) out += ',';
      out += formatComponent(c, argument, raw);
    }
  }
  return out;
}

std::string formatPrintfRecords(const std::vector<PrintfFormat>& formats, std::span<const uint32_t> records) {
  std::string out;
  for (size_t i = 0; i < records.size();) {
    if (records[i] >= formats.size()) break;
    const PrintfFormat& format = formats[records[i]];
    size_t words = 0;
    for (const PrintfArgument& argument : format.arguments) words += argument.words();
    if (i + 1 + words > records.size()) break;
    out += formatPrintf(format, records.subspan(i + 1, words));
    i += 1 + words;
  }
  return out;
}

}  // namespace cl2vk::launch
