// Writing JSON: a string as a quoted JSON string literal.
#pragma once

#include <cstdio>
#include <string>

namespace cl2vk {

// `text` in double quotes, with quotes, backslashes and control characters escaped.
inline std::string jsonQuoted(const std::string& text) {
  std::string out = "\"";
  for (char c : text) {
    if (c == '"' || c == '\\') out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      char escaped[8];
      std::snprintf(escaped, sizeof escaped, "\\u%04x", c);
      out += escaped;
      continue;
    }
    out += c;
  }
  return out + "\"";
}

}  // namespace cl2vk
