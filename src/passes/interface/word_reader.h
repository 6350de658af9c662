// Reads typed values out of an array of 32-bit words: the push constants and the argument buffer
// are both such arrays, so kernel arguments and dispatch information of any type (8- to 64-bit
// scalars, vectors, structs) are rebuilt from words with shifts and bitcasts. That needs no
// 8- or 16-bit push-constant storage and no struct layout rules from the device.
#pragma once

#include <cstdint>

#include "cl2vk/expected.h"
#include "ir/builder.h"
#include "ir/module.h"

namespace cl2vk {

class WordReader {
 public:
  // `words` is a pointer (variable or value) to an array of 32-bit words in `storage`.
  WordReader(ir::Module& module, uint32_t words, spv::StorageClass storage)
      : module_(&module), words_(words), storage_(storage) {}

  // The word at `index`.
  uint32_t word(ir::Builder& builder, uint32_t index) const;
  // A value of `type` laid out (OpenCL C rules, see data_layout.h) at `byteOffset`.
  Expected<uint32_t> value(ir::Builder& builder, uint32_t type, uint32_t byteOffset) const;

 private:
  Expected<uint32_t> scalar(ir::Builder& builder, uint32_t type, uint32_t byteOffset) const;

  ir::Module* module_;
  uint32_t words_;
  spv::StorageClass storage_;
};

}  // namespace cl2vk
