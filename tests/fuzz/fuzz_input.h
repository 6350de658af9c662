// How the translator's fuzz target reads its input. The whole 32-bit words are the SPIR-V module;
// the zero to three bytes after them choose the Target it is translated for. A corpus module (a
// whole number of words) is translated for the default target, and a mutation that appends or
// changes trailing bytes explores the others without disturbing the module.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "cl2vk/target.h"

namespace cl2vk::fuzz {

struct FuzzInput {
  std::vector<uint32_t> words;  // in the host's byte order, as a file read from disk would be
  Target target;
};

FuzzInput decodeFuzzInput(std::span<const uint8_t> bytes);

}  // namespace cl2vk::fuzz
