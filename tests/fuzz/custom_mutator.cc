// libFuzzer's hook for the structure-aware mutator (spirv_mutator.h), in the CL2VK_FUZZ build only.

#include <cstdint>
#include <cstring>
#include <random>

#include "spirv_mutator.h"

extern "C" size_t LLVMFuzzerMutate(uint8_t* data, size_t size, size_t maxSize);

extern "C" size_t LLVMFuzzerCustomMutator(uint8_t* data, size_t size, size_t maxSize, unsigned int seed) {
  std::minstd_rand rng(seed);
  // One mutation in four is libFuzzer's own, on bytes: truncations, broken word counts and bad
  // headers are what the reader must survive, and the SPIR-V mutator never makes them.
  if (rng() % 4 != 0) {
    if (auto mutant = cl2vk::fuzz::mutateSpirv({data, size}, maxSize, rng)) {
      std::memcpy(data, mutant->data(), mutant->size());
      return mutant->size();
    }
  }
  return LLVMFuzzerMutate(data, size, maxSize);
}
