// Structure-aware mutations of SPIR-V modules for the translator's fuzz target. libFuzzer's byte
// mutations seldom get a corpus module past the reader and the input validation; these change a
// module one instruction at a time (an id operand to another id of the same type, a literal to a
// boundary value, an opcode to another of the same shape; instructions deleted, duplicated under a
// fresh id, moved, or their operands swapped) and keep the header and every word count consistent,
// so that many mutants still validate and reach the passes.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <span>
#include <vector>

namespace cl2vk::fuzz {

// One mutation of a fuzz input (fuzz_input.h: a module, then target selector bytes, which may be
// changed instead). Returns nothing when `input` holds no SPIR-V module whose instructions can be
// told apart, or when the mutant would be longer than `maxSize`; the caller then mutates bytes.
std::optional<std::vector<uint8_t>> mutateSpirv(std::span<const uint8_t> input, size_t maxSize, std::minstd_rand& rng);

}  // namespace cl2vk::fuzz
