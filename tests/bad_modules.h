// A small valid kernel as SPIR-V assembly, and helpers to make bad modules from it: shared by the
// translator's bad-input tests and the OpenCL API's.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cl2vk::test {

// One kernel, "store_one", that stores 1 at out[get_global_id(0)], as llvm-spirv writes it.
extern const char* const kStoreOneKernel;

// The module `text` assembles to, as words; the test fails (and the result is empty) when it
// does not assemble.
std::vector<uint32_t> assembleWords(const std::string& text);

// `text` with the first `from` replaced by `to`; the test fails when `from` is not there.
std::string replaced(std::string text, const std::string& from, const std::string& to);

}  // namespace cl2vk::test
