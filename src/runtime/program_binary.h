// cl2vk's program binaries (CL_PROGRAM_BINARIES, clCreateProgramWithBinary) are the program's
// SPIR-V. A compiled object (clCompileProgram) or a library (clLinkProgram -create-library) says
// so in an OpSourceExtension "cl2vk.binary_type=compiled_object" or "=library", which keeps the
// binary a valid module for any other SPIR-V tool; a program made from it reports that type and
// links like the original. A binary without the mark is an executable (or any SPIR-V module an
// application passes as a binary).
#pragma once

#include <CL/cl.h>

#include <cstdint>
#include <vector>

namespace cl2vk::runtime {

// `il` with the mark of `type` (COMPILED_OBJECT, LIBRARY); `il` itself for any other type.
std::vector<uint32_t> markedBinary(const std::vector<uint32_t>& il, cl_program_binary_type type);

struct ReadBinary {
  std::vector<uint32_t> il;  // without the mark
  cl_program_binary_type type = CL_PROGRAM_BINARY_TYPE_EXECUTABLE;
};
// The IL and type of a binary `words` (a SPIR-V module).
ReadBinary readBinary(std::vector<uint32_t> words);

}  // namespace cl2vk::runtime
